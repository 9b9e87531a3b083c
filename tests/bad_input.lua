-- The rows of tests/BAD_INPUT.md that run as one Lua chunk each: bad input
-- of every kind, with the whole message it must raise (or, for the few
-- documented non-errors, the values it must return). Shared by
-- tests/bad_input_spec.lua (in-process) and tests/bad_input_child.lua (the
-- same rows in a child process first, so that a crash fails a test instead
-- of killing the runner).
--
-- A row: { "what", [[Lua chunk]], err = "whole message" } or returns = "v1, v2".
-- The chunk sees `lumba`, ADD (a two-argument def) and SIM (runs a function
-- with the CUDA simulator on) and is named "row" ("row:1:" in positions).
local lumba = require "lumba"
local B = {}

local ADD = "def f(a, b):\n    return a + b\n"

B.rows = {
  -- ---- sources that are not sources ----
  { "source of the wrong type", [[return (lumba.njit(42))]],
    err = "row:1: bad argument #1 to 'njit' (source string, function, AST table, options table or signature expected, got number)" },
  { "source without a def", [[return lumba.njit("x = 1\n")]],
    err = "the source defines no function (expected a 'def')" },
  { "empty source", [[return lumba.njit("")]],
    err = "the source defines no function (expected a 'def')" },
  { "name= naming no def", [[return lumba.njit{name = "g"}("def f():\n    pass\n")]],
    err = "no function named 'g' in the source" },

  -- ---- malformed and unsupported source ----
  { "syntax error", [[return lumba.njit("def f(:\n    pass\n")]],
    err = "<string>:1:7: SyntaxError: expected a parameter name, found ':'\n    def f(:\n          ^" },
  { "null byte in the source", [[return lumba.njit("def f(x):\n    return x\0\n")]],
    err = "<string>:2:13: SyntaxError: source code cannot contain null bytes\n        return x\n                ^" },
  { "unsupported statement", [[return lumba.njit("class A:\n    pass\ndef f(x):\n    return x\n")]],
    err = "<string>:1:1: UnsupportedError: 'class' definitions are not supported in compiled code\n    class A:\n    ^" },
  { "unsupported expression", [[return lumba.njit("def f(x):\n    return lambda y: y\n")]],
    err = "<string>:2:12: UnsupportedError: lambda expressions are not supported in compiled code\n" ..
          "        return lambda y: y\n               ^" },
  { "a function name of 1000 characters", [[
      local name = string.rep("a", 1000)
      local f = lumba.njit("def " .. name .. "(x=3):\n    return x\n")
      return f(), #f.name]], returns = "3, 1000" },
  { "name= of 200 characters", [[
      local name = string.rep("b", 200)
      return lumba.njit{ name = name }("def f():\n    return 1\ndef " .. name .. "():\n    return 2\n")()]],
    returns = "2" },
  { "too many parameters", [[
      local ps = {}
      for i = 1, 65 do ps[i] = "p" .. i end
      return lumba.njit("def f(" .. table.concat(ps, ", ") .. "):\n    return 0\n")]],
    err = "f() has too many parameters (at most 64)" },

  -- ---- typing errors ----
  { "undefined name", [[return lumba.njit("def f(x):\n    return nope + x\n")(3)]],
    err = "<string>:2:12: NameError: name 'nope' is not defined\n        return nope + x\n               ^" },
  { "operands that do not shift", [[return lumba.njit("def f(a, b):\n    return a << b\n")(lumba.zeros(2), true)]],
    err = "<string>:2:12: TypingError: ufunc 'left_shift' is not supported for the input types float64[:] and bool (operator <<)\n" ..
          "        return a << b\n               ^" },
  { "print in compiled code", [[return lumba.njit("def f(x):\n    print(x)\n")(3)]],
    err = "<string>:2:5: UnsupportedError: print() is not supported in compiled code\n        print(x)\n        ^" },
  { "a string value", [[return lumba.njit("def f(x):\n    return 's'\n")(3)]],
    err = "<string>:2:12: UnsupportedError: strings are only supported as messages of raise and assert\n" ..
          "        return 's'\n               ^" },
  { "return types that do not unify", [[return lumba.njit("def f(x):\n    if x > 0:\n        return 1\n    return np.zeros(3)\n")(3)]],
    err = "<string>:4:5: TypingError: cannot unify return types int64 and float64[:] (the other return is at 3:9)\n" ..
          "        return np.zeros(3)\n        ^" },
  { "a global Lua function", [[return lumba.njit{ env = { g = print } }("def f(x):\n    return g(x)\n")(3)]],
    err = "<string>:2:12: TypingError: 'g' refers to a Lua function, which compiled code cannot use (numbers and lumba functions can be used)\n" ..
          "        return g(x)\n               ^" },
  { "a global Lua table", [[return lumba.njit{ env = { g = {} } }("def f(x):\n    return g + x\n")(3)]],
    err = "<string>:2:12: TypingError: 'g' refers to a Lua table, which compiled code cannot use (numbers and lumba functions can be used)\n" ..
          "        return g + x\n               ^" },
  { "a global number called", [[return lumba.njit{ env = { g = 5 } }("def f(x):\n    return g(x)\n")(3)]],
    err = "<string>:2:12: TypingError: a number is not callable\n        return g(x)\n               ^" },
  { "an unknown attribute", [[return lumba.njit("def f(x):\n    return x.foo\n")(lumba.zeros(3))]],
    err = "<string>:2:12: TypingError: float64[:] has no attribute 'foo'\n        return x.foo\n               ^" },
  { "indexing a number", [[return lumba.njit("def f(x):\n    return x[0]\n")(3)]],
    err = "<string>:2:12: TypingError: int64 cannot be indexed\n        return x[0]\n               ^" },

  -- ---- nesting and size ----
  { "parentheses 100000 deep", [[
      local ok, e = pcall(lumba.njit, "def f(x):\n    return " .. string.rep("(", 100000) .. "x" .. string.rep(")", 100000) .. "\n")
      return ok, e:match("^[^\n]*")]], returns = "false, <string>:2:211: SyntaxError: too deeply nested" },
  { "unary minus 100000 deep", [[
      local ok, e = pcall(lumba.njit, "def f(x):\n    return " .. string.rep("-", 100000) .. "x\n")
      return ok, e:match("^[^\n]*")]], returns = "false, <string>:2:211: SyntaxError: too deeply nested" },
  { "a sum of 100000 terms", [[
      local ok, e = pcall(lumba.njit, "def f(x):\n    return x" .. string.rep(" + x", 100000) .. "\n")
      return ok, e:match("^[^\n]*")]], returns = "false, <string>:2:814: SyntaxError: too deeply nested" },
  { "blocks 300 deep", [[
      local t = { "def f(x):\n" }
      for i = 1, 300 do t[#t + 1] = string.rep("    ", i) .. "if x:\n" end
      t[#t + 1] = string.rep("    ", 301) .. "pass\n"
      local ok, e = pcall(lumba.njit, table.concat(t))
      return ok, e:match("^[^\n]*")]], returns = "false, <string>:201:804: SyntaxError: too deeply nested" },
  { "a 10 MB source", [[
      local body = string.rep("    x = x + 1\n", 20000)
      local pad = string.rep("# " .. string.rep("c", 98) .. "\n", 100000)
      local f = lumba.njit(pad .. "def f(x):\n" .. body .. "    return x\n" .. pad)
      return f(1)]], returns = "20001" },
  { "an identifier of one million characters", [[
      local name = string.rep("v", 1000000)
      return lumba.njit("def f(x):\n    " .. name .. " = x\n    return " .. name .. " * 2\n")(21)]],
    returns = "42" },

  -- ---- Lua-table ASTs ----
  { "AST: a node without a tag", [[return lumba.njit({ tag = "Module", body = { {} } })]],
    err = "ast: Module.body[1]: node table without a tag" },
  { "AST: an unknown tag", [[return lumba.njit({ tag = "Module", body = { { tag = "Bogus" } } })]],
    err = "ast: Module.body[1]: unknown node tag 'Bogus'" },
  { "AST: a cycle", [[
      local t = lumba.parse("def f(x):\n    return x + 1\n")
      local b = t.body[1].body[1].value
      b.left = b
      return lumba.njit(t)]],
    err = "ast: BinOp.left at line 2, col_offset 11: too deeply nested (a cycle?)" },
  { "AST: 100000 nested nodes", [[
      local n = { tag = "Name", id = "x", ctx = "Load" }
      for _ = 1, 100000 do n = { tag = "UnaryOp", op = "USub", operand = n } end
      local def = { tag = "FunctionDef", name = "f", args = { tag = "arguments", args = { { tag = "arg", arg = "x" } } },
                    body = { { tag = "Return", value = n } } }
      return lumba.njit(def)]],
    err = "ast: UnaryOp.operand: too deeply nested (a cycle?)" },
  { "AST: a field of the wrong type", [[
      local t = lumba.parse("def f(x):\n    return x + 1\n")
      t.body[1].body[1].value.op = 7
      return lumba.njit(t)]],
    err = "ast: BinOp.op at line 2, col_offset 11: expected an operator name, got number" },
  { "AST: an unknown operator", [[
      local t = lumba.parse("def f(x):\n    return x + 1\n")
      t.body[1].body[1].value.op = "Matmul"
      return lumba.njit(t)]],
    err = "ast: BinOp.op at line 2, col_offset 11: unknown operator 'Matmul'" },
  { "AST: a name with a NUL byte", [[
      local t = lumba.parse("def f(x):\n    return x\n")
      t.body[1].name = "f\0g"
      return lumba.njit(t)]],
    err = "ast: FunctionDef.name at line 1, col_offset 0: 'f' is not a valid identifier" },
  { "AST: a negative line number", [[
      local t = lumba.parse("def f(x):\n    return x\n")
      t.body[1].body[1].lineno = -5
      return lumba.njit(t)]],
    err = "ast: Return.lineno: expected a non-negative integer, got -5" },
  { "AST: a table constant", [[
      local t = lumba.parse("def f(x):\n    return x + 1\n")
      t.body[1].body[1].value.right.value = {}
      return lumba.njit(t)]],
    err = "ast: Constant.value at line 2, col_offset 15: expected nil, a number, a boolean or a string, got table" },
  { "AST: a list with a hole", [[
      local t = lumba.parse("def f(x):\n    x = 1\n    return x\n")
      t.body[1].body[1] = nil
      return lumba.njit(t)]],
    err = "ast: FunctionDef.body[1] at line 1, col_offset 0: expected a node table, got nil" },
  { "AST: a proxy table whose reads raise", [[
      return lumba.njit({ tag = "Module", body = setmetatable({}, { __index = function() error("boom") end }) })]],
    err = "the source defines no function (expected a 'def')" },

  -- ---- options and signatures ----
  { "an unknown option", [[local f = lumba.njit{ bogus = 1 }(ADD)]],
    err = "row:1: unknown option 'bogus'" },
  { "a bad target", [[local f = lumba.njit{ target = "tpu" }(ADD)]],
    err = "row:1: target must be 'cpu' or 'cuda'" },
  { "a bad error_model", [[local f = lumba.njit{ error_model = 3 }(ADD)]],
    err = "row:1: error_model must be 'python' or 'numpy'" },
  { "options of the wrong type", [[local f = lumba.njit(true, ADD)]],
    err = "row:1: bad argument #1 to 'njit' (source string, function, AST table, options table or signature expected, got boolean)" },
  { "a malformed signature", [[local f = lumba.njit("float64(float64", ADD)]],
    err = "row:1: bad signature: expected ',' or ')' in 'float64(float64'" },
  { "a signature of the wrong arity", [[local f = lumba.njit("float64(float64)", ADD)]],
    err = "row:1: the signature has 1 arguments but f() takes 2" },
  { "a signature with an unknown type", [[local f = lumba.njit("int128(int128, int128)", ADD)]],
    err = "row:1: bad signature: unknown type 'int128'" },
  { "a signature with 9 dimensions", [[local f = lumba.njit("float64(float64[:,:,:,:,:,:,:,:,:], float64)", ADD)]],
    err = "row:1: bad signature: arrays have at most 8 dimensions" },
  { "a signature of 10000 parentheses", [[local f = lumba.njit(string.rep("(", 10000), ADD)]],
    err = "row:1: bad signature: expected a type near ''" },
  { "a signature list with a number", [[local f = lumba.njit({ "float64(float64, float64)", 7 }, ADD)]],
    err = "row:1: bad signature: unknown type '7'" },
  { "a return type the function does not return", [[local f = lumba.njit("float64[:](float64, float64)", ADD)]],
    err = "<string>:1:1: TypingError: the signature returns float64[:] but f() returns float64\n    def f(a, b):\n    ^" },
  { "a call that fits no eager signature", [[return lumba.njit("float64(float64, float64)", ADD)(lumba.zeros(1), 1)]],
    err = "f: no compiled signature matches the argument types (float64[::1], int64)" },

  -- ---- arguments ----
  { "too few arguments", [[return lumba.njit(ADD)(1)]], err = "row:1: f() takes 2 arguments but 1 were given" },
  { "too many arguments", [[return lumba.njit(ADD)(1, 2, 3)]], err = "row:1: f() takes 2 arguments but 3 were given" },
  { "a string argument", [[return lumba.njit(ADD)("1", 2)]],
    err = "bad argument #1 to 'f' (a string argument must name a dtype such as \"float64\", got \"1\")" },
  { "a nil argument", [[return lumba.njit(ADD)(1, nil)]],
    err = "bad argument #2 to 'f' (number, boolean, table or lumba.ndarray expected, got nil)" },
  { "a foreign userdata argument", [[return lumba.njit(ADD)(io.stdout, 1)]],
    err = "bad argument #1 to 'f' (number, boolean, table or lumba.ndarray expected, got userdata)" },
  { "a dispatcher as an argument", [[local f = lumba.njit(ADD); return f(f, 1)]],
    err = "bad argument #1 to 'f' (number, boolean, table or lumba.ndarray expected, got userdata)" },
  { "a coroutine argument", [[return lumba.njit(ADD)(coroutine.create(print), 1)]],
    err = "bad argument #1 to 'f' (number, boolean, table or lumba.ndarray expected, got thread)" },
  { "a closed array", [[local a = lumba.zeros(3); a:close(); return lumba.njit(ADD)(a, 1)]],
    err = "row:1: attempt to use a closed array" },
  { "a closed array after a first call", [[
      local f = lumba.njit("def f(a):\n    return a.sum()\n")
      local a = lumba.ones(3)
      local before = f(a)
      a:close()
      local ok, e = pcall(f, a)
      return before, ok, e]], returns = "3.0, false, attempt to use a closed array" },
  { "arguments of 300 distinct types", [[
      local f = lumba.njit("def f(a, b):\n    return 0\n")
      local dts = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64" }
      local n = 0
      for nd = 1, 3 do
        for i = 1, 10 do
          for j = 1, 10 do
            local shape = {}
            for k = 1, nd do shape[k] = 1 end
            n = n + 1
            if n > 256 then return f(lumba.zeros(shape, dts[i]), lumba.zeros(1, dts[j])) end
            f(lumba.zeros(shape, dts[i]), lumba.zeros(1, dts[j]))
          end
        end
      end]],
    err = "row:10: f: too many specializations (256); pass arguments of fewer distinct types" },

  { "a shape with a zero and a huge dimension", [[return (lumba.zeros({0, math.maxinteger}, "int32"))]],
    err = "row:1: bad argument #1 to 'zeros' (array is too big: {0, 9223372036854775807} int32 elements take more than 2^63 bytes)" },
  { "reshape of an empty array to a huge shape", [[return (lumba.zeros(0):reshape(0, 1 << 62))]],
    err = "row:1: array is too big: {0, 4611686018427387904} float64 elements take more than 2^63 bytes" },
  { "zeros of 16 GiB costs no memory until written", [[
      local function rss()
        for l in io.lines("/proc/self/status") do
          local kb = l:match("^VmRSS:%s*(%d+)")
          if kb then return tonumber(kb) * 1024 end
        end
      end
      -- valgrind's calloc writes every byte: there the row would touch 16 GiB
      if (os.getenv("LD_PRELOAD") or ""):find("vgpreload") then return "ok", "1.0 2.0 0.0" end
      local before = rss()
      local ok, a = pcall(lumba.zeros, 1 << 31)
      -- where the system refuses 16 GiB at once, the refusal is the clean error
      if not ok then
        return a == "not enough memory for an array of 17179869184 bytes" and "ok" or a, "1.0 2.0 0.0"
      end
      a[1], a[1 << 31] = 1, 2
      local grew = rss() - before
      local r = { a:get(1), a:get(1 << 31), a:get(12345) }
      a:close()
      return grew < (1 << 28) and "ok" or ("RSS grew by " .. grew), table.concat(r, " ")]],
    returns = "ok, 1.0 2.0 0.0" },

  -- ---- failures inside compiled code (never a signal) ----
  { "integer division by zero", [[return lumba.njit("def f(a, b):\n    return a // b\n")(1, 0)]],
    err = "ZeroDivisionError: integer division or modulo by zero\n<string>:2:5: in f\n    return a // b" },
  { "integer modulo by zero", [[return lumba.njit("def f(a, b):\n    return a % b\n")(7, 0)]],
    err = "ZeroDivisionError: integer division or modulo by zero\n<string>:2:5: in f\n    return a % b" },
  { "-2^63 // -1 and % -1 (SIGFPE in C)", [[
      local f = lumba.njit("def f(a, b):\n    return a // b, a % b\n")
      return f(math.mininteger, -1)]], returns = "-9223372036854775808, 0" },
  { "true division by zero", [[return lumba.njit("def f(a, b):\n    return a / b\n")(1, 0)]],
    err = "ZeroDivisionError: division by zero\n<string>:2:5: in f\n    return a / b" },
  { "float modulo by zero", [[return lumba.njit("def f(a, b):\n    return a % b\n")(1.5, 0.0)]],
    err = "ZeroDivisionError: division by zero\n<string>:2:5: in f\n    return a % b" },
  { "division by zero with error_model numpy", [[return lumba.njit{ error_model = "numpy" }("def f(a, b):\n    return a / b\n")(1, 0)]],
    returns = "inf" },
  { "0 to a negative power", [[return lumba.njit("def f(a, b):\n    return a ** b\n")(0, -1)]],
    err = "ZeroDivisionError: 0 cannot be raised to a negative power\n<string>:2:5: in f\n    return a ** b" },
  { "a negative shift count", [[return lumba.njit("def f(a, b):\n    return a << b\n")(1, -1)]],
    err = "ValueError: negative shift count\n<string>:2:5: in f\n    return a << b" },
  { "shifts of 64 bits and more", [[return lumba.njit("def f(a, b):\n    return a << b, a >> b, -a >> b\n")(1, 64)]],
    returns = "0, 0, -1" },
  { "int() of nan and infinities (saturates, as Numba on x86)", [[
      local f = lumba.njit("def f(x):\n    return int(x)\n")
      return f(0 / 0), f(math.huge), f(-math.huge), f(1e300)]],
    returns = "0, 9223372036854775807, -9223372036854775808, 9223372036854775807" },
  { "range() with step 0", [[return lumba.njit("def f(n, s):\n    for i in range(0, n, s):\n        pass\n    return 1\n")(5, 0)]],
    err = "ValueError: range() arg 3 must not be zero\n<string>:2:5: in f\n    for i in range(0, n, s):" },
  { "np.zeros with a negative size", [[return lumba.njit("def f(n):\n    return np.zeros(n)\n")(-1)]],
    err = "ValueError: negative dimensions are not allowed\n<string>:2:5: in f\n    return np.zeros(n)" },
  { "np.zeros of 2^62 elements", [[return lumba.njit("def f(n):\n    return np.zeros(n)\n")(1 << 62)]],
    err = "MemoryError: array is too big\n<string>:2:5: in f\n    return np.zeros(n)" },
  { "np.zeros whose shape product overflows", [[return lumba.njit("def f(n):\n    return np.zeros((n, n))\n")(1 << 40)]],
    err = "MemoryError: array is too big\n<string>:2:5: in f\n    return np.zeros((n, n))" },
  { "np.empty with a zero and a huge dimension", [[
      local f = lumba.njit("def f(n):\n    return np.empty((n, 0))\n")
      local ok, e = pcall(f, 1 << 62)
      return ok, e, f(5).shape[1], f(5).size]],
    returns = "false, MemoryError: array is too big\n<string>:2:5: in f\n    return np.empty((n, 0)), 5, 0" },
  { "np.arange with step 0", [[return lumba.njit("def f(n):\n    return np.arange(0, n, 0)\n")(5)]],
    err = "ValueError: arange: step must not be zero\n<string>:2:5: in f\n    return np.arange(0, n, 0)" },
  { "an index out of bounds with boundscheck", [[
      return lumba.njit{ boundscheck = true }("def f(a, i, j):\n    return a[i, j]\n")(lumba.zeros({2, 3}), 1, 5)]],
    err = "IndexError: index 5 out of bounds for axis 1 with size 3\n<string>:2:5: in f\n    return a[i, j]" },
  { "a negative index out of bounds with boundscheck", [[
      return lumba.njit{ boundscheck = true }("def f(a, i):\n    a[i] = 1\n")(lumba.zeros(3), math.mininteger)]],
    err = "IndexError: index -9223372036854775808 out of bounds for axis 0 with size 3\n<string>:2:5: in f\n    a[i] = 1" },
  { "a failed assert", [[return lumba.njit("def f(x):\n    assert x > 0, 'x must be positive'\n    return x\n")(-1)]],
    err = "AssertionError: x must be positive\n<string>:2:5: in f\n    assert x > 0, 'x must be positive'" },
  { "raise", [[return lumba.njit("def f(x):\n    raise ValueError('bad x')\n")(1)]],
    err = "ValueError: bad x\n<string>:2:5: in f\n    raise ValueError('bad x')" },
  { "falling off the end of a function that returns", [[return lumba.njit("def f(x):\n    if x > 0:\n        return 1, 2\n")(-1)]],
    err = "TypeError: function ended without returning a value\n<string>:2:5: in f\n    if x > 0:" },
  { "recursion 10^8 deep", [[
      return lumba.njit("def f(n):\n    if n <= 0:\n        return 0\n    return 1 + f(n - 1)\n")(100000000)]],
    err = "RecursionError: maximum recursion depth exceeded\n<string>:4:5: in f\n    return 1 + f(n - 1)" },
  { "mutual recursion 10^8 deep", [[
      local m = lumba.load("def f(n):\n    if n <= 0:\n        return 0\n    return g(n - 1) + 1\n\ndef g(n):\n    return f(n) * 1\n")
      return m.f(100000000)]],
    err = "RecursionError: maximum recursion depth exceeded\n<string>:7:5: in g\n    return f(n) * 1" },
  { "recursion that allocates arrays, 10^8 deep", [[
      local f = lumba.njit("def f(n):\n    a = np.ones(3)\n    if n <= 0:\n        return a\n    b = f(n - 1)\n    b[0] += a[1]\n    return b\n")
      local live = lumba._live_meminfos()
      local ok, e = pcall(f, 100000000)
      local leaked = lumba._live_meminfos() - live  -- every level's arrays released
      return ok, e, leaked, f(10)]],
    returns = "false, RecursionError: maximum recursion depth exceeded\n<string>:5:5: in f\n    b = f(n - 1), 0, array([11.,  1.,  1.])" },
  { "deep recursion inside prange workers", [[
      local f = lumba.njit{ parallel = true, name = "f" }(
        "def r(n):\n    if n <= 0:\n        return 0\n    return 1 + r(n - 1)\n\n" ..
        "def f(n, d):\n    s = 0\n    for i in prange(n):\n        s += r(d)\n    return s\n")
      local ok, e = pcall(f, 4, 100000000)
      return ok, e, f(4, 1000)]],
    returns = "false, RecursionError: maximum recursion depth exceeded\n<string>:4:5: in r\n    return 1 + r(n - 1), 4000" },
  { "recursion 20000 deep still works", [[
      return lumba.njit("def f(n):\n    if n <= 0:\n        return 0\n    return 1 + f(n - 1)\n")(20000)]],
    returns = "20000" },
  { "mutual recursion through two dispatchers", [[
      local env = {}
      env.f = lumba.njit{ env = env }("def f(n):\n    if n <= 0:\n        return 0\n    return g(n - 1)\n")
      env.g = lumba.njit{ env = env }("def g(n):\n    return f(n) + 1\n")
      return env.f(10)]],
    err = "<string>:2:12: TypingError: f() calls itself back through other lumba functions, so its type cannot be inferred (define the functions in one source)\n" ..
          "        return f(n) + 1\n               ^" },
  { "range() bounds near 2^63 (the counter would wrap)", [[
      local f = lumba.njit("def f(a, b, c):\n    n = 0\n    last = 0\n    for i in range(a, b, c):\n        n += 1\n        last = i\n    return n, last\n")
      local max, min = math.maxinteger, math.mininteger
      local r = {}
      for _, t in ipairs({ { min, max, max }, { 0, max, 1 << 62 }, { max, min, min }, { min, max, 1 << 62 },
                           { max - 5, max, 2 }, { min + 5, min, -2 }, { max - 2, max, 1 }, { 10, 0, -3 } }) do
        local n, last = f(t[1], t[2], t[3])
        r[#r + 1] = n .. ":" .. last
      end
      return table.concat(r, " ")]],
    returns = "3:9223372036854775806 2:4611686018427387904 2:-1 4:4611686018427387904 " ..
              "3:9223372036854775806 3:-9223372036854775807 2:9223372036854775806 4:1" },
  { "prange() bounds near 2^63", [[
      local f = lumba.njit{ parallel = true }("def f(a, b, c):\n    n = 0\n    for i in prange(a, b, c):\n        n += 1\n    return n\n")
      local max, min = math.maxinteger, math.mininteger
      return f(min, max, max), f(0, max, 1 << 62), f(max, min, min), f(min, max, 1 << 62)]],
    returns = "3, 2, 2, 4" },

  { "a[()] of a 0-d array, read and written", [[
      local a = lumba.array(5.0)
      local old = lumba.njit("def f(a):\n    x = a[()]\n    a[()] = 7.0\n    return x\n")(a)
      return old, a:get()]],
    returns = "5.0, 7.0" },
  { "slice steps of -2^63 and 2^63 - 1", [[
      local f = lumba.njit("def f(a, s):\n    b = a[::s]\n    return b.shape[0], b[0]\n")
      local a = lumba.arange(5.0)
      local n1, x1 = f(a, math.mininteger)
      local n2, x2 = f(a, math.maxinteger)
      return n1, x1, n2, x2]],
    returns = "1, 4.0, 1, 0.0" },
  { "len() of a 0-d array", [[return lumba.njit("def f(a):\n    return len(a)\n")(lumba.array(1.0))]],
    err = "<string>:2:16: TypingError: object of type float64[] has no len()\n        return len(a)\n                   ^" },
  { "iterating a 0-d array", [[return lumba.njit("def f(a):\n    n = 0\n    for x in a:\n        n += 1\n    return n\n")(lumba.array(1.0))]],
    err = "<string>:3:14: TypingError: iteration over a 0-d array (float64[])\n        for x in a:\n                 ^" },
  { "np.arange with bounds near 2^63", [[
      local f = lumba.njit("def f(a, b, c):\n    return np.arange(a, b, c).shape[0]\n")
      local max, min = math.maxinteger, math.mininteger
      local ok, e = pcall(f, min, max, 1)
      return ok, e, f(0, max, 1 << 62), f(max, min, min), f(10, 0, -3), f(0, -5, 1)]],
    returns = "false, MemoryError: array is too big\n<string>:2:5: in f\n    return np.arange(a, b, c).shape[0], 2, 2, 4, 0" },
  { "a tuple indexed by a tuple", [[return lumba.njit("def f(x):\n    t = (3, 4)\n    return t[(1,)]\n")(1)]],
    err = "<string>:3:12: UnsupportedError: tuples can only be indexed by one integer\n        return t[(1,)]\n               ^" },
  { "iterating a tuple of mixed types", [[
      return lumba.njit("def f(x):\n    for v in (1, 2.5, True):\n        x += v\n    return x\n")(1)]],
    returns = "5.5" },
  { "iterating an empty tuple from an AST", [[
      local t = lumba.parse("def f(x):\n    for v in (1,):\n        x[0] = 1\n    else:\n        return 7\n")
      t.body[1].body[1].iter.elts = {}
      t.body[1].body[1].target = lumba.parse("x[0] = 1\n").body[1].targets[1]
      return lumba.njit(t)(lumba.zeros(1))]],
    returns = "7" },

  -- ---- dispatchers used wrongly ----
  { "__call on a foreign value", [[return debug.getmetatable(lumba.njit(ADD)).__call(io.stdout, 1, 2)]],
    err = "row:1: bad argument #1 to '__call' (lumba.dispatcher expected, got FILE*)" },
  { "__gc on a foreign value", [[return debug.getmetatable(lumba.njit(ADD)).__gc(io.stdout)]],
    err = "row:1: bad argument #1 to '__gc' (lumba.dispatcher expected, got FILE*)" },
  { "a method on a foreign value", [[local f = lumba.njit(ADD); return f.inspect_types(io.stdout)]],
    err = "row:1: bad argument #1 to 'inspect_types' (lumba.dispatcher expected, got FILE*)" },
  { "a dispatcher called after its __gc", [[
      local f = lumba.njit(ADD)
      local before = f(1, 2)
      debug.getmetatable(f).__gc(f)
      local ok, e = pcall(f, 1, 2)
      return before, ok, e, tostring(f)]],
    returns = "3, false, attempt to use a collected dispatcher, lumba.dispatcher: (collected)" },
  { "inspect before any compilation", [[return lumba.njit(ADD):inspect_llvm()]],
    err = "row:1: f has not been compiled yet: call it or compile a signature first" },
  { "inspect of a signature never compiled", [[local f = lumba.njit(ADD); f(1, 2); return f:inspect_llvm("float64(float64, float64)")]],
    err = "row:1: f has no specialization for float64(float64, float64)" },

  -- ---- CUDA kernels, on the simulator (no GPU needed) ----
  { "cuda: a launch with a zero grid", [[return SIM(function(k, dx, dout) k[{0, 4}](dx, dout) end)]],
    err = "row:1: launch: zero grid dimension (0x1x1)" },
  { "cuda: more threads per block than the device allows", [[return SIM(function(k, dx, dout) k[{1, 1 << 20}](dx, dout) end)]],
    err = "row:1: launch: 1048576 threads per block (1048576x1x1); the device allows at most 1024" },
  { "cuda: a grid beyond 2^31", [[return SIM(function(k, dx, dout) k[{1 << 40, 1}](dx, dout) end)]],
    err = "row:1: launch: grid 1099511627776 out of range" },
  { "cuda: a launch configuration without threads", [[return SIM(function(k, dx, dout) k[{1}](dx, dout) end)]],
    err = "row:1: a kernel launch needs {blocks, threads_per_block}" },
  { "cuda: a kernel called like a function", [[return SIM(function(k, dx, dout) k(dx, dout) end)]],
    err = "row:1: add is a CUDA kernel: launch it with add[{blocks, threads}](...)" },
  { "cuda: a freed device array", [[return SIM(function(k, dx, dout) dout:free(); k[{1, 8}](dx, dout) end)]],
    err = "row:1: attempt to use a freed device array" },
  { "cuda: a device array of 2^62 elements", [[return SIM(function() return lumba.cuda.device_array(1 << 62, "float64") end)]],
    err = "row:1: device array too large" },
  { "cuda: an index out of bounds in a kernel", [[
      return SIM(function(_, _, dout) lumba.cuda.jit("def oob(out):\n    out[1000000] = 1.0\n")[{1, 1}](dout) end)]],
    err = "IndexError in block (0,0,0) thread (0,0,0): index 1000000 out of bounds for axis 0 with size 8\n"
      .. "<string>:2:5: in oob\n    out[1000000] = 1.0" },
  { "cuda: a barrier only some threads reach", [[
      return SIM(function(_, _, dout)
        lumba.cuda.jit("def bar(out):\n    if cuda.threadIdx.x == 0:\n        cuda.syncthreads()\n    out[0] = 1.0\n")[{1, 4}](dout)
      end)]],
    err = "cuda.syncthreads() in block (0,0,0) was reached by 1 of its 4 threads: the others returned" },

  -- ---- lumba.load ----
  { "load: not a string", [[return (lumba.load(5))]],
    err = "row:1: bad argument #1 to 'load' (source string expected, got number)" },
  { "load: an unknown decorator", [[return lumba.load("@foo\ndef f(x):\n    return x\n")]],
    err = "<string>:1:2: unknown decorator '@foo' on 'f'" },
  { "load: a decorator option that is not a constant", [[return lumba.load("@njit(boundscheck=x)\ndef f(x):\n    return x\n")]],
    err = "lumba.load: decorator option boundscheck must be a constant (line 1)" },
}

-- SIM(f): f(kernel, dx, dout) with the CUDA simulator on (an add-one kernel,
-- x = 0..7 on the device, an 8-element output), the simulator off again after
local function sim(f)
  local cuda = lumba.cuda
  local was = cuda.simulate
  cuda.simulate = true
  local k = cuda.jit("def add(x, out):\n    i = cuda.grid(1)\n    if i < x.shape[0]:\n        out[i] = x[i] + 1\n")
  local res = table.pack(pcall(f, k, cuda.to_device(lumba.arange(8.0)), cuda.device_array(8, "float64")))
  cuda.simulate = was
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

-- Runs a row; returns what it raised, or "returned: v1, v2" when it did not.
function B.run(row)
  local env = setmetatable({ lumba = lumba, ADD = ADD, SIM = sim }, { __index = _G })
  local chunk = assert(load(row[2], "=row", "t", env))
  local res = table.pack(pcall(chunk))
  if not res[1] then return tostring(res[2]) end
  local out = {}
  for i = 2, res.n do out[#out + 1] = tostring(res[i]) end
  return "returned: " .. table.concat(out, ", ")
end

-- What a row must give, in the form B.run reports it.
function B.expected(row)
  if row.err then return row.err end
  return "returned: " .. row.returns
end

-- The state still compiles, calls and allocates after a row.
local probe_src = "def probe(a, x):\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += a[i] * x\n    return s\n"
local probe = lumba.njit(probe_src)
function B.still_works()
  local fresh = lumba.njit(probe_src)
  assert(fresh(lumba.arange(4.0), 2.0) == 12.0, "a new compilation gives a wrong result")
  assert(probe(lumba.arange(5.0), 1.0) == 10.0, "an old dispatcher gives a wrong result")
  local a = lumba.zeros({2, 3}, "int32")
  a[2][3] = 7
  assert(a:sum() == 7, "arrays misbehave")
  return true
end

return B
