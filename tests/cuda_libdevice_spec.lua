-- cuda.libdevice (issue 22): every function of numba-cuda's libdevice
-- module, called in one kernel on the GPU (tag gpu) and, through
-- cuda_sim_spec.lua's run of the gpu-tagged specs, in the simulator. The
-- functions are the rows of src/libdevice.def; the expected values come
-- from Python's math and exact fractions (tests/fixtures/libdevice_oracle.py,
-- the standard library only), on the arguments the kernel passes.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

-- the rows: {name, ret, sig}
local function rows()
  local t = {}
  for line in io.lines("src/libdevice.def") do
    local name, ret, sig = line:match('^LIBDEVICE%(([%w_]+), (%a), "(%a*)"')
    if name then t[#t + 1] = { name = name, ret = ret, sig = sig } end
  end
  return t
end

local function f32(x) return (string.unpack("f", string.pack("f", x))) end

-- the arguments of a function: inexact ones where rounding modes differ
local function args_of(r)
  local n = r.name
  local fl = { 0.5, 0.25, 0.125, 0.0625 }
  local ints = { -3, 5, 7 }
  if n:match("^[fd]%a%a%a_r[nzud]$") or n:match("^fmaf?_") or n == "fma" or n == "fmaf" then fl = { 1 / 3, 0.1, 0.7 } end
  if n:match("rcp_r") or n:match("sqrt_r") then fl = { 2.0 } end
  if n:match("2u?int_r") or n:match("2u?ll_r") then fl = { 2.5 } end
  if n:match("^u?int2float") or n:match("^u?int2double") then ints = { 16777217 } end
  if n:match("^u?ll2") then ints = { 9007199254740993 } end
  if n:match("^acosh") then fl = { 1.5 } end
  if n:match("^normcdfinv") then fl = { 0.3 } end
  if n:match("^remquo") then fl = { 2.5, 0.7 } end
  if n:match("^[jy]nf?$") then ints = { 2 } end
  if n:match("^ldexp") or n:match("^scalbn") or n:match("^powi") then ints = { 3 } end
  if n:match("^hiloint") then ints = { 1072693248, 5 } end
  if n:match("^longlong_as") then ints = { 4611686018427387904 } end
  if n:match("^int_as_float") then ints = { 1078530011 } end
  if n == "half2float" then ints = { 15360 + 512 } end
  if n:match("^brev") then ints = { 1 } end
  if n:match("^clz") then ints = { 1000 } end
  if n:match("^ffs") then ints = { 40 } end
  if n:match("^popc") then ints = { -1 } end
  if n:match("64hi$") then ints = { 4611686018427387907, 12345 } end
  if n == "byte_perm" then ints = { 0x11223344, 0x55667788, 0x7531 } end
  local a, fi, ii = {}, 1, 1
  for c in r.sig:gmatch("%l") do
    if c == "f" then a[#a + 1] = f32(fl[fi]); fi = fi + 1
    elseif c == "d" then a[#a + 1] = fl[fi]; fi = fi + 1
    else a[#a + 1] = ints[ii] or 1; ii = ii + 1 end
  end
  return a
end

-- the letters of the values a call gives: its result, then its outputs
local function outs_of(r)
  local t = {}
  if r.ret ~= "v" then t[1] = r.ret end
  for c in r.sig:gmatch("%u") do t[#t + 1] = c:lower() end
  return t
end

-- one kernel calling every function: fin/iin hold the arguments, fo/io
-- receive the values (plan says where)
local function kernel_of_all()
  local list = rows()
  assert.is_true(#list >= 300, "libdevice.def has " .. #list .. " rows")
  -- the kernel: fin/iin hold the arguments, fo/io receive the values
  local fin, iin, src, plan = {}, {}, { "from numba.cuda import libdevice", "def k(fin, iin, fo, io):" }, {}
  local nf, ni = 0, 0
  for _, r in ipairs(list) do
    local a = args_of(r)
    local call, k = {}, 0
    for c in r.sig:gmatch("%l") do
      k = k + 1
      if c == "f" or c == "d" then fin[#fin + 1] = a[k]; call[k] = ("fin[%d]"):format(#fin - 1)
      else iin[#iin + 1] = a[k]; call[k] = ("iin[%d]"):format(#iin - 1) end
    end
    local outs, names, slots = outs_of(r), {}, {}
    for j, c in ipairs(outs) do
      names[j] = "r" .. j
      if c == "f" or c == "d" then slots[j] = { "fo", nf }; nf = nf + 1 else slots[j] = { "io", ni }; ni = ni + 1 end
    end
    src[#src + 1] = ("    %s = cuda.libdevice.%s(%s)"):format(table.concat(names, ", "), r.name, table.concat(call, ", "))
    for j in ipairs(outs) do src[#src + 1] = ("    %s[%d] = %s"):format(slots[j][1], slots[j][2], names[j]) end
    plan[#plan + 1] = { r = r, a = a, slots = slots }
  end
  return list, fin, iin, table.concat(src, "\n") .. "\n", plan, nf, ni
end

describe("cuda.libdevice #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("runs every function numba-cuda's libdevice module has, with Python's values", function()
    local list, fin, iin, src, plan, nf, ni = kernel_of_all()
    local k = cuda.jit(src)
    local fo, iout = cuda.device_array(nf, "float64"), cuda.device_array(ni, "int64")
    k[{ 1, 1 }](cuda.to_device(lumba.array(fin, "float64")), cuda.to_device(lumba.array(iin, "int64")), fo, iout)
    local hf, hi = fo:copy_to_host(), iout:copy_to_host()
    -- the oracle, one line per function
    local lines = {}
    for i, p in ipairs(plan) do
      local a = {}
      for j, v in ipairs(p.a) do a[j] = math.type(v) == "float" and ("%.17g"):format(v) or tostring(v) end
      lines[i] = ("%s %s %s %s"):format(p.r.name, p.r.ret, p.r.sig, table.concat(a, " "))
    end
    local tmp = os.tmpname()
    H.spit(tmp, table.concat(lines, "\n") .. "\n")
    local pipe = io.popen("python3 tests/fixtures/libdevice_oracle.py < " .. tmp)
    local out = pipe:read("a")
    pipe:close()
    os.remove(tmp)
    local checked, unchecked, it_ = 0, {}, out:gmatch("[^\n]*")
    for _, p in ipairs(plan) do
      local line = assert(it_(), "the oracle stopped early: " .. out)
      assert.is_nil(line:match("^E .*"))
      if line == "-" then
        unchecked[#unchecked + 1] = p.r.name
      else
        local j = 0
        for v in line:gmatch("%S+") do
          j = j + 1
          local s = p.slots[j]
          local got = s[1] == "fo" and hf[s[2] + 1] or hi[s[2] + 1]
          local want = tonumber(v)
          local name = p.r.name
          if s[1] == "io" or name:match("_r[nzud]$") or name:match("_ieee_r") then
            assert.are.equal(want, got, name)  -- integers and rounded arithmetic: exact
          else
            local single = p.r.sig:find("f") or p.r.ret == "f"
            local rtol = name:match("^fast_") and 2e-4 or single and 2e-6 or 1e-14
            local ok, e = pcall(H.assert_close, single and f32(want) or want, got, rtol, 1e-300)
            assert(ok, name .. ": " .. tostring(e))
          end
        end
        assert.are.equal(#p.slots, j, p.r.name .. ": values")
        checked = checked + 1
      end
    end
    -- Python has no Bessel functions of the second kind: y0, y1, yn run unchecked
    table.sort(unchecked)
    assert.are.same({ "y0", "y0f", "y1", "y1f", "yn", "ynf" }, unchecked)
    assert.is_true(checked >= 300)
  end)

  it("returns pointer arguments as a tuple, converts arguments and refuses what is not a number", function()
    local k = cuda.jit [[
def k(x, f, i):
    s, c = cuda.libdevice.sincosf(x[0])
    f[0] = s
    f[1] = c
    m, e = cuda.libdevice.frexp(x[1])
    f[2] = m
    i[0] = e
    i[1] = cuda.libdevice.abs(True) + cuda.libdevice.llmax(2, 9)
    f[3] = cuda.libdevice.fma(1, 2, x[1])
]]
    local f, i = cuda.device_array(4, "float64"), cuda.device_array(2, "int64")
    k[{ 1, 1 }](cuda.to_device(lumba.array({ 0.5, 12.0 })), f, i)
    local hf = f:copy_to_host()
    H.assert_close(f32(math.sin(0.5)), hf[1], 1e-6)
    H.assert_close(f32(math.cos(0.5)), hf[2], 1e-6)
    assert.are.same({ 0.75, 14.0 }, { hf[3], hf[4] })  -- 12 = 0.75 * 2^4
    assert.are.same({ 4, 10 }, i:copy_to_host():totable())
    local bad = cuda.jit "def b(x):\n    x[0] = cuda.libdevice.sin(x)\n"
    local err = H.error_of(function() bad[{ 1, 1 }](cuda.device_array(1, "float64")) end)
    assert.truthy(err:find("TypingError: libdevice.sin() argument 1 must be a real number, not float64[:]", 1, true), err)
    local few = cuda.jit "def b(x):\n    x[0] = cuda.libdevice.pow(1.0)\n"
    err = H.error_of(function() few[{ 1, 1 }](cuda.device_array(1, "float64")) end)
    assert.truthy(err:find("libdevice.pow", 1, true) or err:find("pow", 1, true), err)
  end)
end)

-- the GPU code of every function, for sm_90, where the CUDA toolkit is (no GPU needed)
describe("cuda.libdevice in NVVM IR", function()
  local ptxas = (os.getenv("CUDA_HOME") or "/usr/local/cuda") .. "/bin/ptxas"
  local has = io.open(ptxas) and cuda._toolkit().nvvm and cuda._toolkit().libdevice
  local run = has and it or function(name) pending("[needs libNVVM, libdevice and ptxas] " .. name) end
  run("compiles every function through libNVVM and ptxas", function()
    local was = cuda.simulate(false)
    local _, _, _, src = kernel_of_all()
    local k = cuda.jit(src)
    k:compile("void(float64[::1], int64[::1], float64[::1], int64[::1])")
    local ptx = k:inspect_ptx("void(float64[::1], int64[::1], float64[::1], int64[::1])", { cc = { 9, 0 } })
    cuda.simulate(was)
    local ok, out = H.ptxas(ptx)
    assert(ok, out)
    assert.truthy(ptx:find("sincos", 1, true) == nil)  -- libdevice is linked in: no call remains
  end)
end)
