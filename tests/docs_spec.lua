-- Every public name lumba exports is documented in docs/: module fields,
-- lumba.random, lumba.cuda, lumba.config, array and dispatcher methods,
-- fields and metamethods, njit options, environment variables, math
-- functions, builtins and the C API. Names are read from the running
-- module or from the sources, so a new name without documentation fails.
local lumba = require "lumba"

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function ls(glob)
  local p = io.popen("ls " .. glob .. " 2>/dev/null")
  local t = {}
  for line in p:lines() do t[#t + 1] = line end
  p:close()
  return t
end

local pages = {}
for _, path in ipairs(ls("docs/*.md")) do pages[path:match("docs/(.*)")] = read(path) end
local all = {}
for _, text in pairs(pages) do all[#all + 1] = text end
all = table.concat(all, "\n")

-- `prefix .. name` followed by something that cannot continue a name
local function mentions(text, prefix, name)
  local pat = prefix:gsub("%p", "%%%0") .. name:gsub("%p", "%%%0") .. "[^%w_]"
  return text:find(pat) ~= nil
end

-- the names of t, sorted, without the private "_x" ones
local function public_keys(t)
  local ks = {}
  for k in pairs(t) do
    if type(k) == "string" and not k:match("^_") then ks[#ks + 1] = k end
  end
  table.sort(ks)
  return ks
end

local function missing_of(names, text, prefix)
  local missing = {}
  for _, n in ipairs(names) do
    if not mentions(text, prefix, n) then missing[#missing + 1] = prefix .. n end
  end
  return missing
end

local function assert_none_missing(missing)
  assert(#missing == 0, "not documented in docs/: " .. table.concat(missing, ", "))
end

describe("docs", function()
  it("has the reference pages", function()
    for _, page in ipairs { "README.md", "api.md", "dispatchers.md", "language.md", "arrays.md", "parallel.md",
                            "errors.md", "ast.md", "embedding.md", "cuda.md", "porting.md", "install.md" } do
      assert(pages[page], "docs/" .. page .. " is missing")
    end
  end)

  it("documents every field of the lumba module", function()
    assert.is_true(#public_keys(lumba) >= 20)
    assert_none_missing(missing_of(public_keys(lumba), all, "lumba."))
  end)

  it("documents lumba.random, lumba.cuda and lumba.config", function()
    assert_none_missing(missing_of(public_keys(lumba.random), all, "lumba.random."))
    assert_none_missing(missing_of(public_keys(lumba.cuda), pages["cuda.md"], "cuda."))
    assert.are.equal(lumba.get_num_threads(), lumba.config.num_threads)
    assert_none_missing(missing_of({ "num_threads" }, all, "lumba.config."))
  end)

  it("documents lumba.cache and every key lumba.config reads", function()
    assert.is_true(#public_keys(lumba.cache) >= 2)
    assert_none_missing(missing_of(public_keys(lumba.cache), all, "lumba.cache."))
    local init = read("lua/lumba/init.lua")
    local config = assert(init:match("\nlumba%.config = setmetatable(.-)\n}%)"), "lumba.config moved in init.lua")
    local keys, seen = {}, {}
    for k in config:gmatch('k == "([%w_]+)"') do
      if not seen[k] then seen[k] = true; keys[#keys + 1] = k end
    end
    assert.is_true(seen.num_threads and seen.verbose, "the scan found no config keys")
    assert_none_missing(missing_of(keys, pages["api.md"], "lumba.config."))
  end)

  it("documents the methods and fields of device arrays, streams and events in cuda.md", function()
    local reg = debug.getregistry()
    local dmt = assert(reg["lumba.devicearray"], "no lumba.devicearray metatable")
    local upname, dmethods = debug.getupvalue(dmt.__index, 1)
    assert.are.equal("", upname)  -- a C closure: its upvalue is the method table
    assert.is_function(dmethods.copy_to_host)
    local names = public_keys(dmethods)
    for _, mt in ipairs { "lumba.cudastream", "lumba.cudaevent" } do
      for _, n in ipairs(public_keys(assert(reg[mt], mt).__index)) do names[#names + 1] = n end
    end
    assert_none_missing(missing_of(names, pages["cuda.md"], ":"))
    local index = assert(read("src/devarray.c"):match("devarray_lua_index(.-)\n}"), "devarray_lua_index moved")
    local fields = {}
    for f in index:gmatch('strcmp%(k, "([%w_]+)"%)') do fields[#fields + 1] = f end
    assert.is_true(#fields >= 6)
    assert_none_missing(missing_of(fields, pages["cuda.md"], "d."))
  end)

  describe("arrays", function()
    local a = lumba.zeros({ 2, 3 })
    local mt = debug.getmetatable(a)
    local upname, methods = debug.getupvalue(mt.__index, 1)

    it("documents every method", function()
      assert.are.equal("", upname)  -- a C closure: its upvalue is the method table
      assert.is_function(methods.get)
      assert_none_missing(missing_of(public_keys(methods), all, ":"))
    end)

    it("documents every field", function()
      local fields = { "shape", "strides", "dtype", "ndim", "size", "itemsize", "nbytes", "layout", "flags", "T" }
      for _, f in ipairs(fields) do assert(a[f] ~= nil, "arrays have no field " .. f) end
      assert_none_missing(missing_of(fields, all, "a."))
    end)

    it("documents every metamethod by its Lua form", function()
      local forms = {
        __index = "a[i]", __newindex = "a[i] = ", __len = "#a", __pairs = "pairs(a)",
        __close = "<close>", __tostring = "tostring(a)", __gc = false, __name = false,
        __metatable = "getmetatable(a)",
        __add = "a + b", __sub = "a - b", __mul = "a * b", __div = "a / b", __mod = "a % b",
        __pow = "a ^ b", __idiv = "a // b", __band = "a & b", __bor = "a | b", __bxor = "a ~ b",
        __shl = "a << b", __shr = "a >> b", __unm = "-a", __bnot = "~a", __lt = "a < b", __le = "a <= b",
      }
      local missing = {}
      for k in pairs(mt) do
        assert(forms[k] ~= nil, "a new metamethod to document: " .. tostring(k))
        if forms[k] and not all:find(forms[k], 1, true) then missing[#missing + 1] = forms[k] end
      end
      assert_none_missing(missing)
    end)
  end)

  describe("dispatchers", function()
    local d = lumba.njit({ env = {} }, "def f(x, y=2):\n    return x * y\n")
    d(3)

    it("documents every method", function()
      local names = public_keys(lumba.dispatcher_methods)
      for _, m in ipairs { "compile", "inspect_types", "inspect_llvm", "inspect_asm", "interpret" } do
        assert.is_function(d[m])
      end
      assert_none_missing(missing_of(names, pages["dispatchers.md"], ":"))
    end)

    it("documents every field and every key of d.options", function()
      local fields = { "signatures", "name", "__name__", "source", "env", "globals", "defaults", "objmode", "options" }
      for _, f in ipairs(fields) do assert(d[f] ~= nil, "dispatchers have no field " .. f) end
      assert_none_missing(missing_of(fields, pages["dispatchers.md"], "d."))
      assert_none_missing(missing_of(public_keys(d.options), pages["api.md"], "`"))
    end)
  end)

  it("documents every option njit accepts", function()
    local src = read("src/dispatch.c")
    local list = assert(src:match("known%[%] = (%b{})"), "the option list of src/dispatch.c moved")
    local names = {}
    for name in list:gmatch('"([%w_]+)"') do names[#names + 1] = name end
    assert.is_true(#names >= 10)
    for _, extra in ipairs { "env", "chunkname", "signatures", "name" } do names[#names + 1] = extra end
    assert_none_missing(missing_of(names, pages["api.md"], "`"))
  end)

  it("documents every LUMBA_ environment variable the code reads", function()
    local files = ls("src/*.c lua/lumba/*.lua examples/*.lua .busted")
    local seen, names = {}, {}
    for _, path in ipairs(files) do
      for name in read(path):gmatch('getenv%("(LUMBA_[%u_]+)"%)') do  -- C's getenv, Lua's os.getenv
        if not seen[name] then
          seen[name] = true
          names[#names + 1] = name
        end
      end
    end
    table.sort(names)
    assert(seen.LUMBA_NUM_THREADS and seen.LUMBA_BOUNDSCHECK, "the scan found no variables")
    assert_none_missing(missing_of(names, pages["api.md"], "`"))
  end)

  it("documents every math function, numpy spelling and builtin of compiled code", function()
    local registry = read("src/builtins.def")  -- every builtin's names, one row each
    local names = {}
    for name in registry:gmatch('\nMATH%([%w_]+, "math%.", "([%w_]+)"') do names[#names + 1] = name end
    assert.is_true(#names >= 30)
    assert_none_missing(missing_of(names, pages["language.md"], "math."))

    local np = {}
    for name in registry:gmatch('\n%u+%([%w_]+, "numpy%.", "([%w_]+)"') do np[#np + 1] = name end
    assert.is_true(#np >= 10)
    assert_none_missing(missing_of(np, pages["language.md"], "np."))

    local rnd = {}
    for name in registry:gmatch('\n%u+%([%w_]+, "numpy%.random%.", "([%w_]+)"') do rnd[#rnd + 1] = name end
    assert.is_true(#rnd >= 30)
    assert_none_missing(missing_of(rnd, pages["random.md"], "np.random."))

    -- Python's builtins (the registry's names without a module) and the
    -- modules and exceptions resolve.c adds to them
    local b = {}
    for name in registry:gmatch('\n%u+%([%w_]+, "", "([%w_]+)"') do b[#b + 1] = name end
    local globals = assert(read("src/resolve.c"):match("global_names%[%] = (%b{})"), "global_names moved")
    for name in globals:gmatch('{"([%w_]+)", "[%w_.]+"}') do b[#b + 1] = name end
    assert.is_true(#b >= 20)
    assert_none_missing(missing_of(b, pages["language.md"], "`"))
  end)

  it("documents every function and constant of the C API", function()
    local h = read("src/lumba.h")
    local names, seen = {}, {}
    for name in h:gmatch("[^%w_](lumba_%w+)") do
      if not seen[name] and name ~= "lumba_h" then seen[name] = true; names[#names + 1] = name end
    end
    for name in h:gmatch("#define (LUMBA_[%u_]+)") do
      if name ~= "LUMBA_API" then names[#names + 1] = name end
    end
    assert.is_true(#names >= 9)
    assert_none_missing(missing_of(names, pages["embedding.md"], ""))
  end)

  it("links only to files that exist", function()
    local broken = {}
    local function check(dir, text, from)
      text = text:gsub("\n```.-\n```", ""):gsub("`[^`\n]*`", "")  -- links, not code
      for target in text:gmatch("%]%(([^)#%s]+)[^)]*%)") do
        if not target:match("^%a+://") then
          local f = io.open(dir .. target, "rb")
          if f then f:close() else broken[#broken + 1] = from .. " -> " .. target end
        end
      end
    end
    for page, text in pairs(pages) do check("docs/", text, "docs/" .. page) end
    check("", read("README.md"), "README.md")
    -- bench/chart.svg is written by `make bench` (bench/run.lua)
    local ok = {}
    for _, b in ipairs(broken) do
      if not b:match("bench/chart%.svg$") and not b:match("bench/RESULTS%.md$") then ok[#ok + 1] = b end
    end
    assert(#ok == 0, "broken links: " .. table.concat(ok, ", "))
  end)
end)

-- docs/internals.md, the map of the sources: it names every file of src/
-- and lua/lumba/, with the library the Makefile builds it into, and every
-- file, function, field and table it cites exists.
describe("docs/internals.md", function()
  local page = pages["internals.md"] or ""
  local inline = page:gsub("\n```.-\n```", "")  -- the text outside code blocks
  local blocks = {}
  for b in page:gmatch("\n```[^\n]*\n(.-)\n```") do blocks[#blocks + 1] = b end

  -- what names are looked for in: the C sources, the Lua module, the Makefile
  local corpus = {}
  for _, path in ipairs(ls("src/*.* src/prelude/*.py lua/lumba/*.lua Makefile")) do corpus[#corpus + 1] = read(path) end
  corpus = table.concat(corpus, "\n")
  local function defined(word) return corpus:find("%f[%w_]" .. word .. "%f[^%w_]") ~= nil end
  -- the body of struct name, or nil
  local function struct_body(name)
    return corpus:match("struct " .. name .. " {(.-)\n}")
  end
  local function exists(path)
    local f = io.open(path, "rb")
    if f then f:close() end
    return f ~= nil
  end

  it("is linked from docs/README.md and README.md", function()
    assert.is_true(#page > 0, "docs/internals.md is missing")
    assert.truthy(pages["README.md"]:find("(internals.md)", 1, true), "docs/README.md does not link internals.md")
    assert.truthy(read("README.md"):find("(docs/internals.md)", 1, true), "README.md does not link docs/internals.md")
  end)

  it("names every file of src/ and lua/lumba/", function()
    local missing = {}
    for _, path in ipairs(ls("src/*.* src/prelude/*.py lua/lumba/*.lua")) do
      if not page:find("`" .. path .. "`", 1, true) then missing[#missing + 1] = path end
    end
    assert.is_true(#ls("src/*") >= 100)
    assert(#missing == 0, "not in docs/internals.md: " .. table.concat(missing, ", "))
  end)

  it("cites only files that exist", function()
    local broken, n = {}, 0
    for path in page:gmatch("%f[%w_/.]((%a+)/[%w_./*<>]+)") do
      local top = path:match("^(%a+)/")
      if (top == "src" or top == "lua" or top == "tests" or top == "docs") and not path:find("[<*]") then
        path = path:gsub("[.]+$", "")
        n = n + 1
        if not exists(path) then broken[#broken + 1] = path end
      end
    end
    -- file names and globs without their directory: `parse.c`, `lower*.c`
    for span in inline:gmatch("`([^`\n]+)`") do
      if span:match("^[%w_*]+%.[chdlm][%a]*$") and (span:match("%.[ch]$") or span:match("%.def$")
          or span:match("%.map$") or span:match("%.lua$")) then
        n = n + 1
        local glob = span:gsub("%*", "[%%w_]*")
        local found = false
        for _, path in ipairs(ls("src/*.* src/prelude/*.py lua/lumba/*.lua")) do
          local name = path:match("[^/]+$")
          if name:match("^" .. glob:gsub("%.", "%%.") .. "$") then found = true end
        end
        if not found then broken[#broken + 1] = span end
      end
    end
    assert.is_true(n >= 150, "the scan found only " .. n .. " file names")
    assert(#broken == 0, "no such file: " .. table.concat(broken, ", "))
  end)

  it("cites only names that exist in the sources", function()
    local missing, n = {}, 0
    local function check(word)
      n = n + 1
      if not defined(word) then missing[#missing + 1] = word end
    end
    local function check_field(s, field)
      n = n + 1
      local body = struct_body(s)
      if not (body and body:find("%f[%w_]" .. field .. "%f[^%w_]")) then missing[#missing + 1] = s .. "." .. field end
    end
    for span in inline:gmatch("`([^`\n]+)`") do
      local s = span:gsub("%(%)$", ""):gsub("%[%]$", "")
      if s:match("^[%a_][%w_]*$") then
        check(s)
      elseif s:match("^[%a_][%w_]*%(") then               -- a call: compile_error(C, ...)
        check(s:match("^[%a_][%w_]*"))
      elseif s:match("^%u[%w_]*%.[%a_][%w_]*$") then      -- a field: Compile.hooks
        check_field(s:match("^(%u[%w_]*)%.([%a_][%w_]*)$"))
      elseif s:match("^[%a_][%w_]*%->[%a_][%w_>%-]*$") then  -- C->hooks->callee
        for w in s:gmatch("[%a_][%w_]*") do check(w) end
      elseif s:match("^struct [%a_][%w_]*$") then
        n = n + 1
        if not struct_body(s:match("[%a_][%w_]*$")) then missing[#missing + 1] = s end
      end
    end
    for _, b in ipairs(blocks) do
      for w in b:gmatch("[%a_][%w_]*") do
        if w:find("_", 2, true) then check(w) end
      end
      for s, field in b:gmatch("%f[%w_](%u[%w_]*)%.([%a_][%w_]*)") do check_field(s, field) end
    end
    assert.is_true(n >= 300, "the scan found only " .. n .. " names")
    assert.is_false(defined("compile_spe") or defined("no_such_function") or struct_body("NoSuchStruct") ~= nil)
    assert(#missing == 0, "not in src/, lua/lumba/ or the Makefile: " .. table.concat(missing, ", "))
  end)

  it("gives each C file the library the Makefile builds it into", function()
    local mk = read("Makefile")
    -- the value of a make variable, its continuation lines joined
    local function var(name)
      local out, on = {}, false
      for line in mk:gmatch("([^\n]*)\n") do
        if not on and line:match("^" .. name .. " :?= ") then
          on = true
          line = line:gsub("^[^=]*=", "")
        end
        if on then
          out[#out + 1] = (line:gsub("\\$", ""))
          if not line:match("\\$") then break end
        end
      end
      return table.concat(out, " ")
    end
    local function matcher(value)
      local pats = {}
      for p in value:gmatch("src/([%w_*]+)%.c") do pats[#pats + 1] = "^" .. p:gsub("%*", "[%%w_]*") .. "$" end
      return function(name)
        for _, p in ipairs(pats) do if name:match(p) then return true end end
        return false
      end
    end
    local in_backend, in_glue = matcher(var("BACKEND_SRCS")), matcher(var("GLUE_SRCS"))
    local in_nvptx = matcher((var("NVPTX_OBJS"):gsub("%$%(BUILD%)/obj/([%w_]+)%.o", "src/%1.c")))
    assert.is_true(in_backend("pipeline") and in_backend("infer_call") and in_nvptx("nvvm_llvm"))
    local function lib_of(name)
      if in_glue(name) then return "back, nvptx" end
      if in_nvptx(name) then return "nvptx" end
      return in_backend(name) and "back" or "core"
    end
    local wrong, n = {}, 0
    for row in inline:gmatch("\n(| `src/[^\n]+)") do
      local files, lib = row:match("^| ([^|]+) | ([^|]-) |")
      if files then
        -- a row's C files decide its library; a row of headers and tables has none
        local cfiles = 0
        for name in files:gmatch("`src/([%w_]+)%.c`") do
          cfiles, n = cfiles + 1, n + 1
          if lib ~= lib_of(name) then wrong[#wrong + 1] = string.format("src/%s.c: '%s', not '%s'", name, lib, lib_of(name)) end
        end
        if cfiles == 0 and lib ~= "" then wrong[#wrong + 1] = files .. ": '" .. lib .. "', not ''" end
      end
    end
    assert.is_true(n >= 60, "the scan found only " .. n .. " C files")
    assert(#wrong == 0, "the library column is wrong: " .. table.concat(wrong, "; "))
  end)
end)
