-- np.random in compiled code against NumPy's legacy RandomState (the
-- installed NumPy, one python run for every case: tests/numpy_batch.lua):
-- after np.random.seed(s) the first 1,000 draws of each function, for three
-- seeds, drawn one scalar call at a time and as one array of a size, equal
-- NumPy's bit for bit, with NumPy's dtypes and shapes. Then NumPy's
-- messages for bad parameters, Numba's typing errors, and a random walk
-- in prange (each thread its own generator).
local lumba = require "lumba"
local H = require "helpers"
local batch = dofile("tests/numpy_batch.lua")

local N = 1000
local SEEDS = { 0, 1, 4294967295 }

-- each: the call's arguments before size, as Python text both sides read;
-- parameters chosen to reach each branch of NumPy's algorithms
local calls = {
  "random()", "random_sample()", "sample()", "ranf()", "standard_normal()",
  "normal(1.5, 2.0)", "normal()", "uniform(-2.0, 3.0)", "uniform()",
  "standard_exponential()", "exponential(2.5)",
  "standard_gamma(0.5)", "standard_gamma(1.0)", "standard_gamma(3.5)", "gamma(0.3, 2.0)", "gamma(7.0, 0.5)",
  "beta(0.5, 0.7)", "beta(2.0, 3.0)", "chisquare(3.0)", "chisquare(0.8)", "f(3.0, 7.0)", "standard_t(4.0)",
  "standard_cauchy()", "lognormal(0.5, 0.25)", "laplace(1.0, 2.0)", "logistic(1.0, 2.0)", "gumbel(1.0, 2.0)",
  "pareto(3.0)", "power(2.5)", "weibull(1.5)", "rayleigh(2.0)", "triangular(-1.0, 0.5, 2.0)",
  "wald(1.0, 3.0)", "vonmises(0.5, 4.0)", "vonmises(-1.0, 1e-6)", "vonmises(0.0, 1e-9)",
  "binomial(10, 0.3)", "binomial(100, 0.4)", "binomial(1000, 0.9)", "binomial(20, 0.99)",
  "poisson(3.0)", "poisson(50.0)", "poisson()", "geometric(0.5)", "geometric(0.05)",
  "negative_binomial(5.0, 0.3)", "zipf(2.5)", "logseries(0.6)", "logseries(0.99)",
  "hypergeometric(10, 5, 8)", "hypergeometric(100, 200, 50)", "hypergeometric(300, 20, 250)",
  "randint(0, 10)", "randint(-5, 1000000)", "randint(0, 2**40)", "randint(7)", "randint(-2**62, 2**62)",
}

local function flat(x)
  if type(x) ~= "userdata" and type(x) ~= "table" then return { x } end
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t; return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(x:totable())
  return out
end

local function shape_of(a)
  local s = {}
  for i = 1, a.ndim do s[i] = a.shape[i] end
  return s
end

-- the call with size (array form); its name and arguments
local function with_size(call, size)
  local name, args = call:match("^(%w[%w_]*)%((.*)%)$")
  return ("np.random.%s(%s%ssize=%s)"):format(name, args, args == "" and "" or ", ", size)
end

