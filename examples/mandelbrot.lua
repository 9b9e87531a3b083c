-- The Mandelbrot set on every CPU core: a prange loop over image rows
-- (njit{parallel=true}) computes smooth escape values, a second compiled
-- function colours them, and examples/lib/png.lua writes the PNG.
-- Checked against the same arithmetic in plain Lua.
-- Run: lua5.4 examples/mandelbrot.lua [out.png]   (LUMBA_EXAMPLE_QUICK=1: small)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"
local png = dofile "examples/lib/png.lua"

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"
local W, H, MAX_ITER = 900, 600, 400
if quick then W, H, MAX_ITER = 90, 60, 100 end
local out = arg[1] or (quick and os.tmpname() or "docs/img/mandelbrot.png")
-- the view: the whole set, centred a little left of the origin
local X0, X1 = -2.35, 0.85
local Y1 = (X1 - X0) * H / W / 2              -- square pixels
local Y0 = -Y1

-- value[j, i]: the smooth iteration count of pixel (j, i), or -1 inside the set
local escape = lumba.njit { parallel = true } [[
def escape(value, x0, x1, y0, y1, max_iter):
    h, w = value.shape
    dx = (x1 - x0) / w
    dy = (y1 - y0) / h
    for j in prange(h):
        ci = y0 + (j + 0.5) * dy
        for i in range(w):
            cr = x0 + (i + 0.5) * dx
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 256.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            if n == max_iter:
                value[j, i] = -1.0
            else:
                # continuous colouring: n + 1 - log2(log|z|)
                value[j, i] = n + 1 - math.log(0.5 * math.log(zr * zr + zi * zi)) / math.log(2.0)
]]

-- rgb[j, i, :] from value[j, i]: a cyclic palette of cosines, black inside.
-- njit compiles the first def; the others are callable from it.
local colorize = lumba.njit { parallel = true } [[
def colorize(value, rgb):
    h, w = value.shape
    for j in prange(h):
        for i in range(w):
            v = value[j, i]
            if v < 0.0:
                rgb[j, i, 0] = 0
                rgb[j, i, 1] = 0
                rgb[j, i, 2] = 0
            else:
                t = 3.0 + 0.15 * v
                rgb[j, i, 0] = channel(t, 0.0)
                rgb[j, i, 1] = channel(t, 0.6)
                rgb[j, i, 2] = channel(t, 1.0)

def channel(t, phase):
    return int(255.0 * (0.5 + 0.5 * math.cos(t + phase)))
]]

-- the same two steps for one pixel in plain Lua (0-based j, i as above)
local function escape_lua(j, i)
  local dx, dy = (X1 - X0) / W, (Y1 - Y0) / H
  local ci, cr = Y0 + (j + 0.5) * dy, X0 + (i + 0.5) * dx
  local zr, zi, n = 0.0, 0.0, 0
  while n < MAX_ITER and zr * zr + zi * zi <= 256.0 do
    zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    n = n + 1
  end
  if n == MAX_ITER then return -1.0 end
  return n + 1 - math.log(0.5 * math.log(zr * zr + zi * zi)) / math.log(2.0)
end
local function channel_lua(t, phase)
  return math.floor(255.0 * (0.5 + 0.5 * math.cos(t + phase)))
end

local value = lumba.empty({ H, W })
local rgb = lumba.zeros({ H, W, 3 }, "uint8")
local t0 = os.clock()
escape(value, X0, X1, Y0, Y1, MAX_ITER)     -- first call compiles
colorize(value, rgb)
local t_first = os.clock() - t0
t0 = os.clock()
escape(value, X0, X1, Y0, Y1, MAX_ITER)
colorize(value, rgb)
local cpu = os.clock() - t0                 -- CPU time of all threads together

-- check: every row in quick mode, every 37th row otherwise
local checked = 0
for j = 0, H - 1, quick and 1 or 37 do
  for i = 0, W - 1 do
    local v = escape_lua(j, i)
    local got = value:get(j + 1, i + 1)
    assert(math.abs(got - v) <= 1e-9 * math.max(1, math.abs(v)),
      ("pixel (%d, %d): lumba %.17g, plain Lua %.17g"):format(j, i, got, v))
    local r, g, b = 0, 0, 0
    if v >= 0 then
      local t = 3.0 + 0.15 * v
      r, g, b = channel_lua(t, 0.0), channel_lua(t, 0.6), channel_lua(t, 1.0)
    end
    assert(rgb:get(j + 1, i + 1, 1) == r and rgb:get(j + 1, i + 1, 2) == g and rgb:get(j + 1, i + 1, 3) == b,
      ("colour of pixel (%d, %d) differs"):format(j, i))
    checked = checked + 1
  end
end
-- the pixel holding c = -0.2 (inside the main cardioid) is in the set
assert(escape_lua(math.floor((0 - Y0) / (Y1 - Y0) * H), math.floor((-0.2 - X0) / (X1 - X0) * W)) == -1.0)

local bytes = png.write_array(out, rgb)
print(("mandelbrot %dx%d, max_iter %d, %d threads: first call %.3f s (with compilation), then %.3f s CPU"):format(
  W, H, MAX_ITER, lumba.get_num_threads(), t_first, cpu))
print(("%d pixels agree with plain Lua; wrote %s (%d bytes)"):format(checked, out, bytes))
if quick and not arg[1] then os.remove(out) end
