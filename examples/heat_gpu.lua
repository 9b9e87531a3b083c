-- Heat spreading over an insulated plate, on the GPU: the explicit 5-point
-- stencil of the 2-D diffusion equation as a cuda.jit kernel, one thread
-- per cell on a 2-D grid, two device arrays swapped between steps; a second
-- kernel paints the heat map that examples/lib/png.lua writes. Checked
-- against the exact decay of a cosine mode, cell by cell against the same
-- stencil compiled for the CPU with njit (prange over rows, as
-- examples/heat.lua), and pixel by pixel against the CPU's heat map; total
-- heat is conserved.
-- Run: lua5.4 examples/heat_gpu.lua [out.png, default heat_gpu.png]   (LUMBA_EXAMPLE_QUICK=1: small;
--      LUMBA_CUDA_SIM=1: in the CUDA simulator on the CPU, where no GPU is)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda
local png = dofile "examples/lib/png.lua"

local ok, why = cuda.is_available()
if not ok then
  print("no GPU here, nothing to run (LUMBA_CUDA_SIM=1 runs this example in the CUDA simulator): "
    .. tostring(why))
  return
end

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local out = arg[1] or (quick and os.tmpname() or "heat_gpu.png")

-- one time step of u_t = Δu (alpha = dt/dx² <= 1/4 for stability) from u
-- into u_new. The plate is insulated: a cell beyond the edge mirrors the
-- edge cell, so no heat leaves. x, cuda.grid's fastest index, runs along a
-- row, so neighbouring threads touch neighbouring cells.
local step = cuda.jit [[
@cuda.jit
def step(u, u_new, alpha):
    j, i = cuda.grid(2)
    h, w = u.shape
    if i < h and j < w:
        up = i - 1 if i > 0 else 0
        down = i + 1 if i < h - 1 else h - 1
        left = j - 1 if j > 0 else 0
        right = j + 1 if j < w - 1 else w - 1
        c = u[i, j]
        u_new[i, j] = c + alpha * (u[up, j] + u[down, j] + u[i, left] + u[i, right] - 4.0 * c)
]]

-- a heat map of u in img at (row0, col0): colours interpolated between the
-- five rows of stops (black, purple, red, orange, pale yellow) for 0 .. vmax
local paint = cuda.jit [[
@cuda.jit
def paint(u, img, row0, col0, vmax, stops):
    j, i = cuda.grid(2)
    h, w = u.shape
    if i < h and j < w:
        t = min(max(u[i, j] / vmax, 0.0), 1.0) * 4.0
        k = min(int(t), 3)
        f = t - k
        for c in range(3):
            img[row0 + i, col0 + j, c] = int(stops[k, c] + f * (stops[k + 1, c] - stops[k, c]))
]]

