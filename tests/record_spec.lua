-- Structured (record) dtypes (issue 21, item 6): lumba.dtype and record
-- arrays from Lua, NumPy's layout (packed and align=True), record access in
-- compiled code as Numba (a[i].x, a[i]['x'], stores, r = a[i] a view, a['x']
-- a field view), a C host's structs. NumPy is the oracle of layouts,
-- reprs and of the values compiled code writes (the same steps run in
-- NumPy on the same dtype).
local lumba = require "lumba"
local H = require "helpers"

local CLEAN_ENV = "env -u LD_PRELOAD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "

-- runs Python with NumPy; code prints one Lua expression, which is returned
local function py(code)
  local f = assert(io.open("/tmp/lumba_record_spec.py", "w"))
  f:write("import numpy as np\n", code)
  f:close()
  local p = assert(io.popen("/usr/bin/python3 /tmp/lumba_record_spec.py"))
  local out = p:read("a")
  p:close()
  return assert(load("return " .. out))()
end

local ALL = { { "b", "bool" }, { "i8", "int8" }, { "i16", "int16" }, { "i32", "int32" }, { "i64", "int64" },
  { "u8", "uint8" }, { "u16", "uint16" }, { "u32", "uint32" }, { "u64", "uint64" }, { "f32", "float32" },
  { "f64", "float64" }, { "c64", "complex64" }, { "c128", "complex128" } }

-- the fields as NumPy's dtype list, in Python
local function pylist(fields)
  local t = {}
  for i, f in ipairs(fields) do t[i] = ("('%s', '%s')"):format(f[1], f[2] == "bool" and "?" or f[2]) end
  return "[" .. table.concat(t, ", ") .. "]"
end

-- Python: a record array as a Lua list of {field = value} (complex as {re, im})
local VALUES_PY = [[
def lv(v):
    if isinstance(v, (bool, np.bool_)): return 'true' if v else 'false'
    if isinstance(v, (complex, np.complexfloating)): return '{%r, %r}' % (float(v.real), float(v.imag))
    if isinstance(v, (float, np.floating)): return repr(float(v))
    v = int(v)
    return str(v - 2**64 if v >= 2**63 else v)
def rt(a):
    return '{' + ', '.join('{' + ', '.join('%s = %s' % (n, lv(e[n])) for n in a.dtype.names) + '}' for e in a.ravel()) + '}'
]]

-- a record array's elements as VALUES_PY writes them
local values = H.record_values

local LAYOUT_PY = [[
def lua(d):
    offs = ', '.join('%s = %d' % (n, d.fields[n][1]) for n in d.names)
    return '{itemsize = %d, alignment = %d, offsets = {%s}, repr = %r, str = %r}' % (d.itemsize, d.alignment, offs, repr(d), str(d))
]]

