-- Structured (record) dtypes in CUDA kernels (issue 21 item 6, issue 22):
-- record arrays as kernel arguments (host and device arrays, packed and
-- aligned as NumPy lays them out), field reads and stores (a[i].x,
-- a[i]['x'], op=), records passed by reference to device functions, as
-- numba-cuda does. The gpu-tagged tests run on the GPU and, through
-- cuda_sim_spec.lua, in the simulator; their oracle is the same steps
-- computed here in Lua (the GPU machine has no NumPy). The untagged tests
-- run in the simulator only: NumPy checks the oracle there, and the PTX of
-- packed records is checked for unaligned accesses.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

-- every kind of field, in an order that needs padding when aligned
local FIELDS = { { "b", "bool" }, { "x", "float64" }, { "u", "uint8" }, { "n", "int32" }, { "s", "int16" },
  { "k", "int64" }, { "y", "float32" }, { "z", "complex128" } }
local N = 40

local MODULE = [==[
import numpy as np
from numba import cuda

@cuda.jit(device=True)
def bump(r, by):
    r.x += by
    r['n'] = r.n * 2

@cuda.jit
def step(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        r.x = r.x * 2 + r['y']
        a[i].n += 7
        a[i]['k'] = a[i].k - r.n
        a[i].b = not a[i].b
        a[i].s = a[i].s * 3
        a[i].u = a[i].u + 10
        a[i].y = a[i].y / 2
        a[i].z = a[i].z * 1j

@cuda.jit
def gather(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        b[i] = a[(7 * i + 3) % a.shape[0]]

@cuda.jit
def by_ref(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        bump(a[i], 0.25)
]==]

-- element i (0-based) before the kernels
local function input(i)
  return { b = i % 2 == 0, x = i * 0.5, u = 250 + i % 6, n = 3 * i, s = -i, k = 10000000000 + i, y = i - 1.5,
    z = lumba.complex(i, -i) }
end

-- the oracle: what step and by_ref do to element i, by hand
local function after_step(i)
  local e = input(i)
  local n = e.n + 7
  return { b = not e.b, x = e.x * 2 + e.y, u = (e.u + 10) % 256, n = n, s = e.s * 3, k = e.k - n, y = e.y / 2,
    z = { i, i } }
end
local function after_bump(i)
  local e = input(i)
  e.x, e.n = e.x + 0.25, e.n * 2
  e.z = { i, -i }
  return e
end

local function make(rec)
  local a = lumba.zeros(N, rec)
  for i = 0, N - 1 do a[i + 1] = input(i) end
  return a
end

local function expect(fn)
  local t = {}
  for i = 0, N - 1 do t[i + 1] = fn(i) end
  return t
end

local function kernel_cases()
  for _, align in ipairs({ false, true }) do
    local what = align and "aligned" or "packed"
    local rec = lumba.dtype(FIELDS, { align = align })
    local m = lumba.load(MODULE)

    it("read and write every kind of field of a " .. what .. " host array", function()
      local a = make(rec)
      m.step[{ 2, 32 }](a)
      assert.are.same(expect(after_step), H.record_values(a))
    end)

    it("read and write fields of a " .. what .. " device array, copied back as NumPy's layout", function()
      local d = cuda.to_device(make(rec))
      m.step[{ 2, 32 }](d)
      local back = d:copy_to_host()
      assert.are.equal(rec, back.dtype)
      assert.are.same(expect(after_step), H.record_values(back))
    end)

    it("copy whole records of a " .. what .. " array with b[i] = a[j]", function()
      local a = make(rec)
      local d, out = cuda.to_device(a), cuda.device_array(N, rec)
      m.gather[{ 2, 32 }](d, out)
      local want, src = {}, H.record_values(a)
      for i = 0, N - 1 do want[i + 1] = src[(7 * i + 3) % N + 1] end
      assert.are.same(want, H.record_values(out:copy_to_host()))
    end)

    it("pass a[i] of a " .. what .. " array to a device function by reference", function()
      local d = cuda.to_device(make(rec))
      m.by_ref[{ 1, 64 }](d)
      assert.are.same(expect(after_bump), H.record_values(d:copy_to_host()))
    end)
  end
end

-- explicit signatures naming the module's record dtype, as numba-cuda takes them
local SIG_MODULE = [==[
import numpy as np
import numba
from numba import cuda, from_dtype, void, float64, int32
rec = np.dtype([('x', np.float64), ('y', 'f4'), ('n', np.int32)], align=True)
rec_t = numba.from_dtype(rec)
sig = "void(rec[:], float64)"

@cuda.jit("void(rec, float64)", device=True)
def put_x(r, v):
    r.x = v

@cuda.jit("void(rec[:], float64)")
def by_name(a, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        put_x(a[i], v * i)

@cuda.jit(void(rec_t[::1], float64))
def by_type(a, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].y = v + i

@cuda.jit(sig)
def by_variable(a, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i]['n'] = v - i

@cuda.jit(void(from_dtype(rec)[:], int32))
def by_call(a, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].n += v
]==]

local VIEW_KERNEL = [==[
def k(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        xs = a['x']
        xs[i] = a.n[i] * 2.5
]==]

describe("record arrays in CUDA kernels #gpu", function()
  kernel_cases()

  it("use a field of an aligned record array as an array (a['x'][i], a.n[i])", function()
    local rec = lumba.dtype({ { "x", "float64" }, { "n", "int32" } }, { align = true })
    local a = lumba.zeros(N, rec)
    for i = 1, N do a[i].n = i end
    local d = cuda.to_device(a)
    cuda.jit(VIEW_KERNEL)[{ 2, 32 }](d)
    local want = {}
    for i = 1, N do want[i] = { x = 2.5 * i, n = i } end
    assert.are.same(want, d:copy_to_host():totable())
  end)

  it("take explicit signatures naming the module's record: its name, from_dtype, a variable", function()
    local m = lumba.load(SIG_MODULE)
    local rec = lumba.dtype({ { "x", "float64" }, { "y", "float32" }, { "n", "int32" } }, { align = true })
    assert.are.equal("(" .. rec.name .. "[:], float64) -> none", m.by_name.signatures[1])
    local d = cuda.to_device(lumba.zeros(N, rec))
    m.by_name[{ 2, 32 }](d, 1.5)
    m.by_type[{ 2, 32 }](d, 2)
    m.by_variable[{ 2, 32 }](d, 100)
    m.by_call[{ 2, 32 }](d, 7)
    local want = {}
    for i = 0, N - 1 do want[i + 1] = { x = 1.5 * i, y = 2 + i, n = 107 - i } end
    assert.are.same(want, d:copy_to_host():totable())
  end)
end)

describe("record arrays in simulated kernels", function()
  local was
  setup(function() was = cuda.simulate(true) end)
  teardown(function() cuda.simulate(was) end)

  kernel_cases()

  it("agree with NumPy doing the same steps (the hand oracle checked)", function()
    local prog = [[
import numpy as np
rec = np.dtype([('b', '?'), ('x', 'f8'), ('u', 'u1'), ('n', 'i4'), ('s', 'i2'), ('k', 'i8'), ('y', 'f4'), ('z', 'c16')])
a = np.zeros(%d, dtype=rec)
for i in range(len(a)):
    a[i] = (i %% 2 == 0, i * 0.5, 250 + i %% 6, 3 * i, -i, 10000000000 + i, i - 1.5, complex(i, -i))
for i in range(len(a)):
    r = a[i]
    r['x'] = r['x'] * 2 + r['y']
    a[i]['n'] += 7
    a[i]['k'] = a[i]['k'] - r['n']
    a[i]['b'] = not a[i]['b']
    a[i]['s'] = a[i]['s'] * 3
    a[i]['u'] = (int(a[i]['u']) + 10) %% 256
    a[i]['y'] = a[i]['y'] / 2
    a[i]['z'] = a[i]['z'] * 1j
for e in a:
    print(int(e['b']), repr(float(e['x'])), int(e['u']), int(e['n']), int(e['s']), int(e['k']), repr(float(e['y'])),
          repr(float(e['z'].real)), repr(float(e['z'].imag)))
]]
    local out = require("numpy_oracle").run_python(prog:format(N))
    local i = 0
    for line in out:gmatch("[^\n]+") do
      local w = after_step(i)
      local got = {}
      for v in line:gmatch("%S+") do got[#got + 1] = tonumber(v) end
      assert.are.same({ w.b and 1 or 0, w.x, w.u, w.n, w.s, w.k, w.y, w.z[1], w.z[2] }, got, line)
      i = i + 1
    end
    assert.are.equal(N, i, out)
  end)

  it("type @njit functions with from_dtype(rec) in their signature", function()
    local m = lumba.load [==[
import numpy as np
from numba import njit, from_dtype, float64
rec = np.dtype([('x', np.float64), ('n', np.int32)])

@njit(float64(from_dtype(rec)[:]))
def total(a):
    s = 0.0
    for r in a:
        s += r.x * r.n
    return s
]==]
    local a = lumba.zeros(3, lumba.dtype { { "x", "float64" }, { "n", "int32" } })
    for i = 1, 3 do a[i] = { i + 0.5, i } end
    assert.are.equal(1.5 + 2 * 2.5 + 3 * 3.5, m.total(a))
  end)

  it("refuse record arrays as @vectorize and @guvectorize inputs and outputs, by name", function()
    local m = lumba.load [==[
from numba import vectorize, guvectorize, float64

@vectorize(["float64(float64)"])
def twice(x):
    return 2 * x

@vectorize
def lazy(x, y):
    return x + y

@vectorize(["float64(float64)"], target="cuda")
def ctwice(x):
    return 2 * x

@guvectorize(["(float64[:], float64[:])"], "(n)->(n)")
def copy(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]
]==]
    local rec = lumba.dtype { { "x", "float64" }, { "n", "int32" } }
    local a = lumba.zeros(3, rec)
    local what = "an array of record dtype " .. rec.name .. ": ufuncs take numbers; pass one of its fields, such as a.x)"
    local cases = {
      { "ufunc 'twice'", 1, function() return m.twice(a) end },
      { "ufunc 'twice'", 2, function() return m.twice(lumba.zeros(3), a) end },
      { "ufunc 'twice'", 1, function() return m.twice(a[1]) end },
      { "ufunc 'lazy'", 2, function() return m.lazy(1, a) end },
      { "'reduce'", 1, function() return m.lazy:reduce(a) end },
      { "ufunc 'ctwice'", 1, function() return m.ctwice(cuda.to_device(a)) end },
      { "gufunc 'copy'", 1, function() return m.copy(a) end },
    }
    for _, c in ipairs(cases) do
      local err = H.error_of(c[3])
      assert.truthy(err:find(("bad argument #%d to %s (%s"):format(c[2], c[1], what), 1, true), err)
    end
    assert.are.same({ 0, 0, 0 }, m.twice(a.x):totable())  -- a field is an array of numbers
  end)

  it("refuse a packed record's field as an array in a kernel, where it may be misaligned", function()
    local rec = lumba.dtype { { "x", "float64" }, { "n", "int32" } }  -- itemsize 12: x of a[1] at byte 12
    local err = H.error_of(function() cuda.jit(VIEW_KERNEL)[{ 1, 4 }](lumba.zeros(4, rec)) end)
    assert.truthy(err:find("UnsupportedError: field 'x' of the packed " .. rec.name .. " as an array may be "
      .. "misaligned on a GPU: in a kernel read it through the elements (a[i].x), or make the dtype with align=True",
      1, true), err)
  end)

  it("refuse a record name no dtype was made for, naming it", function()
    local err = H.error_of(function()
      cuda.jit({ "void(Record(q[type=int8;offset=0];1;False)[:])" }, "def k(a):\n    a[0].q = 1\n")
    end)
    assert.truthy(err:find("unknown record type 'Record(q[type=int8;offset=0];1;False)' (make its dtype first)", 1,
      true), err)
  end)

  it("name a field that is not there, with its line, as Numba's TypingError", function()
    local line = debug.getinfo(1, "l").currentline + 6  -- the line of a[0].w in this file
    local m = lumba.load [[
from numba import cuda

@cuda.jit
def k(a):
    a[0].w = 1
]]
    local rec = lumba.dtype { { "x", "float64" } }
    local err = H.error_of(function() m.k[{ 1, 1 }](lumba.zeros(2, rec)) end)
    local want = ("cuda_record_spec.lua:%d:5: TypingError: Unknown attribute 'w' of type "):format(line)
      .. "Record(x[type=float64;offset=0];8;False)"
    assert.truthy(err:find(want, 1, true), err)
  end)
end)

-- ptxas for sm_90 accepts ptx (true where there is no ptxas to ask)
local function assembles(ptx)
  local ok, out = H.ptxas(ptx)
  assert(ok ~= false, out)
  return true
end

describe("record fields in PTX", function()
  local toolkit = cuda._toolkit()
  local was
  setup(function() was = cuda.simulate(false) end)
  teardown(function() cuda.simulate(was) end)

  -- a packed record's fields may sit at any address: byte loads, as
  -- numba-cuda's (a GPU traps on a misaligned ld.f64); an aligned one's
  -- fields load whole
  for _, align in ipairs({ false, true }) do
    local it_ = toolkit.nvvm and toolkit.libdevice and it or pending
    it_("load " .. (align and "an aligned record's fields whole" or "a packed record's fields bytewise"), function()
      local rec = lumba.dtype({ { "x", "float64" }, { "y", "float64" }, { "n", "int32" } }, { align = align })
      local k = cuda.jit({ "void(" .. rec.name .. "[:])" }, [[
def k(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].x = a[i]['y'] * 2
        a[i].n += 3
        a[a.shape[0] - 1 - i] = a[i]
]])
      local ptx = k:inspect_ptx(nil, { cc = { 9, 0 } })
      assert.are.equal(not align, ptx:find("ld.global.f64", 1, true) == nil)
      assert.are.equal(not align, ptx:find("ld.global.u8", 1, true) ~= nil)
      assert.is_true(assembles(ptx))
    end)
  end

  local it_ = toolkit.nvvm and toolkit.libdevice and it or pending
  it_("compile the kernels of explicit record signatures to PTX that ptxas assembles", function()
    local m = lumba.load(SIG_MODULE)
    for _, k in ipairs({ "by_name", "by_type", "by_variable", "by_call" }) do
      local ptx = m[k]:inspect_ptx(nil, { cc = { 9, 0 } })
      assert.truthy(ptx:find(".visible .entry", 1, true), k)
      assert.is_true(assembles(ptx), k)
    end
  end)
end)