local cases, runs = {}, {}
for _, call in ipairs(calls) do
  for _, seed in ipairs(SEEDS) do
    -- one scalar call at a time, as a loop in both
    cases[#cases + 1] = { inputs = {},
      code = ("np.random.seed(%d)\nr = np.array([np.random.%s for _ in range(%d)])"):format(seed, call, N) }
    runs[#runs + 1] = { call = call, seed = seed, scalar = true }
    cases[#cases + 1] = { inputs = {}, code = ("np.random.seed(%d)\nr = %s"):format(seed, with_size(call, N)) }
    runs[#runs + 1] = { call = call, seed = seed, size = tostring(N) }
  end
end
-- shapes, the dimension forms, shuffles and choices
local extra = {
  { "np.random.normal(0.0, 1.0, (20, 50))" }, { "np.random.random((10, 10, 10))" }, { "np.random.rand(25, 40)" },
  { "np.random.randn(1000)" }, { "np.random.randn(8, 5, 25)" }, { "np.random.randint(3, 9, size=(10, 100))" },
  { "np.random.poisson(4.0, (4, 250))" }, { "np.random.random(())" }, { "np.random.uniform(0.0, 1.0, 0)" },
  { "np.random.permutation(1000)" }, { "np.random.choice(1000, 1000)" }, { "np.random.choice(1000, 500, replace=False)" },
  { "np.random.choice(5, 1000, p=np.array([0.1, 0.0, 0.3, 0.4, 0.2]))" },
  { "np.random.choice(np.arange(100.0) * 0.5, (10, 100))" },
  { "np.random.multinomial(20, np.array([0.2, 0.0, 0.5, 0.3]), 250)" },
  { "np.random.multinomial(1000, np.array([0.1, 0.6, 0.3]), (5, 4))" }, { "np.random.multinomial(7, np.array([0.5, 0.5]))" },
  { "np.random.dirichlet(np.array([0.5, 2.0, 7.0]), 300)" }, { "np.random.dirichlet(np.array([1.0, 1.0]))" },
  { "np.random.multinomial(5, np.array([0.7, 0.6, 0.1]))", error = true },
  { "np.random.dirichlet(np.array([1.0, 0.0]))", error = true },
  { "np.random.choice(np.arange(10), 20, replace=False)", error = true },
  { "np.random.choice(5, 10, p=np.array([0.1, 0.0, 0.3, 0.4, 0.3]))", error = true },
  { "np.random.normal(0.0, -1.0)", error = true }, { "np.random.gamma(-1.0)", error = true },
  { "np.random.beta(0.0, 1.0)", error = true }, { "np.random.binomial(10, 1.5)", error = true },
  { "np.random.poisson(-1.0)", error = true }, { "np.random.randint(5, 5)", error = true },
  { "np.random.randint(0)", error = true }, { "np.random.geometric(0.0)", error = true },
  { "np.random.zipf(1.0)", error = true }, { "np.random.hypergeometric(2, 3, 10)", error = true },
  { "np.random.triangular(1.0, 0.0, 2.0)", error = true }, { "np.random.exponential(-0.0)", error = true },
}
for _, e in ipairs(extra) do
  for _, seed in ipairs(SEEDS) do
    cases[#cases + 1] = { inputs = {}, code = ("np.random.seed(%d)\nr = %s"):format(seed, e[1]) }
    runs[#runs + 1] = { expr = e[1], seed = seed, error = e.error }
  end
end
for _, seed in ipairs(SEEDS) do
  -- shuffle: in place, of a copy of arange(1000) and of a 2-D array's rows
  cases[#cases + 1] = { inputs = {}, code = ("np.random.seed(%d)\nr = np.arange(1000.0)\nnp.random.shuffle(r)"):format(seed) }
  runs[#runs + 1] = { shuffle = "np.arange(1000.0)", seed = seed }
  cases[#cases + 1] = { inputs = {},
    code = ("np.random.seed(%d)\nr = np.arange(60).reshape(20, 3)\nnp.random.shuffle(r)"):format(seed) }
  runs[#runs + 1] = { shuffle = "np.arange(60).reshape(20, 3)", seed = seed }
  cases[#cases + 1] = { inputs = {},
    code = ("np.random.seed(%d)\nr = np.random.permutation(np.arange(12).reshape(4, 3) * 2)"):format(seed) }
  runs[#runs + 1] = { expr = "np.random.permutation(np.arange(12).reshape(4, 3) * 2)", seed = seed }
end

local function source(run, dtype)
  if run.scalar then
    return ("import numpy as np\ndef f(s):\n    np.random.seed(s)\n    out = np.empty(%d, np.%s)\n" ..
      "    for i in range(%d):\n        out[i] = np.random.%s\n    return out\n"):format(N, dtype, N, run.call)
  elseif run.shuffle then
    return ("import numpy as np\ndef f(s):\n    np.random.seed(s)\n    r = %s\n    np.random.shuffle(r)\n    return r\n")
      :format(run.shuffle)
  end
  return ("import numpy as np\ndef f(s):\n    np.random.seed(s)\n    return %s\n"):format(run.expr or with_size(run.call, run.size))
end

local function lab(run)
  return ("%s, seed %d%s"):format(run.call or run.expr or ("shuffle " .. run.shuffle), run.seed,
    run.scalar and " (scalar calls)" or "")
end

describe("np.random in compiled code equals NumPy's RandomState", function()
  if not batch.available() then
    pending("needs python3 with NumPy")
    return
  end
  local expected = batch.run(cases)

  it("draw for draw: every function, three seeds, scalar calls and sizes", function()
    local checked = 0
    for i, run in ipairs(runs) do
      local want = expected[i]
      if not run.error then
        assert(want.dtype, lab(run) .. ": NumPy failed: " .. tostring(want.error))
        local f = lumba.njit(source(run, want.dtype))
        for pass = 1, 2 do
        -- compiled, then the object mode (the same C runtime through lumba.core)
        local got
        if pass == 1 then got = f(run.seed) else got = f:interpret(run.seed) end
        local function label(r) return lab(r) .. (pass == 2 and " (object mode)" or "") end
        if type(got) ~= "userdata" then
          assert.equals(type(want.values[1]), type(got), label(run))
          if math.type(want.values[1]) then assert.equals(math.type(want.values[1]), math.type(got), label(run)) end
        else
          assert.equals(want.dtype, got.dtype, label(run) .. ": dtype")
          assert.same(want.shape, shape_of(got), label(run) .. ": shape")
        end
        local g = flat(got)
        assert.equals(#want.values, #g, label(run) .. ": count")
        for k = 1, #g do
          if g[k] ~= want.values[k] then
            error(("%s: draw %d is %s, NumPy's %s"):format(label(run), k, string.format("%.17g", g[k]),
              string.format("%.17g", want.values[k])))
          end
        end
        end
        checked = checked + 1
      end
    end
    assert.is_true(checked > 300)
  end)

  it("bad parameters raise NumPy's ValueError, and the state stays usable", function()
    for i, run in ipairs(runs) do
      if run.error then
        local want = expected[i]
        assert(want.error, lab(run) .. ": NumPy raised nothing")
        local f = lumba.njit(source(run))
        local text = want.error:gsub("^ValueError: ", "")
        for _, msg in ipairs { H.error_of(f, run.seed), H.error_of(function() return f:interpret(run.seed) end) } do
          assert.truthy(msg:find("ValueError: " .. text, 1, true), lab(run) .. ": " .. msg .. " (NumPy: " .. want.error .. ")")
        end
      end
    end
    local g = lumba.njit("import numpy as np\ndef g():\n    np.random.seed(3)\n    return np.random.random()\n")
    local bad = lumba.njit("import numpy as np\ndef b(s):\n    np.random.seed(s)\n")
    assert.matches("ValueError: Seed must be between 0 and 2%*%*32 %- 1", H.error_of(bad, -1))
    assert.matches("ValueError: Seed must be between 0 and 2%*%*32 %- 1", H.error_of(bad, 4294967296))
    assert.equals(g(), g())
  end)
end)

describe("np.random typing", function()
  local function err(src)
    return H.error_of(function() return lumba.njit("import numpy as np\n" .. src)(lumba.zeros(3)) end)
  end
  it("says what is wrong, where", function()
    assert.matches("<string>:3:%d+: TypingError: np.random.normal%(%): size must be an integer or a tuple of integers, not float64",
      err("def f(a):\n    return np.random.normal(0.0, 1.0, 2.5)\n"))
    assert.matches("TypingError: np.random.binomial%(%) needs an integer here, not float64",
      err("def f(a):\n    return np.random.binomial(2.5, 0.5)\n"))
    assert.matches("TypingError: np.random.normal%(%) needs a number here, not float64%[:%]",
      err("def f(a):\n    return np.random.normal(a)\n"))
    assert.matches("TypingError: beta%(%) takes 2 to 3 arguments %(1 given%)", err("def f(a):\n    return np.random.beta(1.0)\n"))
    assert.matches("TypingError: np.random.shuffle%(%) needs an array", err("def f(a):\n    np.random.shuffle(3)\n"))
    assert.matches("replace must be True or False as written",
      err("def f(a):\n    r = a[0] > 0\n    return np.random.choice(5, 3, r)\n"))
    assert.matches("np.random.seed%(%) needs an integer seed", err("def f(a):\n    np.random.seed(None)\n"))
  end)
  it("types results as Numba does: float64 and int64, scalars without size", function()
    local f = lumba.njit("import numpy as np\ndef f():\n    return np.random.random(), np.random.randint(5), np.random.poisson(2.0)\n")
    local a, b, c = f()
    assert.equals("float", math.type(a))
    assert.equals("integer", math.type(b))
    assert.equals("integer", math.type(c))
  end)
  it("draws from entropy before any seed: two fresh processes differ", function()
    local cmd = [[LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 -e ']] ..
      [[local f = require("lumba").njit("import numpy as np\ndef f():\n    return np.random.randint(0, 2**62)\n") print(f())']]
    local p1 = io.popen(cmd):read("a")
    local p2 = io.popen(cmd):read("a")
    assert.truthy(p1:match("%d"), p1)
    assert.not_equals(p1, p2)
  end)
end)

describe("np.random in prange", function()
  it("a random walk per walker: each thread its own generator, results plausible", function()
    local walk = lumba.njit { parallel = true } [[
import numpy as np
from numba import prange
def walk(n, steps):
    out = np.empty(n)
    for i in prange(n):
        x = 0.0
        for j in range(steps):
            x += np.random.standard_normal()
        out[i] = x
    return out
]]
    local n, steps = 2000, 400
    local r = flat(walk(n, steps))
    local mean, var, distinct = 0, 0, {}
    for _, x in ipairs(r) do
      mean = mean + x / n
      distinct[x] = true
    end
    for _, x in ipairs(r) do var = var + (x - mean) ^ 2 / (n - 1) end
    local nd = 0
    for _ in pairs(distinct) do nd = nd + 1 end
    assert.equals(n, nd)                                   -- no two walkers share a stream
    assert.is_true(math.abs(mean) < 5 * math.sqrt(steps / n), "mean " .. mean)
    assert.is_true(math.abs(var / steps - 1) < 0.15, "variance/steps " .. var / steps)
  end)
  it("a random walk seeded per walker is deterministic: the same at 1 and 2 threads, and NumPy's walks", function()
    -- (Numba: each thread its own state, so a walk is reproducible only when
    -- it seeds its own thread's generator before drawing)
    local walk = lumba.njit { parallel = true } [[
import numpy as np
from numba import prange
def walk(n, steps):
    out = np.empty((n, steps))
    for i in prange(n):
        np.random.seed(1000 + i)
        x = 0.0
        for j in range(steps):
            x += np.random.normal(0.0, 0.5)
            out[i, j] = x
    return out
]]
    local n, steps = 24, 50
    local before = lumba.set_num_threads(1)
    local one = flat(walk(n, steps))
    lumba.set_num_threads(math.min(2, lumba.max_threads()))
    local two = flat(walk(n, steps))
    lumba.set_num_threads(before)
    assert.are.same(one, two)
    local py = io.popen(([[/usr/bin/python3 -c "
import numpy as np
for i in range(%d):
    np.random.seed(1000 + i)
    x = 0.0
    for j in range(%d):
        x += np.random.normal(0.0, 0.5)
        print(repr(x))"]]):format(n, steps)):read("a")
    local k = 0
    for line in py:gmatch("[^\n]+") do
      k = k + 1
      assert.equals(tonumber(line), one[k])
    end
    assert.equals(n * steps, k)
  end)
  it("a seed inside the loop seeds that thread's generator: the same draws as NumPy's after that seed", function()
    local f = lumba.njit { parallel = true } [[
import numpy as np
from numba import prange
def f(n):
    out = np.empty(n)
    for i in prange(n):
        np.random.seed(i)
        out[i] = np.random.random()
    return out
]]
    local r = flat(f(16))
    local py = io.popen([[/usr/bin/python3 -c "
import numpy as np
for i in range(16):
    np.random.seed(i); print(repr(np.random.random()))"]]):read("a")
    local k = 0
    for line in py:gmatch("[^\n]+") do
      k = k + 1
      assert.equals(tonumber(line), r[k])
    end
    assert.equals(16, k)
  end)
end)
