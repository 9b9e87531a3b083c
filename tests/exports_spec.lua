-- The built modules export only their public API (nm -D): core.so
-- luaopen_lumba_core and the lumba_* functions src/lumba.h declares (a host
-- that embeds lumba sees nothing else), backend.so and nvptx.so their entry
-- points, which core.so opens and hands its own table (src/core_api.h).
local has_nm = os.execute("command -v nm >/dev/null 2>&1")

-- the directory of the lumba/core.so the specs load (LUMBA_CPATH, .busted)
local core = package.searchpath("lumba.core", package.cpath)
local dir = core and core:match("^(.*)/[^/]*$")

-- the names a shared object defines in its dynamic symbol table, sorted
local function exported(path)
  local p = io.popen("nm -D --defined-only " .. path .. " 2>&1")
  local out = p:read("a")
  assert(p:close(), "nm -D failed on " .. path .. ": " .. out)
  local names = {}
  for name in out:gmatch("%x+ %a ([%w_.@]+)\n") do
    -- the sanitizers' own (make asan): not lumba's
    if not name:match("^__asan") and not name:match("^__odr_asan") and not name:match("^__ubsan")
        and not name:match("^__sancov") then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  return names
end

-- the functions src/lumba.h declares LUMBA_API
local function public_api()
  local f = assert(io.open("src/lumba.h"))
  -- without comments and preprocessor lines (the #define of LUMBA_API)
  local text = f:read("a"):gsub("/%*.-%*/", ""):gsub("\n#[^\n]*", "\n")
  f:close()
  local names = {}
  for decl in text:gmatch("LUMBA_API([^;]*);") do
    local name = decl:match("([%w_]+)%s*%(")
    if name then names[#names + 1] = name end
  end
  return names
end

describe("exported symbols", function()
  if not has_nm then
    pending("nm is not installed")
    return
  end

  it("finds the public API in lumba.h", function()
    local api = public_api()
    assert.is_true(#api >= 2, "no LUMBA_API function found in src/lumba.h")
    for _, name in ipairs(api) do assert.is_truthy(name:match("^lumba_"), name) end
  end)

  it("core.so exports luaopen_lumba_core and lumba.h's functions, nothing else", function()
    local want = public_api()
    want[#want + 1] = "luaopen_lumba_core"
    table.sort(want)
    assert.are.same(want, exported(core))
  end)

  it("backend.so exports only lumba_backend_table", function()
    assert.are.same({ "lumba_backend_table" }, exported(dir .. "/backend.so"))
  end)

  it("nvptx.so exports only lumba_nvptx_compiler", function()
    assert.are.same({ "lumba_nvptx_compiler" }, exported(dir .. "/nvptx.so"))
  end)
end)
