-- Compile errors: SyntaxError, NameError, TypingError, UnsupportedError with
-- their whole message (chunk:line:col, the source line, the caret), and
-- proof that the Lua state and the dispatcher still work afterwards.
local lumba = require "lumba"
local H = require "helpers"
local njit = lumba.njit

-- the message of njit(src) failing at creation (syntax and unsupported statements)
local function create_error(src, opts)
  local ok, err = pcall(function() return njit(opts or {})(src) end)
  if ok then error("expected njit to fail", 2) end
  return tostring(err)
end

-- the message of the first call failing (names and types are checked per signature)
local function call_error(src, ...)
  local f = njit(src)
  return H.error_of(f, ...)
end

-- the state still compiles and runs new code
local function state_works()
  local g = njit "def g(a, b):\n    return a * b + 1\n"
  assert.are.equal(7, g(2, 3))
end

describe("SyntaxError", function()
  it("an incomplete expression", function()
    assert.are.equal("<string>:2:15: SyntaxError: expected an expression\n"
      .. "        return x +\n"
      .. "                  ^", create_error("def f(x):\n    return x +\n"))
    state_works()
  end)

  it("a missing colon", function()
    assert.are.equal("<string>:1:9: SyntaxError: expected ':'\n"
      .. "    def f(x)\n"
      .. "            ^", create_error("def f(x)\n    return x\n"))
    state_works()
  end)

  it("a missing indented block", function()
    assert.are.equal("<string>:2:1: SyntaxError: expected an indented block after function definition on line 1\n"
      .. "    return x\n"
      .. "    ^", create_error("def f(x):\nreturn x\n"))
  end)

  it("a bad dedent", function()
    assert.are.equal("<string>:3:3: SyntaxError: unindent does not match any outer indentation level\n"
      .. "      y = 1\n"
      .. "      ^", create_error("def f(x):\n    return x\n  y = 1\n"))
  end)

  it("an unclosed bracket points at the bracket", function()
    assert.are.equal("<string>:2:12: SyntaxError: '(' was never closed\n"
      .. "        return (a\n"
      .. "               ^", create_error("def f(a):\n    return (a\n"))
  end)

  it("an invalid character and a bad literal", function()
    assert.are.equal("<string>:2:14: SyntaxError: invalid character '$'\n"
      .. "        return a $ 2\n"
      .. "                 ^", create_error("def f(a):\n    return a $ 2\n"))
    assert.are.equal("<string>:2:9: SyntaxError: invalid hexadecimal literal\n"
      .. "        x = 0x\n"
      .. "            ^", create_error("def f(a):\n    x = 0x\n"))
    state_works()
  end)

  it("carries the chunk name of the options ('@' and '=' prefixes dropped, as Lua does)", function()
    assert.are.equal("kernels.py:2:15: SyntaxError: expected an expression\n"
      .. "        return x +\n"
      .. "                  ^", create_error("def f(x):\n    return x +\n", { chunkname = "@kernels.py" }))
    assert.are.equal("mine:2:15: SyntaxError: expected an expression\n"
      .. "        return x +\n"
      .. "                  ^", create_error("def f(x):\n    return x +\n", { chunkname = "=mine" }))
  end)

  it("a source without a def", function()
    assert.are.equal("the source defines no function (expected a 'def')", create_error("x = 1\n"))
    assert.are.equal("the source defines no function (expected a 'def')", create_error(""))
  end)
end)

describe("NameError", function()
  it("an undefined name", function()
    local f = njit "def f(x):\n    return y\n"
    assert.are.equal("<string>:2:12: NameError: name 'y' is not defined\n"
      .. "        return y\n"
      .. "               ^", H.error_of(f, 1))
    assert.are.same({}, f.signatures)
    state_works()
  end)

  it("an undefined function", function()
    assert.are.equal("<string>:2:12: NameError: name 'undefined_fn' is not defined\n"
      .. "        return undefined_fn(x)\n"
      .. "               ^", call_error("def f(x):\n    return undefined_fn(x)\n", 1))
  end)

  it("a Lua local is not visible (only env and globals are)", function()
    local hidden = 3   -- luacheck: ignore
    assert.are.equal("<string>:2:16: NameError: name 'hidden' is not defined\n"
      .. "        return x * hidden\n"
      .. "                   ^", call_error("def f(x):\n    return x * hidden\n", 1))
  end)

  it("a global that compiled code cannot use", function()
    assert.are.equal("<string>:2:12: TypingError: 'string' refers to a Lua table, which compiled code cannot use "
      .. "(numbers and lumba functions can be used)\n"
      .. "        return string\n"
      .. "               ^", call_error("def f(x):\n    return string\n", 1))
  end)
end)

