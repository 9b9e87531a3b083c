-- lua_syntax.lua — issue 11's targets: the Ising energy written in Lua
-- (lumba.njit(function ... end)) against the same function in Python syntax
-- (within 5%), and against the same Lua function run by the interpreter (at
-- least 50x). Prints the best of several runs of each, side by side.
-- Run from the repository root: lua5.4 bench/lua_syntax.lua  (BENCH_QUICK=1: small sizes)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;" .. package.cpath
local lumba = require "lumba"

local function ising_energy(spins, J)
  J = J or 1.0
  local N = spins.shape[1]
  local energy = 0.0
  for i = 1, N do
    for j = 1, N do
      local s = spins[i][j]
      local neighbor_right = spins[i][j % N + 1]
      local neighbor_down = spins[i % N + 1][j]
      energy = energy - J * s * (neighbor_right + neighbor_down)
    end
  end
  return energy
end

local lua_syntax = lumba.njit(ising_energy)
local python_syntax = lumba.njit [[
def ising_energy_numba(spins, J=1.0):
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
]]

-- best time of f(spins) over reps runs, alternating rounds so both see the same machine
local function best(f, spins, reps)
  local t = math.huge
  for _ = 1, reps do
    local t0 = os.clock()
    f(spins)
    t = math.min(t, os.clock() - t0)
  end
  return t
end

local quick = os.getenv("BENCH_QUICK") == "1"
print(("%-8s %14s %14s %8s %14s %10s"):format("N", "Python syntax", "Lua syntax", "ratio", "interpreted", "speed-up"))
lumba.random.seed(2024)
local worst = 0
for _, N in ipairs(quick and { 64, 200 } or { 64, 500, 2000 }) do
  local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("float64")
  local e1, e2 = python_syntax(spins), lua_syntax(spins)     -- compile both first
  assert(e1 == e2, ("results differ: %.17g and %.17g"):format(e1, e2))
  local reps = math.max(5, math.floor(4e7 / (N * N)))
  local tp, tl = math.huge, math.huge
  for _ = 1, quick and 2 or 5 do
    tp = math.min(tp, best(python_syntax, spins, reps // 5 + 1))
    tl = math.min(tl, best(lua_syntax, spins, reps // 5 + 1))
  end
  local ti = N <= 500 and best(ising_energy, spins, 1) or nil
  worst = math.max(worst, tl / tp)
  print(("%-8d %13.6fs %13.6fs %8.3f %14s %10s"):format(N, tp, tl, tl / tp,
    ti and ("%.4fs"):format(ti) or "-", ti and ("%.0fx"):format(ti / tl) or "-"))
end
print(("Lua syntax vs Python syntax, worst ratio %.3f: %s (target: within 5%%)"):format(worst,
  worst <= 1.05 and "met" or "NOT met"))
