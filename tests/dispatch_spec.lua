-- The dispatcher: lazy compilation per argument-type signature, eager
-- signatures, default arguments, inspection, name resolution through env
-- and the caller's globals, calls between dispatchers, argument checks.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

-- the message of f(...) without the "file:line: " luaL_error puts in front
local function bare_error(f, ...)
  return (H.error_of(f, ...):gsub("^[^\n]-:%d+: ", "", 1))
end

describe("lazy compilation", function()
  it("compiles one specialization per argument-type signature", function()
    local f = njit "def f(a, b):\n    return a + b\n"
    assert.are.same({}, f.signatures)
    assert.are.equal(3, f(1, 2))
    assert.are.same({ "(int64, int64) -> int64" }, f.signatures)
    assert.are.equal(3.5, f(1.5, 2))
    assert.are.equal(2, #f.signatures)
    assert.are.equal(3.0, f(1.0, 2.0))
    assert.are.equal(3, #f.signatures)
    local sigs = {}
    for _, s in ipairs(f.signatures) do sigs[s] = true end
    assert.are.same({ ["(int64, int64) -> int64"] = true, ["(float64, int64) -> float64"] = true,
      ["(float64, float64) -> float64"] = true }, sigs)
  end)

  it("reuses the specialization for the same types", function()
    local f = njit "def f(a, b):\n    return a * b\n"
    assert.are.equal(6, f(2, 3))
    local ir = f:inspect_llvm()
    for i = 1, 100 do assert.are.equal(i * 3, f(i, 3)) end
    assert.are.equal(1, #f.signatures)
    assert.are.equal(ir, f:inspect_llvm())
    -- alternating types switches between the two specializations without compiling again
    for i = 1, 10 do
      assert.are.equal(i * 2, f(i, 2))
      assert.are.equal(i * 0.5, f(i, 0.5))
    end
    assert.are.equal(2, #f.signatures)
  end)

  it("arrays of different dtype, rank or layout are different signatures", function()
    local f = njit "def f(a):\n    return a.ndim\n"
    f(lumba.zeros(3))
    f(lumba.zeros(3, "float32"))
    f(lumba.zeros { 2, 2 })
    f(lumba.zeros({ 2, 2 }, "float64", "F"))
    f(lumba.zeros { 2, 4 }:slice(":", { nil, nil, 2 }))
    f(lumba.zeros(3))
    local sigs = {}
    for _, s in ipairs(f.signatures) do sigs[#sigs + 1] = s end
    table.sort(sigs)
    assert.are.same({
      "(float32[::1]) -> int64",
      "(float64[:, ::1]) -> int64",
      "(float64[:, :]) -> int64",
      "(float64[::1, :]) -> int64",
      "(float64[::1]) -> int64",
    }, sigs)
  end)

  it("booleans are their own type", function()
    local f = njit "def f(a):\n    return a\n"
    assert.is_true(f(true))
    assert.are.equal(1, f(1))
    assert.are.same({ "(bool) -> bool", "(int64) -> int64" }, (function()
      local s = f.signatures
      table.sort(s)
      return s
    end)())
  end)

  it("__tostring names the function and counts its signatures", function()
    local f = njit "def my_func(a):\n    return a\n"
    assert.are.equal("lumba.dispatcher: my_func (0 signatures)", tostring(f))
    f(1)
    assert.are.equal("lumba.dispatcher: my_func (1 signature)", tostring(f))
    assert.are.equal("my_func", f.name)
  end)
end)

describe("eager signatures", function()
  it("njit(sig, src) compiles at once and converts compatible arguments", function()
    local g = njit("float64(float64[:], float64)", "def g(a, x):\n    return a[0] * x\n")
    assert.are.same({ "(float64[:], float64) -> float64" }, g.signatures)
    assert.are.equal(2.0, g(lumba.ones(3), 2.0))
    assert.are.equal(2.0, g(lumba.ones(3), 2))        -- an integer converts to float64
    assert.are.equal(2.0, g(lumba.ones(6):slice({ nil, nil, 2 }), 2.0))   -- a strided view fits float64[:]
    assert.are.equal(1, #g.signatures)                  -- no new compilation
  end)

  it("calls with types no signature accepts are a clear error", function()
    local g = njit("float64(float64[:], float64)", "def g(a, x):\n    return a[0] * x\n")
    assert.are.equal("g: no compiled signature matches the argument types (int64[::1], float64)",
      H.error_of(g, lumba.ones(3, "int64"), 2.0))
    assert.are.equal("g: no compiled signature matches the argument types (float64[::1], bool)",
      H.error_of(g, lumba.ones(3), true))
    assert.are.equal(1, #g.signatures)
  end)

  it("a wrong number of arguments is an error", function()
    local g = njit("float64(float64[:], float64)", "def g(a, x):\n    return a[0] * x\n")
    assert.are.equal("g() takes 2 arguments but 1 were given", H.error_of(g, lumba.ones(3)))
    assert.are.equal("g() takes 2 arguments but 3 were given", H.error_of(g, lumba.ones(3), 1, 2))
    local f = njit "def f(a):\n    return a\n"
    assert.are.equal("f() takes 1 argument but 0 were given", H.error_of(f))
  end)

  it("a list of signatures", function()
    local h = njit({ "int64(int64)", "float64(float64)" }, "def h(x):\n    return x * 2\n")
    assert.are.equal(2, #h.signatures)
    assert.are.equal(4, h(2))
    assert.are.equal("integer", math.type(h(2)))
    assert.are.equal(5.0, h(2.5))
    assert.are.equal("h: no compiled signature matches the argument types (bool)", H.error_of(h, true))
  end)

  it("Numba's signature syntax: layouts, short names, no return type, void", function()
    local f = njit "def f(a):\n    return 1\n"
    f:compile("float64(float64[:, ::1])")
    f:compile("f8(f4[::1, :])")
    f:compile("(int32[:],)")
    local s = f.signatures
    table.sort(s)
    assert.are.same({
      "(float32[::1, :]) -> float64",
      "(float64[:, ::1]) -> float64",
      "(int32[:]) -> int64",
    }, s)
    local v = njit("void(float64[:])", "def v(a):\n    a[0] = 1\n")
    assert.are.same({ "(float64[:]) -> none" }, v.signatures)
    local a = lumba.zeros(2)
    assert.are.equal(0, select("#", v(a)))
    assert.are.equal(1.0, a:get(1))
  end)

  it("a narrower return type converts the result", function()
    local f = njit("int32(int32)", "def f(a):\n    return a * 2\n")
    assert.are.equal(6, f(3))
    local g = njit("float32(float32)", "def g(a):\n    return a / 3\n")
    assert.are.equal(0.3333333432674408, g(1.0))   -- np.float32(1) / np.float32(3)
  end)

  it("a signature returning none for a function returning a value is a TypingError", function()
    local ok, err = pcall(njit, "void(int64)", "def f(a):\n    return a\n")
    assert.is_false(ok)
    assert.are.equal("<string>:1:1: TypingError: the signature returns none but f() returns int64\n"
      .. "    def f(a):\n"
      .. "    ^", err)
  end)

  it(":compile() rejects bad signatures", function()
    local f = njit "def f(a, b):\n    return a\n"
    assert.are.equal("bad argument #1 to 'compile' (the signature has 1 arguments but f() takes 2)",
      bare_error(function() return f:compile("float64(float64)") end))
    assert.are.equal("bad argument #1 to 'compile' (bad signature: unknown type 'flot64')",
      bare_error(function() return f:compile("float64(flot64, int64)") end))
    assert.are.equal("bad argument #1 to 'compile' (bad signature: expected ',' or ')' in 'float64(float64')",
      bare_error(function() return f:compile("float64(float64") end))
    f:compile("float64(float64, int64)")
    assert.are.equal(1, #f.signatures)
    f:compile("float64(float64, int64)")   -- again: nothing new
    assert.are.equal(1, #f.signatures)
  end)
end)

describe("default arguments", function()
  it("fill in missing trailing arguments (J=1.0)", function()
    local d = njit "def d(x, J=1.0):\n    return x * J\n"
    assert.are.equal(3.0, d(3))
    assert.are.equal("float", math.type(d(3)))
    assert.are.equal(6, d(3, 2))
    assert.are.equal(7.5, d(3, 2.5))
  end)

  it("negative, integer and boolean defaults", function()
    local d = njit "def d(x, a=-2, b=True, c=-0.5):\n    return x * a + c if b else x\n"
    assert.are.equal(-6.5, d(3))
    assert.are.equal(3, d(3, 1, false))
    assert.are.equal("d() takes 4 arguments but 0 were given", H.error_of(d))
    assert.are.equal("d() takes 4 arguments but 5 were given", H.error_of(d, 1, 2, 3, 4, 5))
  end)

  it("are part of the source's defaults table", function()
    local d = njit "def d(x, J=1.0, k=3):\n    return x\n"
    assert.are.same({ 1.0, 3 }, d.defaults)
  end)

  it("non-constant defaults are an UnsupportedError", function()
    local ok, err = pcall(njit, "def d(x, J=1.0 + 2):\n    return x\n")
    assert.is_false(ok)
    assert.are.equal("<string>:1:12: UnsupportedError: default values must be numbers, booleans or dtypes\n"
      .. "    def d(x, J=1.0 + 2):\n"
      .. "               ^", err)
  end)
end)

describe("inspection", function()
  local f = njit "def add_one(a):\n    b = a + 1\n    return b\n"

  it("before the first compilation, inspect_* explain why they cannot answer", function()
    local g = njit "def g(a):\n    return a\n"
    assert.are.equal("g has not been compiled yet: call it or compile a signature first",
      bare_error(function() return g:inspect_llvm() end))
  end)

  it("inspect_types lists the signature and the locals' types", function()
    f(1)
    assert.are.equal("add_one (int64) -> int64\n  a: int64 (argument)\n  b: int64\n", f:inspect_types("(int64,)"))
    f(1.5)
    local all = f:inspect_types()
    assert.matches("add_one %(int64%) %-> int64", all)
    assert.matches("add_one %(float64%) %-> float64\n  a: float64 %(argument%)\n  b: float64\n", all)
  end)

  it("inspect_llvm gives the module's IR with the function", function()
    f(1)
    local ir = f:inspect_llvm("int64(int64)")
    assert.matches("define [^\n]*@add_one__%x+_%d+%(", ir)
    assert.matches("add i64", ir)
    assert.matches("@add_one__%x+_%d+_wrap", ir)
  end)

  it("inspect_asm gives host assembly with the function's symbol", function()
    f(1)
    local asm = f:inspect_asm("int64(int64)")
    assert.matches("add_one__%x+_%d+:", asm)
    assert.matches("ret", asm)
  end)

  it("asking for a signature that was not compiled is an error", function()
    assert.are.equal("add_one has no specialization for int32(int32)",
      bare_error(function() return f:inspect_llvm("int32(int32)") end))
  end)
end)

describe("name resolution", function()
  it("finds numbers in env", function()
    local e = njit { env = { K = 3 } } "def e(x):\n    return x * K\n"
    assert.are.equal(6, e(2))
    assert.are.equal(7.5, e(2.5))
  end)

  it("env comes before the caller's globals", function()
    _G.LUMBA_TEST_K = 100
    local e = njit { env = { LUMBA_TEST_K = 3 } } "def e(x):\n    return x * LUMBA_TEST_K\n"
    assert.are.equal(6, e(2))
    _G.LUMBA_TEST_K = nil
  end)

  it("builtins come before env", function()
    local e = njit { env = { len = 3, abs = 4 } } "def e(x):\n    return abs(x)\n"
    assert.are.equal(2, e(-2))
  end)

  it("freezes the caller's global numbers as constants at compile time", function()
    _G.LUMBA_TEST_G = 5
    local e = njit "def e(x):\n    return x * LUMBA_TEST_G\n"
    assert.are.equal(10, e(2))
    _G.LUMBA_TEST_G = 7
    assert.are.equal(10, e(2))     -- frozen in the int64 specialization
    assert.are.equal(17.5, e(2.5)) -- a new specialization sees the value of its compile time
    _G.LUMBA_TEST_G = nil
  end)

  it("uses the globals of the chunk that called njit (its _ENV)", function()
    local env = setmetatable({ SCALE = 4 }, { __index = _G })
    -- (not a tail call: a tail call leaves no frame to find the caller's _ENV in)
    local chunk = load("local lumba = require 'lumba'\nlocal s = lumba.njit 'def s(x):\\n    return x * SCALE\\n'\nreturn s",
      "=c", "t", env)
    local s = chunk()
    assert.are.equal(8, s(2))
  end)

  it("booleans in env are constants", function()
    local e = njit { env = { FLAG = true } } "def e(x):\n    return x if FLAG else -x\n"
    assert.are.equal(2, e(2))
  end)

  it("calls another dispatcher found in env", function()
    local inner = njit "def inner(x):\n    return x + 100\n"
    local outer = njit { env = { sq = inner } } "def outer(x):\n    return sq(x) * 2\n"
    assert.are.equal(202, outer(1))
    assert.are.equal(203.0, outer(1.5))
    assert.are.equal(2, #inner.signatures)   -- compiled for the types outer passed
  end)

  it("calls another dispatcher found in the caller's globals", function()
    _G.lumba_test_inner = njit "def inner(x):\n    return x * 3\n"
    local outer = njit "def outer(x):\n    return lumba_test_inner(x) + 1\n"
    assert.are.equal(7, outer(2))
    _G.lumba_test_inner = nil
    assert.are.equal(10, outer(3))   -- compiled code keeps what it resolved
  end)

  it("compiled callers keep working after the callee dispatcher is collected", function()
    local env = {}
    env.inner = njit "def inner(x):\n    return x * 3\n"
    local outer = njit { env = env } "def outer(x):\n    return inner(x) + 1\n"
    assert.are.equal(7, outer(2))
    env.inner = nil
    collectgarbage()
    collectgarbage()
    assert.are.equal(16, outer(5))
    -- a new specialization resolves the name again
    assert.are.equal("<string>:2:12: NameError: name 'inner' is not defined\n"
      .. "        return inner(x) + 1\n"
      .. "               ^", H.error_of(outer, 2.5))
  end)

  it("an error raised in a dispatcher called from compiled code reaches Lua", function()
    local inner = njit "def inner(x):\n    if x < 0:\n        raise ValueError(\"negative\")\n    return x\n"
    local outer = njit { env = { inner = inner } } "def outer(x):\n    return inner(x) + 1\n"
    assert.are.equal("ValueError: negative", H.message_of(outer, -1))
    assert.are.equal(3, outer(2))
  end)

  it("dispatchers calling each other back are a TypingError, not a C stack overflow", function()
    local env = {}
    env.A = njit { env = env } "def A(n):\n    if n <= 0:\n        return 0\n    return B(n - 1) + 1\n"
    env.B = njit { env = env } "def B(n):\n    if n <= 0:\n        return 0\n    return A(n - 1) + 1\n"
    local msg = "<string>:4:12: TypingError: A() calls itself back through other lumba functions, so its type "
      .. "cannot be inferred (define the functions in one source)\n"
      .. "        return A(n - 1) + 1\n"
      .. "               ^"
    assert.are.equal(msg, H.error_of(env.A, 10))
    assert.are.equal(msg, H.error_of(env.A, 10))
    assert.are.same({}, env.A.signatures)
    -- in one source they type
    local ab = njit "def A(n):\n    if n <= 0:\n        return 0\n    return B(n - 1) + 1\n\ndef B(n):\n    if n <= 0:\n        return 0\n    return A(n - 1) + 1\n"
    assert.are.equal(10, ab(10))
  end)

  it("a dispatcher with eager signatures is called through them", function()
    local inner = njit("float64(float64)", "def inner(x):\n    return x / 4\n")
    local outer = njit { env = { inner = inner } } "def outer(x):\n    return inner(x)\n"
    assert.are.equal(0.5, outer(2.0))
    assert.are.equal(1, #inner.signatures)
  end)
end)

describe("arguments", function()
  it("rejects values compiled code cannot take", function()
    local f = njit "def f(a, b):\n    return a\n"
    assert.are.equal("bad argument #1 to 'f' (a string argument must name a dtype such as \"float64\", got \"a\")",
      H.error_of(f, "a", 2))
    assert.are.equal("bad argument #2 to 'f' (number, boolean, table or lumba.ndarray expected, got function)",
      H.error_of(f, 1, print))
    -- nil is None (as Numba's None argument): refused where the function cannot take it
    local add = njit "def add(a, b):\n    return a + b\n"
    assert.are.equal("bad argument #2 to 'add' (number, boolean, table or lumba.ndarray expected, got nil)",
      H.error_of(add, 1, nil))
    assert.are.equal(1, f(1, nil))
    assert.are.equal(1, f(1, 2))
  end)

  it("plain Lua tables of numbers are 1-d arrays, copied in", function()
    local f = njit "def f(a):\n    s = 0.0\n    for i in range(len(a)):\n        s += a[i] * (i + 1)\n    return s\n"
    assert.are.equal(1 * 1 + 2 * 2 + 3 * 3, f { 1, 2, 3 })
    assert.are.equal(0.5 * 1 + 1.5 * 2, f { 0.5, 1.5 })
    assert.are.equal(0.0, f {})
  end)

  it("plain Lua tables are copied back when compiled code writes them", function()
    local f = njit "def f(a, v):\n    for i in range(len(a)):\n        a[i] = a[i] * v\n"
    local t = { 1.5, 2.5, 4.0 }
    f(t, 2.0)
    assert.are.same({ 3.0, 5.0, 8.0 }, t)
    local ti = { 1, 2, 3 }
    f(ti, 3)
    assert.are.same({ 3, 6, 9 }, ti)
    assert.are.equal("integer", math.type(ti[1]))
  end)

  it("tables that compiled code only reads are left as they were", function()
    local f = njit "def f(a):\n    return a[0] + a[1]\n"
    local t = { 1, 2.5 }   -- a float64 array inside: 1 is read as 1.0
    assert.are.equal(3.5, f(t))
    assert.are.equal("integer", math.type(t[1]))   -- not rewritten as 1.0
  end)

  it("tables of the wrong shape or contents are errors", function()
    local f = njit "def f(a):\n    return a[0]\n"
    assert.matches("ragged", H.error_of(f, { { 1, 2 }, { 3 } }))
    assert.matches("^bad argument #1 to 'f'", H.error_of(f, { "x" }))
    assert.are.equal(1, f { 1 })
  end)

  it("jit's object-mode fallback gets the table itself", function()
    local saved = lumba.warnings
    local warned
    lumba.warnings = function(m) warned = m end
    local f = lumba.jit "def f(a):\n    x = [1, 2]\n    a[0] = 7\n    return a[1]\n"
    local t = { 1, 2 }
    local ok, r = pcall(f, t)
    lumba.warnings = saved
    assert.is_true(ok, r)
    assert.are.equal(2, r)
    assert.are.same({ 7, 2 }, t)
    assert.matches("falling back to object mode", warned)
  end)

  it("a table argument converts to the dtype of an eager signature", function()
    local g = njit("float64(float64[:])", "def g(a):\n    return a[0] / 2\n")
    assert.are.equal(0.5, g { 1 })
    assert.are.equal(1, #g.signatures)
  end)
end)

describe("options", function()
  it("unknown options are errors", function()
    local ok, err = pcall(njit { bogus = 1 }, "def f(x):\n    return x\n")
    assert.is_false(ok)
    assert.matches("unknown option 'bogus'$", err)
  end)

  it("name picks the def to compile", function()
    local f = njit { name = "second" } "def first(x):\n    return x + 1\n\ndef second(x):\n    return first(x) * 10\n"
    assert.are.equal("second", f.name)
    assert.are.equal(30, f(2))
    local ok, err = pcall(njit { name = "third" }, "def first(x):\n    return x\n")
    assert.is_false(ok)
    assert.matches("no function named 'third' in the source$", err)
  end)

  it("njit with a bad first argument", function()
    local ok, err = pcall(njit, 12)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'njit' (source string, function, AST table, options table or signature expected, got number)", err)
  end)

  it("reads options back", function()
    local f = njit { boundscheck = true, error_model = "numpy" } "def f(x):\n    return x\n"
    assert.is_true(f.options.boundscheck)
    assert.are.equal("numpy", f.options.error_model)
    assert.is_false(f.options.fastmath)
    assert.is_true(njit { fastmath = true } "def g(x):\n    return x\n".options.fastmath)
    assert.is_true(njit { fastmath = { "nnan", "ninf" } } "def h(x):\n    return x\n".options.fastmath)
  end)
end)

describe("Lua-table AST input", function()
  it("compiles what lumba.parse returns", function()
    local ast = lumba.parse "def f(a, b):\n    return a * b + 1\n"
    local f = njit(ast)
    assert.are.equal(7, f(2, 3))
  end)

  it("compiles a changed tree (programs that generate kernels)", function()
    local ast = lumba.parse "def f(a, b):\n    return a * b\n"
    ast.body[1].body[1].value.op = "Add"
    assert.are.equal(5, njit(ast)(2, 3))
  end)
end)
