-- Gravitational n-body steps on the GPU with shared-memory tiling, the
-- scheme of GPU Gems 3, chapter 31: each thread owns one body; a block of
-- TILE threads walks over all bodies a tile at a time: every thread copies
-- one body of the tile into shared memory, the block waits
-- (cuda.syncthreads), then each thread adds the pull of all TILE bodies of
-- the tile from shared memory, and the block waits again before the next
-- tile overwrites it. So each body is read from global memory once per
-- block instead of once per thread. float32, and fastmath so that
-- 1 / math.sqrt(r2) is the GPU's approximate reciprocal square root, as in
-- the chapter; softened gravity (G = 1), leapfrog (kick-drift-kick) steps.
-- Checked against plain Lua for a few bodies, against an O(n²) njit step in
-- float64 for all bodies, and for conservation of energy and momentum.
-- Run: lua5.4 examples/nbody_gpu.lua [n [steps [tile]]]   (default 4096 bodies, 20 steps, tiles of 128;
--      LUMBA_EXAMPLE_QUICK=1: 300 bodies; LUMBA_CUDA_SIM=1: in the CUDA simulator on the CPU)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local cuda = lumba.cuda

local ok, why = cuda.is_available()
if not ok then
  print("no GPU here, nothing to run (LUMBA_CUDA_SIM=1 runs this example in the CUDA simulator): "
    .. tostring(why))
  return
end

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local N = math.tointeger(tonumber(arg[1])) or (quick and 300 or 4096)
local STEPS = math.tointeger(tonumber(arg[2])) or (quick and 4 or 20)
local TILE = math.tointeger(tonumber(arg[3])) or 128   -- threads per block = bodies per tile
local EPS2 = 0.05 ^ 2               -- softening length 0.05, squared
local DT = 1e-3

-- The acceleration of every body: body[i] = (x, y, z, mass). The grid has
-- whole blocks, so a thread past the last body still loads its share of
-- each tile (a massless body at the origin) and reaches every barrier.
-- TILE comes from env: a shared array's shape is a compile-time constant.
local accelerations = cuda.jit { env = { TILE = TILE }, fastmath = true } [[
import math
import numpy as np

@cuda.jit
def accelerations(body, acc, eps2):
    tile = cuda.shared.array((TILE, 4), np.float32)
    n = body.shape[0]
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    e2 = np.float32(eps2)
    zero = np.float32(0.0)
    xi = body[i, 0] if i < n else zero
    yi = body[i, 1] if i < n else zero
    zi = body[i, 2] if i < n else zero
    ax = zero
    ay = zero
    az = zero
    for start in range(0, n, TILE):
        j = start + t
        for c in range(4):
            tile[t, c] = body[j, c] if j < n else zero
        cuda.syncthreads()
        for k in range(TILE):
            dx = tile[k, 0] - xi
            dy = tile[k, 1] - yi
            dz = tile[k, 2] - zi
            r2 = dx * dx + dy * dy + dz * dz + e2
            inv_r = np.float32(1.0) / math.sqrt(r2)
            s = tile[k, 3] * inv_r * inv_r * inv_r
            ax += dx * s
            ay += dy * s
            az += dz * s
        cuda.syncthreads()
    if i < n:
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
]]

-- the two halves of a leapfrog step around the new accelerations:
-- kick and drift (v += a dt/2, x += v dt), then kick (v += a dt/2)
local kick_drift = cuda.jit [[
import numpy as np

@cuda.jit
def kick_drift(body, vel, acc, dt):
    i = cuda.grid(1)
    if i < body.shape[0]:
        h = np.float32(0.5 * dt)
        d = np.float32(dt)
        for c in range(3):
            vel[i, c] += acc[i, c] * h
            body[i, c] += vel[i, c] * d
]]
local kick = cuda.jit [[
import numpy as np

@cuda.jit
def kick(vel, acc, dt):
    i = cuda.grid(1)
    if i < vel.shape[0]:
        h = np.float32(0.5 * dt)
        for c in range(3):
            vel[i, c] += acc[i, c] * h
]]