-- the oracles: the same stencil and heat map on every CPU core
local diffuse_cpu = lumba.njit { parallel = true } [[
def diffuse_cpu(u, tmp, alpha, steps):
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
local paint_cpu = lumba.njit { parallel = true } [[
def paint_cpu(u, img, row0, col0, vmax, stops):
    h, w = u.shape
    for i in prange(h):
        for j in range(w):
            t = min(max(u[i, j] / vmax, 0.0), 1.0) * 4.0
            k = min(int(t), 3)
            f = t - k
            for c in range(3):
                img[row0 + i, col0 + j, c] = int(stops[k, c] + f * (stops[k + 1, c] - stops[k, c]))
]]
-- the largest difference between two arrays of the same shape
local max_diff_flat = lumba.njit [[
def max_diff_flat(x, y):
    worst = 0.0
    for k in range(x.shape[0]):
        worst = max(worst, abs(float(x[k]) - float(y[k])))
    return worst
]]
local function max_diff(a, b)
  return max_diff_flat(a:reshape({ a.size }), b:reshape({ b.size }))
end

-- steps time steps on the device: u and spare swap roles after each one;
-- returns the array holding the result and the other one
local function diffuse(u, spare, alpha, steps)
  local h, w = u.shape[1], u.shape[2]
  local launch = step[{ { (w + 31) // 32, (h + 7) // 8 }, { 32, 8 } }]
  for _ = 1, steps do
    launch(u, spare, alpha)
    u, spare = spare, u
  end
  return u, spare
end

local function fail(fmt, ...)
  print("MISMATCH: " .. fmt:format(...))
  os.exit(1)
end

-- 1. a cosine along the columns decays exactly by g = 1 - 4 alpha sin²(π/2h) a step
do
  local h, w, alpha, steps = 40, 7, 0.2, quick and 50 or 400
  local u0 = lumba.empty({ h, w })
  for i = 1, h do
    for j = 1, w do u0:set(i, j, 1.0 + math.cos(math.pi * (i - 0.5) / h)) end
  end
  local u = diffuse(cuda.to_device(u0), cuda.device_array({ h, w }), alpha, steps):copy_to_host()
  local g = 1 - 4 * alpha * math.sin(math.pi / (2 * h)) ^ 2
  local worst = 0
  for i = 1, h do
    local want = 1.0 + g ^ steps * math.cos(math.pi * (i - 0.5) / h)
    for j = 1, w do worst = math.max(worst, math.abs(u:get(i, j) - want)) end
  end
  if worst > 1e-12 then fail("the cosine mode decays wrongly: error %g (allowed 1e-12)", worst) end
  print(("cosine mode after %d steps on the GPU: amplitude %.6f, exact %.6f (max error %.1e)"):format(
    steps, (u:get(1, 1) - 1.0) / math.cos(math.pi * 0.5 / h), g ^ steps, worst))
end

-- 2. the picture: a dozen hot discs at random on a cold plate, spreading;
-- four snapshots in a 2x2 layout, each on its own colour scale
local H, W = 360, 540
if quick then H, W = 36, 54 end
local u0 = lumba.zeros({ H, W })
lumba.random.seed(11)
local discs = lumba.random.rand(12, 4)   -- centre row, centre column, radius, temperature
for k = 1, 12 do
  local ci, cj = discs:get(k, 1) * H, discs:get(k, 2) * W
  local r, temp = (0.03 + 0.09 * discs:get(k, 3)) * H, 0.4 + 0.6 * discs:get(k, 4)
  for i = math.max(1, math.floor(ci - r)), math.min(H, math.ceil(ci + r)) do
    for j = math.max(1, math.floor(cj - r)), math.min(W, math.ceil(cj + r)) do
      if (i - ci) ^ 2 + (j - cj) ^ 2 < r * r then u0:set(i, j, temp) end
    end
  end
end
local heat0 = u0:sum()

local snapshots = quick and { 0, 20, 60, 200 } or { 0, 300, 2000, 12000 }
local alpha, gap = 0.24, 6
local img_shape = { 2 * H + 3 * gap, 2 * W + 3 * gap, 3 }
local img = cuda.to_device(lumba.full(img_shape, 255, "uint8"))
local img_cpu = lumba.full(img_shape, 255, "uint8")
local stops = lumba.array({ { 0, 0, 4 }, { 87, 16, 110 }, { 188, 55, 84 }, { 249, 142, 9 }, { 252, 255, 164 } })
local d_stops = cuda.to_device(stops)
local u, spare = cuda.to_device(u0), cuda.device_array({ H, W })
local u_cpu, tmp_cpu = u0:copy(), lumba.empty({ H, W })
local paint_launch = paint[{ { (W + 31) // 32, (H + 7) // 8 }, { 32, 8 } }]

local start, stop = cuda.event(), cuda.event()
local ms_gpu, s_cpu, done, worst = 0, 0, 0, 0
for c, s in ipairs(snapshots) do
  start:record()
  u, spare = diffuse(u, spare, alpha, s - done)
  stop:record()
  stop:synchronize()
  ms_gpu = ms_gpu + start:elapsed_time(stop)
  local t0 = lumba.clock()
  diffuse_cpu(u_cpu, tmp_cpu, alpha, s - done)
  s_cpu = s_cpu + lumba.clock() - t0
  done = s
  local host = u:copy_to_host()
  worst = math.max(worst, max_diff(host, u_cpu))
  if worst > 1e-12 then fail("after %d steps a cell differs from the CPU by %g (allowed 1e-12)", s, worst) end
  if math.abs(host:sum() - heat0) > 1e-9 * heat0 then
    fail("after %d steps the total heat is %.15g, at the start %.15g", s, host:sum(), heat0)
  end
  if host:max() > 1.0 or host:min() < 0.0 then fail("a cell left the initial range [0, 1]") end
  local row0, col0 = gap + (c - 1) // 2 * (H + gap), gap + (c - 1) % 2 * (W + gap)
  paint_launch(u, img, row0, col0, host:max(), d_stops)
  paint_cpu(u_cpu, img_cpu, row0, col0, u_cpu:max(), stops)
end
local rgb = img:copy_to_host()
local worst_colour = max_diff(rgb, img_cpu)
if worst_colour > 1 then fail("a pixel of the heat map differs from the CPU's by %d (allowed 1)", worst_colour) end

local bytes = png.write_array(out, rgb)
local host = u:copy_to_host()
print(("%dx%d plate on %s, %d steps: GPU %.1f ms (%.1f µs a step), CPU njit %d threads %.1f ms"):format(
  H, W, cuda.get_current_device().name, done, ms_gpu, ms_gpu * 1e3 / done, lumba.get_num_threads(), s_cpu * 1e3))
print(("every cell agrees with the CPU to %.1e; total heat %.6f conserved, hottest cell %.3f"):format(
  worst, host:sum(), host:max()))
print(("wrote %s (%d bytes): after %s steps, pixels within %d of the CPU's heat map"):format(
  out, bytes, table.concat(snapshots, ", "), worst_colour))
if quick and not arg[1] then os.remove(out) end
