-- lumba.luafront — functions written in Lua itself, compiled by lumba.
--
-- lumba.njit(function(a, n) ... end) hands over a plain Lua function. This
-- module recovers its source (debug.getinfo: the file's lines
-- linedefined..lastlinedefined, or the chunk string of code loaded from a
-- string), parses the Lua subset below (tokens from lumba.lualex) with a
-- recursive-descent parser shaped like lparser.c, and builds the Lua-table AST the Python frontend
-- builds (src/ast.h), every node positioned in the Lua file, so compile
-- errors read "ising.lua:12:9: TypingError: ..." with the line and a caret.
-- The dispatcher compiles that AST with semantics = "lua" (src/infer_lua.c,
-- src/lower_lua.c):
-- Lua's arithmetic, Lua's numeric for, 1-based indices, booleans apart.
--
-- How Lua maps onto the AST:
--   local x = e / x = e / a, b = b, a   Assign (a multiple assignment is a
--       tuple assignment: every value, and the keys of indexed targets, are
--       computed before anything is assigned, as Lua does); a
--       name declared again (shadowing) gets a new Python name, so every
--       `local` is its own variable; names that are Python builtins (max,
--       len, range, ...) are renamed the same way
--   a[i], a[i][j]   Subscript with the Lua index (1-based; -1 the last); a
--       chain of indices is one subscript: a[i][j] is element (i, j) of a
--       2-D array, and a[i] alone is the row view, as on the Lua side
--   #a              len(a): the first dimension (#a.shape is ndim)
--   a.shape[1]      the first dimension (tuples index from 1 too)
--   for i = a, b, c For over range(a, b, c), which semantics "lua" compiles
--                   as Lua's numeric for (inclusive, float loops too)
--   for i in lumba.prange(a, b[, c])   prange(a, b + 1[, c]): a parallel
--                   loop over a..b inclusive (c a constant); plain Lua gets
--                   an ordinary iterator from lumba.prange
--   while / repeat ... until c / if-elseif-else / break / return a, b
--   goto continue with ::continue:: at the end of the loop body  continue
--   A and B or C    IfExp(A, B or C, C): Lua's conditional idiom
--   x ^ y, x / y    always floats; x // y, x % y floor rules (semantics)
--   math.*          math.floor/ceil (integers), sqrt, exp, log(x[, base]),
--                   sin ... atan(y[, x]), abs, min, max, fmod (a float), ult,
--                   pi, huge, maxinteger, mininteger
--   lumba.zeros/empty/ones/full/arange   np.zeros ... (shapes as {n, m})
--   error("msg"), assert(c[, "msg"])    raise / assert
--   upvalues and globals: numbers are frozen constants and lumba functions
--       are callable, both read when a signature compiles; the function's
--       own name calls it recursively
--   cuda.*          in kernels: indices are 1-based like everything else
--       here (as in Julia's CUDA.jl): cuda.grid(1), cuda.threadIdx.x,
--       cuda.blockIdx.x and cuda.laneid start at 1; blockDim, gridDim,
--       gridsize and warpsize are counts; `local i, j = cuda.grid(2)`;
--       cuda.atomic.add(a, i, v) takes a 1-based i (or {i, j})
-- Refused with an UnsupportedError at the position: nil, strings (except as
-- dtype names and messages), '..', varargs, nested functions, tables except
-- as call arguments ({n, m} shapes), generic for other than lumba.prange,
-- goto other than the continue idiom, assignment to upvalues or globals.
local M = {}

local X = require "lumba.lualex"
local fail = X.fail

-- names every compiled function sees before its env (src/resolve.c): Lua
-- names that collide with them are renamed
local RESERVED = {}
for w in ([[range prange len abs min max int float bool round math np numpy
            numba cuda print ValueError ZeroDivisionError IndexError
            AssertionError RuntimeError TypeError ArithmeticError Exception
            OverflowError NotImplementedError]]):gmatch("%S+") do
  RESERVED[w] = true
end

-- ---------------------------------------------------------------- finding the function

-- the index of the 'end' closing the function whose keyword is token i
local OPENS = { ["function"] = true, ["if"] = true, ["do"] = true, ["repeat"] = true }
local CLOSES = { ["end"] = true, ["until"] = true }
local function matching_end(get, i)
  local depth = 0
  while true do
    local t = get(i)
    if t.t == "<eof>" then return nil end
    if OPENS[t.t] then depth = depth + 1 elseif CLOSES[t.t] then depth = depth - 1 end
    if depth == 0 then return i end
    i = i + 1
  end
end

-- the header after 'function' at token i: name parts, parameters, index of ')'
local function header(get, i)
  local j, names, method = i + 1, {}, false
  if get(j).t == "name" then
    names[1] = get(j).v
    j = j + 1
    while get(j).t == "." or get(j).t == ":" do
      method = get(j).t == ":"
      if get(j + 1).t ~= "name" then return nil end
      names[#names + 1] = get(j + 1).v
      j = j + 2
      if method then break end
    end
  end
  if get(j).t ~= "(" then return nil end
  j = j + 1
  local params, ptoks = {}, {}
  if method then params[1], ptoks[1] = "self", get(j - 1) end
  while get(j).t ~= ")" do
    local t = get(j)
    if t.t == "name" then params[#params + 1] = t.v
    elseif t.t == "..." then params[#params + 1] = "..."
    else return nil end
    ptoks[#params] = t
    j = j + 1
    if get(j).t == "," then j = j + 1 elseif get(j).t ~= ")" then return nil end
  end
  return { names = names, method = method, params = params, ptoks = ptoks, close = j }
end

-- "f" in `local f = njit(function`, `M.f = njit{...}(function`: the last
-- NAME '=' before token i at bracket depth 0 of its line
local function assigned_name(get, i)
  local depth, name = 0, nil
  for j = 1, i - 1 do
    local t = get(j)
    if t.t == "(" or t.t == "{" or t.t == "[" then depth = depth + 1
    elseif t.t == ")" or t.t == "}" or t.t == "]" then depth = depth - 1
    elseif t.t == "=" and depth == 0 and j > 1 and get(j - 1).t == "name" then name = get(j - 1).v end
  end
  return name
end

-- ---------------------------------------------------------------- AST helpers

local function node(tag, at, fields)
  fields = fields or {}
  fields.tag = tag
  fields.lineno = at.line or at.lineno
  fields.col_offset = at.col or at.col_offset
  return fields
end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function constant(at, v) return node("Constant", at, { value = v }) end
local function name(at, id) return node("Name", at, { id = id }) end
local function attr(at, value, a) return node("Attribute", at, { value = value, attr = a }) end
local function call(at, func, args, keywords)
  return node("Call", at, { func = func, args = args or {}, keywords = keywords or {} })
end
-- a dotted Python name as nested Attributes: "math.floor" → math.floor
local function dotted(at, path)
  local e
  for part in path:gmatch("[^.]+") do
    e = e and attr(at, e, part) or name(at, part)
  end
  return e
end
local function binop(at, op, l, r) return node("BinOp", at, { op = op, left = l, right = r }) end
local function plus(e, k)
  if e.tag == "Constant" and math.type(e.value) == "integer" then return constant(e, e.value + k) end
  return binop(e, k >= 0 and "Add" or "Sub", e, constant(e, k >= 0 and k or -k))
end

-- ---------------------------------------------------------------- static names

-- what the values the function sees stand for in compiled code
local function builtin_paths(lumba)
  local m = { [math] = "math", [print] = "print", [error] = "error", [assert] = "assert" }
  for k, v in pairs(math) do
    if type(v) == "function" then m[v] = "math." .. k end
  end
  if lumba then
    m[lumba] = "lumba"
    for _, k in ipairs { "zeros", "empty", "ones", "full", "arange", "prange" } do
      if lumba[k] then m[lumba[k]] = "lumba." .. k end
    end
    if type(lumba.cuda) == "table" then m[lumba.cuda] = "cuda" end
  end
  return m
end

local MATH_FUNCS = {
  abs = "abs", max = "max", min = "min", floor = "math.floor", ceil = "math.ceil",
  sqrt = "math.sqrt", exp = "math.exp", sin = "math.sin", cos = "math.cos", tan = "math.tan",
  asin = "math.asin", acos = "math.acos", deg = "math.degrees", rad = "math.radians",
  fmod = "math.fmod",
}
local LUMBA_FUNCS = { zeros = "numpy.zeros", empty = "numpy.empty", ones = "numpy.ones", full = "numpy.full",
                      arange = "numpy.arange" }
local CUDA_MODULES = { threadIdx = true, blockIdx = true, blockDim = true, gridDim = true,
                       shared = true, ["local"] = true, atomic = true }
local CUDA_FUNCS = { grid = true, gridsize = true, syncthreads = true, syncwarp = true, threadfence = true,
                     threadfence_block = true, ["shared.array"] = true, ["local.array"] = true }
local CUDA_ATOMICS = { add = true, sub = true, min = true, max = true, exch = true, ["and"] = true,
                       ["or"] = true, xor = true, cas = true, compare_and_swap = true }

-- ---------------------------------------------------------------- parser

local BINARY = {
  ["+"] = { 10, 10, "Add" }, ["-"] = { 10, 10, "Sub" }, ["*"] = { 11, 11, "Mult" },
  ["%"] = { 11, 11, "Mod" }, ["^"] = { 14, 13, "Pow" }, ["/"] = { 11, 11, "Div" },
  ["//"] = { 11, 11, "FloorDiv" }, ["&"] = { 6, 6, "BitAnd" }, ["|"] = { 4, 4, "BitOr" },
  ["~"] = { 5, 5, "BitXor" }, ["<<"] = { 7, 7, "LShift" }, [">>"] = { 7, 7, "RShift" },
  [".."] = { 9, 8, "concat" }, ["=="] = { 3, 3, "Eq" }, ["<"] = { 3, 3, "Lt" },
  ["<="] = { 3, 3, "LtE" }, ["~="] = { 3, 3, "NotEq" }, [">"] = { 3, 3, "Gt" },
  [">="] = { 3, 3, "GtE" }, ["and"] = { 2, 2, "And" }, ["or"] = { 1, 1, "Or" },
}
local COMPARE = { Eq = true, Lt = true, LtE = true, NotEq = true, Gt = true, GtE = true }
local UNARY = { ["not"] = "Not", ["-"] = "USub", ["~"] = "Invert", ["#"] = "len" }
local UNARY_PRIORITY = 12
local BLOCK_END = { ["else"] = true, ["elseif"] = true, ["end"] = true, ["until"] = true, ["<eof>"] = true }

local P = {}
P.__index = P

function P:tok(k) return self.get(self.i + (k or 0)) end
function P:next() self.i = self.i + 1 end
function P:check(t) return self:tok().t == t end
function P:accept(t)
  if self:tok().t == t then
    self:next()
    return true
  end
  return false
end

function P:near(tk)
  if tk.t == "<eof>" then return "<eof>" end
  return "'" .. self.S.text:sub(tk.pos, tk.epos) .. "'"
end

function P:syntax(tk, fmt, ...) fail(self.S, tk.line, tk.col, "SyntaxError", fmt, ...) end
function P:unsupported(at, fmt, ...)
  fail(self.S, at.line or at.lineno, at.col or at.col_offset, "UnsupportedError", fmt, ...)
end

function P:expect(t)
  local tk = self:tok()
  if tk.t ~= t then self:syntax(tk, "'%s' expected near %s", t, self:near(tk)) end
  self:next()
  return tk
end

-- 'end' closing what opened at tk
function P:expect_end(what, tk)
  local t = self:tok()
  if t.t ~= what then
    if t.line == tk.line then self:syntax(t, "'%s' expected near %s", what, self:near(t)) end
    self:syntax(t, "'%s' expected (to close '%s' at line %d) near %s", what, tk.t, tk.line, self:near(t))
  end
  self:next()
end

-- ---- names and scopes

-- a Python name for base that nothing else uses
function P:fresh(base)
  local k = 1
  while true do
    local c = base .. "_" .. k
    if not self.taken[c] and not self.pyused[c] then return c end
    k = k + 1
  end
end

function P:declare(luaname)
  local py = luaname
  if self.pyused[py] or RESERVED[py] or py == self.defname then py = self:fresh(luaname) end
  self.pyused[py] = "local"
  self.scopes[#self.scopes][luaname] = py
  return py
end

function P:lookup(luaname)
  for k = #self.scopes, 1, -1 do
    local py = self.scopes[k][luaname]
    if py then return py end
  end
end

function P:open_scope() self.scopes[#self.scopes + 1] = {} end
function P:close_scope() self.scopes[#self.scopes] = nil end

-- the value a free name has now (an upvalue, or a global of the function's _ENV)
function P:free_value(luaname)
  local idx = self.upvalues[luaname]
  if idx then
    local _, v = debug.getupvalue(self.fn, idx)
    return v
  end
  local g = self.genv
  if type(g) == "table" then
    local ok, v = pcall(function() return g[luaname] end)  -- a strict _ENV may raise
    if ok then return v end
  end
end

-- a name no local declares: the function itself, a module or builtin such as
-- math or lumba.zeros, or a value read through env when a signature compiles
function P:free_name(tk)
  local luaname = tk.v
  if luaname == self.selfname then return name(tk, self.defname) end
  local v = self:free_value(luaname)
  if v == self.fn and v ~= nil then return name(tk, self.defname) end
  local path = v ~= nil and self.paths[v]
  if path then return { static = path, at = tk } end
  local py = self.freenames[luaname]
  if not py then
    py = luaname
    if self.pyused[py] or RESERVED[py] or py == self.defname then py = self:fresh(luaname) end
    self.pyused[py] = "free"
    self.freenames[luaname] = py
    self.frees[py] = luaname
  end
  return name(tk, py)
end

-- ---- expressions

-- an expression descriptor as an AST expression (errors for what has no value)
function P:val(e)
  if e.static then
    local s = e.static
    if s == "nil" then self:unsupported(e.at, "nil is not supported in compiled code") end
    if s == "string" then
      self:unsupported(e.at, "strings are only supported as dtype names and as messages of error() and assert()")
    end
    if s == "table" then
      self:unsupported(e.at, "table constructors are only supported as arguments (shapes such as {n, m})")
    end
    if s == "grid" then
      self:unsupported(e.at, "cuda.%s(%d) gives %d values: assign them with `local i, j = cuda.%s(%d)`",
        e.fn, e.n, e.n, e.fn, e.n)
    end
    if s == "prange" then self:unsupported(e.at, "lumba.prange is only supported in 'for i in lumba.prange(a, b)'") end
    if s == "stmt" then self:unsupported(e.at, "%s() is only supported as a statement", e.fn) end
    if s == "math" or s == "lumba" or s == "cuda" or CUDA_MODULES[s:match("^cuda%.(.+)$") or ""] then
      self:unsupported(e.at, "'%s' is a module, not a value", s)
    end
    local known = MATH_FUNCS[s:match("^math%.(.+)$") or ""] or LUMBA_FUNCS[s:match("^lumba%.(.+)$") or ""]
      or CUDA_FUNCS[s:match("^cuda%.(.+)$") or ""] or s == "math.log" or s == "math.atan" or s == "math.ult"
    if known then self:unsupported(e.at, "'%s' is a function: compiled code can only call it", s) end
    self:unsupported(e.at, "'%s' is not supported in compiled code", s)
  end
  return e
end

-- x[k]: a string key is a field; chains of indices become one tuple index
function P:index(e, key, tk)
  if key.static == "string" then return self:field(e, key.value, tk) end
  key = self:val(key)
  e = self:val(e)
  if e.tag == "Subscript" and self.chains[e] then
    local sl = e.slice
    if not (sl.tag == "Tuple" and self.chains[sl]) then
      sl = node("Tuple", sl, { elts = { sl } })
      self.chains[sl] = true
      e.slice = sl
    end
    sl.elts[#sl.elts + 1] = key
    return e
  end
  local s = node("Subscript", e, { value = e, slice = key })
  self.chains[s] = true
  return s
end

function P:field(e, fname, tk)
  if e.static then return self:static_field(e, fname, tk) end
  return attr(e, self:val(e), fname)
end

-- math.pi, lumba.zeros, cuda.threadIdx.x ...
function P:static_field(e, f, tk)
  local s = e.static
  local at = e.at
  if s == "math" then
    if f == "pi" then return dotted(at, "math.pi") end
    if f == "huge" then return dotted(at, "math.inf") end
    if f == "maxinteger" then return constant(at, math.maxinteger) end
    if f == "mininteger" then return constant(at, math.mininteger) end
    return { static = "math." .. f, at = at }
  end
  if s == "lumba" then
    if f == "cuda" then return { static = "cuda", at = at } end
    return { static = "lumba." .. f, at = at }
  end
  if s == "cuda" and CUDA_MODULES[f] then return { static = "cuda." .. f, at = at } end
  if s == "cuda" and (f == "laneid" or f == "warpsize") then
    local v = dotted(at, "cuda." .. f)
    return f == "laneid" and plus(v, 1) or v
  end
  local axis = s:match("^cuda%.(%a+)$")
  if axis and (f == "x" or f == "y" or f == "z") and CUDA_MODULES[axis] then
    local v = attr(at, dotted(at, s), f)
    -- thread and block indices are 1-based, like every index here (CUDA.jl)
    if axis == "threadIdx" or axis == "blockIdx" then return plus(v, 1) end
    return v
  end
  return { static = s .. "." .. f, at = at }
end

-- arguments: strings and table constructors are allowed here
function P:arg(e)
  if e.static == "string" then return constant(e.at, e.value) end
  if e.static == "table" then
    if #e.elts == 0 then self:unsupported(e.at, "an empty table is not supported in compiled code") end
    return node("Tuple", e.at, { elts = e.elts })
  end
  return self:val(e)
end

-- the 0-based index of a 1-based one (cuda.atomic indices are raw offsets)
local function minus1(self, e)
  if e.static == "table" then
    local elts = {}
    for k, x in ipairs(e.elts) do elts[k] = plus(x, -1) end
    return node("Tuple", e.at, { elts = elts })
  end
  return plus(self:val(e), -1)
end

-- a call of a module function: math.floor(x), lumba.zeros({n, m}), cuda.grid(1)
function P:static_call(e, args, tk)
  local s, at = e.static, e.at
  local function vals(from)
    local out = {}
    for k = from or 1, #args do out[#out + 1] = self:arg(args[k]) end
    return out
  end
  local function nargs(lo, hi)
    if #args < lo or #args > hi then
      self:unsupported(tk, "%s() takes %s arguments here", s, lo == hi and tostring(lo) or (lo .. " or " .. hi))
    end
  end
  local m = s:match("^math%.(.+)$")
  if m then
    if MATH_FUNCS[m] then return call(at, dotted(at, MATH_FUNCS[m]), vals()) end
    if m == "log" then
      nargs(1, 2)
      local a = vals()
      if #a == 2 and a[2].tag == "Constant" and (a[2].value == 2 or a[2].value == 10) then
        return call(at, dotted(at, a[2].value == 2 and "math.log2" or "math.log10"), { a[1] })
      end
      return call(at, dotted(at, "math.log"), a)
    end
    if m == "atan" then
      nargs(1, 2)
      local a = vals()
      return call(at, dotted(at, #a == 2 and "math.atan2" or "math.atan"), a)
    end
    if m == "ult" then
      nargs(2, 2)
      local a = vals()
      return node("Compare", at, { left = call(at, dotted(at, "numpy.uint64"), { a[1] }), ops = { "Lt" },
                                   comparators = { call(at, dotted(at, "numpy.uint64"), { a[2] }) } })
    end
    self:unsupported(at, "%s is not supported in compiled code", s)
  end
  local l = s:match("^lumba%.(.+)$")
  if l then
    if l == "prange" then return { static = "prange", at = at, args = args, tk = tk } end
    if not LUMBA_FUNCS[l] then self:unsupported(at, "%s is not supported in compiled code", s) end
    local a, kw = vals(), {}
    if l == "arange" and #a > 1 and a[#a].tag == "Constant" and type(a[#a].value) == "string" then
      kw[1] = node("keyword", a[#a], { arg = "dtype", value = table.remove(a) })
    end
    return call(at, dotted(at, LUMBA_FUNCS[l]), a, kw)
  end
  local c = s:match("^cuda%.(.+)$")
  if c then
    local atomic = c:match("^atomic%.(.+)$")
    if atomic and CUDA_ATOMICS[atomic] then
      local a = vals()
      if #a >= 2 then a[2] = minus1(self, args[2]) end
      return call(at, attr(at, dotted(at, "cuda.atomic"), atomic), a)
    end
    if not CUDA_FUNCS[c] then self:unsupported(at, "%s is not supported in compiled code", s) end
    local a = vals()
    local v = call(at, dotted(at, s), a)
    if c == "grid" then
      local n = a[1] and a[1].tag == "Constant" and a[1].value
      if n == 1 then return plus(v, 1) end
      return { static = "grid", at = at, fn = "grid", n = n or 0, node = v }
    end
    if c == "gridsize" and a[1] and a[1].tag == "Constant" and a[1].value ~= 1 then
      return { static = "grid", at = at, fn = "gridsize", n = a[1].value, node = v, counts = true }
    end
    return v
  end
  if s == "error" then
    local a = args[1]
    if not a or a.static ~= "string" or #args > 2 then
      self:unsupported(at, "error() needs a string literal message in compiled code")
    end
    local level = args[2] and self:val(args[2])
    local msg = a.value
    if not level or (level.tag == "Constant" and level.value == 1) then
      msg = ("%s:%d: %s"):format(self.S.chunk, tk.line, msg)
    end
    local exc = call(at, name(at, "RuntimeError"), { constant(a.at, msg) })
    return { static = "stmt", fn = "error", at = at, stmt = node("Raise", at, { exc = exc }) }
  end
  if s == "assert" then
    if #args < 1 or #args > 2 or (args[2] and args[2].static ~= "string") then
      self:unsupported(at, "assert() takes a condition and an optional string literal in compiled code")
    end
    local msg = args[2] and args[2].value or "assertion failed!"
    return { static = "stmt", fn = "assert", at = at,
             stmt = node("Assert", at, { test = self:val(args[1]), msg = constant(at, msg) }) }
  end
  if s == "print" then return call(at, name(at, "print"), vals()) end
  self:unsupported(at, "%s is not supported in compiled code", s)
end

-- args -> '(' [explist] ')' | tableconstructor | String
function P:callargs()
  local tk = self:tok()
  if tk.t == "string" then
    self:next()
    return { { static = "string", value = tk.v, at = tk } }
  end
  if tk.t == "{" then return { self:table() } end
  self:expect("(")
  local args = {}
  if not self:check(")") then args = self:explist() end
  self:expect(")")
  return args
end

-- tableconstructor -> '{' [ exp {sep exp} [sep] ] '}' (positional fields only)
function P:table()
  local tk = self:expect("{")
  local elts = {}
  while not self:check("}") do
    local t = self:tok()
    if t.t == "[" or (t.t == "name" and self:tok(1).t == "=") then
      self:unsupported(t, "tables with keys are not supported in compiled code")
    end
    elts[#elts + 1] = self:val(self:expr())
    if not self:accept(",") and not self:accept(";") then break end
  end
  self:expect("}")
  return { static = "table", at = tk, elts = elts }
end

-- primaryexp -> NAME | '(' expr ')'
function P:primaryexp()
  local tk = self:tok()
  if tk.t == "name" then
    self:next()
    local py = self:lookup(tk.v)
    if py then return name(tk, py) end
    return self:free_name(tk)
  end
  if tk.t == "(" then
    self:next()
    local e = self:expr()
    self:expect(")")
    return e
  end
  self:syntax(tk, "unexpected symbol near %s", self:near(tk))
end

-- suffixedexp -> primaryexp { '.' NAME | '[' exp ']' | ':' NAME args | args }
function P:suffixedexp()
  local e = self:primaryexp()
  while true do
    local tk = self:tok()
    if tk.t == "." then
      self:next()
      local n = self:expect("name")
      e = self:field(e, n.v, n)
    elseif tk.t == "[" then
      self:next()
      local key = self:expr()
      self:expect("]")
      e = self:index(e, key, tk)
    elseif tk.t == ":" then
      self:next()
      local n = self:expect("name")
      local args = self:callargs()
      if e.static then self:unsupported(n, "method calls on %s are not supported", e.static) end
      local a = {}
      for k, x in ipairs(args) do a[k] = self:arg(x) end
      e = call(e, attr(e, self:val(e), n.v), a)
    elseif tk.t == "(" or tk.t == "{" or tk.t == "string" then
      local args = self:callargs()
      if e.static then
        e = self:static_call(e, args, tk)
      else
        local a = {}
        for k, x in ipairs(args) do a[k] = self:arg(x) end
        e = call(e, e, a)
      end
    else
      return e
    end
  end
end

-- simpleexp -> FLT | INT | STRING | nil | true | false | ... | constructor | FUNCTION body | suffixedexp
function P:simpleexp()
  local tk = self:tok()
  local t = tk.t
  if t == "number" then
    self:next()
    return constant(tk, tk.v)
  elseif t == "string" then
    self:next()
    return { static = "string", value = tk.v, at = tk }
  elseif t == "nil" then
    self:next()
    return { static = "nil", at = tk }
  elseif t == "true" or t == "false" then
    self:next()
    return constant(tk, t == "true")
  elseif t == "..." then
    self:unsupported(tk, "varargs are not supported in compiled code")
  elseif t == "{" then
    return self:table()
  elseif t == "function" then
    self:unsupported(tk, "nested functions are not supported in compiled code (compile each one with lumba.njit)")
  end
  return self:suffixedexp()
end

function P:binary(optk, op, l, r)
  if op == "concat" then
    self:unsupported(optk, "string concatenation '..' is not supported in compiled code")
  end
  l, r = self:val(l), self:val(r)
  if COMPARE[op] then
    return node("Compare", l, { left = l, ops = { op }, comparators = { r } })
  end
  if op == "Or" and l.tag == "BoolOp" and l.op == "And" then
    -- A and B or C: Lua's conditional idiom, IfExp(A, B or C, C) (equal for every A, B, C)
    local a, b = l.values[1], l.values[2]
    return node("IfExp", l, { test = a, body = node("BoolOp", b, { op = "Or", values = { b, r } }),
                              orelse = copy(r) })
  end
  if op == "And" or op == "Or" then
    return node("BoolOp", l, { op = op, values = { l, r } })
  end
  return binop(l, op, l, r)
end

-- subexpr -> (simpleexp | unop subexpr) { binop subexpr }, priorities of lparser.c
function P:subexpr(limit)
  local tk = self:tok()
  local e
  local uop = UNARY[tk.t]
  if uop then
    self:next()
    local operand = self:val(self:subexpr(UNARY_PRIORITY))
    if uop == "len" then e = call(tk, name(tk, "len"), { operand })
    else e = node("UnaryOp", tk, { op = uop, operand = operand }) end
  else
    e = self:simpleexp()
  end
  while true do
    local optk = self:tok()
    local b = BINARY[optk.t]
    if not b or b[1] <= limit then break end
    self:next()
    local r = self:subexpr(b[2])
    e = self:binary(optk, b[3], e, r)
  end
  return e
end

function P:expr() return self:subexpr(0) end

function P:explist()
  local list = { self:expr() }
  while self:accept(",") do list[#list + 1] = self:expr() end
  return list
end

-- ---- statements

local function has_call(e)
  if type(e) ~= "table" then return false end
  if e.tag == "Call" then return true end
  for _, v in pairs(e) do
    if type(v) == "table" and has_call(v) then return true end
  end
  return false
end

-- targets = values (both lists of AST expressions / descriptors)
function P:assign(out, targets, values, tk)
  local first = values[1]
  if #values == 1 and first.static == "grid" then
    -- local i, j = cuda.grid(2): the tuple, then 1-based indices
    if #targets ~= first.n then
      self:unsupported(first.at, "cuda.%s(%d) gives %d values, assigned to %d names", first.fn, first.n, first.n, #targets)
    end
    out[#out + 1] = node("Assign", tk, { targets = { node("Tuple", targets[1], { elts = targets }) }, value = first.node })
    if not first.counts then
      for _, t in ipairs(targets) do
        out[#out + 1] = node("Assign", t, { targets = { copy(t) }, value = plus(copy(t), 1) })
      end
    end
    return
  end
  local vals = {}
  for k, v in ipairs(values) do vals[k] = self:val(v) end
  while #vals > #targets do
    local extra = table.remove(vals)
    if has_call(extra) then
      self:unsupported(extra, "more values than variables: this value would be computed and dropped")
    end
  end
  if #vals < #targets then
    local last = vals[#vals]
    if last.tag ~= "Call" then
      local t = targets[#vals + 1]
      self:unsupported(t, "'%s' gets no value here (nil is not supported in compiled code)", t.id or "this")
    end
    -- a call's several results fill the remaining names
    local k = #vals
    local rest = {}
    for j = k, #targets do rest[#rest + 1] = targets[j] end
    local target = node("Tuple", rest[1], { elts = rest })
    if k > 1 then
      local ts = {}
      for j = 1, k - 1 do ts[j] = targets[j] end
      ts[k] = target
      target = node("Tuple", targets[1], { elts = ts })
      last = node("Tuple", vals[1], { elts = vals })
    end
    out[#out + 1] = node("Assign", tk, { targets = { target }, value = last })
    return
  end
  if #targets == 1 then
    out[#out + 1] = node("Assign", tk, { targets = { targets[1] }, value = vals[1] })
  else
    self:hoist_keys(out, targets)
    out[#out + 1] = node("Assign", tk, { targets = { node("Tuple", targets[1], { elts = targets }) },
                                         value = node("Tuple", vals[1], { elts = vals }) })
  end
end

-- i, a[i] = i + 1, 20 sets a[3] when i was 3: Lua computes the keys of
-- indexed targets before assigning anything (Python would assign i first),
-- so those keys (and the arrays) go to temporaries first
function P:hoist_keys(out, targets)
  local function temp(e)
    if e.tag == "Constant" then return e end
    local py = self:fresh("_k")
    self.pyused[py] = "local"
    out[#out + 1] = node("Assign", e, { targets = { name(e, py) }, value = e })
    return name(e, py)
  end
  for _, t in ipairs(targets) do
    if t.tag == "Subscript" then
      t.value = temp(t.value)
      if t.slice.tag == "Tuple" then
        for k, e in ipairs(t.slice.elts) do t.slice.elts[k] = temp(e) end
      else
        t.slice = temp(t.slice)
      end
    end
  end
end

-- an assignment target: a local, an element, never an upvalue or global
function P:target(e, tk)
  if e.static then self:unsupported(e.at, "cannot assign to %s", e.static) end
  if e.tag == "Name" then
    if self.pyused[e.id] ~= "local" then
      local luaname = self.frees[e.id] or e.id
      self:unsupported(e, "cannot assign to '%s', which is not a local of this function " ..
        "(compiled code cannot change upvalues or globals: return the value instead)", luaname)
    end
    return e
  end
  if e.tag == "Subscript" or e.tag == "Attribute" then return e end
  self:syntax(tk, "syntax error near %s", self:near(tk))
end

-- the loop a goto/break is in
function P:push_loop(kind) 
  local l = { kind = kind, gotos = {} }
  self.loops[#self.loops + 1] = l
  return l
end

-- the labels at the end of a loop body make its gotos 'continue's
function P:close_loop(loop, labels, until_cond)
  self.loops[#self.loops] = nil
  for _, g in ipairs(loop.gotos) do
    if not labels[g.label] then
      self:unsupported(g.tk, "goto is only supported as a continue: 'goto %s' needs '::%s::' " ..
        "at the end of the innermost loop's body", g.label, g.label)
    end
    if until_cond then
      -- repeat ... until c: continuing evaluates c first
      local n = g.node
      n.tag = "If"
      n.test = copy(until_cond)
      n.body = { node("Break", n) }
      n.orelse = { node("Continue", n) }
    end
  end
end

-- block -> { stat } [retstat]; returns the statements and the labels that
-- end it (only void statements after them)
function P:block()
  local out, labels = {}, {}
  while not BLOCK_END[self:tok().t] do
    if self:check("return") then
      self:retstat(out)
      break
    end
    local before = #out
    local label = self:statement(out)
    if label then
      labels[label] = true
    elseif #out > before then
      labels = {}
    end
  end
  return out, labels
end

local function body_of(out, at)
  if #out == 0 then out[1] = node("Pass", at) end
  return out
end

function P:retstat(out)
  local tk = self:expect("return")
  local values = {}
  if not BLOCK_END[self:tok().t] and not self:check(";") then values = self:explist() end
  self:accept(";")
  if not BLOCK_END[self:tok().t] then
    self:syntax(self:tok(), "'end' expected near %s", self:near(self:tok()))
  end
  local value
  if #values == 1 and values[1].static == "nil" then
    value = nil
  elseif #values == 1 then
    value = self:val(values[1])
  elseif #values > 1 then
    local vs = {}
    for k, v in ipairs(values) do vs[k] = self:val(v) end
    value = node("Tuple", vs[1], { elts = vs })
  end
  out[#out + 1] = node("Return", tk, { value = value })
end

function P:cond()
  return self:val(self:expr())
end

-- test_then_block -> [IF | ELSEIF] cond THEN block
function P:ifstat(out, tk)
  local test = self:cond()
  self:expect("then")
  self:open_scope()
  local body = self:block()
  self:close_scope()
  local orelse = {}
  local t = self:tok()
  if t.t == "elseif" then
    self:next()
    self:ifstat(orelse, t)
    out[#out + 1] = node("If", tk, { test = test, body = body_of(body, tk), orelse = orelse })
    return
  elseif t.t == "else" then
    self:next()
    self:open_scope()
    orelse = self:block()
    self:close_scope()
  end
  self:expect_end("end", tk)
  out[#out + 1] = node("If", tk, { test = test, body = body_of(body, tk), orelse = orelse })
end

-- fornum -> NAME = exp, exp [, exp] DO block END ; forlist -> NAME IN lumba.prange(...) DO block END
function P:forstat(out, tk)
  local n1 = self:expect("name")
  local iter
  if self:accept("=") then
    local a = self:val(self:expr())
    self:expect(",")
    local b = self:val(self:expr())
    local args = { a, b }
    if self:accept(",") then args[3] = self:val(self:expr()) end
    iter = call(a, name(tk, "range"), args)
  else
    if self:check(",") then
      self:unsupported(self:tok(), "a generic for with several variables is not supported in compiled code")
    end
    self:expect("in")
    local it = self:explist()
    local p = it[1]
    if #it ~= 1 or p.static ~= "prange" then
      self:unsupported(p.at or p, "generic for loops are not supported in compiled code, except " ..
        "'for i in lumba.prange(a, b)' (use a numeric for)")
    end
    if #p.args < 2 or #p.args > 3 then
      self:unsupported(p.tk, "lumba.prange(a, b[, step]) takes 2 or 3 arguments")
    end
    local a, b = self:val(p.args[1]), self:val(p.args[2])
    local args = { a, plus(b, 1) }
    if p.args[3] then
      local c = self:val(p.args[3])
      local k = c.tag == "Constant" and c.value
      if c.tag == "UnaryOp" and c.op == "USub" and c.operand.tag == "Constant" then k = -c.operand.value end
      if math.type(k) ~= "integer" or k == 0 then
        self:unsupported(c, "the step of lumba.prange must be a nonzero integer constant")
      end
      args[2] = plus(b, k > 0 and 1 or -1)
      args[3] = c
    end
    iter = call(p.at, name(p.at, "prange"), args)
  end
  self:expect("do")
  self:open_scope()
  local var = self:declare(n1.v)
  local loop = self:push_loop("for")
  local body, labels = self:block()
  self:close_loop(loop, labels)
  self:close_scope()
  self:expect_end("end", tk)
  out[#out + 1] = node("For", tk, { target = name(n1, var), iter = iter, body = body_of(body, tk), orelse = {} })
end

-- a statement at the start of the body: `p = p or <number>` gives p a default
function P:note_default(top, targets, values)
  if not top or #targets ~= 1 or #values ~= 1 then return end
  local t, v = targets[1], values[1]
  if t.tag ~= "Name" or v.tag ~= "BoolOp" or v.op ~= "Or" then return end
  local a, d = v.values[1], v.values[2]
  if a.tag ~= "Name" or a.id ~= t.id or not self.params[t.id] then return end
  if d.tag == "UnaryOp" and d.op == "USub" and d.operand.tag == "Constant" then
    d = constant(d, -d.operand.value)
  end
  if d.tag == "Constant" and type(d.value) == "number" then
    self.defaults[t.id] = d
    return true
  end
end

-- statement: one Lua statement appended to out as AST statements; returns
-- the label name for '::name::'
function P:statement(out)
  local tk = self:tok()
  local t = tk.t
  local top = self.top
  self.top = false
  if t == ";" then
    self:next()
    self.top = top
  elseif t == "if" then
    self:next()
    self:ifstat(out, tk)
  elseif t == "while" then
    self:next()
    local test = self:cond()
    self:expect("do")
    self:open_scope()
    local loop = self:push_loop("while")
    local body, labels = self:block()
    self:close_loop(loop, labels)
    self:close_scope()
    self:expect_end("end", tk)
    out[#out + 1] = node("While", tk, { test = test, body = body_of(body, tk), orelse = {} })
  elseif t == "do" then
    self:next()
    self:open_scope()
    local body = self:block()
    self:close_scope()
    self:expect_end("end", tk)
    for _, s in ipairs(body) do out[#out + 1] = s end
  elseif t == "for" then
    self:next()
    self:forstat(out, tk)
  elseif t == "repeat" then
    self:next()
    self:open_scope()
    local loop = self:push_loop("repeat")
    local body, labels = self:block()
    self:expect_end("until", tk)
    local c = self:cond()
    self:close_loop(loop, labels, c)
    self:close_scope()
    body[#body + 1] = node("If", c, { test = c, body = { node("Break", c) }, orelse = {} })
    out[#out + 1] = node("While", tk, { test = constant(tk, true), body = body, orelse = {} })
  elseif t == "function" then
    self:unsupported(tk, "nested functions are not supported in compiled code (compile each one with lumba.njit)")
  elseif t == "local" then
    self:next()
    if self:check("function") then
      self:unsupported(self:tok(), "nested functions are not supported in compiled code (compile each one with lumba.njit)")
    end
    local names = {}
    repeat
      local n = self:expect("name")
      if self:accept("<") then
        local a = self:expect("name")
        if a.v == "close" then self:unsupported(a, "to-be-closed variables are not supported in compiled code") end
        if a.v ~= "const" then self:syntax(a, "unknown attribute '%s'", a.v) end
        self:expect(">")
      end
      names[#names + 1] = n
    until not self:accept(",")
    local values
    if self:accept("=") then values = self:explist() end
    local targets = {}
    for k, n in ipairs(names) do targets[k] = name(n, self:declare(n.v)) end
    if values then self:assign(out, targets, values, tk) end
  elseif t == "::" then
    self:next()
    local n = self:expect("name")
    self:expect("::")
    self.top = top
    return n.v
  elseif t == "return" then
    self:retstat(out)
  elseif t == "break" then
    self:next()
    if #self.loops == 0 then self:syntax(tk, "break outside a loop") end
    out[#out + 1] = node("Break", tk)
  elseif t == "goto" then
    self:next()
    local n = self:expect("name")
    local loop = self.loops[#self.loops]
    if not loop then
      self:unsupported(tk, "goto is only supported as a continue: 'goto %s' with '::%s::' at the end of a loop body",
        n.v, n.v)
    end
    local c = node("Continue", tk)
    loop.gotos[#loop.gotos + 1] = { label = n.v, tk = tk, node = c }
    out[#out + 1] = c
  else
    -- exprstat -> func | assignment
    local e = self:suffixedexp()
    if self:check("=") or self:check(",") then
      local targets = { self:target(e, tk) }
      while self:accept(",") do targets[#targets + 1] = self:target(self:suffixedexp(), self:tok()) end
      self:expect("=")
      local values = self:explist()
      if self:note_default(top, targets, values) then self.top = top end
      self:assign(out, targets, values, tk)
    elseif e.static == "stmt" then
      out[#out + 1] = e.stmt
    elseif e.tag == "Call" then
      out[#out + 1] = node("Expr", e, { value = e })
    else
      self:syntax(self:tok(), "syntax error near %s", self:near(self:tok()))
    end
  end
end

-- the function at token i (its 'function' keyword) as a FunctionDef
function P:funcbody(i, h)
  self.i = h.close + 1
  local ftk = self.get(i)
  self:open_scope()
  local args = {}
  for k, p in ipairs(h.params) do
    if p == "..." then self:unsupported(h.ptoks[k], "varargs are not supported in compiled code") end
    local py = self:declare(p)
    self.params[py] = k
    args[k] = node("arg", h.ptoks[k], { arg = py })
  end
  self.top = true
  local body = self:block()
  self:expect_end("end", ftk)
  self:close_scope()
  -- defaults: the longest run of trailing parameters that have one
  local defaults = {}
  for k = #args, 1, -1 do
    local d = self.defaults[args[k].arg]
    if not d then break end
    table.insert(defaults, 1, d)
  end
  return node("FunctionDef", ftk, {
    name = self.defname,
    args = { tag = "arguments", args = args, defaults = defaults },
    body = body_of(body, ftk),
    decorator_list = {},
  })
end

-- ---------------------------------------------------------------- the API

-- the message for a function whose text lumba cannot read
local function unavailable(why)
  error(("lumba: the source of this function is not available (%s): compile functions " ..
    "loaded from files or from source strings, not stripped bytecode"):format(why), 0)
end

-- where the function's text is: the text, the chunk name for messages, the
-- debug info, and whether the text is the chunk string itself (load(s))
local function function_source(fn)
  local info = debug.getinfo(fn, "Su")
  if info.what == "C" then
    error("lumba: cannot compile a C function (it has no Lua source)", 0)
  end
  if info.what == "main" then
    error("lumba: cannot compile a main chunk; pass a function", 0)
  end
  local src = info.source
  if src:sub(1, 1) == "@" then
    local path = src:sub(2)
    local f, err = io.open(path, "rb")
    if not f then error(("lumba: cannot read the source of this function: %s"):format(err), 0) end
    local text = f:read("a")
    f:close()
    return text, path, info
  end
  if src:sub(1, 1) == "=" then
    unavailable(src == "=?" and "stripped bytecode?" or "chunk named '" .. src:sub(2) .. "'")
  end
  return src, info.short_src, info, true
end

-- the byte offset where line n starts
local function line_offset(text, n)
  local p = 1
  for _ = 2, n do
    local e = text:find("\n", p, true)
    if not e then return nil end
    p = e + 1
  end
  return p
end

-- translate(fn, opts, lumba) → AST, options for the dispatcher, globals
function M.translate(fn, opts, lumba)
  local text, chunk, info, loaded = function_source(fn)
  local S = { text = text, chunk = chunk }
  local first, last = info.linedefined, info.lastlinedefined
  -- load(s, name) keeps the name where load(s) keeps the text: the text is gone
  local function missing(fmt)
    if loaded and not text:find("\n", 1, true) then unavailable("chunk named '" .. text .. "'") end
    error(fmt:format(chunk, first), 0)
  end
  local start = line_offset(text, first)
  if not start then missing("lumba: the source file %s has no line %d (was it changed?)") end
  local get = X.lexer(S, start, first)
  -- the parameter names Lua knows
  local want = {}
  for k = 1, info.nparams do want[k] = debug.getlocal(fn, k) end
  if info.isvararg then want[#want + 1] = "..." end
  -- candidates: 'function' keywords on the first line whose body ends on the last
  local found, i = {}, 1
  while true do
    local t = get(i)
    if t.t == "<eof>" or t.line > last then break end
    if t.t == "function" and t.line == first then
      local e = matching_end(get, i)
      local h = e and get(e).line == last and header(get, i)
      if h and #h.params == #want then
        local same = true
        for k, p in ipairs(h.params) do same = same and p == want[k] end
        if same then found[#found + 1] = { i = i, h = h, e = e } end
      end
    end
    i = i + 1
  end
  if #found == 0 then missing("lumba: cannot find the source of the function defined at %s:%d (was the file changed?)") end
  if #found > 1 then
    error(("lumba: several functions with the same parameters are defined on %s:%d; put each on its own line")
      :format(chunk, first), 0)
  end
  local c = found[1]
  -- the name: declared, or the variable the function is assigned to
  local declared = c.h.names[#c.h.names]
  local selfname = declared or assigned_name(get, c.i)
  local taken = {}
  for j = c.i, c.e do
    local t = get(j)
    if t.t == "name" then taken[t.v] = true end
  end
  local upvalues, genv = {}, nil
  for k = 1, math.huge do
    local n, v = debug.getupvalue(fn, k)
    if n == nil then break end
    if n == "_ENV" then genv = v else upvalues[n] = k end
  end
  local p = setmetatable({
    S = S, get = get, i = c.i, fn = fn, selfname = selfname, upvalues = upvalues, genv = genv,
    paths = builtin_paths(lumba), taken = taken, pyused = {}, scopes = {}, loops = {},
    freenames = {}, frees = {}, params = {}, defaults = {}, chains = setmetatable({}, { __mode = "k" }),
  }, P)
  p.defname = selfname or "anonymous"
  if RESERVED[p.defname] then p.defname = p.defname .. "_" end
  local def = p:funcbody(c.i, c.h)
  local tree = { tag = "Module", body = { def }, source = text }

  -- env: the free names' values, read when a signature compiles
  local user_env = opts and opts.env
  local frees = p.frees
  local env = setmetatable({}, { __index = function(_, k)
    local luaname = frees[k]
    if not luaname then return nil end
    if user_env and user_env[luaname] ~= nil then return user_env[luaname] end
    return p:free_value(luaname)
  end })
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.env = env
  o.chunkname = "@" .. chunk
  o.semantics = "lua"
  o.name = p.defname
  return tree, o, nil
end

-- lumba.prange(a, b[, step]) in plain Lua: the integers a..b, like a numeric for
function M.prange(a, b, c)
  c = c or 1
  if c == 0 then error("'for' step is zero", 2) end
  return function(_, i)
    i = i + c
    if (c > 0 and i <= b) or (c < 0 and i >= b) then return i end
  end, nil, a - c
end

return M
