-- nbody.lua (plain Lua 5.4): one step of the O(n^2) n-body method with
-- softening over flat tables, as nbody.c; coordinate c of body i (0-based)
-- at [c * n + i + 1].
-- args: n seed dt eps2; check: sum((npos[k] + nvel[k]) * (k % 97 + 1))
local sqrt = math.sqrt

local function nbody(pos, vel, mass, npos, nvel, n, dt, eps2)
  local n2 = 2 * n
  for i = 1, n do
    local xi, yi, zi = pos[i], pos[n + i], pos[n2 + i]
    local ax, ay, az = 0.0, 0.0, 0.0
    for j = 1, n do
      local dx = pos[j] - xi
      local dy = pos[n + j] - yi
      local dz = pos[n2 + j] - zi
      local r2 = dx * dx + dy * dy + dz * dz + eps2
      local inv = mass[j] / (r2 * sqrt(r2))
      ax = ax + dx * inv
      ay = ay + dy * inv
      az = az + dz * inv
    end
    nvel[i] = vel[i] + dt * ax
    nvel[n + i] = vel[n + i] + dt * ay
    nvel[n2 + i] = vel[n2 + i] + dt * az
  end
  for i = 1, n do
    npos[i] = pos[i] + dt * nvel[i]
    npos[n + i] = pos[n + i] + dt * nvel[n + i]
    npos[n2 + i] = pos[n2 + i] + dt * nvel[n2 + i]
  end
end

return {
  setup = function(args, measure)
    local n, seed, dt, eps2 = args[1], args[2], args[3], args[4]
    local st = { n = n, dt = dt, eps2 = eps2, pos = {}, vel = {}, npos = {}, nvel = {}, mass = {} }
    measure.fill_uniform(function(k, v)
      st.pos[k + 1] = v; st.vel[k + 1] = 0.0; st.npos[k + 1] = 0.0; st.nvel[k + 1] = 0.0
    end, 3 * n, seed)
    measure.fill_uniform(function(k, v) st.mass[k + 1] = v end, n, seed + 1)
    return st
  end,
  run = function(st) nbody(st.pos, st.vel, st.mass, st.npos, st.nvel, st.n, st.dt, st.eps2) end,
  check = function(st)
    local total = 0.0
    for k = 0, 3 * st.n - 1 do total = total + (st.npos[k + 1] + st.nvel[k + 1]) * (k % 97 + 1) end
    return total
  end,
}
