-- The Mandelbrot set on the GPU: a cuda.jit kernel runs one thread per
-- pixel on a 2-D grid of 16x16 blocks, computes the smooth escape value
-- and colours it, and examples/lib/png.lua writes the PNG. The view is a
-- deep zoom into Seahorse valley, where float64 and thousands of iterations
-- are needed. Checked pixel by pixel against the same arithmetic compiled
-- for the CPU with njit (prange over rows, as examples/mandelbrot.lua).
-- Run: lua5.4 examples/mandelbrot_gpu.lua [out.png]   (LUMBA_EXAMPLE_QUICK=1: small;
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
local W, H, MAX_ITER = 1200, 800, 3000
if quick then W, H, MAX_ITER = 96, 64, 300 end
local out = arg[1] or (quick and os.tmpname() or "docs/img/mandelbrot_gpu.png")
-- the view: 0.00012 wide, a double spiral of Seahorse valley around a small copy of the set
local CX, CY, WIDTH = -0.743643887, 0.131825904, 0.00012
local DX = WIDTH / W                              -- square pixels
local X0, Y0 = CX - DX * W / 2, CY - DX * H / 2

-- value[j, i]: the smooth iteration count of pixel (j, i), or -1 inside the
-- set; rgb[j, i, :] its colour (a cyclic palette of cosines, black inside).
-- x is cuda.grid's fastest index, so neighbouring threads read neighbouring
-- pixels of a row.
local render = cuda.jit [[
import math

@cuda.jit
def render(value, rgb, x0, y0, d, max_iter):
    i, j = cuda.grid(2)
    h, w = value.shape
    if j < h and i < w:
        cr = x0 + (i + 0.5) * d
        ci = y0 + (j + 0.5) * d
        zr = 0.0
        zi = 0.0
        n = 0
        while n < max_iter and zr * zr + zi * zi <= 256.0:
            zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
            n += 1
        if n == max_iter:
            value[j, i] = -1.0
            rgb[j, i, 0] = 0
            rgb[j, i, 1] = 0
            rgb[j, i, 2] = 0
        else:
            v = n + 1 - math.log(0.5 * math.log(zr * zr + zi * zi)) / math.log(2.0)
            value[j, i] = v
            t = 3.0 + 0.05 * v
            rgb[j, i, 0] = channel(t, 0.0)
            rgb[j, i, 1] = channel(t, 0.6)
            rgb[j, i, 2] = channel(t, 1.0)

def channel(t, phase):
    return int(255.0 * (0.5 + 0.5 * math.cos(t + phase)))
]]

-- the oracle: the same pixels on every CPU core
local render_cpu = lumba.njit { parallel = true } [[
import math

def render_cpu(value, rgb, x0, y0, d, max_iter):
    h, w = value.shape
    for j in prange(h):
        ci = y0 + (j + 0.5) * d
        for i in range(w):
            cr = x0 + (i + 0.5) * d
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 256.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            if n == max_iter:
                value[j, i] = -1.0
                for c in range(3):
                    rgb[j, i, c] = 0
            else:
                v = n + 1 - math.log(0.5 * math.log(zr * zr + zi * zi)) / math.log(2.0)
                value[j, i] = v
                t = 3.0 + 0.05 * v
                rgb[j, i, 0] = int(255.0 * (0.5 + 0.5 * math.cos(t)))
                rgb[j, i, 1] = int(255.0 * (0.5 + 0.5 * math.cos(t + 0.6)))
                rgb[j, i, 2] = int(255.0 * (0.5 + 0.5 * math.cos(t + 1.0)))
]]

local d_value = cuda.device_array({ H, W }, "float64")
local d_rgb = cuda.device_array({ H, W, 3 }, "uint8")
local launch = render[{ { (W + 15) // 16, (H + 15) // 16 }, { 16, 16 } }]
local t0 = lumba.clock()
launch(d_value, d_rgb, X0, Y0, DX, MAX_ITER)      -- the first launch compiles
cuda.synchronize()
local t_first = lumba.clock() - t0
local start, stop = cuda.event(), cuda.event()
start:record()
launch(d_value, d_rgb, X0, Y0, DX, MAX_ITER)
stop:record()
stop:synchronize()
local ms_gpu = start:elapsed_time(stop)
local value, rgb = d_value:copy_to_host(), d_rgb:copy_to_host()

local value_cpu, rgb_cpu = lumba.empty({ H, W }), lumba.empty({ H, W, 3 }, "uint8")
render_cpu(value_cpu, rgb_cpu, X0, Y0, DX, MAX_ITER)          -- compiles
t0 = lumba.clock()
render_cpu(value_cpu, rgb_cpu, X0, Y0, DX, MAX_ITER)
local ms_cpu = (lumba.clock() - t0) * 1e3

-- Every pixel against the CPU. Done in the same order, the operations
-- round alike everywhere, so in the simulator every pixel agrees to the last
-- bit. The GPU fuses a * b + c into one rounding (libNVVM's default) and
-- takes log and cos from libdevice: its orbits differ in their last bits,
-- and at the edge of the set thousands of iterations make such differences
-- grow until the smooth value, or the iteration count, differs. How many
-- pixels are that sensitive the CPU itself tells: it renders the view again
-- moved by a unit or two in the last place, and counts the pixels that
-- change. The GPU may differ in at most twice as many (and one in 10^4);
-- every other pixel agrees to 1e-6 and its colour to one level.
local compare = lumba.njit [[
def compare(value, value_cpu, rgb, rgb_cpu):
    h, w = value.shape
    differ = 0
    flips = 0
    inside = 0
    worst = 0.0
    worst_colour = 0
    for j in range(h):
        for i in range(w):
            a = value[j, i]
            b = value_cpu[j, i]
            scale = max(1.0, abs(b))
            if (a < 0.0) != (b < 0.0):
                flips += 1
                differ += 1
            elif abs(a - b) > 1e-6 * scale:
                differ += 1
            else:
                if a < 0.0:
                    inside += 1
                worst = max(worst, abs(a - b) / scale)
                for c in range(3):
                    worst_colour = max(worst_colour, abs(int(rgb[j, i, c]) - int(rgb_cpu[j, i, c])))
    return differ, flips, inside, worst, worst_colour
]]
local differ, flips, inside, worst, worst_colour = compare(value, value_cpu, rgb, rgb_cpu)
local value_moved, rgb_moved = lumba.empty({ H, W }), lumba.empty({ H, W, 3 }, "uint8")
render_cpu(value_moved, rgb_moved, X0 + math.abs(X0) * 2 ^ -52, Y0 + math.abs(Y0) * 2 ^ -52, DX, MAX_ITER)
local sensitive = compare(value_moved, value_cpu, rgb_moved, rgb_cpu)
local allowed = 2 * sensitive + math.max(1, W * H // 10000)
if differ > allowed or worst_colour > 1 then
  print(("MISMATCH: %d of %d pixels differ from the CPU (allowed %d: moving the view by an ulp changes %d);"
    .. " in the others the colours differ by up to %d (allowed 1)"):format(differ, W * H, allowed, sensitive, worst_colour))
  os.exit(1)
end
assert(inside > 0 and inside < W * H, "the view shows both the set and its outside")

local bytes = png.write_array(out, rgb)
local dev = cuda.get_current_device()
print(("mandelbrot on %s: %dx%d, max_iter %d: first launch %.3f s (with compilation), kernel %.2f ms; CPU njit %d threads %.1f ms")
  :format(dev.name, W, H, MAX_ITER, t_first, ms_gpu, lumba.get_num_threads(), ms_cpu))
print(("%d of %d pixels agree with the CPU (%d inside the set, relative difference <= %.1e); wrote %s (%d bytes)")
  :format(W * H - differ, W * H, inside, worst, out, bytes))
print(("%d differ (%d inside on one side only); moving the view by an ulp changes %d on the CPU"):format(
  differ, flips, sensitive))
if quick and not arg[1] then os.remove(out) end
