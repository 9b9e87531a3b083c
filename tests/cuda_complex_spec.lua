-- Complex numbers in CUDA kernels (issue 19): the cmath functions, ** and
-- complex scalar arguments, on the GPU (tag gpu) and in the simulator
-- (cuda_sim_spec.lua runs the gpu-tagged specs there). Python's cmath is
-- the oracle (the standard library only: the GPU machine runs it too).
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local zs = { { 0.5, 0.25 }, { -1.5, 2 }, { 2, -0.75 }, { -0.3, -0.4 }, { 3, 0 }, { 0, 1.25 } }
local ws = { { 2, 0 }, { 0.5, -1 }, { 3, 0 }, { -2, 0 }, { 1.5, 0 }, { 0.25, 0.5 } }
local fns = { "exp", "sqrt", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
  "asinh", "acosh", "atanh" }

-- Python's values: one line per input, "re im" pairs in order
local function oracle(exprs)
  local prog = { "import cmath", "zs = [" }
  for _, z in ipairs(zs) do prog[#prog + 1] = ("complex(%.17g, %.17g),"):format(z[1], z[2]) end
  prog[#prog + 1] = "]\nws = ["
  for _, w in ipairs(ws) do prog[#prog + 1] = ("complex(%.17g, %.17g),"):format(w[1], w[2]) end
  prog[#prog + 1] = "]"
  prog[#prog + 1] = "for z, w in zip(zs, ws):"
  prog[#prog + 1] = "    r = [" .. table.concat(exprs, ", ") .. "]"
  prog[#prog + 1] = "    print(' '.join('%r %r' % (complex(x).real, complex(x).imag) for x in r))"
  local tmp = os.tmpname()
  H.spit(tmp, table.concat(prog, "\n") .. "\n")
  local p = io.popen("python3 " .. tmp .. " 2>&1")
  local out = p:read("a")
  p:close()
  os.remove(tmp)
  local rows = {}
  for line in out:gmatch("[^\n]+") do
    local r = {}
    for x in line:gmatch("%S+") do r[#r + 1] = assert(tonumber(x), "oracle: " .. out) end
    rows[#rows + 1] = r
  end
  assert(#rows == #zs, "oracle: " .. out)
  return rows
end

local function zarray(list, dtype)
  local t = {}
  for i, z in ipairs(list) do t[i] = lumba.complex(z[1], z[2]) end
  return lumba.array(t, dtype)
end

-- |got - want| within rtol of |want| (or atol), part by part
local function close(want_re, want_im, got, rtol, what)
  local scale = math.max(math.abs(want_re), math.abs(want_im), 1e-300)
  local err = math.max(math.abs(got.real - want_re), math.abs(got.imag - want_im))
  assert(err <= rtol * scale + 1e-15, ("%s: want %.17g%+.17gj, got %s (err %.3g)"):format(what, want_re, want_im,
    tostring(got), err / scale))
end

describe("complex numbers in CUDA kernels #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  for _, dt in ipairs { "complex128", "complex64" } do
    it("computes cmath's functions and ** on " .. dt .. " as Python's cmath", function()
      local body = { "import cmath", "def k(z, w, out):", "    i = cuda.grid(1)", "    if i < z.size:" }
      local exprs = {}
      for j, f in ipairs(fns) do
        body[#body + 1] = ("        out[i, %d] = cmath.%s(z[i])"):format(j - 1, f)
        exprs[j] = ("cmath.%s(z)"):format(f)
      end
      local pows = { "z ** w", "z ** 3", "z ** -2", "z ** 0.5", "z ** 0", "cmath.log(z, 3)", "cmath.rect(abs(z), cmath.phase(z))" }
      local kpows = { "z[i] ** w[i]", "z[i] ** 3", "z[i] ** -2", "z[i] ** 0.5", "z[i] ** 0", "cmath.log(z[i], 3)",
        "cmath.rect(abs(z[i]), cmath.phase(z[i]))" }
      for j, e in ipairs(pows) do
        body[#body + 1] = ("        out[i, %d] = %s"):format(#fns + j - 1, kpows[j])
        exprs[#exprs + 1] = e
      end
      local k = cuda.jit(table.concat(body, "\n") .. "\n")
      local out = cuda.device_array({ #zs, #exprs }, dt)
      k[{ 1, 8 }](zarray(zs, dt), zarray(ws, dt), out)
      local got, want = out:copy_to_host(), oracle(exprs)
      local rtol = dt == "complex64" and 2e-5 or 1e-12
      for i = 1, #zs do
        for j, e in ipairs(exprs) do
          -- atanh/acosh/asin near branch points and powers lose a few digits in float32
          close(want[i][2 * j - 1], want[i][2 * j], got[i][j], rtol * (dt == "complex64" and 8 or 1),
            ("%s at z = %g%+gj"):format(e, zs[i][1], zs[i][2]))
        end
      end
    end)
  end

  it("takes complex scalars as arguments (lumba.complex), also for a complex64 signature", function()
    local k = cuda.jit "def k(out, c):\n    out[0] = c * c + 1\n    out[1] = c.conjugate()\n"
    local out = cuda.device_array(2, "complex128")
    k[{ 1, 1 }](out, lumba.complex(1, 2))
    local h = out:copy_to_host()
    assert.are.same({ -2, 4 }, { h[1].real, h[1].imag })  -- (1+2j)**2 + 1
    assert.are.same({ 1, -2 }, { h[2].real, h[2].imag })
    local k64 = cuda.jit("void(complex64[:], complex64)", "def k64(out, c):\n    out[0] = c * 2\n")
    local o64 = cuda.device_array(1, "complex64")
    k64[{ 1, 1 }](o64, lumba.complex(0.5, -1.5))
    assert.are.same({ 1, -3 }, { o64:copy_to_host()[1].real, o64:copy_to_host()[1].imag })
    k64[{ 1, 1 }](o64, 2)  -- a number converts
    assert.are.same({ 4, 0 }, { o64:copy_to_host()[1].real, o64:copy_to_host()[1].imag })
  end)
end)