describe("record dtypes from Lua", function()
  for _, align in ipairs({ false, true }) do
    it("lay out every field type as NumPy, align=" .. tostring(align), function()
      -- in an order that needs padding when aligned
      local fields = { ALL[1], ALL[11], ALL[2], ALL[4], ALL[7], ALL[5], ALL[6], ALL[12], ALL[3], ALL[8], ALL[10],
        ALL[9], ALL[13] }
      local want = py(LAYOUT_PY .. ("print(lua(np.dtype(%s, align=%s)))"):format(pylist(fields), align and "True" or "False"))
      local rec = lumba.dtype(fields, { align = align })
      assert.are.equal(want.itemsize, rec.itemsize)
      assert.are.equal(want.alignment, rec.alignment)
      for _, f in ipairs(fields) do assert.are.equal(want.offsets[f[1]], rec.fields[f[1]].offset, f[1]) end
      assert.are.equal(want.repr, tostring(rec))
      assert.are.equal(want.str, rec.descr)
      assert.are.equal(align, rec.isalignedstruct)
      assert.are.equal(fields[2][2], rec.fields[fields[2][1]].dtype)
    end)
  end

  it("take NumPy's offsets form and compare equal when equal", function()
    local want = py(LAYOUT_PY .. "print(lua(np.dtype({'names': ['a', 'b'], 'formats': ['i4', 'f8'], 'offsets': [0, 8], 'itemsize': 24})))")
    local rec = lumba.dtype({ { "a", "int32" }, { "b", "float64" } }, { offsets = { 0, 8 }, itemsize = 24 })
    assert.are.equal(want.repr, tostring(rec))
    assert.are.equal(24, rec.itemsize)
    assert.is_true(rec == lumba.dtype({ { "a", "int32" }, { "b", "float64" } }, { offsets = { 0, 8 }, itemsize = 24 }))
    assert.is_false(rec == lumba.dtype({ { "a", "int32" }, { "b", "float64" } }))
    assert.are.equal("float64", lumba.dtype("f8"))
  end)

  it("make arrays whose elements, fields and repr are NumPy's", function()
    local rec = lumba.dtype { { "x", "float64" }, { "y", "float64" }, { "n", "int32" } }
    local a = lumba.zeros(3, rec)
    assert.are.equal(20, a.itemsize)
    assert.are.same({ 20 }, a.strides)
    a[1].x = 3.5
    a[2].n = 7
    a[3] = { x = 1, y = 2, n = 3 }
    a[2].y = -0.25
    assert.are.equal(3.5, a[1].x)
    assert.are.equal(7, a[2].n)
    assert.are.equal(math.type(a[2].n), "integer")
    local want = py(VALUES_PY .. [[
a = np.zeros(3, [('x', 'f8'), ('y', 'f8'), ('n', 'i4')])
a[0]['x'] = 3.5; a[1]['n'] = 7; a[2] = (1, 2, 3); a[1]['y'] = -0.25
print('{%s, %r, %r}' % (rt(a), repr(a['x']), repr(a[1])))
]])
    assert.are.same(want[1], values(a))
    assert.are.equal(want[2], tostring(a.x))
    -- NumPy's element repr is the tuple; lumba's a[i] is a 0-d array
    assert.are.equal("array(" .. want[3] .. ", dtype=[('x', '<f8'), ('y', '<f8'), ('n', '<i4')])", tostring(a[2]))
    assert.are.equal("array([(3.5, 0., 0), (0., -0.25, 7), (1., 2., 3)], dtype=[('x', '<f8'), ('y', '<f8'), ('n', '<i4')])",
      tostring(a))  -- NumPy's, without its column padding
    -- a field is a view with the record's stride
    local x = a:field("x")
    assert.are.same({ 20 }, x.strides)
    x[2] = 9
    assert.are.equal(9.0, a[2].x)
    a.n = 4  -- every element's field
    assert.are.same({ 4, 4, 4 }, a.n:totable())
    a.y = { 1, 2, 3 }
    assert.are.same({ 1.0, 2.0, 3.0 }, a.y:totable())
    assert.are.same({ x = 1.0, y = 3.0, n = 4 }, a:totable()[3])
    local r = a[1]  -- a 0-d view: writes land in a
    r.x = -1
    assert.are.equal(-1.0, a[1].x)
    assert.are.equal(rec, a.dtype)
  end)

  it("store every field type with the element rules of its dtype", function()
    local rec = lumba.dtype(ALL, { align = true })
    local a = lumba.zeros(2, rec)
    a[2] = { b = true, i8 = -128, i16 = 300, i32 = -5, i64 = 1 << 40, u8 = 255, u16 = 65535, u32 = 4000000000,
      u64 = -1, f32 = 0.1, f64 = 0.1, c64 = lumba.complex(1, 2), c128 = lumba.complex(-3, 0.5) }
    local want = py([[
a = np.zeros(2, np.dtype(]] .. pylist(ALL) .. [[, align=True))
a[1] = (True, -128, 300, -5, 1 << 40, 255, 65535, 4000000000, np.uint64(2**64 - 1), 0.1, 0.1, 1+2j, -3+0.5j)
e = a[1]
print('{%s, %s, %d, %d, %d, %d, %d, %d, %d, %d, %r, %r, %r, %r, %r, %r}' % ('true' if e['b'] else 'false', e['i8'], e['i16'], e['i32'], e['i64'], e['u8'], e['u16'], e['u32'], e['u64'] - 2**64, 0, float(e['f32']), e['f64'], float(e['c64'].real), float(e['c64'].imag), e['c128'].real, e['c128'].imag))
]])
    local e = a[2]
    assert.are.same(want, { e.b, e.i8, e.i16, e.i32, e.i64, e.u8, e.u16, e.u32, e.u64, 0, e.f32, e.f64,
      e.c64.real, e.c64.imag, e.c128.real, e.c128.imag })
    assert.has_error(function() a[1].i8 = 128 end, "value 128 out of bounds for int8")
    assert.has_error(function() a[1].nope = 1 end)
  end)

  it("refuse what records do not do, with clear errors", function()
    local rec = lumba.dtype { { "x", "float64" }, { "n", "int32" } }
    local a = lumba.zeros(2, rec)
    local ok, e = pcall(function() return a + 1 end)
    assert.is_false(ok)
    assert.matches("arithmetic is not supported for arrays of record dtype Record%(x%[type=float64;offset=0%]", e)
    ok, e = pcall(function() return a:sum() end)
    assert.matches("'sum' is not supported for arrays of record dtype", e)
    ok, e = pcall(function() return a:astype("float64") end)
    assert.matches("'astype' is not supported for arrays of record dtype", e)
    ok, e = pcall(function() local b = lumba.zeros(2); b[1] = 1; return lumba.copyto(a, b) end)
    assert.is_false(ok)
    assert.has_error(function() lumba.dtype { { "x", "float64" }, { "x", "int32" } } end,
      "lumba.dtype: field 'x' appears twice in a record dtype")
    assert.has_error(function() lumba.dtype { { "x", "float128" } } end, "lumba.dtype: field 1 has unknown dtype 'float128'")
    assert.has_error(function() lumba.dtype({ { "a", "int32" }, { "b", "float64" } }, { offsets = { 0, 2 } }) end,
      "lumba.dtype: field 'b' overlaps another field")
  end)

  it("save and load through lumba.npy as NumPy's structured arrays", function()
    local rec = lumba.dtype({ { "x", "float64" }, { "b", "bool" }, { "n", "int32" } }, { align = true })
    local a = lumba.zeros(3, rec)
    for i = 1, 3 do a[i] = { x = i / 4, b = i == 2, n = -i } end
    local path = os.tmpname()
    lumba.npy.save(path, a)
    local want = py(VALUES_PY .. ("a = np.load(%q)\nprint('{%%s, %%r}' %% (rt(a), repr(a.dtype)))"):format(path))
    assert.are.same(want[1], values(a))
    -- NumPy's .npy keeps the offsets, not the align flag
    assert.are.equal(want[2], tostring(lumba.dtype({ { "x", "float64" }, { "b", "bool" }, { "n", "int32" } },
      { offsets = { 0, 8, 12 }, itemsize = 16 })))
    local back = lumba.npy.load(path)
    assert.are.equal(rec, back.dtype)  -- the aligned layout is recognised
    assert.are.same(a:totable(), back:totable())
    -- and a file NumPy wrote, packed, with every field type
    py(("a = np.zeros(2, %s)\na[1] = (True, -2, 3, -4, 5, 6, 7, 8, 9, 0.5, 0.25, 1+2j, 3-4j)\nnp.save(%q, a)\nprint(1)")
      :format(pylist(ALL), path .. ".npy"))  -- np.save adds .npy
    local c = lumba.npy.load(path .. ".npy")
    assert.are.equal(lumba.dtype(ALL), c.dtype)
    local want2 = py(VALUES_PY .. ("print(rt(np.load(%q)))"):format(path .. ".npy"))
    assert.are.same(want2, values(c))
    os.remove(path)
    os.remove(path .. ".npy")
  end)
end)

