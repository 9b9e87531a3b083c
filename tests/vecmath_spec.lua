-- fastmath loops call a vector math library (SLEEF or glibc's libmvec) for
-- exp, log, sin, cos and pow (issue 23 item 3): results within the library's
-- documented ulp of the exact values, special values as libm gives them;
-- without fastmath the calls stay glibc's scalar ones, bit for bit; with the
-- library absent ($LUMBA_VECMATH=none) fastmath code still runs, scalar.
local lumba = require "lumba"
local H = require "helpers"
local oracle = require "numpy_oracle"

local FNS = { "exp", "log", "sin", "cos", "pow" }

local function src(fn)
  if fn == "pow" then
    return "import math\ndef f(x, y, out):\n    for i in range(x.shape[0]):\n" ..
      "        out[i] = math.pow(x[i], y[i])\n"
  end
  return ("import math\ndef f(x, out):\n    for i in range(x.shape[0]):\n        out[i] = math.%s(x[i])\n"):format(fn)
end

-- inputs per function and dtype: the edge values, then pseudo-random ones
-- over the range that matters (a deterministic LCG, so failures reproduce)
local function inputs(fn, dtype)
  local f32 = dtype == "float32"
  local huge, tiny, sub = f32 and 3e38 or 1e300, f32 and 1e-37 or 1e-300, f32 and 1e-44 or 5e-324
  local inf, nan = math.huge, 0 / 0
  local xs = { 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, tiny, -tiny, sub, huge, -huge, inf, -inf, nan }
  local ys = {}
  local seed = 12345
  local function rnd()
    seed = (seed * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
    return (seed >> 11) / 2 ^ 52
  end
  if fn == "exp" then
    local lim = f32 and 87.0 or 708.0
    for _, v in ipairs { lim, -lim, lim + 2, -lim - 40, 1e-8, -1e-8 } do xs[#xs + 1] = v end
    for _ = 1, 2000 do xs[#xs + 1] = (2 * rnd() - 1) * lim end
  elseif fn == "log" then
    for _, v in ipairs { 1 + 1e-7, 1 - 1e-7, -2.0, 1e10, 1e-10 } do xs[#xs + 1] = v end
    for _ = 1, 2000 do xs[#xs + 1] = math.exp((2 * rnd() - 1) * (f32 and 85 or 700)) end
  elseif fn == "sin" or fn == "cos" then
    for _, v in ipairs { math.pi, -math.pi, math.pi / 2, 1e4, 1e6, -1e6 } do xs[#xs + 1] = v end
    for _ = 1, 2000 do xs[#xs + 1] = (2 * rnd() - 1) * 1e4 end
  else -- pow: edge pairs, then x in (0, 100], y in [-40, 40]
    local pairs_ = { { 0.0, 2.0 }, { 0.0, -1.0 }, { -2.0, 3.0 }, { -2.0, 0.5 }, { 2.0, 0.5 }, { 1.0, nan },
      { nan, 0.0 }, { inf, -1.0 }, { -inf, 3.0 }, { 0.5, inf }, { 2.0, -inf }, { 10.0, f32 and 40.0 or 300.0 },
      { 10.0, f32 and -40.0 or -300.0 }, { huge, 2.0 }, { tiny, 0.5 }, { 1.0000001, 1e7 } }
    xs = {}
    for i, p in ipairs(pairs_) do xs[i], ys[i] = p[1], p[2] end
    for _ = 1, 2000 do
      xs[#xs + 1], ys[#ys + 1] = rnd() * 100 + 1e-3, (2 * rnd() - 1) * (f32 and 15 or 120)
    end
  end
  return xs, ys
end

-- a child process computes every case with the given library and prints the
-- results as hex floats (exact), and which library its IR calls
local CHILD = [==[
local lumba = require "lumba"
local fh = assert(io.open(os.getenv("VM_CASES")))
local cases = load("return " .. fh:read("a"))()
fh:close()
for _, c in ipairs(cases) do
  local f = lumba.njit { fastmath = true } (c.src)
  local x = lumba.array(c.xs, c.dtype)
  local out = lumba.zeros(#c.xs, c.dtype)
  if #c.ys > 0 then f(x, lumba.array(c.ys, c.dtype), out) else f(x, out) end
  local ir = f:inspect_llvm()
  local lib = ir:find("@Sleef_", 1, true) and "sleef" or ir:find("@_ZGV", 1, true) and "libmvec" or "none"
  local t = {}
  for i = 1, out.size do t[i] = string.format("%a", out[i]) end
  print("LIB " .. lib .. " " .. table.concat(t, " "))
end
]==]

local function serialise(v)
  if type(v) == "table" then
    local t = {}
    for k, x in pairs(v) do t[#t + 1] = "[" .. serialise(k) .. "]=" .. serialise(x) end
    return "{" .. table.concat(t, ",") .. "}"
  elseif type(v) == "number" then
    if v ~= v then return "(0/0)" elseif v == math.huge then return "math.huge" elseif v == -math.huge then
      return "-math.huge" end
    return string.format("%a", v)
  end
  return string.format("%q", v)
end

local function all_cases()
  local cases = {}
  for _, fn in ipairs(FNS) do
    for _, dt in ipairs { "float64", "float32" } do
      local xs, ys = inputs(fn, dt)
      cases[#cases + 1] = { fn = fn, dtype = dt, src = src(fn), xs = xs, ys = ys }
    end
  end
  return cases
end

-- the results of every case computed under $LUMBA_VECMATH=lib
local function child_results(lib, cases)
  local path = os.tmpname()
  H.spit(path, serialise(cases))
  local out = H.run_lua("LUMBA_VECMATH=" .. lib .. " VM_CASES=" .. H.shell_quote(path), CHILD)
  os.remove(path)
  local res = {}
  for line in out:gmatch("LIB [^\n]*") do
    local r = { lib = line:match("^LIB (%S+)"), values = {} }
    local special = { nan = 0 / 0, ["-nan"] = 0 / 0, inf = math.huge, ["-inf"] = -math.huge }
    for h in line:gmatch("%S+", 5 + #r.lib) do r.values[#r.values + 1] = special[h] or assert(tonumber(h), h) end
    res[#res + 1] = r
  end
  assert(#res == #cases, "child failed: " .. out:sub(1, 2000))
  return res
end

local function num(x) return string.format("%.17g", x):gsub("^nan$", "np.nan"):gsub("^%-nan$", "np.nan")
  :gsub("^inf$", "np.inf"):gsub("^%-inf$", "-np.inf") end

-- the worst ulp error of got against the exact result (NumPy in long double
-- for float64, in float64 for float32), and the special-value mismatches
local function ulp_report(cases, results)
  local pyc = {}
  for i, c in ipairs(cases) do
    local function arr(name, v)
      local t = {}
      for j, x in ipairs(v) do t[j] = num(x) end
      return { name = name, dtype = c.dtype, shape = { #v }, values = t }
    end
    local ins = { arr("x", c.xs), arr("got", results[i].values) }
    if #c.ys > 0 then ins[#ins + 1] = arr("y", c.ys) end
    local hi = c.dtype == "float64" and "np.longdouble" or "np.float64"
    local call = c.fn == "pow" and ("np.power(x.astype(%s), y.astype(%s))"):format(hi, hi) or
      ("np.%s(x.astype(%s))"):format(c.fn, hi)
    pyc[i] = { inputs = ins, exprs = { "!ref = " .. call .. "; dt = got.dtype.type; " ..
      "r8 = ref.astype(dt); fin = np.isfinite(r8) & np.isfinite(got); " ..
      "sp = np.spacing(np.abs(r8)).astype(" .. hi .. "); " ..
      "err = np.where(fin, np.abs(got.astype(" .. hi .. ") - ref) / np.where(fin, sp, 1), 0); " ..
      "bad = (~fin) & ~((np.isnan(r8) & np.isnan(got)) | (r8 == got)); " ..
      "r = np.array([float(err.max()), float(bad.sum()), float(np.argmax(err))])" } }
  end
  local out = oracle.batch(pyc)
  local rep = {}
  for i = 1, #cases do
    local v = assert(out[i][1].values, out[i][1].error)
    rep[i] = { ulp = v[1], bad = v[2], worst = cases[i].xs[v[3] + 1] }
  end
  return rep
end

local has_avx2 = (function()
  local f = io.open("/proc/cpuinfo")
  local s = f and f:read("a") or ""
  if f then f:close() end
  return s:find(" avx2", 1, true) ~= nil
end)()

describe("vector math for fastmath", function()
  local cases = all_cases()
  -- the libraries' documented maximum errors: SLEEF's _u10 functions 1.0 ulp,
  -- libmvec 4 ulp (glibc manual, "Errors in Math Functions"); glibc's scalar
  -- functions (the loops' remainders) are within 1 ulp for these
  local BOUND = { sleef = 1.0, libmvec = 4.0, none = 1.0 }

  for _, lib in ipairs { "sleef", "libmvec" } do
    it(lib .. ": exp, log, sin, cos, pow in float32 and float64 within its ulp, special values as libm", function()
      if not oracle.available() then pending("NumPy not available") return end
      local res = child_results(lib, cases)
      if res[1].lib ~= lib then
        assert.is_false(has_avx2 and lib == "libmvec", "libmvec present but not called")
        pending(lib .. " is not installed here (the IR calls " .. res[1].lib .. ")")
        return
      end
      local rep = ulp_report(cases, res)
      for i, c in ipairs(cases) do
        assert.are.equal(lib, res[i].lib, c.fn .. " " .. c.dtype .. " did not call " .. lib)
        assert.is_true(rep[i].ulp <= BOUND[lib], ("%s %s %s: %.3g ulp at x = %.17g"):format(lib, c.fn, c.dtype,
          rep[i].ulp, rep[i].worst))
        assert.are.equal(0, rep[i].bad, ("%s %s %s: a special value differs from libm's"):format(lib, c.fn, c.dtype))
      end
    end)
  end

  it("without the library ($LUMBA_VECMATH=none) fastmath code runs with scalar calls", function()
    local res = child_results("none", { cases[1], cases[2] })
    assert.are.equal("none", res[1].lib)
    for i = 1, 2 do
      local c = cases[i]
      for j, x in ipairs(c.xs) do
        local want = math.exp(x)
        local got = res[i].values[j]
        if c.dtype == "float64" and x == x and want ~= got then H.assert_close(want, got, 1e-15, 0) end
      end
    end
  end)

  it("without fastmath the calls are glibc's scalar ones, bit for bit", function()
    local lua = { exp = math.exp, log = math.log, sin = math.sin, cos = math.cos, pow = function(a, b) return a ^ b end }
    for _, c in ipairs(cases) do
      if c.dtype == "float64" then
        local f = lumba.njit(c.src)
        local x, out = lumba.array(c.xs), lumba.zeros(#c.xs)
        if #c.ys > 0 then f(x, lumba.array(c.ys), out) else f(x, out) end
        local ir = f:inspect_llvm()
        assert.falsy(ir:find("@Sleef_", 1, true) or ir:find("@_ZGV", 1, true), c.fn .. " called a vector library")
        for j, xv in ipairs(c.xs) do
          local want = lua[c.fn](xv, c.ys[j])
          local got = out[j]
          assert.is_true(want == got or (want ~= want and got ~= got),
            ("%s(%.17g) = %.17g, libm %.17g"):format(c.fn, xv, got, want))
        end
      end
    end
  end)

  it("fastmath without afn keeps the scalar calls", function()
    local f = lumba.njit { fastmath = { "nnan", "ninf", "nsz", "arcp", "contract", "reassoc" } } (src("exp"))
    local x = lumba.array({ 1.0, 2.0, 3.0 })
    local out = lumba.zeros(3)
    f(x, out)
    local ir = f:inspect_llvm()
    assert.falsy(ir:find("@Sleef_", 1, true) or ir:find("@_ZGV", 1, true))
    assert.are.equal(math.exp(2.0), out[2])
  end)

  it("the cache keeps code for one library apart from code for another", function()
    local dirs = {}
    local dir = H.tmpdir(dirs)
    local script = [=[
package.cpath = (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;" .. package.cpath
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local lumba = require "lumba"
local f = lumba.njit { fastmath = true, cache = true } (]=] .. string.format("%q", src("exp")) .. [=[)
local x, out = lumba.array({ 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5 }), lumba.zeros(17)
f(x, out)
local ir = f:inspect_llvm()
print("LIB", ir:find("@Sleef_", 1, true) and "sleef" or ir:find("@_ZGV", 1, true) and "libmvec" or "none")
print("SUM", string.format("%.17g", (function() local t = 0 for i = 1, 17 do t = t + out[i] end return t end)()))
]=]
    local want = 0
    for i = 0, 16 do want = want + math.exp(i + 0.5) end
    local libs = {}
    for k, env in ipairs { "LUMBA_VECMATH=libmvec", "LUMBA_VECMATH=none", "LUMBA_VECMATH=libmvec" } do
      local out, err, code = H.run_cached(dir, script, env)
      assert.are.equal(0, code, err)
      libs[k] = out:match("LIB%s+(%S+)")
      H.assert_close(want, tonumber(out:match("SUM%s+(%S+)")), 1e-14)
    end
    assert.are.equal("none", libs[2])
    assert.are.equal(libs[1], libs[3])
    os.execute("rm -rf " .. H.shell_quote(dir))
  end)
end)
