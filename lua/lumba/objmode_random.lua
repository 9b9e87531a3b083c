-- The object mode's np.random: the arguments bound as compiled code binds
-- them (src/builtin_nprandom.c), the draws by the same C runtime through
-- lumba.core._nprand (src/nprandom_lua.c), so both give NumPy's legacy
-- RandomState numbers from the same per-thread state.
local pyops = require "lumba.pyops"
local core = require "lumba.core"
local nprand = core._nprand

local R = {}
local mtype = math.type
local function raise(msg) error(msg, 0) end

local REQ = {}
-- member -> runtime name, the kinds of the parameters before size, defaults
local SPEC = {
  beta = { "beta", "dd" }, binomial = { "binomial", "id" }, chisquare = { "chisquare", "d" },
  exponential = { "exponential", "d", { 1.0 } }, f = { "f", "dd" }, gamma = { "gamma", "dd", { REQ, 1.0 } },
  geometric = { "geometric", "d" }, gumbel = { "gumbel", "dd", { 0.0, 1.0 } },
  hypergeometric = { "hypergeometric", "iii" }, laplace = { "laplace", "dd", { 0.0, 1.0 } },
  logistic = { "logistic", "dd", { 0.0, 1.0 } }, lognormal = { "lognormal", "dd", { 0.0, 1.0 } },
  logseries = { "logseries", "d" }, negative_binomial = { "negative_binomial", "dd" },
  normal = { "normal", "dd", { 0.0, 1.0 } }, pareto = { "pareto", "d" }, poisson = { "poisson", "d", { 1.0 } },
  power = { "power", "d" }, randint = { "randint", "ii" }, random = { "random", "" },
  random_sample = { "random", "" }, ranf = { "random", "" }, sample = { "random", "" },
  rayleigh = { "rayleigh", "d", { 1.0 } }, standard_cauchy = { "standard_cauchy", "" },
  standard_exponential = { "standard_exponential", "" }, standard_gamma = { "standard_gamma", "d" },
  standard_normal = { "standard_normal", "" }, standard_t = { "standard_t", "d" },
  triangular = { "triangular", "ddd" }, uniform = { "uniform", "dd", { 0.0, 1.0 } },
  vonmises = { "vonmises", "dd" }, wald = { "wald", "dd" }, weibull = { "weibull", "d" }, zipf = { "zipf", "d" },
}
R.NPRAND_SPEC = SPEC

local function int_of(member, v)
  if mtype(v) == "integer" then return v end
  if v == true then return 1 elseif v == false then return 0 end
  raise(("TypeError: np.random.%s() needs an integer here, not %s"):format(member, pyops.type_name and pyops.type_name(v) or type(v)))
end
local function float_of(member, v)
  if type(v) == "number" then return v * 1.0 end  -- keeps -0.0 (NumPy checks its sign)
  if v == true then return 1.0 elseif v == false then return 0.0 end
  raise(("TypeError: np.random.%s() needs a number here, not %s"):format(member, type(v)))
end

-- a size (nil, an integer or a tuple of them) as a shape table, or nil
local function shape_of(member, size)
  if size == nil then return nil end
  if mtype(size) == "integer" then return { size } end
  if pyops.is_tuple(size) then
    local s = {}
    for k = 1, size.n do s[k] = int_of(member, size[k]) end
    return s
  end
  raise(("TypeError: np.random.%s(): size must be an integer or a tuple of integers"):format(member))
end

-- np.random.<member>(params..., size)
function R.NPRANDOM(member, ...)
  local sp = SPEC[member]
  local args = table.pack(...)
  local kinds, dflt = sp[2], sp[3] or {}
  local d, i = {}, {}
  if member == "randint" and args[2] == nil then args[1], args[2] = 0, args[1] end
  for k = 1, #kinds do
    local v = args[k]
    if v == nil then v = dflt[k] end
    if v == nil or v == REQ then raise(("TypeError: %s() missing a required argument"):format(member)) end
    if kinds:sub(k, k) == "i" then i[#i + 1] = int_of(member, v) else d[#d + 1] = float_of(member, v) end
  end
  return nprand(sp[1], shape_of(member, args[#kinds + 1]), d[1], d[2], d[3], i[1], i[2], i[3])
end

-- np.random.rand(d0, ...), np.random.randn(d0, ...)
function R.NPRAND_DIMS(normal, ...)
  local n = select("#", ...)
  local shape
  if n > 0 then
    shape = { ... }
    for k = 1, n do shape[k] = int_of(normal and "randn" or "rand", shape[k]) end
  end
  return nprand(normal and "standard_normal" or "random", shape)
end

function R.NPRAND_SEED(s)
  nprand("seed", nil, nil, nil, nil, int_of("seed", s))
end

local function is_array(x) return type(x) == "userdata" and pcall(function() return x.ndim end) end

function R.NPRAND_SHUFFLE(x)
  if not is_array(x) then raise("TypeError: np.random.shuffle() needs an array of at least one dimension") end
  nprand("shuffle", x)
end

function R.NPRAND_PERMUTATION(x)
  local a
  if mtype(x) == "integer" then
    local lumba = require "lumba"
    a = lumba.arange(x, "int64")
  elseif is_array(x) then
    a = x:copy()
  else
    raise("TypeError: np.random.permutation() needs an array of at least one dimension or an integer")
  end
  nprand("shuffle", a)
  return a
end

-- np.random.choice(a, size=None, replace=True, p=None)
function R.NPRAND_CHOICE(a, size, replace, p)
  local arr = is_array(a)
  if arr and a.ndim ~= 1 then raise("ValueError: a must be 1-dimensional") end
  local pop = arr and a.shape[1] or int_of("choice", a)
  local shape = shape_of("choice", size)
  local count = 1
  for _, s in ipairs(shape or {}) do count = count * s end
  if count > 0 and pop <= 0 then
    raise(arr and "ValueError: 'a' cannot be empty unless no samples are taken"
      or "ValueError: a must be greater than 0 unless no samples are taken")
  end
  if replace == nil then replace = true end
  local idx
  if p ~= nil then
    if not replace then raise("NotImplementedError: np.random.choice() with p and replace=False is not supported yet") end
    idx = nprand("choice_p", shape, p, nil, nil, pop)
  elseif replace then
    idx = nprand("randint", shape, nil, nil, nil, 0, pop)
  else
    idx = nprand("choice_noreplace", shape, nil, nil, nil, pop)
  end
  if not arr then return idx end
  if shape == nil then return a:get(idx + 1) end
  local out = require("lumba").empty(shape, a.dtype)
  local flat, src = out:reshape(count), idx:reshape(count)
  for k = 1, count do flat:set(k, a:get(src:get(k) + 1)) end
  return out
end

-- np.random.multinomial(n, pvals, size), np.random.dirichlet(alpha, size): a row per sample
function R.NPRAND_MULTINOMIAL(n, pvals, size)
  return nprand("multinomial", shape_of("multinomial", size), pvals, int_of("multinomial", n))
end
function R.NPRAND_DIRICHLET(alpha, size)
  return nprand("dirichlet", shape_of("dirichlet", size), alpha)
end

return R