local MODULE = [[
import numpy as np
from numba import njit

rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])
arec = np.dtype([('b', np.bool_), ('x', 'f8'), ('i', np.int16), ('c', np.complex64)], align=True)

@njit
def make(k):
    a = np.zeros(k, dtype=rec)
    for i in range(k):
        a[i].x = i * 0.5
        a[i]['y'] = i - 1.0
        a[i].n = 3 * i
    return a

@njit
def step(a):
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        r.x = r.x * 2
        r['n'] += 1
        a[i].y -= r.x
        s += a[i]['y']
    return s

@njit
def fields(a):
    v = a['x']
    v += 1.0
    a.n[:] = 9
    return a['y'].sum() + a.x[1]

@njit
def make_aligned(k):
    b = np.empty(k, arec)
    for i in range(k):
        b[i].b = i % 2 == 0
        b[i].x = i + 0.25
        b[i].i = -i
        b[i].c = complex(i, -i)
    return b

pt = np.dtype([('x', np.float64), ('y', np.float64)])
body = np.dtype([('p', pt), ('m', np.float32)], align=True)

@njit
def nested(k):
    a = np.zeros(k, body)
    for i in range(k):
        a[i].p.x = i
        a[i]['p']['y'] = 2 * i
        a[i].m = 0.5 + a[i].p.y
    return a

@njit
def setx(r, v):
    r.x = v
    return r.n

@njit
def total(a):
    t = 0
    for r in a:
        t += r.n
    return t
]]

