-- a.min(), a.max(), np.min, np.max of float arrays in compiled code (serial
-- and in parallel functions) against NumPy, on the values where the order of
-- floats is delicate: signed zeros, infinities, NaNs of both signs (a NaN
-- anywhere makes the result NaN), subnormals, the largest floats; lengths
-- around the vector widths and strided views, so every lane and tail of the
-- vectorised loop is met.
local lumba = require "lumba"
local batch = dofile("tests/numpy_batch.lua")

local SPECIAL = { 0.0, -0.0, 1.5, -1.5, math.huge, -math.huge, 5e-324, -5e-324, 1.7976931348623157e308,
  -1.7976931348623157e308, 3.25, -7.0, 1e-300, 2.0 }

-- n values from SPECIAL in a fixed order of seed; nan: 0 none, else where
local function values(n, seed, nan, nan_sign)
  local v = {}
  for i = 1, n do v[i] = SPECIAL[(i * 5 + seed * 3) % #SPECIAL + 1] end
  if nan > 0 and n > 0 then v[(nan - 1) % n + 1] = nan_sign * (0 / 0) end
  return v
end

local SRC = [[
import numpy as np
def amin(a):
    return a.min()
def amax(a):
    return a.max()
def npmin(a):
    return np.min(a)
def npmax(a):
    return np.max(a)
def viewmin(a):
    return a[::3].min()
def viewmax(a):
    return np.max(a[::-2])
]]

describe("min and max of float arrays", function()
  local serial = lumba.load(SRC)
  local par = lumba.load("from numba import njit\n" .. SRC:gsub("def (%w+)", "@njit(parallel=True)\ndef %1"))
  it("equal NumPy's on signed zeros, infinities, NaNs and every tail length", function()
    if not batch.available() then pending("python3-numpy is not installed") return end
    local cases, runs = {}, {}
    for _, dt in ipairs { "float64", "float32" } do
      for n = 1, 41, 4 do
        for seed = 0, 2 do
          for _, nan in ipairs { 0, 1, n, (n + 1) // 2 } do
            for _, sign in ipairs { 1, -1 } do
              local v = values(n, seed + n, nan, sign)
              if dt == "float32" then  -- the float32 nearest, as NumPy's conversion
                for i, x in ipairs(v) do if x == 1.7976931348623157e308 then v[i] = math.huge
                  elseif x == -1.7976931348623157e308 then v[i] = -math.huge
                  elseif x == 5e-324 or x == 1e-300 then v[i] = 0.0 elseif x == -5e-324 then v[i] = -0.0 end end
              end
              for fn, expr in pairs { amin = "a.min()", amax = "a.max()", npmin = "np.min(a)", npmax = "np.max(a)",
                viewmin = "a[::3].min()", viewmax = "np.max(a[::-2])" } do
                cases[#cases + 1] = { inputs = { { name = "a", dtype = dt, shape = { n }, values = v } }, expr = expr }
                runs[#runs + 1] = { fn = fn, dt = dt, v = v }
              end
            end
          end
        end
      end
    end
    local want = batch.run(cases)
    local bad = {}
    for i, r in ipairs(runs) do
      local a = lumba.array(r.v, r.dt)
      for _, m in ipairs { serial, par } do
        local got = m[r.fn](a)
        local w = want[i].values[1]
        local same = (w ~= w and got ~= got) or (w == got and (w ~= 0 or 1 / w == 1 / got or w == 0))
        if not same and #bad < 10 then
          bad[#bad + 1] = ("%s %s of {%s}: lumba %s, NumPy %s"):format(r.fn, r.dt,
            table.concat((function() local t = {} for k, x in ipairs(r.v) do t[k] = tostring(x) end return t end)(), ","),
            tostring(got), tostring(w))
        end
      end
    end
    assert.are.same({}, bad)
  end)

  it("of a 2-D array and a transposed one are its smallest and largest elements", function()
    local a = lumba.zeros({ 37, 29 })
    for i = 1, 37 do for j = 1, 29 do a[i][j] = ((i * 31 + j * 17) % 101) - 50.5 end end
    assert.are.equal(-50.5, serial.amin(a))
    assert.are.equal(49.5, serial.amax(a))
    assert.are.equal(-50.5, par.npmin(a:transpose()))
    assert.are.equal(49.5, par.npmax(a:transpose()))
    a[20][7] = 0 / 0
    local got = par.amax(a)
    assert.is_true(got ~= got)
  end)
end)
