-- Array creation in compiled code against NumPy itself (tests/numpy_batch.lua):
-- values, dtypes and shapes of np.empty/zeros/ones/full and *_like under
-- every dtype spelling, np.arange, np.linspace, np.logspace, np.eye,
-- np.identity, np.tri, np.tril, np.triu, np.diag, np.array, np.asarray,
-- np.ascontiguousarray, np.copy; empty results; bad input.
local lumba = require "lumba"
local H = require "helpers"
local batch = require "numpy_batch"

-- arguments: name -> {Python text, Lua value}
local ARGS = {
  n = { "3", 3 }, m = { "4", 4 }, z = { "0", 0 }, k = { "1", 1 }, nk = { "-1", -1 },
  x = { "1.5", 1.5 }, y = { "-2.0", -2.0 }, i = { "7", 7 }, t = { "True", true },
  a = { "np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]])", function() return lumba.array({ { 1.5, -2.0, 3.0 }, { 4.0, 0.5, -6.0 } }) end },
  s = { "np.arange(12, dtype=np.int16).reshape(3, 4)", function() return lumba.arange(12):astype("int16"):reshape(3, 4) end },
  b = { "np.array([True, False, True])", function() return lumba.array({ true, false, true }, "bool") end },
  u = { "np.arange(6, dtype=np.uint8)", function() return lumba.arange(6):astype("uint8") end },
  v = { "np.arange(24, dtype=np.float32).reshape(2, 3, 4)", function() return lumba.arange(24):astype("float32"):reshape(2, 3, 4) end },
  r = { "np.arange(10.0)[::-2]", function() return lumba.arange(10):astype("float64"):slice({ 10, 1, -2 }) end },
}