describe("record arrays in compiled code", function()
  local m = lumba.load(MODULE)

  it("np.zeros(k, dtype=rec) with field stores gives NumPy's array", function()
    local a = m.make(4)
    local want = py(VALUES_PY .. [[
rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])
a = np.zeros(4, dtype=rec)
for i in range(4):
    a[i]['x'] = i * 0.5; a[i]['y'] = i - 1.0; a[i]['n'] = 3 * i
print(rt(a))
]])
    assert.are.same(want, values(a))
    assert.are.equal("Record(x[type=float64;offset=0],y[type=float64;offset=8],n[type=int32;offset=16];20;False)",
      a.dtype.name)
  end)

  it("reads and writes fields through r = a[i], a[i].x and a[i]['x'] as NumPy", function()
    local a = m.make(4)
    local s = m.step(a)
    local want = py(VALUES_PY .. [[
rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])
a = np.zeros(4, dtype=rec)
for i in range(4):
    a[i]['x'] = i * 0.5; a[i]['y'] = i - 1.0; a[i]['n'] = 3 * i
s = 0.0
for i in range(4):
    r = a[i]
    r['x'] = r['x'] * 2
    r['n'] += 1
    a[i]['y'] -= r['x']
    s += a[i]['y']
print('{%s, %r}' % (rt(a), s))
]])
    assert.are.same(want[1], values(a))
    assert.are.equal(want[2], s)
  end)

  it("uses a['x'] and a.x as strided views in array expressions", function()
    local a = m.make(3)
    local s = m.fields(a)
    local want = py(VALUES_PY .. [[
rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])
a = np.zeros(3, dtype=rec)
for i in range(3):
    a[i]['x'] = i * 0.5; a[i]['y'] = i - 1.0; a[i]['n'] = 3 * i
v = a['x']; v += 1.0; a['n'][:] = 9
print('{%s, %r}' % (rt(a), a['y'].sum() + a['x'][1]))
]])
    assert.are.same(want[1], values(a))
    assert.are.equal(want[2], s)
  end)

  it("lays out an aligned module dtype as NumPy and fills every kind of field", function()
    local b = m.make_aligned(3)
    local want = py(VALUES_PY .. [[
arec = np.dtype([('b', np.bool_), ('x', 'f8'), ('i', np.int16), ('c', np.complex64)], align=True)
b = np.zeros(3, arec)
for i in range(3):
    b[i]['b'] = i % 2 == 0; b[i]['x'] = i + 0.25; b[i]['i'] = -i; b[i]['c'] = complex(i, -i)
print('{%s, %d}' % (rt(b), b.itemsize))
]])
    assert.are.same(want[1], values(b))
    assert.are.equal(want[2], b.itemsize)
    assert.is_true(b.dtype.isalignedstruct)
  end)

  it("nests a module's record in another as NumPy lays it out", function()
    local a = m.nested(3)
    local want = py([[
pt = np.dtype([('x', np.float64), ('y', np.float64)])
body = np.dtype([('p', pt), ('m', np.float32)], align=True)
a = np.zeros(3, body)
for i in range(3):
    a[i]['p']['x'] = i; a[i]['p']['y'] = 2 * i; a[i]['m'] = 0.5 + a[i]['p']['y']
print('{%r, %r, %d, {%s}, {%s}}' % (repr(body), body.itemsize, a.dtype.fields['m'][1], ', '.join(repr(float(v)) for v in a['p']['y']), ', '.join(repr(float(v)) for v in a['m'])))
]])
    assert.are.equal(want[1], tostring(a.dtype))
    assert.are.equal(want[2], a.itemsize)
    assert.are.equal(want[3], a.dtype.fields.m.offset)
    assert.are.same(want[4], a.p.y:totable())
    assert.are.same(want[5], a.m:totable())
  end)

  it("passes a[i] from Lua as a Record (a view) and iterates records", function()
    local a = m.make(3)
    assert.are.equal(6, m.setx(a[3], 99.5))
    assert.are.equal(99.5, a[3].x)
    assert.are.equal(0 + 3 + 6, m.total(a))
    local rec = lumba.dtype { { "x", "float64" }, { "y", "float64" }, { "n", "int32" } }
    local c = lumba.zeros(2, rec)  -- the same dtype made from Lua is the module's
    c[1].n = 5
    assert.are.equal(5, m.total(c))
  end)

  it("copies whole records with a[i] = b[j] and r = a[i]; b[j] = r as NumPy", function()
    local cm = lumba.load(MODULE .. [[

@njit
def shuffle(a, b):
    n = a.shape[0]
    for i in range(n):
        b[i] = a[(3 * i + 1) % n]
    r = a[n - 1]
    b[0] = r
    a[1] = a[1]
]])
    local a, b = m.make(5), m.make(5)
    cm.shuffle(a, b)
    local want = py(VALUES_PY .. [[
rec = np.dtype([('x', np.float64), ('y', np.float64), ('n', np.int32)])
a = np.zeros(5, dtype=rec)
for i in range(5):
    a[i]['x'] = i * 0.5; a[i]['y'] = i - 1.0; a[i]['n'] = 3 * i
b = a.copy()
for i in range(5):
    b[i] = a[(3 * i + 1) % 5]
b[0] = a[4]
a[1] = a[1]
print('{%s, %s}' % (rt(a), rt(b)))
]])
    assert.are.same(want[1], values(a))
    assert.are.same(want[2], values(b))
    local bad = lumba.load(MODULE .. "\n@njit\ndef bad(a, b):\n    a[0] = b[0]\n")
    local ok, e = pcall(bad.bad, m.make(2), lumba.zeros(2, lumba.dtype { { "x", "float64" } }))
    assert.is_false(ok)
    assert.matches(":%d+:5: TypingError: cannot store Record%(x%[type=float64;offset=0%];8;False%) into an element of "
      .. "Record%(x%[type=float64;offset=0%],y", e)
  end)

  it("names an unknown field and its line, as Numba's TypingError", function()
    local bad = lumba.load(MODULE .. "\n@njit\ndef bad(a):\n    return a[0].z\n")
    local ok, e = pcall(bad.bad, m.make(2))
    assert.is_false(ok)
    assert.matches("TypingError: Unknown attribute 'z' of type Record%(x%[type=float64;offset=0%],.*;20;False%)", e)
    assert.matches(":%d+:%d+:", e)
    local bad2 = lumba.load(MODULE .. "\n@njit\ndef bad(a):\n    a[0]['q'] = 1\n")
    ok, e = pcall(bad2.bad, m.make(2))
    assert.matches("Unknown attribute 'q'", e)
  end)

  it("refuses what Numba refuses, by name", function()
    local cases = {
      { "return np.ones(k, rec)", "ones%(%) does not support record dtypes" },
      { "a = np.zeros(k, rec)\n    return a + 1", "cannot add Record" },
      { "a = np.zeros(k, rec)\n    return a.sum()", "sum%(%) is not supported on arrays of Record" },
      { "a = np.zeros(k, rec)\n    a[0] = 1.0\n    return a", "cannot store float64 into an element of Record" },
      { "a = np.zeros(k, rec)\n    return a[0]", "a record cannot be returned to Lua" },
    }
    for _, c in ipairs(cases) do
      local src = "import numpy as np\nfrom numba import njit\nrec = np.dtype([('x', np.float64), ('n', np.int32)])\n"
        .. "@njit\ndef f(k):\n    " .. c[1] .. "\n"
      local ok, e = pcall(function() return lumba.load(src).f(2) end)
      assert.is_false(ok, c[1])
      assert.matches(c[2], e)
    end
  end)
