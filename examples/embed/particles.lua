-- particles.lua: the script the host (host.c) runs every frame. `p` is the
-- host's particle buffer, a float32 lumba array of shape {n, 4} whose
-- columns are x, y, vx, vy; writes go straight into the host's memory.
local G = 9.81

function update(p, dt)
  local x, y, vx, vy = p:slice({}, 1), p:slice({}, 2), p:slice({}, 3), p:slice({}, 4)
  for i = 1, #p do
    local v = vy[i] - G * dt
    local h = y[i] + v * dt
    if h < 0 then  -- bounce off the floor, losing 10%
      h = -h
      v = -v * 0.9
    end
    x[i] = x[i] + vx[i] * dt
    y[i] = h
    vy[i] = v
  end
end

-- kinetic + potential energy per particle, as a new float64 array
function energies(p)
  local e = lumba.zeros(#p)
  for i = 1, #p do
    local row = p[i]
    e[i] = 0.5 * (row[3] ^ 2 + row[4] ^ 2) + G * row[2]
  end
  return e
end
