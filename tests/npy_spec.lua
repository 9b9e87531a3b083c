-- lumba.npy.save / lumba.npy.load against NumPy itself: every dtype, shapes
-- from 0-d to 3-D and empty, C and Fortran order, strided views; files
-- NumPy wrote (np.save, format versions 1.0/2.0/3.0, big-endian) read back.
local lumba = require "lumba"
local oracle = dofile("tests/numpy_oracle.lua")
local PY = "/usr/bin/python3"
local check = oracle.available and it or pending

local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)

local function flat(a)
  local out = {}
  local function walk(t)
    if type(t) ~= "table" then out[#out + 1] = t return end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(a:totable())
  return out
end

local function show(v)
  if v == true then return "1" elseif v == false then return "0" end
  if lumba.iscomplex(v) then return ("%.17g %.17g"):format(v.real, v.imag) end  -- the two parts
  if math.type(v) == "float" then return ("%.17g"):format(v) end
  return tostring(v)
end

-- two "dtype shape [fortran] v1 v2 ..." lines agree (numbers as numbers)
local function same_line(want, got, what)
  local w, g = {}, {}
  for x in want:gmatch("%S+") do w[#w + 1] = tonumber(x) or x end
  for x in (got or ""):gmatch("%S+") do g[#g + 1] = tonumber(x) or x end
  assert.are.same(w, g, what)
end

-- python3 code run with np imported; its stdout
local function python(code)
  local path = dir .. "/run.py"
  local f = assert(io.open(path, "w"))
  f:write("import numpy as np, sys\n", code)
  f:close()
  local p = assert(io.popen(PY .. " " .. path .. " 2>&1"))
  local out = p:read("a")
  p:close()
  return out
end

-- what python prints for the array in a file: dtype, shape, fortran, values
local PY_SHOW = [[
def show(path):
    a = np.load(path)
    vals = ' '.join(repr(float(x)) if a.dtype.kind == 'f' else (repr(float(x.real)) + ' ' + repr(float(x.imag))) if a.dtype.kind == 'c' else str(int(x)) for x in a.ravel(order='C').tolist())
    print(path, a.dtype.name, ','.join(map(str, a.shape)), int(a.flags.f_contiguous and not a.flags.c_contiguous), vals)
]]

local SHAPES = { {}, { 5 }, { 0 }, { 3, 4 }, { 2, 3, 4 }, { 2, 0, 3 } }

local function values_for(dt, n)
  local vals = {}
  for i = 1, n do
    if dt == "bool" then vals[i] = i % 3 == 0
    elseif dt:find("float") then vals[i] = (i - 3) * 1.25 + (dt == "float64" and 1e-9 or 0)
    elseif dt:find("^uint") then vals[i] = (i * 37) % 200
    else vals[i] = (i * 37) % 200 - 100 end
  end
  return vals
end

local function make(dt, shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local a = lumba.zeros(shape, dt)
  if #shape == 0 then
    a = lumba.array(values_for(dt, 1)[1], dt)
  elseif n > 0 then
    a = lumba.array(values_for(dt, n), dt):reshape(shape)
  end
  return a
end

describe("lumba.npy", function()
  check("save: numpy.load reads every dtype, shape and layout back equal", function()
    local cases = {}
    for _, dt in ipairs(lumba.dtypes) do
      for si, shape in ipairs(SHAPES) do
        local a = make(dt, shape)
        cases[#cases + 1] = { name = dt .. "_c" .. si, a = a, fortran = 0 }
        if #shape >= 2 then
          cases[#cases + 1] = { name = dt .. "_f" .. si, a = a:copy("F"), fortran = a.size > 0 and 1 or 0 }
          cases[#cases + 1] = { name = dt .. "_t" .. si, a = a.T, fortran = a.size > 0 and 1 or 0 }
          cases[#cases + 1] = { name = dt .. "_v" .. si, a = a:slice({ nil, nil, -1 }, { 1, nil, 2 }), fortran = 0 }
        elseif #shape == 1 and shape[1] > 0 then
          cases[#cases + 1] = { name = dt .. "_s" .. si, a = a:slice({ 1, nil, 2 }), fortran = 0 }
        end
      end
    end
    local code = { PY_SHOW }
    for _, c in ipairs(cases) do
      c.path = dir .. "/" .. c.name .. ".npy"
      lumba.npy.save(c.path, c.a)
      code[#code + 1] = ("show(%q)\n"):format(c.path)
    end
    local out = python(table.concat(code))
    local got = {}
    for line in out:gmatch("[^\n]+") do
      local path, rest = line:match("^(%S+) (.*)$")
      assert(path, out)
      got[path] = rest
    end
    for _, c in ipairs(cases) do
      local vals = {}
      for i, v in ipairs(flat(c.a)) do vals[i] = show(v) end
      local want = ("%s %s %d %s"):format(c.a.dtype, table.concat(c.a.shape, ","), c.fortran, table.concat(vals, " "))
      same_line(want, got[c.path], c.name)
    end
  end)

  check("load: what np.save writes, in every format version and byte order", function()
    local out = python(([[
import numpy.lib.format as fmt
d = %q
cases = []
def put(name, a, version=None):
    path = d + '/np_' + name + '.npy'
    if version is None:
        np.save(path, a)
    else:
        with open(path, 'wb') as f: fmt.write_array(f, a, version=version)
    vals = ' '.join(repr(float(x)) if a.dtype.kind == 'f' else (repr(float(x.real)) + ' ' + repr(float(x.imag))) if a.dtype.kind == 'c' else str(int(x)) for x in a.ravel(order='C').tolist())
    print(path, a.dtype.newbyteorder('=').name, ','.join(map(str, a.shape)), vals)
for dt in ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', 'complex64', 'complex128']:
    a = (np.arange(24) * 7 %% 11 - (0 if dt.startswith('u') or dt == 'bool' else 5)).astype(dt).reshape(2, 3, 4)
    if dt.startswith('float'): a = a / 3
    if dt.startswith('complex'): a = a / 3 + 1j * a[::-1]
    a = a.astype(dt)
    put(dt, a)
    put(dt + '_F', np.asfortranarray(a))
    put(dt + '_be', a.astype(a.dtype.newbyteorder('>')))
    put(dt + '_0d', a.ravel()[3].reshape(()))
    put(dt + '_empty', a[:, :0])
put('v2', np.arange(10.0), (2, 0))
put('v3', np.arange(10, dtype=np.int32).reshape(2, 5), (3, 0))
]]):format(dir))
    local n = 0
    for line in out:gmatch("[^\n]+") do
      local path, dt, shape, vals = line:match("^(%S+) (%S+) (%S*) ?(.*)$")
      assert(path, out)
      local a = lumba.npy.load(path)
      local mine = {}
      for i, v in ipairs(flat(a)) do mine[i] = show(v) end
      same_line(dt .. " " .. shape .. " " .. vals,
        a.dtype .. " " .. table.concat(a.shape, ",") .. " " .. table.concat(mine, " "), path)
      if path:find("_F%.npy$") then assert.are.equal("F", a.layout) end
      n = n + 1
    end
    assert.is_true(n > 50)
  end)

  check("save then load gives an equal array of the same dtype", function()
    for _, dt in ipairs(lumba.dtypes) do
      local a = make(dt, { 2, 3, 4 }):transpose({ 3, 1, 2 })
      local path = dir .. "/rt_" .. dt .. ".npy"
      lumba.npy.save(path, a)
      local b = lumba.npy.load(path)
      assert.are.equal(dt, b.dtype)
      assert.are.same(a.shape, b.shape)
      assert.are.same(flat(a), flat(b))
    end
    lumba.npy.save(dir .. "/tbl.npy", { { 1, 2 }, { 3, 4 } })
    assert.are.same({ { 1, 2 }, { 3, 4 } }, lumba.npy.load(dir .. "/tbl.npy"):totable())
  end)

  check("what lumba cannot read is a clear error, the state left usable", function()
    python(([[
d = %q
np.save(d + '/dt.npy', np.zeros(3, dtype='datetime64[s]'))
np.save(d + '/rec.npy', np.zeros(2, dtype=[('x', 'f8', (2,)), ('y', 'i4')]))
np.save(d + '/str.npy', np.array(['ab', 'c']))
open(d + '/junk.npy', 'wb').write(b'hello world, not numpy')
np.save(d + '/cut.npy', np.arange(100.0))
data = open(d + '/cut.npy', 'rb').read()
open(d + '/cut.npy', 'wb').write(data[:300])
]]):format(dir))
    local function err(path)
      local ok, e = pcall(lumba.npy.load, dir .. "/" .. path)
      assert.is_false(ok)
      return e
    end
    assert.matches("holds dtype '<M8[s]', which lumba has no dtype for", err("dt.npy"), 1, true)
    assert.matches("field 'x' has a shape, which lumba reads not", err("rec.npy"), 1, true)  -- a subarray field
    assert.matches("holds dtype '<U2'", err("str.npy"), 1, true)
    assert.matches("is not a .npy file lumba reads: no \\x93NUMPY magic", err("junk.npy"), 1, true)
    assert.matches("is cut short: its data should be 800 bytes", err("cut.npy"), 1, true)
    assert.matches("cannot open '" .. dir .. "/none.npy'", err("none.npy"), 1, true)
    local ok, e = pcall(lumba.npy.save, dir .. "/no/such/dir/x.npy", lumba.zeros(2))
    assert.is_false(ok)
    assert.matches("lumba.npy.save: cannot open", e, 1, true)
    ok, e = pcall(lumba.npy.save, dir .. "/x.npy", "nope")
    assert.is_false(ok)
    assert.matches("bad argument #2 to '[^']*' %(lumba.ndarray expected, got string%)", e)
    collectgarbage()
    lumba.npy.save(dir .. "/x.npy", lumba.zeros(2, "int16"))
    assert.are.same({ 0, 0 }, lumba.npy.load(dir .. "/x.npy"):totable())
  end)
end)