end)

describe("record arrays from a C host", function()
  it("hands compiled code its structs, aligned as NumPy's align=True and packed", function()
    assert.is_true(os.execute(CLEAN_ENV .. "make -s embed-records >/dev/null"), "make embed-records failed")
    local p = assert(io.popen(CLEAN_ENV .. "build/embed/records_host 2>&1; echo \"exit $?\""))
    local lines = {}
    for l in p:read("a"):gmatch("[^\n]+") do lines[#lines + 1] = l end
    p:close()
    local fields = "[('b', '?'), ('x', 'f8'), ('i8', 'i1'), ('n', 'i4'), ('u16', 'u2'), ('i64', 'i8'), ('u8', 'u1'), "
      .. "('c', 'c8'), ('i16', 'i2'), ('u32', 'u4'), ('f', 'f4'), ('u64', 'u8'), ('z', 'c16')]"
    local want = py(("a = np.dtype(%s, align=True)\np = np.dtype(%s)\n"):format(fields, fields)
      .. "print('{%r, %r}' % ('%r %d true' % (a, a.itemsize), '%r %d false' % (p, p.itemsize)))")
    assert.are.same({
      want[1],
      "ok - aligned: compiled code read int64 fields",
      "ok - aligned structs changed by compiled code, read by C",
      want[2],
      "ok - packed: compiled code read int64 fields",
      "ok - packed structs changed by compiled code, read by C",
      "ok - overlapping fields are LUMBA_EDTYPE, nothing pushed",
      "ok - an unknown field dtype is LUMBA_EDTYPE",
      "all ok",
      "exit 0",
    }, lines)
  end)
end)
