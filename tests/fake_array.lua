-- A stand-in for lumba.ndarray in the object-mode specs: an N-d strided
-- view over a flat Lua table, with the interface the object-mode code uses
-- (shape, ndim, size, dtype, 1-based get/set, sum/min/max/copy/fill) and a
-- runtime table (empty/zeros/ones/full/arange/view) for objmode.compile's
-- opts.runtime. Stores convert like NumPy: to float for float dtypes,
-- truncating to int for int dtypes, to a boolean for bool.
local FA = {}
FA.__index = function(a, k)
  if math.type(k) == "integer" then return a:row(k) end
  return FA[k]
end

local function convert(dtype, v)
  if dtype == "bool" then
    if type(v) == "boolean" then return v end
    return v ~= 0
  end
  if v == true then v = 1 elseif v == false then v = 0 end
  if dtype:match("^float") then return v + 0.0 end
  if math.type(v) == "float" then
    v = v >= 0 and math.floor(v) or -math.floor(-v)
    return math.tointeger(v)
  end
  return v
end

local function make(data, offset, shape, strides, dtype)
  local size = 1
  for _, n in ipairs(shape) do size = size * n end
  return setmetatable({ data = data, offset = offset, shape = shape, strides = strides,
    ndim = #shape, size = size, dtype = dtype }, FA)
end

-- new C-ordered array of the given shape, every element `fill`
function FA.new(shape, dtype, fill)
  dtype = dtype or "float64"
  local size = 1
  for _, n in ipairs(shape) do size = size * n end
  local data = {}
  local v = convert(dtype, fill or 0)
  for i = 1, size do data[i] = v end
  local strides, st = {}, 1
  for k = #shape, 1, -1 do strides[k] = st; st = st * shape[k] end
  local sh = {}
  for k = 1, #shape do sh[k] = shape[k] end
  return make(data, 0, sh, strides, dtype)
end

-- from a (nested) Lua table of numbers
function FA.from(t, dtype)
  local shape = {}
  local x = t
  while type(x) == "table" do shape[#shape + 1] = #x; x = x[1] end
  if dtype == nil then
    dtype = "int64"
    local function scan(y)
      if type(y) == "table" then for _, z in ipairs(y) do scan(z) end
      elseif math.type(y) == "float" then dtype = "float64"
      elseif type(y) == "boolean" then dtype = "bool" end
    end
    scan(t)
  end
  local a = FA.new(shape, dtype)
  local n = 0
  local function fill(y)
    if type(y) == "table" then for _, z in ipairs(y) do fill(z) end
    else n = n + 1; a.data[n] = convert(dtype, y) end
  end
  fill(t)
  return a
end

function FA:pos(...)
  local n = select("#", ...)
  if n ~= self.ndim then error(string.format("fake array: %d indices for %d dimensions", n, self.ndim), 0) end
  local p = self.offset
  for k = 1, n do
    local i = select(k, ...)
    if math.type(i) ~= "integer" or i < 1 or i > self.shape[k] then
      error(string.format("IndexError: index %s is out of bounds for axis %d with size %d",
        tostring(i), k - 1, self.shape[k]), 0)
    end
    p = p + (i - 1) * self.strides[k]
  end
  return p + 1
end

function FA:get(...) return self.data[self:pos(...)] end

function FA:set(...)
  local n = select("#", ...)
  local v = select(n, ...)
  local p = self:pos(table.unpack({ ... }, 1, n - 1))
  self.data[p] = convert(self.dtype, v)
end

-- row view a[k] (1-based) of an N-d array
function FA:row(k)
  if k < 1 or k > self.shape[1] then
    error(string.format("IndexError: index %d is out of bounds for axis 0 with size %d", k, self.shape[1]), 0)
  end
  local shape, strides = {}, {}
  for d = 2, self.ndim do shape[d - 1] = self.shape[d]; strides[d - 1] = self.strides[d] end
  return make(self.data, self.offset + (k - 1) * self.strides[1], shape, strides, self.dtype)
end

-- view from objmode specs: {index = i1} or {start = i1, count = n, step = s}
function FA:view(specs)
  local offset = self.offset
  local shape, strides = {}, {}
  for k, sp in ipairs(specs) do
    if sp.index then
      offset = offset + (sp.index - 1) * self.strides[k]
    else
      offset = offset + (sp.start - 1) * self.strides[k]
      shape[#shape + 1] = sp.count
      strides[#strides + 1] = self.strides[k] * sp.step
    end
  end
  return make(self.data, offset, shape, strides, self.dtype)
end

-- every element in C order
function FA:totable()
  local out = {}
  local idx = {}
  local function walk(d)
    if d > self.ndim then out[#out + 1] = self:get(table.unpack(idx, 1, self.ndim)); return end
    for i = 1, self.shape[d] do idx[d] = i; walk(d + 1) end
  end
  if self.ndim == 0 then return { self.data[self.offset + 1] } end
  walk(1)
  return out
end

function FA:sum()
  local s = self.dtype:match("^float") and 0.0 or 0
  for _, v in ipairs(self:totable()) do
    if v == true then v = 1 elseif v == false then v = 0 end
    s = s + v
  end
  return s
end

function FA:min()
  local t = self:totable()
  local m = t[1]
  for i = 2, #t do if t[i] < m then m = t[i] end end
  return m
end

function FA:max()
  local t = self:totable()
  local m = t[1]
  for i = 2, #t do if t[i] > m then m = t[i] end end
  return m
end

function FA:copy()
  local c = FA.new(self.shape, self.dtype)
  c.data = self:totable()
  return c
end

function FA:fill(v)
  local idx = {}
  local function walk(d)
    if d > self.ndim then
      idx[self.ndim + 1] = v
      self:set(table.unpack(idx, 1, self.ndim + 1))
      return
    end
    for i = 1, self.shape[d] do idx[d] = i; walk(d + 1) end
  end
  walk(1)
end

-- the runtime table objmode.compile takes as opts.runtime
FA.runtime = {
  empty = function(shape, dtype) return FA.new(shape, dtype, 0) end,
  zeros = function(shape, dtype) return FA.new(shape, dtype, 0) end,
  ones = function(shape, dtype) return FA.new(shape, dtype, 1) end,
  full = function(shape, v, dtype) return FA.new(shape, dtype, v) end,
  arange = function(start, stop, step, dtype)
    local t = {}
    local v = start
    while (step > 0 and v < stop) or (step < 0 and v > stop) do
      t[#t + 1] = v
      v = v + step
    end
    local a = FA.new({ #t }, dtype)
    for i, x in ipairs(t) do a.data[i] = convert(dtype, x) end
    return a
  end,
  view = function(a, specs) return a:view(specs) end,
}

return FA