describe("TypingError", function()
  it("a variable whose types cannot unify names the variable, both types and both places", function()
    -- (in a branch: a top-level assignment starts a new variable, as Numba's SSA form)
    local f = njit "def f(a, c):\n    y = 1\n    if c:\n        y = a\n    return y\n"
    assert.are.equal("<string>:4:9: TypingError: cannot unify int64 and float64[:] for variable 'y' (typed int64 at 2:5)\n"
      .. "            y = a\n"
      .. "            ^", H.error_of(f, lumba.zeros(2), true))
    -- the same dispatcher still works with arguments that type
    assert.are.equal(2.5, f(2.5, true))
    assert.are.equal(1, #f.signatures)
    state_works()
  end)

  it("cannot shift float64[:] by a bool", function()
    local f = njit "def f(a, b):\n    return a << b\n"
    assert.are.equal("<string>:2:12: TypingError: ufunc 'left_shift' is not supported for the input types "
      .. "float64[:] and bool (operator <<)\n"
      .. "        return a << b\n"
      .. "               ^", H.error_of(f, lumba.zeros(2), true))
    assert.are.equal(2, f(1, true))
  end)

  it("the error of a callee points into the callee", function()
    local f = njit "def f(x):\n    return g(x, True)\n\ndef g(a, b):\n    return a << b\n"
    assert.are.equal("<string>:5:12: TypingError: ufunc 'left_shift' is not supported for the input types "
      .. "float64[:] and bool (operator <<)\n"
      .. "        return a << b\n"
      .. "               ^", H.error_of(f, lumba.zeros(2)))
    assert.are.equal(2, f(1))
  end)

  it("return types that cannot unify", function()
    assert.are.equal("<string>:4:5: TypingError: cannot unify return types int64 and (int64, int64) (the other return is at 3:9)\n"
      .. "        return (x, x)\n"
      .. "        ^", call_error("def f(x):\n    if x > 0:\n        return x\n    return (x, x)\n", 1))
  end)

  it("an array as a condition", function()
    assert.are.equal("<string>:3:8: TypingError: float64[:] cannot be used as a condition (the truth value of an array is ambiguous)\n"
      .. "        if x:\n"
      .. "           ^", call_error("def f(x):\n    y = 1\n    if x:\n        y = 2\n    return y\n", lumba.zeros(2)))
  end)

  it("bad indices", function()
    assert.are.equal("<string>:2:14: TypingError: array indices must be integers, not float64\n"
      .. "        return a[1.5]\n"
      .. "                 ^", call_error("def f(a):\n    return a[1.5]\n", lumba.zeros(2)))
    assert.are.equal("<string>:2:12: TypingError: too many indices for array: array is 1-dimensional, but 2 were indexed\n"
      .. "        return a[1, 2]\n"
      .. "               ^", call_error("def f(a):\n    return a[1, 2]\n", lumba.zeros(2)))
    assert.are.equal("<string>:2:9: TypingError: int64 cannot be indexed\n"
      .. "        y = x[0]\n"
      .. "            ^", call_error("def f(x):\n    y = x[0]\n    return y\n", 1))
  end)

  it("unknown attributes and functions", function()
    assert.are.equal("<string>:2:12: TypingError: float64[:] has no attribute 'foo'\n"
      .. "        return a.foo\n"
      .. "               ^", call_error("def f(a):\n    return a.foo\n", lumba.zeros(2)))
    assert.are.equal("<string>:2:12: TypingError: np.foo is not supported in compiled code\n"
      .. "        return np.foo(a)\n"
      .. "               ^", call_error("def f(a):\n    return np.foo(a)\n", 1))
    assert.are.equal("<string>:2:12: TypingError: unknown function math.foo\n"
      .. "        return math.foo(a)\n"
      .. "               ^", call_error("def f(a):\n    return math.foo(a)\n", 1))
  end)

  it("calls with wrong arguments", function()
    local src = "def f(a):\n    return g(%s)\n\ndef g(a, b):\n    return a\n"
    assert.are.equal("<string>:2:17: TypingError: g() got an unexpected keyword argument 'c'\n"
      .. "        return g(a, c=1)\n"
      .. "                    ^", call_error(src:format("a, c=1"), 1))
    assert.are.equal("<string>:2:12: TypingError: g() missing required argument 'a'\n"
      .. "        return g()\n"
      .. "               ^", call_error(src:format(""), 1))
    assert.are.equal("<string>:2:12: TypingError: g() takes 2 arguments but 3 were given\n"
      .. "        return g(1, 2, 3)\n"
      .. "               ^", call_error(src:format("1, 2, 3"), 1))
    assert.are.equal("<string>:2:17: TypingError: g() got multiple values for argument 'a'\n"
      .. "        return g(1, a=2)\n"
      .. "                    ^", call_error(src:format("1, a=2"), 1))
  end)

  it("unpacking the wrong number of values", function()
    assert.are.equal("<string>:2:12: TypingError: cannot unpack a tuple of 3 values into 2 variables\n"
      .. "        b, c = (1, 2, 3)\n"
      .. "               ^", call_error("def f(a):\n    b, c = (1, 2, 3)\n", 1))
  end)

  it("array methods reject arguments they do not support", function()
    assert.are.equal("<string>:2:12: TypingError: ndarray.sum() takes at most 1 positional argument (2 given)\n"
      .. "        return a.sum(1, 2)\n"
      .. "               ^", call_error("def f(a):\n    return a.sum(1, 2)\n", lumba.zeros { 2, 2 }))
    assert.are.equal("<string>:2:12: TypingError: copy() takes no arguments (1 given)\n"
      .. "        return a.copy(1)\n"
      .. "               ^", call_error("def f(a):\n    return a.copy(1)\n", lumba.zeros { 2, 2 }))
    assert.are.equal("<string>:2:27: TypingError: transpose(): repeated axis in transpose\n"
      .. "        return a.transpose(0, 0)\n"
      .. "                              ^", call_error("def f(a):\n    return a.transpose(0, 0)\n", lumba.zeros { 2, 2 }))
  end)
end)

describe("UnsupportedError", function()
  it("'with' statements", function()
    assert.are.equal("<string>:2:5: UnsupportedError: 'with' statements are not supported in compiled code\n"
      .. "        with x:\n"
      .. "        ^", create_error("def f(x):\n    with x:\n        pass\n"))
    state_works()
  end)

  it("classes", function()
    assert.are.equal("<string>:2:5: UnsupportedError: 'class' definitions are not supported in compiled code\n"
      .. "        class A:\n"
      .. "        ^", create_error("def f(x):\n    class A:\n        pass\n"))
  end)

  it("lambdas", function()
    assert.are.equal("<string>:2:9: UnsupportedError: lambda expressions are not supported in compiled code\n"
      .. "        g = lambda y: y\n"
      .. "            ^", create_error("def f(x):\n    g = lambda y: y\n    return x\n"))
  end)

  it("try statements", function()
    assert.are.equal("<string>:2:5: UnsupportedError: 'try' statements are not supported in compiled code\n"
      .. "        try:\n"
      .. "        ^", create_error("def f(x):\n    try:\n        x = 1\n    except:\n        pass\n    return x\n"))
  end)

  it("lists, dicts, strings, generators and comprehensions", function()
    assert.are.equal("<string>:2:9: UnsupportedError: lists are not supported in compiled code (use a tuple or an array)\n"
      .. "        y = [1, 2]\n"
      .. "            ^", call_error("def f(x):\n    y = [1, 2]\n    return x\n", 1))
    assert.are.equal("<string>:2:9: UnsupportedError: dict displays are not supported in compiled code\n"
      .. "        y = {1: 2}\n"
      .. "            ^", create_error("def f(x):\n    y = {1: 2}\n    return x\n"))
    assert.are.equal("<string>:2:9: UnsupportedError: strings are only supported as messages of raise and assert\n"
      .. "        y = 'abc'\n"
      .. "            ^", call_error("def f(x):\n    y = 'abc'\n    return x\n", 1))
    assert.are.equal("<string>:2:5: UnsupportedError: generators ('yield') are not supported in compiled code\n"
      .. "        yield x\n"
      .. "        ^", create_error("def f(x):\n    yield x\n"))
    assert.are.equal("<string>:2:12: UnsupportedError: list comprehensions are not supported in compiled code\n"
      .. "        return [i for i in range(x)]\n"
      .. "               ^", create_error("def f(x):\n    return [i for i in range(x)]\n"))
    state_works()
  end)

  it("print, 'is', '@' and raise with a non-literal message", function()
    assert.are.equal("<string>:2:5: UnsupportedError: print() is not supported in compiled code\n"
      .. "        print(x)\n"
      .. "        ^", call_error("def f(x):\n    print(x)\n", 1))
    assert.are.equal("<string>:2:12: UnsupportedError: 'is' comparisons are not supported in compiled code\n"
      .. "        return x is None\n"
      .. "               ^", call_error("def f(x):\n    return x is None\n", 1))
    assert.are.equal("<string>:2:12: TypingError: the @ operator needs arrays, not int64 and int64\n"
      .. "        return x @ x\n"
      .. "               ^", call_error("def f(x):\n    return x @ x\n", 1))
    assert.are.equal("<string>:2:11: UnsupportedError: exception arguments must be one string literal\n"
      .. "        raise ValueError(a)\n"
      .. "              ^", call_error("def f(a):\n    raise ValueError(a)\n", 1))
  end)
end)

describe("after errors", function()
  it("a dispatcher that failed for one signature compiles others, and its failed signature again fails the same way", function()
    local f = njit "def f(a, b):\n    return a[0] + b\n"
    local msg = H.error_of(f, 1, 2)
    assert.are.equal("<string>:2:12: TypingError: int64 cannot be indexed\n"
      .. "        return a[0] + b\n"
      .. "               ^", msg)
    assert.are.equal(3.0, f(lumba.ones(1), 2))
    assert.are.equal(msg, H.error_of(f, 1, 2))
    assert.are.equal(3.0, f(lumba.ones(1), 2))
    assert.are.equal(1, #f.signatures)
  end)

  it("many failed compilations leave no leaked arrays and a working state", function()
    collectgarbage()
    collectgarbage()
    local before = lumba._live_meminfos()
    for _ = 1, 50 do
      local f = njit "import numpy as np\ndef f(n):\n    a = np.zeros(n)\n    return a << True\n"
      pcall(f, 3)
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, lumba._live_meminfos())
    state_works()
  end)

  it("runtime errors inside coroutines leave the coroutine dead and the state usable", function()
    local f = njit "def f(a, b):\n    return a // b\n"
    local co = coroutine.create(function() return f(1, 0) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.are.equal("ZeroDivisionError: integer division or modulo by zero", H.message(err))
    assert.are.equal("dead", coroutine.status(co))
    assert.are.equal(3, f(7, 2))
  end)
end)

-- issue 24 item 3: a mistyped option is named, at the line of the user's call
describe("a mistyped option", function()
  local here = "tests/errors_spec.lua:"
  local src = "def f(x):\n    return x\n"
  local function err_at(f)
    local line = debug.getinfo(2, "l").currentline + 1
    local ok, e = pcall(f)
    assert.is_false(ok)
    return e, here .. line .. ": "
  end

  it("is named with its expected type, at the call", function()
    local e, at = err_at(function()
      local f = njit { chunkname = { 1 } } (src); return f end)
    assert.are.equal(at .. "bad option 'chunkname' to 'njit' (string expected, got table)", e)
    e, at = err_at(function()
      local f = njit { boundscheck = { 1 } } (src); return f end)
    assert.are.equal(at .. "bad option 'boundscheck' to 'njit' (boolean expected, got table)", e)
    e, at = err_at(function()
      local f = njit({ env = 1 }, src); return f end)
    assert.are.equal(at .. "bad option 'env' to 'njit' (table expected, got number)", e)
    e, at = err_at(function()
      local f = lumba.jit { cache = "yes" } (src); return f end)
    assert.are.equal(at .. "bad option 'cache' to 'jit' (boolean expected, got string)", e)
    e, at = err_at(function()
      local m = lumba.load(src, { env = 1 }); return m end)
    assert.are.equal(at .. "bad option 'env' to 'load' (table expected, got number)", e)
    -- right types still work
    assert.are.equal(2, njit { boundscheck = false, env = {}, chunkname = "k.py" } (src)(2))
  end)
end)