-- the oracle: the same physics in float64 on every CPU core, O(n²) without tiles
local accelerations_cpu = lumba.njit { parallel = true } [[
import math

def accelerations_cpu(body, acc, eps2):
    n = body.shape[0]
    for i in prange(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = body[j, 0] - body[i, 0]
            dy = body[j, 1] - body[i, 1]
            dz = body[j, 2] - body[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + eps2
            s = body[j, 3] / (r2 * math.sqrt(r2))
            ax += dx * s
            ay += dy * s
            az += dz * s
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
]]
local step_cpu = lumba.njit { parallel = true } [[
def step_cpu(body, vel, acc, dt, eps2):
    n = body.shape[0]
    for i in prange(n):
        for c in range(3):
            vel[i, c] += 0.5 * dt * acc[i, c]
            body[i, c] += dt * vel[i, c]
    accelerations_cpu(body, acc, eps2)
    for i in prange(n):
        for c in range(3):
            vel[i, c] += 0.5 * dt * acc[i, c]
]]
-- total energy (kinetic + softened potential) and momentum, in float64
local energy = lumba.njit { parallel = true } [[
import math

def energy(body, vel, eps2):
    n = body.shape[0]
    kinetic = 0.0
    potential = 0.0
    for i in prange(n):
        m = float(body[i, 3])
        kinetic += 0.5 * m * (float(vel[i, 0]) ** 2 + float(vel[i, 1]) ** 2 + float(vel[i, 2]) ** 2)
        for j in range(i + 1, n):
            dx = float(body[j, 0]) - float(body[i, 0])
            dy = float(body[j, 1]) - float(body[i, 1])
            dz = float(body[j, 2]) - float(body[i, 2])
            potential -= m * float(body[j, 3]) / math.sqrt(dx * dx + dy * dy + dz * dz + eps2)
    return kinetic + potential, kinetic, potential
]]
local momentum = lumba.njit [[
def momentum(body, vel):
    px = 0.0
    py = 0.0
    pz = 0.0
    scale = 0.0
    for i in range(body.shape[0]):
        m = float(body[i, 3])
        px += m * float(vel[i, 0])
        py += m * float(vel[i, 1])
        pz += m * float(vel[i, 2])
        scale += m * (abs(float(vel[i, 0])) + abs(float(vel[i, 1])) + abs(float(vel[i, 2])))
    return (px * px + py * py + pz * pz) ** 0.5, scale
]]
-- max over bodies of |(a - a0) - (b - b0)|, and of |b - b0|: how far the
-- change of a (from a0) is from the change of b (from b0), and how large
-- the latter is; rows of 3 or 4 numbers, the first 3 compared
local change_err = lumba.njit [[
def change_err(a, a0, b, b0):
    worst = 0.0
    top = 0.0
    for i in range(a.shape[0]):
        d = 0.0
        m = 0.0
        for c in range(3):
            db = float(b[i, c]) - float(b0[i, c])
            d += (float(a[i, c]) - float(a0[i, c]) - db) ** 2
            m += db * db
        worst = max(worst, d ** 0.5)
        top = max(top, m ** 0.5)
    return worst, top
]]

local function fail(fmt, ...)
  print("MISMATCH: " .. fmt:format(...))
  os.exit(1)
end

-- a uniform ball of radius 1 and total mass 1, near virial equilibrium
-- (velocities random with 2K = -U), centre of mass at rest at the origin
lumba.random.seed(42)
local body = lumba.empty({ N, 4 }, "float32")
local vel = lumba.empty({ N, 3 }, "float32")
do
  local k, cm, vm = 0, { 0, 0, 0 }, { 0, 0, 0 }
  local v = lumba.random.randn(N, 3)
  while k < N do
    local p = lumba.random.rand(3)
    local x, y, z = 2 * p[1] - 1, 2 * p[2] - 1, 2 * p[3] - 1
    if x * x + y * y + z * z <= 1 then
      k = k + 1
      body:set(k, 1, x); body:set(k, 2, y); body:set(k, 3, z); body:set(k, 4, 1 / N)
      cm[1], cm[2], cm[3] = cm[1] + x / N, cm[2] + y / N, cm[3] + z / N
      for c = 1, 3 do vm[c] = vm[c] + v:get(k, c) / N end
    end
  end
  local sigma = math.sqrt(0.2)          -- 3 σ² / 2 = K = 0.3 = -U / 2 for a uniform ball
  for i = 1, N do
    for c = 1, 3 do
      body:set(i, c, body:get(i, c) - cm[c])
      vel:set(i, c, sigma * (v:get(i, c) - vm[c]))
    end
  end
end

local d_body, d_vel = cuda.to_device(body), cuda.to_device(vel)
local d_acc = cuda.device_array({ N, 3 }, "float32")
local blocks = (N + TILE - 1) // TILE
local acc_launch = accelerations[{ blocks, TILE }]
local kd_launch, k_launch = kick_drift[{ blocks, TILE }], kick[{ blocks, TILE }]

-- 1. the first accelerations: a few bodies in plain Lua, all of them in njit
local t0 = lumba.clock()
acc_launch(d_body, d_acc, EPS2)                  -- compiles
cuda.synchronize()
local t_first = lumba.clock() - t0
local acc = d_acc:copy_to_host()
local body64 = body:astype("float64")
local acc_cpu = lumba.empty({ N, 3 })
accelerations_cpu(body64, acc_cpu, EPS2)
local b = body64:totable()
local lua_worst, lua_checked = 0, 0
for i = 1, N, N // 7 do
  lua_checked = lua_checked + 1
  local a = { 0, 0, 0 }
  for j = 1, N do
    local dx, dy, dz = b[j][1] - b[i][1], b[j][2] - b[i][2], b[j][3] - b[i][3]
    local r2 = dx * dx + dy * dy + dz * dz + EPS2
    local s = b[j][4] / (r2 * math.sqrt(r2))
    a[1], a[2], a[3] = a[1] + dx * s, a[2] + dy * s, a[3] + dz * s
  end
  for c = 1, 3 do
    lua_worst = math.max(lua_worst, math.abs(a[c] - acc_cpu:get(i, c)) / math.max(1, math.abs(a[c])))
    if math.abs(a[c] - acc:get(i, c)) > 1e-4 * math.max(1, math.abs(a[c])) then
      fail("body %d: GPU acceleration[%d] %.9g, plain Lua %.9g", i, c, acc:get(i, c), a[c])
    end
  end
end
if lua_worst > 1e-12 then fail("njit and plain Lua accelerations differ by %g", lua_worst) end
-- float32 sums of n terms, whose rounding errors grow as sqrt(n): allow
-- 4e-7 sqrt(n) of the largest acceleration (2.6e-5 for 4096 bodies)
local none = lumba.zeros({ N, 3 })
local worst, top = change_err(acc, none, acc_cpu, none)
local tol = 4e-7 * math.sqrt(N)
if worst > tol * top then
  fail("GPU accelerations differ from the float64 CPU ones by %.3g of the largest (allowed %.3g)", worst / top, tol)
end
print(("%d bodies in tiles of %d on %s: first launch %.3f s (with compilation)"):format(
  N, TILE, cuda.get_current_device().name, t_first))
print(("accelerations agree with plain Lua (%d bodies) and with the njit float64 step to %.1e of the largest")
  :format(lua_checked, worst / top))

-- 2. STEPS leapfrog steps on the GPU, and from the same start in float64 on the CPU
local e0 = energy(body, vel, EPS2)
local p_scale = select(2, momentum(body, vel))
local vel64 = vel:astype("float64")
local body_start, vel_start = body64:copy(), vel64:copy()
local function gpu_step()
  kd_launch(d_body, d_vel, d_acc, DT)
  acc_launch(d_body, d_acc, EPS2)
  k_launch(d_vel, d_acc, DT)
end
gpu_step()                                        -- the first launches of kick_drift and kick compile
cuda.synchronize()
local start, stop = cuda.event(), cuda.event()
start:record()
for _ = 2, STEPS do gpu_step() end
stop:record()
stop:synchronize()
local ms_step = start:elapsed_time(stop) / math.max(1, STEPS - 1)
start:record()
for _ = 1, 10 do acc_launch(d_body, d_acc, EPS2) end  -- the same accelerations again: the tiled kernel alone
stop:record()
stop:synchronize()
local ms_acc = start:elapsed_time(stop) / 10
local ms_cpu = math.huge
for _ = 1, STEPS do
  t0 = lumba.clock()
  step_cpu(body64, vel64, acc_cpu, DT, EPS2)
  ms_cpu = math.min(ms_cpu, (lumba.clock() - t0) * 1e3)
end

local body_gpu, vel_gpu = d_body:copy_to_host(), d_vel:copy_to_host()
-- how far each body moved and how much its velocity changed, against the
-- CPU. Positions and velocities near 1 carry float32 rounding errors of
-- about 1e-7 a step, against moves and changes of about 1e-3 a step: allow
-- 3e-4 of the largest move and of the largest change of velocity
local dx_worst, dx_top = change_err(body_gpu, body_start, body64, body_start)
local dv_worst, dv_top = change_err(vel_gpu, vel_start, vel64, vel_start)
if dx_worst > 3e-4 * dx_top then
  fail("after %d steps a body's move differs from the CPU's by %.3g of the largest (allowed 3e-4)", STEPS, dx_worst / dx_top)
end
if dv_worst > 3e-4 * dv_top then
  fail("after %d steps a body's velocity change differs from the CPU's by %.3g of the largest (allowed 3e-4)",
    STEPS, dv_worst / dv_top)
end
local e1, kinetic, potential = energy(body_gpu, vel_gpu, EPS2)
local e_cpu = energy(body64, vel64, EPS2)
local drift = math.abs(e1 - e0) / math.abs(e0)
if drift > 1e-5 then fail("the energy drifted by %.3g of itself in %d steps (allowed 1e-5)", drift, STEPS) end
if math.abs(e1 - e_cpu) > 1e-5 * math.abs(e0) then
  fail("GPU energy %.9g, CPU energy %.9g", e1, e_cpu)
end
local p = momentum(body_gpu, vel_gpu)
if p > 1e-6 * p_scale then fail("total momentum %.3g, more than 1e-6 of sum m|v| = %.3g", p, p_scale) end
print(("%d steps of dt %g: moves within %.1e and velocity changes within %.1e of the largest, against the njit float64 steps")
  :format(STEPS, DT, dx_worst / dx_top, dv_worst / dv_top))
print(("energy %.6f (kinetic %.4f, potential %.4f), drift %.1e; total momentum %.1e of sum m|v|"):format(
  e1, kinetic, potential, drift, p / p_scale))
print(("a step: GPU %.3f ms (tiled accelerations %.3f ms, %.1f G interactions/s); CPU njit float64, %d threads: %.1f ms")
  :format(ms_step, ms_acc, N * N / (ms_acc * 1e-3) / 1e9, lumba.get_num_threads(), ms_cpu))
