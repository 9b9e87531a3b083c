-- Heat spreading over an insulated plate: the explicit 5-point stencil of
-- the 2-D diffusion equation, its rows spread over the CPU cores with
-- prange. Checked against the exact decay of a cosine mode and against
-- plain Lua; total heat is conserved. Writes snapshots as a heat-map PNG.
-- Run: lua5.4 examples/heat.lua [out.png]   (LUMBA_EXAMPLE_QUICK=1: small)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local png = dofile "examples/lib/png.lua"

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local out = arg[1] or (quick and os.tmpname() or "docs/img/heat.png")

-- steps time steps of u_t = Δu (alpha = dt/dx² <= 1/4 for stability). The
-- plate is insulated: a cell beyond the edge mirrors the edge cell, so no
-- heat leaves. tmp is scratch space of u's shape; the result is in u.
local diffuse = lumba.njit { parallel = true } [[
def diffuse(u, tmp, alpha, steps):
    h, w = u.shape
    for _ in range(steps):
        for i in prange(h):
            up = i - 1 if i > 0 else 0
            down = i + 1 if i < h - 1 else h - 1
            for j in range(w):
                left = j - 1 if j > 0 else 0
                right = j + 1 if j < w - 1 else w - 1
                c = u[i, j]
                tmp[i, j] = c + alpha * (u[up, j] + u[down, j] + u[i, left] + u[i, right] - 4.0 * c)
        for i in prange(h):
            for j in range(w):
                u[i, j] = tmp[i, j]
]]

-- a heat map of u in img at (row0, col0): colours interpolated between the
-- five rows of stops (black, purple, red, orange, pale yellow) for 0 .. vmax
local render = lumba.njit { parallel = true } [[
def render(u, img, row0, col0, vmax, stops):
    h, w = u.shape
    for i in prange(h):
        for j in range(w):
            t = min(max(u[i, j] / vmax, 0.0), 1.0) * 4.0
            k = min(int(t), 3)
            f = t - k
            for c in range(3):
                img[row0 + i, col0 + j, c] = int(stops[k, c] + f * (stops[k + 1, c] - stops[k, c]))
]]

local function plain_step(t, h, w, alpha)  -- one step in plain Lua, 1-based rows
  local n = {}
  for i = 1, h do
    local row, up, down = {}, t[math.max(i - 1, 1)], t[math.min(i + 1, h)]
    local r = t[i]
    for j = 1, w do
      local c = r[j]
      row[j] = c + alpha * (up[j] + down[j] + r[math.max(j - 1, 1)] + r[math.min(j + 1, w)] - 4.0 * c)
    end
    n[i] = row
  end
  return n
end

-- 1. a cosine along the rows decays exactly by g = 1 - 4 alpha sin²(π/2h) a step
do
  local h, w, alpha, steps = 40, 7, 0.2, quick and 50 or 400
  local u = lumba.empty({ h, w })
  for i = 1, h do
    for j = 1, w do u:set(i, j, 1.0 + math.cos(math.pi * (i - 0.5) / h)) end
  end
  diffuse(u, lumba.empty({ h, w }), alpha, steps)
  local g = 1 - 4 * alpha * math.sin(math.pi / (2 * h)) ^ 2
  local worst = 0
  for i = 1, h do
    local want = 1.0 + g ^ steps * math.cos(math.pi * (i - 0.5) / h)
    for j = 1, w do worst = math.max(worst, math.abs(u:get(i, j) - want)) end
  end
  assert(worst < 1e-12, ("the cosine mode decays wrongly: error %g"):format(worst))
  print(("cosine mode after %d steps: amplitude %.6f, exact %.6f (max error %.1e)"):format(
    steps, (u:get(1, 1) - 1.0) / math.cos(math.pi * 0.5 / h), g ^ steps, worst))
end

-- 2. an arbitrary start, step by step against plain Lua
do
  local h, w, alpha = 17, 23, 0.24
  lumba.random.seed(3)
  local u = lumba.random.rand(h, w)
  local t = u:totable()
  local tmp = lumba.empty({ h, w })
  for _ = 1, quick and 5 or 20 do
    diffuse(u, tmp, alpha, 1)
    t = plain_step(t, h, w, alpha)
  end
  for i = 1, h do
    for j = 1, w do
      assert(math.abs(u:get(i, j) - t[i][j]) <= 1e-14, ("cell (%d, %d) differs from plain Lua"):format(i, j))
    end
  end
  print(("%dx%d random plate: identical to plain Lua"):format(h, w))
end

-- 3. the picture: hot shapes on a cold plate, spreading
local H, W = 160, 240
if quick then H, W = 40, 60 end
local u = lumba.zeros({ H, W })
local function disc(ci, cj, r, temp)  -- in fractions of the plate
  for i = 1, H do
    for j = 1, W do
      if ((i - ci * H) / H) ^ 2 + ((j - cj * W) / H) ^ 2 < r * r then u:set(i, j, temp) end
    end
  end
end
disc(0.3, 0.25, 0.12, 1.0)
disc(0.7, 0.55, 0.08, 1.0)
disc(0.35, 0.75, 0.05, 0.8)
for i = math.floor(0.55 * H), math.floor(0.62 * H) do        -- a hot bar
  for j = math.floor(0.08 * W), math.floor(0.4 * W) do u:set(i, j, 0.9) end
end
local heat0 = u:sum()

local snapshots = quick and { 0, 20, 100 } or { 0, 100, 600, 3000 }
local gap = 4
local img = lumba.full({ H + 2 * gap, #snapshots * (W + gap) + gap, 3 }, 255, "uint8")
local tmp = lumba.empty({ H, W })
local stops = lumba.array({ { 0, 0, 4 }, { 87, 16, 110 }, { 188, 55, 84 }, { 249, 142, 9 }, { 252, 255, 164 } })

local t0 = os.clock()
local done = 0
for c, s in ipairs(snapshots) do
  diffuse(u, tmp, 0.24, s - done)
  done = s
  render(u, img, gap, gap + (c - 1) * (W + gap), u:max(), stops)  -- each snapshot on its own scale
  assert(math.abs(u:sum() - heat0) <= 1e-9 * heat0, "heat must be conserved on an insulated plate")
  assert(u:max() <= 1.0 and u:min() >= 0.0, "no cell leaves the initial range")
end
local cpu = os.clock() - t0
local bytes = png.write_array(out, img)
print(("%dx%d plate, %d steps: total heat %.6f conserved, hottest cell %.3f (CPU %.2f s)"):format(
  H, W, done, u:sum(), u:max(), cpu))
print(("wrote %s (%d bytes): after %s steps"):format(out, bytes, table.concat(snapshots, ", ")))
if quick and not arg[1] then os.remove(out) end
