-- ising.lua (plain Lua 5.4): seed 1's loop over a flat table of floats,
-- row-major, element (i, j) at spins[i * N + j + 1].
-- args: N seed

local function ising_energy(spins, N, J)
  local energy = 0.0
  for i = 0, N - 1 do
    for j = 0, N - 1 do
      local s = spins[i * N + j + 1]
      local neighbor_right = spins[i * N + (j + 1) % N + 1]
      local neighbor_down = spins[((i + 1) % N) * N + j + 1]
      energy = energy - J * s * (neighbor_right + neighbor_down)
    end
  end
  return energy
end

return {
  setup = function(args, measure)
    local N, seed = args[1], args[2]
    local spins = {}
    measure.fill_spins(function(k, v) spins[k + 1] = v end, N * N, seed)
    return { spins = spins, N = N }
  end,
  run = function(st) return ising_energy(st.spins, st.N, 1.0) end,
  check = function(_, result) return result end,
}
