-- Object mode on the seed's Ising energy (N = 500) against the same loop
-- written by hand in Lua: issue 5's target is a ratio of at most 2.
--   lua5.4 bench/objmode_ising.lua [N]
-- Uses lumba's ndarray when the runtime has one, else tests/fake_array.lua.
package.path = "lua/?.lua;lua/?/init.lua;tests/?.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local objmode = require "lumba.objmode"
local FX = require "objmode_fixtures"

local N = tonumber(arg and arg[1]) or 500
local ok, lumba = pcall(require, "lumba")
local spins, kind
if ok and lumba.zeros then
  spins, kind = lumba.zeros({ N, N }, "float64"), "lumba.ndarray"
else
  spins, kind = require("fake_array").new({ N, N }, "float64"), "fake array"
end
local x = 12345
for i = 1, N do
  for j = 1, N do
    x = (x * 1103515245 + 12345) % 2147483648
    spins:set(i, j, (x >> 16) % 2 == 0 and -1.0 or 1.0)
  end
end

local function ising_lua(s, J)
  J = J or 1.0
  local n = s.shape[1]
  local energy = 0.0
  for i = 0, n - 1 do
    for j = 0, n - 1 do
      local v = s:get(i + 1, j + 1)
      local right = s:get(i + 1, (j + 1) % n + 1)
      local down = s:get((i + 1) % n + 1, j + 1)
      energy = energy - J * v * (right + down)
    end
  end
  return energy
end

local ising = objmode.compile(FX.seeds.ast, "ising_energy_numba", {})
local function best(f)
  local t = math.huge
  local r
  for _ = 1, 3 do
    local t0 = os.clock()
    r = f(spins)
    t = math.min(t, os.clock() - t0)
  end
  return t, r
end
local th, eh = best(ising_lua)
local to, eo = best(ising)
assert(eh == eo, "results differ")
print(string.format("ising N=%d on %s: hand-written Lua %.3f s, object mode %.3f s, ratio %.2f (target <= 2)",
  N, kind, th, to, to / th))
-- for bench/run.lua (make bench): seconds of each, best of 3
print(string.format("N %d", N))
print(string.format("HANDLUA %.9g", th))
print(string.format("OBJMODE %.9g", to))
