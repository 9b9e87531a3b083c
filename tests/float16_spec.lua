-- float16 (issue 22, item 3): host arrays against NumPy (/usr/bin/python3,
-- or LUMBA_PYTHON): rounding to nearest even, ties, inf, nan, subnormals,
-- printing, astype, NumPy 1.x's promotion, reductions, .npy '<f2'; @njit's
-- refusal; kernels (tag gpu: on the GPU, and in the simulator through
-- cuda_sim_spec.lua's run of the gpu-tagged specs, or LUMBA_CUDA_SIM=1)
-- with float16 arrays and cuda.fp16, against values NumPy gave once
-- (below: the GPU machine has no NumPy).
local lumba = require "lumba"
local cuda = lumba.cuda

local PY = os.getenv("LUMBA_PYTHON") or "/usr/bin/python3"
local function numpy_ok()
  local p = io.popen(PY .. " -c 'import numpy' 2>/dev/null && echo yes")
  local ok = p and p:read("a"):find("yes") ~= nil
  if p then p:close() end
  return ok
end
local check = numpy_ok() and it or pending

-- Python's stdout for code (numpy as np, warnings off)
local function python(code)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write("import numpy as np, warnings\nwarnings.simplefilter('ignore')\nnp.seterr(all='ignore')\n", code)
  f:close()
  local p = assert(io.popen(PY .. " " .. path .. " 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(path)
  return out
end

local function lines(s)
  local t = {}
  for l in s:gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end

-- a Lua number as a Python literal
local function pylit(v)
  if v ~= v then return "float('nan')" end
  if v == math.huge then return "float('inf')" end
  if v == -math.huge then return "float('-inf')" end
  if math.type(v) == "integer" then return tostring(v) end
  local s = string.format("%.17g", v)
  return s:find("[.e]") and s or s .. ".0"  -- a float: -0.0 stays negative
end
local function pylist(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = type(v) == "boolean" and (v and "True" or "False") or pylit(v) end
  return "[" .. table.concat(s, ", ") .. "]"
end

local function same_num(want, got)
  if want ~= want then return got ~= got end
  if want == 0 and got == 0 then return 1 / want == 1 / got end  -- signed zeros
  return want == got
end

-- values around float16's edges: ties to even, overflow, subnormals
local EDGES = {
  0.1, 1 / 3, 2049.0, 2051.0, 2050.0, 1 + 2 ^ -11, 1 + 3 * 2 ^ -11, 1 + 2 ^ -11 + 2 ^ -30, 65504.0, 65519.0,
  65519.99, 65520.0, -65520.0, 1e5, 2 ^ -24, 2 ^ -25, 2 ^ -25 + 2 ^ -40, 3 * 2 ^ -26, 2 ^ -14, 2 ^ -14 - 2 ^ -24,
  2 ^ -14 - 2 ^ -25, 1e-8, -1e-8, -0.0, 0.0, math.huge, -math.huge, 0 / 0, 3, -7, 70000, 1e300,
}

describe("float16 arrays", function()
  check("round a Lua number to nearest even as NumPy, inf, nan and subnormals kept", function()
    local a = lumba.array(EDGES, "float16")
    assert.are.equal("float16", a.dtype)
    local b = lumba.zeros(#EDGES, "f2")
    for i, v in ipairs(EDGES) do b[i] = v end
    local want = lines(python(("for v in %s: print(repr(float(np.float16(v))))"):format(pylist(EDGES))))
    assert.are.equal(#EDGES, #want)
    for i, v in ipairs(EDGES) do
      local w = tonumber(want[i]) or (want[i] == "nan" and 0 / 0) or (want[i] == "inf" and math.huge)
        or (want[i] == "-inf" and -math.huge)
      assert(same_num(w, a[i]), ("float16(%s): NumPy %s, lumba %s"):format(pylit(v), want[i], a[i]))
      assert(same_num(w, b[i]), ("b[i] = %s: NumPy %s, lumba %s"):format(pylit(v), want[i], b[i]))
    end
  end)

  check("print as NumPy prints them", function()
    local cases = {
      { 0.1, 0.2, 1.5 }, { 0.1, 0.3333 }, { 1e-7, 1.5 }, { 6e-8, 1, 2 }, { 65504, 1e-3 }, { 1, 2, 3 },
      { 0 / 0, math.huge, -math.huge, 1 }, { -0.0, 2049 }, { 1e4, 3e-5, 0.5 }, { 1 / 3 },
    }
    local code = {}
    for i, c in ipairs(cases) do code[i] = ("print(repr(np.array(%s, np.float16)))"):format(pylist(c)) end
    local want = python(table.concat(code, "\n"))
    local got = {}
    for i, c in ipairs(cases) do got[i] = tostring(lumba.array(c, "float16")) end
    assert.are.equal(want, table.concat(got, "\n") .. "\n")
    assert.are.equal("array(0.5, dtype=float16)", tostring(lumba.array(0.5, "float16")))
  end)

  check("astype to and from every dtype as NumPy", function()
    local code, got = {}, {}
    local src = { 0.5, 1.5, 2.5, 100.0, 0.0, 1.0, 255.0, 65504.0 }
    for _, dt in ipairs(lumba.dtypes) do
      code[#code + 1] = ("print(repr(np.array(%s, np.float16).astype('%s')))"):format(pylist(src), dt)
      got[#got + 1] = tostring(lumba.array(src, "float16"):astype(dt))
      local vals = dt == "bool" and { true, false, true } or dt:find("int") and { 0, 1, 100, 127 }
        or { 0.1, 1e-7, 70000.0, 2049.0, -3.75 }
      local a = lumba.array(vals, dt)
      code[#code + 1] = ("print(repr(np.array(%s, '%s').astype(np.float16)))"):format(pylist(vals), dt)
      got[#got + 1] = tostring(a:astype("float16"))
    end
    assert.are.equal(python(table.concat(code, "\n")), table.concat(got, "\n") .. "\n")
  end)

  check("promote as NumPy 1.x: float16 with 8-bit integers stays float16, with 16-bit ones float32", function()
    local code, got, what = {}, {}, {}
    local function case(w, lua_fn, py)
      what[#what + 1] = w
      local ok, r = pcall(lua_fn)
      got[#got + 1] = ok and r.dtype or "error"
      code[#code + 1] = ("print((%s).dtype)"):format(py)
    end
    local h = lumba.array({ 1, 2 }, "float16")
    for _, dt in ipairs(lumba.dtypes) do
      local d = lumba.ones(2, dt)
      local pd = ("np.ones(2, '%s')"):format(dt)
      case("f16 + " .. dt, function() return h + d end, "np.array([1, 2], np.float16) + " .. pd)
      case(dt .. " * f16", function() return d * h end, pd .. " * np.array([1, 2], np.float16)")
      if not dt:find("^complex") then  -- (lumba orders no complex values)
        case(dt .. " < f16", function() return lumba.binop("less", d, h) end, pd .. " < np.array([1, 2], np.float16)")
      end
    end
    for _, s in ipairs { 1, 200, 1000, 100000, 2.5, 64999.0, 65000.0, 1e5, 1e300, 0 / 0, math.huge } do
      case("f16 + " .. pylit(s), function() return h + s end, "np.array([1, 2], np.float16) + " .. pylit(s))
    end
    for _, dt in ipairs { "int8", "uint8", "int16", "bool" } do
      case(dt .. " + 2.5", function() return lumba.ones(2, dt) + 2.5 end, ("np.ones(2, '%s') + 2.5"):format(dt))
    end
    local want = lines(python(table.concat(code, "\n")))
    local bad = {}
    for i = 1, #what do
      if want[i] ~= got[i] then bad[#bad + 1] = ("%s: NumPy %s, lumba %s"):format(what[i], want[i], got[i]) end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)

  check("compute +, -, *, /, ufuncs and reductions in float16 as NumPy", function()
    local av = { 0.1, 1.5, 65504, 1e-7, -2.5, 0.0, 3.0, 0.7, 2049, 1 / 3 }
    local bv = { 0.2, 3.0, 2.0, 3.0, 0.5, -1.0, 3.0, 4.0, 1, 3 }
    local a, b = lumba.array(av, "float16"), lumba.array(bv, "float16")
    local code = { ("a = np.array(%s, np.float16); b = np.array(%s, np.float16)"):format(pylist(av), pylist(bv)) }
    local got = {}
    local function case(lua, py) got[#got + 1] = tostring(lua) code[#code + 1] = ("print(repr(%s))"):format(py) end
    case(a + b, "a + b")
    case(a - b, "a - b")
    case(a * b, "a * b")
    case(a / b, "a / b")
    case(-a, "-a")
    case(a * 0.1, "a * 0.1")
    case(a + lumba.array({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, "int8"), "a + np.arange(1, 11, dtype=np.int8)")
    case(lumba.unop("sqrt", b), "np.sqrt(b)")
    case(lumba.unop("absolute", a), "np.abs(a)")
    case(lumba.binop("maximum", a, b), "np.maximum(a, b)")
    case(lumba.binop("less", a, b), "a < b")
    case(a:cumsum(), "a.cumsum()")
    case(b:sum(), "float(b.sum())")
    case(b:mean(), "float(b.mean())")
    case(a:max(), "float(a.max())")
    case(a:min(), "float(a.min())")
    case(a:argmax(), "int(a.argmax()) + 1")
    assert.are.equal(python(table.concat(code, "\n")), table.concat(got, "\n") .. "\n")
  end)

  check("save and load .npy as '<f2'", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    local a = lumba.array({ { 0.1, -0.0, 65504 }, { 1e-7, 0 / 0, -math.huge } }, "float16")
    lumba.npy.save(dir .. "/a.npy", a)
    local out = python(([==[
d = %q
a = np.load(d + '/a.npy')
print(a.dtype.str, a.shape)
print(repr(a))
np.save(d + '/b.npy', np.array([[1.5, 2049, 1e-6], [7, -2, 0.333]], np.float16).T)
print(repr(np.load(d + '/b.npy')))
]==]):format(dir))
    local l = lines(out)
    assert.are.equal("<f2 (2, 3)", l[1])
    assert.are.equal(table.concat({ l[2], l[3] }, "\n"), tostring(a))
    local b = lumba.npy.load(dir .. "/b.npy")
    assert.are.equal("float16", b.dtype)
    assert.are.equal(table.concat({ l[4], l[5], l[6] }, "\n"), tostring(b))
    os.execute("rm -rf " .. dir)
  end)
end)

describe("float16 in @njit", function()
  it("is a TypingError naming the argument, as Numba's CPU target has no float16", function()
    local f = lumba.njit [[
def f(n, xs):
    return xs[0] + n
]]
    local ok, err = pcall(f, 1, lumba.zeros(3, "float16"))
    assert.is_false(ok)
    assert.matches("TypingError: argument 'xs' of f%(%) is float16%[:%]: float16 is not supported on the CPU target", err)
    assert.is_true(f(1, lumba.zeros(3, "float32")) == 1)  -- the state is left usable
  end)
end)

-- NumPy's values for the kernels below (tests/fixtures/float16_oracle.py
-- prints them: cuda_fp16.h functions as float32 math rounded to float16)
local A = {0.1, 1.5, 65504.0, 1e-07, -2.5, 0.0, 3.0, 0.7}
local B = {0.2, 3.0, 2.0, 3.0, 0.5, -1.0, 3.0, 4.0}
local C = {1.0, 0.25, 1.0, 2.0, -1.0, 2.0, 0.5, 0.125}
local WANT = {
  hadd = {0.2998046875, 4.5, 65504.0, 3.0, -2.0, -1.0, 6.0, 4.69921875},
  hsub = {-0.0999755859375, -1.5, 65504.0, -3.0, -3.0, 1.0, 0.0, -3.30078125},
  hmul = {0.019989013671875, 4.5, math.huge, 3.5762786865234375e-07, -1.25, -0.0, 9.0, 2.80078125},
  hdiv = {0.5, 0.5, 32752.0, 5.960464477539063e-08, -5.0, -0.0, 1.0, 0.175048828125},
  hneg = {-0.0999755859375, -1.5, -65504.0, -1.1920928955078125e-07, 2.5, -0.0, -3.0, -0.7001953125},
  habs = {0.0999755859375, 1.5, 65504.0, 1.1920928955078125e-07, 2.5, 0.0, 3.0, 0.7001953125},
  hfma = {1.01953125, 4.75, math.huge, 2.0, -2.25, 2.0, 9.5, 2.92578125},
  hmax = {0.199951171875, 3.0, 65504.0, 3.0, 0.5, 0.0, 3.0, 4.0},
  hmin = {0.0999755859375, 1.5, 2.0, 1.1920928955078125e-07, -2.5, -1.0, 3.0, 0.7001953125},
  heq = {false, false, false, false, false, false, true, false},
  hne = {true, true, true, true, true, true, false, true},
  hgt = {false, false, true, false, false, true, false, false},
  hge = {false, false, true, false, false, true, true, false},
  hlt = {true, true, false, true, true, false, false, true},
  hle = {true, true, false, true, true, false, true, true},
  hsin = {0.09979248046875, 0.99755859375, 0.9755859375, 1.1920928955078125e-07, -0.5986328125, 0.0, 0.14111328125, 0.64453125},
  hcos = {0.9951171875, 0.07073974609375, -0.2205810546875, 1.0, -0.80126953125, 1.0, -0.990234375, 0.7646484375},
  hlog = {-2.302734375, 0.405517578125, 11.09375, -15.9453125, 0/0, -math.huge, 1.0986328125, -0.3564453125},
  hlog2 = {-3.322265625, 0.5849609375, 16.0, -23.0, 0/0, -math.huge, 1.5849609375, -0.51416015625},
  hlog10 = {-1.0, 0.1761474609375, 4.81640625, -6.921875, 0/0, -math.huge, 0.47705078125, -0.15478515625},
  hexp = {1.10546875, 4.48046875, math.huge, 1.0, 0.08209228515625, 1.0, 20.078125, 2.013671875},
  hexp2 = {1.0712890625, 2.828125, math.huge, 1.0, 0.1767578125, 1.0, 8.0, 1.625},
  hexp10 = {1.2587890625, 31.625, math.huge, 1.0, 0.003162384033203125, 1.0, 1000.0, 5.015625},
  hsqrt = {0.316162109375, 1.224609375, 255.875, 0.0003452301025390625, 0/0, 0.0, 1.732421875, 0.8369140625},
  hrsqrt = {3.162109375, 0.81640625, 0.00390625, 2896.0, 0/0, math.huge, 0.5771484375, 1.1953125},
  hrcp = {10.0, 0.66650390625, 1.52587890625e-05, math.huge, -0.39990234375, math.huge, 0.333251953125, 1.427734375},
  hceil = {1.0, 2.0, 65504.0, 1.0, -2.0, 0.0, 3.0, 1.0},
  hfloor = {0.0, 1.0, 65504.0, 0.0, -3.0, 0.0, 3.0, 0.0},
  htrunc = {0.0, 1.0, 65504.0, 0.0, -2.0, 0.0, 3.0, 0.0},
  hrint = {0.0, 2.0, 65504.0, 0.0, -2.0, 0.0, 3.0, 1.0},
  op_add = {0.2998046875, 4.5, 65504.0, 3.0, -2.0, -1.0, 6.0, 4.69921875},
  op_sub = {-0.0999755859375, -1.5, 65504.0, -3.0, -3.0, 1.0, 0.0, -3.30078125},
  op_mul = {0.019989013671875, 4.5, math.huge, 3.5762786865234375e-07, -1.25, -0.0, 9.0, 2.80078125},
  op_div = {0.5, 0.5, 32752.0, 5.960464477539063e-08, -5.0, -0.0, 1.0, 0.175048828125},
  op_lt = {true, true, false, true, true, false, false, true},
  op_mathsin = {0.09979248046875, 0.99755859375, 0.9755859375, 1.1920928955078125e-07, -0.5986328125, 0.0, 0.14111328125, 0.64453125},
  op_mixed32 = {0.29997557401657104, 4.5, 65506.0, 3.0, -2.0, -1.0, 6.0, 4.7001953125},
}

-- the kernel: one line per cuda.fp16 function, out[row, i] or flags[row, i]
local FNS = {
  { "hadd", 2 }, { "hsub", 2 }, { "hmul", 2 }, { "hdiv", 2 }, { "hneg", 1 }, { "habs", 1 }, { "hfma", 3 },
  { "hmax", 2 }, { "hmin", 2 }, { "hsin", 1 }, { "hcos", 1 }, { "hlog", 1 }, { "hlog2", 1 }, { "hlog10", 1 },
  { "hexp", 1 }, { "hexp2", 1 }, { "hexp10", 1 }, { "hsqrt", 1 }, { "hrsqrt", 1 }, { "hrcp", 1 },
  { "hceil", 1 }, { "hfloor", 1 }, { "htrunc", 1 }, { "hrint", 1 },
}
local CMPS = { "heq", "hne", "hgt", "hge", "hlt", "hle" }
local OPS = {  -- Python operators and math on float16 elements
  { "op_add", "a[i] + b[i]" }, { "op_sub", "a[i] - b[i]" }, { "op_mul", "a[i] * b[i]" }, { "op_div", "a[i] / b[i]" },
  { "op_mathsin", "math.sin(a[i])" },
}
local MATHY = { hsin = true, hcos = true, hlog = true, hlog2 = true, hlog10 = true, hexp = true, hexp2 = true,
                hexp10 = true, hsqrt = true, hrsqrt = true, hrcp = true, op_mathsin = true }

local function kernel_source()
  local src = { "import math", "from numba import cuda", "def k(a, b, c, b32, out, flags, out32):",
                "    i = cuda.grid(1)", "    if i < a.size:" }
  local args = { "a[i]", "b[i]", "c[i]" }
  for r, f in ipairs(FNS) do
    src[#src + 1] = ("        out[%d, i] = cuda.fp16.%s(%s)"):format(r - 1, f[1], table.concat(args, ", ", 1, f[2]))
  end
  for r, op in ipairs(OPS) do src[#src + 1] = ("        out[%d, i] = %s"):format(#FNS + r - 1, op[2]) end
  for r, name in ipairs(CMPS) do src[#src + 1] = ("        flags[%d, i] = cuda.fp16.%s(a[i], b[i])"):format(r - 1, name) end
  src[#src + 1] = ("        flags[%d, i] = a[i] < b[i]"):format(#CMPS)
  src[#src + 1] = "        out32[i] = a[i] + b32[i]"
  src[#src + 1] = "        x = a[i]"
  src[#src + 1] = "        x += b[i]"  -- stays float16: rounds like hadd
  src[#src + 1] = ("        out[%d, i] = x"):format(#FNS + #OPS)
  return table.concat(src, "\n") .. "\n"
end

-- one float16 ulp of v (the math functions round float32 results, within one)
local function ulp(v)
  v = math.abs(v)
  local e = -14
  while e < 15 and 2.0 ^ (e + 1) <= v do e = e + 1 end
  return 2.0 ^ (e - 10)
end

describe("float16 kernels #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("take float16 arrays and compute cuda.fp16 and operators in float16, as numba-cuda", function()
    local n = #A
    local k = cuda.jit(kernel_source())
    local nrows = #FNS + #OPS + 1
    local out = cuda.device_array({ nrows, n }, "float16")
    local flags = cuda.device_array({ #CMPS + 1, n }, "bool")
    local out32 = cuda.device_array(n, "float32")
    k[{ 1, 32 }](cuda.to_device(lumba.array(A, "float16")), cuda.to_device(lumba.array(B, "float16")),
      cuda.to_device(lumba.array(C, "float16")), cuda.to_device(lumba.array(B, "float32")), out, flags, out32)
    local o, fl, o32 = out:copy_to_host(), flags:copy_to_host(), out32:copy_to_host()
    assert.are.equal("float16", o.dtype)
    local bad = {}
    local function cmp(name, row, tol)
      for i = 1, n do
        local w, g = WANT[name][i], o[row][i]
        local ok = same_num(w, g) or (tol and w == w and g == g and math.abs(w - g) <= ulp(w))
        if not ok then bad[#bad + 1] = ("%s(%s): want %s, got %s"):format(name, A[i], w, g) end
      end
    end
    for r, f in ipairs(FNS) do cmp(f[1], r, MATHY[f[1]]) end
    for r, op in ipairs(OPS) do cmp(op[1], #FNS + r, MATHY[op[1]]) end
    cmp("hadd", nrows)  -- x += b[i] on a float16 local
    for r, name in ipairs(CMPS) do
      for i = 1, n do
        if fl[r][i] ~= WANT[name][i] then bad[#bad + 1] = ("%s(%s, %s): got %s"):format(name, A[i], B[i], fl[r][i]) end
      end
    end
    for i = 1, n do
      if fl[#CMPS + 1][i] ~= WANT.op_lt[i] then bad[#bad + 1] = ("a < b at %d"):format(i) end
      if o32[i] ~= WANT.op_mixed32[i] then bad[#bad + 1] = ("float16 + float32 at %d: %s"):format(i, o32[i]) end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)

  it("keep float16 in shared and local arrays, np.float16 converting", function()
    local k = cuda.jit [[
import numpy as np
from numba import cuda
def k(a, out):
    s = cuda.shared.array(4, np.float16)
    l = cuda.local.array(2, np.float16)
    i = cuda.threadIdx.x
    s[i] = a[i] * np.float16(3)
    cuda.syncthreads()
    l[0] = s[3 - i]
    out[i] = l[0] + np.float16(0.1)
]]
    local out = cuda.device_array(4, "float16")
    k[{ 1, 4 }](cuda.to_device(lumba.array({ 1, 2.5, 2049, -0.0 }, "float16")), out)
    -- float16 products and sums: 2048 * 3 = 6144, 6144 + 0.1 = 6144; 7.5 + 0.1 = 7.6 rounded (7.6015625)
    assert.are.same({ 0.0999755859375, 6144.0, 7.6015625, 3.099609375 }, out:copy_to_host():totable())
  end)

  it("say which argument of a cuda.fp16 function is not a number", function()
    local k = cuda.jit [[
from numba import cuda
def k(a):
    a[0] = cuda.fp16.hadd(a[0], a)
]]
    local ok, err = pcall(function() k[{ 1, 1 }](cuda.to_device(lumba.zeros(2, "float16"))) end)
    assert.is_false(ok)
    assert.matches("TypingError: fp16.hadd%(%) argument 2 must be a real number %(float16%), not float16%[", err)
  end)
end)
