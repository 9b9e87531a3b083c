-- The seed's Ising model, evolving: Metropolis sweeps of a periodic lattice
-- of ±1 spins at three temperatures, compiled by lumba. The random numbers
-- come from an xorshift64 generator inside the compiled code, its int64
-- state passed in and returned, so a run is reproducible and plain Lua can
-- replay it bit for bit. The seed's energy function (verbatim) measures the
-- result, compared with Onsager's exact solution. Writes a montage of
-- snapshots (rows: temperatures, columns: sweeps) as a PNG.
-- Run: lua5.4 examples/ising_metropolis.lua [out.png]   (LUMBA_EXAMPLE_QUICK=1: small)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local png = dofile "examples/lib/png.lua"

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local out = arg[1] or (quick and os.tmpname() or "docs/img/ising.png")

-- n_sweeps Metropolis sweeps (J = 1, no field) in typewriter order; w4, w8
-- are exp(-4/T), exp(-8/T), the acceptance probabilities of energy rises
-- 4 and 8. Returns the generator's new state.
local sweep = lumba.njit [[
def sweep(spins, n_sweeps, w4, w8, state):
    N = spins.shape[0]
    x = state
    for _ in range(n_sweeps):
        for i in range(N):
            for j in range(N):
                s = spins[i, j]
                nb = (spins[(i + 1) % N, j] + spins[(i - 1) % N, j]
                      + spins[i, (j + 1) % N] + spins[i, (j - 1) % N])
                dE = 2 * s * nb
                flip = dE <= 0
                if not flip:
                    # xorshift64 (13, 7, 17); >> is arithmetic on int64, so mask
                    x ^= x << 13
                    x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF
                    x ^= x << 17
                    u = ((x >> 11) & 0x1FFFFFFFFFFFFF) * (1.0 / 9007199254740992.0)
                    flip = u < (w4 if dE == 4 else w8)
                if flip:
                    spins[i, j] = -s
    return x
]]

-- seed 1, verbatim: the energy of a configuration
local ising_energy = lumba.njit [[
import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    """Numba JIT accelerated Ising energy."""
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            # periodic boundary via modulo
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
]]

-- paint the lattice into img at (row0, col0), each spin a scale x scale block
local paint = lumba.njit [[
def paint(spins, img, row0, col0, scale):
    N = spins.shape[0]
    for i in range(N * scale):
        for j in range(N * scale):
            up = spins[i // scale, j // scale] > 0
            img[row0 + i, col0 + j, 0] = 240 if up else 24
            img[row0 + i, col0 + j, 1] = 228 if up else 48
            img[row0 + i, col0 + j, 2] = 200 if up else 96
]]

-- ---- the same sweep in plain Lua, on a table of rows (1-based) ----
local function sweep_lua(t, N, n_sweeps, w4, w8, x)
  for _ = 1, n_sweeps do
    for i = 0, N - 1 do
      for j = 0, N - 1 do
        local s = t[i + 1][j + 1]
        local nb = t[(i + 1) % N + 1][j + 1] + t[(i - 1) % N + 1][j + 1]
            + t[i + 1][(j + 1) % N + 1] + t[i + 1][(j - 1) % N + 1]
        local dE = 2 * s * nb
        local flip = dE <= 0
        if not flip then
          x = x ~ (x << 13)
          x = x ~ (x >> 7)        -- Lua's >> is logical: no mask needed
          x = x ~ (x << 17)
          local u = (x >> 11) * (1.0 / 9007199254740992.0)
          flip = u < (dE == 4 and w4 or w8)
        end
        if flip then t[i + 1][j + 1] = -s end
      end
    end
  end
  return x
end

local function weights(T) return math.exp(-4 / T), math.exp(-8 / T) end

-- 1. bit-for-bit agreement with plain Lua on a small lattice
do
  local N, n = 24, quick and 20 or 50
  lumba.random.seed(7)
  local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("int8")
  local t = spins:totable()
  local w4, w8 = weights(2.269)
  local state = 0x9E3779B97F4A7C15
  local s1 = sweep(spins, n, w4, w8, state)
  local s2 = sweep_lua(t, N, n, w4, w8, state)
  assert(s1 == s2, ("generator states differ: %d vs %d"):format(s1, s2))
  for i = 1, N do
    for j = 1, N do
      assert(spins:get(i, j) == t[i][j], ("spin (%d, %d) differs from plain Lua"):format(i, j))
    end
  end
  print(("%dx%d lattice, %d sweeps: identical to plain Lua (state %016x)"):format(N, N, n, s1))
end

-- 2. the model evolving at three temperatures, from the same random start
local N = quick and 32 or 128
local scale = quick and 1 or 2
local checkpoints = quick and { 0, 1, 10, 50 } or { 0, 1, 10, 100, 1000 }
local temps = { 1.5, 2.269, 3.5 }            -- ordered, critical (Tc = 2.269), disordered
local exact = { -1.9511, -1.4151, -0.6601 }  -- Onsager's energy per spin (infinite lattice)
local gap = 6
local tile = N * scale
local img = lumba.full({ #temps * tile + (#temps + 1) * gap, #checkpoints * tile + (#checkpoints + 1) * gap, 3 },
  255, "uint8")

local t0 = os.clock()
local total_sweeps = 0
for r, T in ipairs(temps) do
  lumba.random.seed(2024)
  local spins = lumba.random.choice({ -1, 1 }, { N, N }):astype("int8")
  local state = 0x2545F4914F6CDD1D + r
  local w4, w8 = weights(T)
  local done = 0
  for c, k in ipairs(checkpoints) do
    state = sweep(spins, k - done, w4, w8, state)
    total_sweeps = total_sweeps + (k - done)
    done = k
    paint(spins, img, gap + (r - 1) * (tile + gap), gap + (c - 1) * (tile + gap), scale)
  end
  local e = ising_energy(spins) / (N * N)
  local m = spins:sum() / (N * N)
  print(("T = %.3f after %4d sweeps: energy per spin %.4f (Onsager %.4f), magnetisation %+.3f"):format(
    T, done, e, exact[r], m))
  if not quick then
    if T < 2 then assert(e < -1.85, "the ordered phase should be near its ground-state energy") end
    if T > 3 then
      assert(math.abs(e - exact[r]) < 0.05, "the disordered phase should match Onsager's energy")
      assert(math.abs(m) < 0.1, "the disordered phase should have no magnetisation")
    end
    if T > 2 and T < 3 then assert(e > -1.6 and e < -1.25, "near Tc the energy lies between the phases") end
  end
end
local cpu = os.clock() - t0

local bytes = png.write_array(out, img)
print(("%d sweeps of %dx%d spins in %.2f s (%.1f ns per spin update, with compilation)"):format(
  total_sweeps, N, N, cpu, cpu / (total_sweeps * N * N) * 1e9))
print(("wrote %s (%d bytes): rows T = 1.5, 2.269, 3.5; columns after %s sweeps"):format(
  out, bytes, table.concat(checkpoints, ", ")))
if quick and not arg[1] then os.remove(out) end
