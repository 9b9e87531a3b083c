-- tools/npbench/run.lua — runs NPBench's Numba kernels verbatim through
-- lumba (lumba.load of each *_numba_n.py file) on the cases gen.py wrote,
-- and compares with NumPy's results: how many of the 54 run, and why the
-- others do not. Nothing of NPBench is part of lumba; give it a checkout.
--
-- usage: /usr/bin/python3 tools/npbench/gen.py <npbench checkout> /tmp/npb
--        lua5.4 tools/npbench/run.lua /tmp/npb [name ...]
-- NPB_VARIANT=np runs NPBench's parallel kernels instead (*_numba_np.py:
-- njit(parallel=True), prange and array code) on the same cases; npr the
-- prange-only ones. A benchmark without that file is left out.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local dir = assert(arg[1], "usage: lua5.4 tools/npbench/run.lua <cases dir> [name ...]")
local only = {}
for i = 2, #arg do only[arg[i]] = true end

local fmt = { float64 = "d", float32 = "f", int64 = "i8", int32 = "i4", int16 = "i2", int8 = "i1",
  uint64 = "I8", uint32 = "I4", uint16 = "I2", uint8 = "I1", bool = "B", complex128 = "dd", complex64 = "ff" }

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- a lumba array from a case's raw C-order bytes
local function load_array(case_dir, d)
  local f = fmt[d.dtype]
  if not f then error("lumba has no dtype " .. d.dtype, 0) end
  local a = lumba.zeros(#d.shape > 0 and d.shape or {}, d.dtype)
  local bytes = read(case_dir .. "/" .. d.file)
  local n = a.size
  local flat = n > 0 and a:reshape(n) or a
  local size = string.packsize("<" .. f)
  local pos, k = 1, 1
  local cx = f == "dd" or f == "ff"  -- a complex dtype: two floats per element
  while k <= n do
    local m = math.min(512, n - k + 1)
    local vals = table.pack(string.unpack("<" .. f:rep(m), bytes, pos))
    for j = 1, m do
      local v = cx and lumba.complex(vals[2 * j - 1], vals[2 * j]) or vals[j]
      if d.dtype == "bool" then v = v ~= 0 end
      flat:set(k + j - 1, v)
    end
    pos, k = pos + m * size, k + m
  end
  return a, flat
end

local function value_of(case_dir, d)
  if d.kind == "array" then return (load_array(case_dir, d)) end
  if d.kind == "int" then return math.tointeger(d.value) end
  if d.kind == "float" then return d.value + 0.0 end
  if d.kind == "bool" then return d.value end
  if d.kind == "none" then return nil end
  error("input of kind " .. d.kind .. (d.what and (" (" .. d.what .. ")") or ""), 0)
end

-- flat values of a lumba array or a number
local function flat_of(v)
  if type(v) == "number" or type(v) == "boolean" then return { v }, {} end
  local n = v.size
  local shape = {}
  for k = 1, v.ndim do shape[k] = v.shape[k] end
  local out = {}
  if v.ndim == 0 then return { v:get() }, shape end
  local f = v:copy():reshape(n)
  for i = 1, n do out[i] = f:get(i) end
  return out, shape
end

local function num(x) if x == true then return 1 elseif x == false then return 0 end return x end

-- NumPy's allclose with NPBench's loose tolerance (fastmath kernels)
local function compare(case_dir, want, got, what)
  if want.kind == "none" then return got == nil or nil, what .. ": expected None" end
  if want.kind == "tuple" then
    if type(got) ~= "table" then return false, what .. ": expected a tuple" end
    for i = 1, #want do
      local ok, why = compare(case_dir, want[i], got[i], what .. "[" .. i .. "]")
      if not ok then return ok, why end
    end
    return true
  end
  if want.kind == "unsupported" then return false, what .. ": " .. want.what end
  local w, ws
  if want.kind == "array" then
    local _, flat = load_array(case_dir, want)
    w, ws = flat_of(flat), want.shape
  else
    w, ws = { want.value }, {}
  end
  if got == nil then return false, what .. ": returned nothing" end
  local g, gs = flat_of(got)
  if #g ~= #w then return false, string.format("%s: %d elements, NumPy has %d", what, #g, #w) end
  local worst, at = 0, nil
  for i = 1, #w do
    local a, b = num(g[i]), num(w[i])
    local err
    if lumba.iscomplex(a) or lumba.iscomplex(b) then  -- complex: both parts
      a, b = lumba.complex(a), lumba.complex(b)
      local function e(x, y) return (x ~= x and y ~= y) and 0 or math.abs(x - y) / (1e-5 * math.abs(y) + 1e-6) end
      err = math.max(e(a.real, b.real), e(a.imag, b.imag))
      a, b = a.real, b.real
    else
      err = math.abs(a - b) / (1e-5 * math.abs(b) + 1e-6)
    end
    if a ~= a and b ~= b then err = 0 end
    if not (err <= 1) and (err > worst or err ~= err) then worst, at = err, i end
  end
  if at then
    return false, string.format("%s: element %d is %s, NumPy's %s", what, at, tostring(num(g[at])), tostring(num(w[at])))
  end
  return true
end

local function first_line(s) return (tostring(s):gsub("\n.*", "")) end

local variant = os.getenv("NPB_VARIANT") or "n"
local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end

local names = {}
for line in io.popen("ls " .. dir):lines() do names[#names + 1] = line end
local counts = { ok = 0, wrong = 0, error = 0 }
for _, name in ipairs(names) do
  if next(only) == nil or only[name] then
    local case_dir = dir .. "/" .. name
    local case = dofile(case_dir .. "/case.lua")
    if case.source then case.source = case.source:gsub("_numba_n%.py$", "_numba_" .. variant .. ".py") end
    if case.source and not exists(case.source) then goto next end
    local status, why
    if case.error then
      status, why = "error", "case: " .. case.error
    else
      local ok, st, w = pcall(function()
        local m = lumba.load(read(case.source))
        local f = m[case.func]
        if not f then error("the module has no function " .. case.func, 0) end
        local args = {}
        for i, d in ipairs(case.args) do args[i] = value_of(case_dir, d) end
        local res = table.pack(f(table.unpack(args, 1, #case.args)))
        local got = res.n > 1 and { table.unpack(res, 1, res.n) } or res[1]
        -- a Numba version that only updates its outputs in place (adi) is
        -- checked on them, though its NumPy version also returns one
        if not (res.n == 0 and #case.outputs > 0) then
          local good, w = compare(case_dir, case.result, got, "result")
          if not good then return "wrong", w end
        end
        for _, o in ipairs(case.outputs) do
          local good, w = compare(case_dir, o.value, args[o.index], o.name)
          if not good then return "wrong", w end
        end
        return "ok"
      end)
      if ok then status, why = st, w else status, why = "error", st end
    end
    counts[status] = counts[status] + 1
    print(string.format("%-26s %-6s %s", name, status:upper(), why and first_line(why) or ""))
  end
  ::next::
end
print(string.format("%d ok, %d wrong, %d errors", counts.ok, counts.wrong, counts.error))
