-- The layering of the compiler (issue 17, docs/internals.md "Layers"): the
-- files that use each other's symbols, read from nm of the built objects
-- by tools/layers.lua. A circle of files that all depend on one another
-- has at most 6 files; no stage reaches the pipeline, the cache or the
-- dispatcher by symbol (they go through Compile.hooks).
package.path = "tools/?.lua;" .. package.path
local layers = require "layers"

local objdir = (os.getenv("LUMBA_CPATH") or "build") .. "/obj"
local have_nm = os.execute("command -v nm >/dev/null 2>&1")
local probe = io.open(objdir .. "/pipeline.o", "rb")
if probe then probe:close() end
local check = (have_nm and probe) and it or pending

local function is_stage(f)
  return f:match("^infer") or f:match("^lower") or f:match("^target_") or f:match("^builtin_")
    or f == "parfor" or f == "resolve"
end

describe("layering of the compiler", function()
  check("no circle of files using each other's symbols has more than 6 files", function()
    local comps = layers.components((layers.graph(objdir)))
    assert.is_true(#comps > 0)
    local big = {}
    for _, c in ipairs(comps) do
      if #c > 6 then big[#big + 1] = #c .. ": " .. table.concat(c, " ") end
    end
    assert(#big == 0, "circles of more than 6 files:\n" .. table.concat(big, "\n"))
  end)

  check("stages use neither the pipeline, the cache nor the dispatcher", function()
    local g = layers.graph(objdir)
    local bad = {}
    for f, uses in pairs(g) do
      if is_stage(f) then
        for _, u in ipairs(uses) do
          local upward = u == "pipeline" or u:match("^cache") or u == "dispatch_calls"
            or (u == "dispatch" and f ~= "resolve")  -- resolve asks dispatch_test whether a value is a dispatcher
          if upward then bad[#bad + 1] = f .. " -> " .. u end
        end
      end
    end
    table.sort(bad)
    assert(#bad == 0, "stages reaching upward:\n" .. table.concat(bad, "\n"))
    for _, u in ipairs(g.compile) do  -- the compilation context depends on no stage
      assert(not is_stage(u) and u ~= "pipeline", "compile.c uses " .. u)
    end
  end)

  it("finds a circle when there is one (the checks above can fail)", function()
    local g = { a = { "b" }, b = { "c" }, c = { "a", "d" }, d = {}, e = { "d" } }
    assert.are.same({ { "a", "b", "c" } }, layers.components(g))
  end)
end)