local function params(expr)
  local ps, seen = {}, {}
  for pos, w in expr:gmatch("()([%a_][%w_]*)") do
    if ARGS[w] and not seen[w] and expr:sub(pos - 1, pos - 1) ~= "." then
      seen[w] = true
      ps[#ps + 1] = w
    end
  end
  return ps
end

local function flat(a)
  if a.ndim == 0 then return { a:get() } end
  local f, out = a:copy():reshape(a.size), {}
  for i = 1, a.size do out[i] = f:get(i) end
  return out
end

local function same_value(p, q)
  if type(p) ~= type(q) then return false end
  if type(p) ~= "number" then return p == q end
  if p ~= p then return q ~= q end
  if math.type(p) == "integer" or math.type(q) == "integer" then return p == q end
  return p == q or math.abs(p - q) <= 4e-16 * math.abs(p)
end

-- runs every expression compiled and in NumPy; a list of mismatches
local function check(exprs)
  local cases = {}
  for i, e in ipairs(exprs) do
    local pre = {}
    for _, p in ipairs(params(e)) do pre[#pre + 1] = p .. " = " .. ARGS[p][1] end
    cases[i] = { e, table.concat(pre, "\n") }
  end
  local want = batch.eval(cases)
  local bad = {}
  for i, e in ipairs(exprs) do
    local ps = params(e)
    local f = lumba.njit("import numpy as np\ndef f(" .. table.concat(ps, ", ") .. "):\n    return " .. e .. "\n")
    local args = {}
    for j, p in ipairs(ps) do
      local v = ARGS[p][2]
      args[j] = type(v) == "function" and v() or v
    end
    local ok, got = pcall(f, table.unpack(args, 1, #ps))
    local w = want[i]
    local why
    if w.error then
      if ok then why = "NumPy raised " .. w.error .. ", lumba returned " .. tostring(got)
      elseif not tostring(got):find(w.error:match("^(%a+Error)"), 1, true) then why = "NumPy: " .. w.error .. "; lumba: " .. tostring(got) end
    elseif not ok then
      why = "lumba raised " .. tostring(got)
    elseif type(got) ~= "userdata" then
      why = "lumba returned " .. tostring(got)
    else
      local shape = {}
      for d = 1, got.ndim do shape[d] = got.shape[d] end
      local gv = flat(got)
      if got.dtype ~= w.dtype then why = "dtype " .. got.dtype .. ", NumPy " .. w.dtype
      elseif table.concat(shape, ",") ~= table.concat(w.shape, ",") then
        why = "shape (" .. table.concat(shape, ",") .. "), NumPy (" .. table.concat(w.shape, ",") .. ")"
      else
        for j = 1, #w.values do
          if not same_value(gv[j], w.values[j]) then
            why = ("item %d: %s, NumPy %s"):format(j, tostring(gv[j]), tostring(w.values[j]))
            break
          end
        end
      end
    end
    if why then bad[#bad + 1] = e .. ": " .. why end
  end
  return bad
end

local function expect_all(exprs)
  local bad = check(exprs)
  assert(#bad == 0, table.concat(bad, "\n"))
end

local DTYPES = { "np.bool_", "np.int8", "np.int16", "np.int32", "np.int64", "np.uint8", "np.uint16", "np.uint32",
  "np.uint64", "np.float32", "np.float64" }

describe("array creation against NumPy", function()
  if not batch.available() then
    pending("[needs /usr/bin/python3 with NumPy]")
    return
  end

  it("np.zeros/ones/empty/full and *_like under every dtype spelling", function()
    local e = {}
    for _, dt in ipairs(DTYPES) do
      local name = dt:sub(4):gsub("_$", "")
      for _, spell in ipairs { dt, "'" .. name .. "'", "np.dtype('" .. name .. "')", "np.dtype(" .. dt .. ")" } do
        e[#e + 1] = "np.zeros(n, " .. spell .. ")"
        e[#e + 1] = "np.ones((2, n), dtype=" .. spell .. ")"
        e[#e + 1] = "np.full(n, 7, " .. spell .. ")"
        e[#e + 1] = "np.ones_like(s, dtype=" .. spell .. ")"
      end
    end
    for _, spell in ipairs { "float", "int", "bool", "s.dtype", "b.dtype", "u.dtype", "v.dtype" } do
      e[#e + 1] = "np.zeros((n, m), " .. spell .. ")"
      e[#e + 1] = "np.ones(n, dtype=" .. spell .. ")"
      e[#e + 1] = "np.empty(z, " .. spell .. ")"
      e[#e + 1] = "np.full_like(a, 2, dtype=" .. spell .. ")"
    end
    for _, ex in ipairs { "np.zeros(s.shape)", "np.ones(v.shape, s.dtype)", "np.zeros(())", "np.ones((n, 0))",
      "np.full((2, 2), x)", "np.full(n, i)", "np.full(n, t)", "np.full(n, x, np.int32)", "np.zeros_like(s)",
      "np.ones_like(b)", "np.full_like(s, 2.7)", "np.zeros_like(r)", "np.zeros_like(v)",
      "np.zeros(nk)", "np.ones((n, nk))", "np.full((nk, 2), 1.0)" } do
      e[#e + 1] = ex
    end
    expect_all(e)
  end)

  it("np.arange: ints, floats, negative steps, dtype=, empty ranges", function()
    expect_all {
      "np.arange(n)", "np.arange(i, 1, -2)", "np.arange(x, 4)", "np.arange(0.0, 1.0, 0.1)", "np.arange(1, 0.0, -0.25)",
      "np.arange(y, x, 0.5)", "np.arange(n, dtype=np.float32)", "np.arange(0, i, 2, np.uint8)", "np.arange(i, n)",
      "np.arange(1.0, 1.0)", "np.arange(z)", "np.arange(n, 1)", "np.arange(nk)", "np.arange(10, 1, 3)",
    }
  end)

  it("np.linspace and np.logspace: NumPy's values, num, endpoint, dtype", function()
    expect_all {
      "np.linspace(0, 1)", "np.linspace(0, 1, 11)", "np.linspace(x, y, 7)", "np.linspace(y, x, 4, endpoint=False)",
      "np.linspace(0.1, 0.9, 9, True)", "np.linspace(0, 10, 5, dtype=np.int32)", "np.linspace(-1, 1, 5, dtype=np.float32)",
      "np.linspace(0, 1, z)", "np.linspace(3, 4, 1)", "np.linspace(3, 4, 1, endpoint=False)", "np.linspace(2, 2, 5)",
      "np.linspace(-7, 7, 6, dtype=np.int64)", "np.linspace(0, 1, num=3)", "np.linspace(1e-300, 2e-300, 3)",
      "np.linspace(0, 1, nk)",
      "np.logspace(0, 2, 3)", "np.logspace(0, 3, 4, base=2.0)", "np.logspace(x, y, 5)", "np.logspace(0, 1, 4, False)",
      "np.logspace(0, 2, 3, dtype=np.float32)", "np.logspace(0, 2, 3, dtype=np.int32)", "np.logspace(0, 1, z)",
    }
  end)

  it("np.eye, np.identity, np.tri: N, M, k, dtype; empty and negative sizes", function()
    expect_all {
      "np.eye(n)", "np.eye(n, m)", "np.eye(n, m, k)", "np.eye(m, n, nk)", "np.eye(n, None, 2, np.int8)", "np.eye(z)",
      "np.eye(n, k=5)", "np.eye(2, dtype=bool)", "np.eye(n, dtype=s.dtype)", "np.eye(nk)", "np.eye(n, nk)",
      "np.identity(n)", "np.identity(m, np.uint16)", "np.identity(z)", "np.identity(n, dtype='float32')",
      "np.tri(n)", "np.tri(n, m)", "np.tri(n, m, nk)", "np.tri(m, n, 2, np.int32)", "np.tri(z)", "np.tri(n, k=-5)",
    }
  end)

  it("np.tril, np.triu (2-d, views, more dimensions) and np.diag both ways", function()
    expect_all {
      "np.tril(s)", "np.tril(s, k)", "np.tril(s, nk)", "np.triu(s)", "np.triu(s, k)", "np.triu(s, -2)", "np.tril(a.T)",
      "np.triu(s[::-1, 1:])", "np.tril(v)", "np.triu(v, 1)", "np.tril(np.ones((n, 0)))", "np.tril(s, 10)",
      "np.diag(s)", "np.diag(s, k)", "np.diag(s, -2)", "np.diag(s, 9)", "np.diag(s.T)", "np.diag(u)", "np.diag(u, 2)",
      "np.diag(u, -1)", "np.diag(b)", "np.diag(r)", "np.diag(np.zeros(0))", "np.diag(s[:, ::-1], nk)",
    }
  end)

  it("np.array and np.asarray: numbers, tuples, nested lists with run-time items, arrays", function()
    expect_all {
      "np.array([1, 2, 3])", "np.array([x, y, 3])", "np.array([[1, 2], [3, 4]])", "np.array([[x, 0.0], [0.0, y]])",
      "np.array((i, n))", "np.array([t, False])", "np.array([t, 2])", "np.array([1, 2], dtype=np.float32)",
      "np.array([[1, 2], [3, 4]], np.uint8)", "np.array(x)", "np.array(i)", "np.array(s.shape)", "np.array([])",
      "np.array([], dtype=np.int8)", "np.array([[[1], [2]], [[3], [4]]])", "np.array(((1, 2.5), (3, 4)))",
      "np.array(s)", "np.array(s, dtype=np.float64)", "np.array(r)", "np.array(a.T)", "np.asarray(s)",
      "np.asarray(r)", "np.asarray(s, np.int64)", "np.asarray([x, y])", "np.asarray(i)",
      "np.ascontiguousarray(a.T)", "np.ascontiguousarray(r)", "np.ascontiguousarray(s, dtype=np.float32)",
      "np.ascontiguousarray(x)", "np.copy(r)", "np.copy(v)", "np.array([np.float32(x), np.float32(1)])",
      "np.array([np.int8(i), np.int8(1)])", "np.array([np.int32(i), 2.5])",
    }
  end)
end)

describe("array creation: aliasing and errors", function()
  it("np.array copies, np.asarray and np.ascontiguousarray of a C array do not", function()
    local f = lumba.njit [[
import numpy as np
def f(a):
    b = np.array(a)
    c = np.asarray(a)
    d = np.ascontiguousarray(a)
    e = np.asarray(a, dtype=np.float32)
    a[0] = 5.0
    return b[0], c[0], d[0], e[0]
]]
    assert.are.same({ 0.0, 5.0, 5.0, 0.0 }, { f(lumba.zeros(3)) })
  end)

  it("a non-dtype where a dtype is wanted is a TypingError at the user's line", function()
    local cases = {
      { "np.zeros(3, 5)", "expected a dtype such as np.float64 here" },
      { "np.ones(3, dtype=x)", "expected a dtype such as np.float64 here" },
      { "np.eye(3, dtype=x)", "expected a dtype such as np.float64 here" },
      { "np.linspace(0, 1, 5, dtype=x)", "expected a dtype such as np.float64 here" },
      { "np.array([1, 2], dtype=x)", "expected a dtype such as np.float64 here" },
      { "np.dtype(x)", "np.dtype() needs a dtype or its name" },
      { "np.zeros(3, 'float99')", "expected a dtype such as np.float64 here" },
      { "np.array([[1, 2], [3]])", "np.array() needs a rectangular nesting" },
      { "np.array([x, a])", "np.array() takes numbers, tuples and lists of them here, not float64[:]" },
      { "np.tril(a)", "tril() needs an array of 2 or more dimensions" },
      { "np.diag(x)", "diag() needs a 1-d or 2-d array" },
      { "np.linspace(0, 1, x)", "linspace() needs an integer here" },
      { "np.eye(x)", "eye() needs an integer here" },
    }
    for _, c in ipairs(cases) do
      local f = lumba.njit("import numpy as np\ndef f(x, a):\n    return " .. c[1] .. "\n")
      local err = H.error_of(f, 1.5, lumba.zeros(2))
      assert.truthy(err:find("<string>:3:", 1, true), c[1] .. ": " .. err)
      assert.truthy(err:find("TypingError: " .. c[2], 1, true), c[1] .. ": " .. err)
    end
  end)

  it("negative sizes raise NumPy's ValueError and leak nothing", function()
    local function live()
      collectgarbage()
      collectgarbage()
      return lumba._live_meminfos()
    end
    local f = lumba.njit [=[
import numpy as np
def f(n, m):
    a = np.ones(5)
    b = np.eye(n)
    c = np.diag(np.arange(3), m)
    d = np.array([[a[0], 1.0], [2.0, a[n]]])
    return a, b, c, d
]=]
    local g = lumba.njit("import numpy as np\ndef f(n):\n    return np.linspace(0, 1, n)\n")
    f(2, 0)
    g(1)
    local before = live()
    assert.are.equal("ValueError: negative dimensions are not allowed", H.message_of(f, -2, 0))
    assert.are.equal("ValueError: Number of samples must be non-negative.", H.message_of(g, -1))
    assert.truthy(H.error_of(lumba.njit { boundscheck = true } [=[
import numpy as np
def f(n):
    a = np.ones(5)
    return np.array([[a[0], 1.0], [2.0, a[n]]])
]=], 9):find("IndexError", 1, true))
    assert.are.equal(before, live())
  end)

  it("the object mode agrees on what it runs", function()
    local f = lumba.njit [=[
import numpy as np
def f(n, x):
    return np.linspace(0, x, n), np.eye(n, k=1), np.tril(np.ones((n, n)), -1), np.diag(np.arange(n)), np.array([[x, 1], [2, 3]])
]=]
    local c, o = { f(4, 2.5) }, { f:interpret(4, 2.5) }
    for i = 1, #c do
      assert.are.equal(c[i].dtype, o[i].dtype)
      assert.are.same(c[i]:totable(), o[i]:totable())
    end
  end)
end)
