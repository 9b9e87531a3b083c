-- cuda.jit{cache=true}: a kernel's PTX kept in the cache directory; a new
-- process launches it without libNVVM (tag gpu: launches need a GPU).
local lumba = require "lumba"
local H = require "helpers"

local q, slurp, spit = H.shell_quote, H.slurp, H.spit

-- the .lptx files of dir
local function ptx_files(dir)
  local t = {}
  local p = io.popen("ls -A " .. q(dir) .. " 2>/dev/null")
  for name in p:lines() do
    if name:sub(-5) == ".lptx" then t[#t + 1] = dir .. "/" .. name end
  end
  p:close()
  table.sort(t)
  return t
end

local PRELUDE = string.format([[
package.path = %q
package.cpath = %q
local lumba = require "lumba"
local cuda = lumba.cuda
]], package.path, package.cpath)

-- scale(a, f) on 1000 elements in a new process: its sum, and its stderr
local function child(dir, factor_expr)
  local out, err = H.run_cached(dir, PRELUDE .. ([[
local k = cuda.jit{cache = true}("@cuda.jit\ndef scale(a, f):\n    i = cuda.grid(1)\n    if i < a.shape[0]:\n        a[i] = a[i] * %s\n")
local d = cuda.to_device(lumba.arange(1000, "float64"))
k[{ 4, 256 }](d, 2.0)
local h = d:copy_to_host()
local s = 0
for i = 1, 1000 do s = s + h[i] end
io.write(string.format("%%.1f %%d\n", s, lumba.cache.info().entries))
]]):format(factor_expr), "LUMBA_DEBUG_CACHE=1")
  return out, err
end

describe("cuda.jit{cache=true} #gpu #hardware", function()  -- PTX: not in the simulator
  H.gpu_it("keeps each kernel's PTX: a second process loads it, an edit or a damaged file misses", function()
    local dir = os.tmpname()
    os.remove(dir)
    local out, err = child(dir, "f")
    assert.are.equal("999000.0 1\n", out)  -- sum of 2 * (0 .. 999); one entry, the PTX
    assert.truthy(err:find("lumba cache: ptx miss scale key %x+: no file"), err)
    local files = ptx_files(dir)
    assert.are.equal(1, #files)
    assert.truthy(slurp(files[1]):find(".entry", 1, true))
    -- a second process: the PTX from the file, no compiler
    out, err = child(dir, "f")
    assert.are.equal("999000.0 1\n", out)
    assert.truthy(err:find("lumba cache: ptx hit scale key %x+: loaded"), err)
    assert.is_nil(err:find("miss", 1, true), err)
    -- an edited kernel has another key: compiled and stored beside it
    out, err = child(dir, "f * 2.0")
    assert.are.equal("1998000.0 2\n", out)
    assert.truthy(err:find("ptx miss", 1, true), err)
    assert.are.equal(2, #ptx_files(dir))
    -- a damaged file is a miss, compiled again and rewritten
    local good = slurp(files[1])
    spit(files[1], good:sub(1, -40) .. "garbage" .. good:sub(-32))
    out, err = child(dir, "f")
    assert.are.equal("999000.0 2\n", out)
    assert.truthy(err:find("ptx miss scale key %x+: checksum mismatch"), err)
    assert.are.equal(good, slurp(files[1]))
    -- lumba.cache.clear removes the kernels' entries too
    local info0 = lumba.cache.info()
    assert.is_table(info0)
    assert.are.equal(2, lumba.cache.clear(dir))
    assert.are.equal(0, #ptx_files(dir))
    os.execute("rm -rf " .. q(dir))
  end)
end)
