-- NumPy ufuncs inside CUDA kernels (issue 22), as numba-cuda allows them:
-- on scalars, and on arrays with an output array (np.sin(x, out),
-- np.add(a, b, out), out= too), the calling thread looping over the
-- broadcast elements. On the GPU (tag gpu) and in the simulator. Expected
-- values from Lua's math on the host.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

describe("NumPy ufuncs in CUDA kernels #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("computes ufuncs of scalars, keeping float32 as float32", function()
    local k = cuda.jit [[
import numpy as np
def k(x, y, out, out32):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = np.sin(x[i]) + np.add(x[i], y[i]) * np.exp(y[i]) - np.hypot(x[i], y[i]) + np.maximum(x[i], y[i])
        f = np.float32(x[i])
        out32[i] = np.sqrt(f) + np.float32(1)
]]
    local xs, ys = { 0.5, 1.5, 2.25, 4 }, { -1, 0.25, 3, 0.5 }
    local out, o32 = cuda.device_array(4, "float64"), cuda.device_array(4, "float32")
    k[{ 1, 4 }](lumba.array(xs), lumba.array(ys), out, o32)
    local h, h32 = out:copy_to_host(), o32:copy_to_host()
    for i = 1, 4 do
      local x, y = xs[i], ys[i]
      H.assert_close(math.sin(x) + (x + y) * math.exp(y) - math.sqrt(x * x + y * y) + math.max(x, y), h[i], 1e-14)
      H.assert_close(math.sqrt(x) + 1, h32[i], 1e-7)
    end
  end)

  it("writes into an output array: np.sin(x, out), np.add(a, b, out) broadcast, out=", function()
    local k = cuda.jit [[
import numpy as np
def k(x, a, b, s, t, u):
    if cuda.grid(1) == 0:
        np.sin(x, s)
        np.add(a, b, t)
        r = np.multiply(a, 2.0, out=u)
        r[0, 0] = -1.0
]]
    local x = lumba.array({ 0.5, 1, 2 })
    local a = lumba.arange(12):reshape(3, 4):astype("float64")
    local b = lumba.array({ 10, 20, 30, 40 })
    local s, t, u = cuda.device_array(3, "float64"), cuda.device_array({ 3, 4 }, "float64"),
      cuda.device_array({ 3, 4 }, "float64")
    k[{ 1, 32 }](x, a, b, s, t, u)
    local hs, ht, hu = s:copy_to_host(), t:copy_to_host(), u:copy_to_host()
    for i = 1, 3 do H.assert_close(math.sin(x[i]), hs[i], 1e-15) end
    for i = 1, 3 do
      for j = 1, 4 do
        local av = (i - 1) * 4 + (j - 1)
        assert.are.equal(av + 10 * j, ht[i][j])
        assert.are.equal(i == 1 and j == 1 and -1 or 2 * av, hu[i][j])  -- r is u
      end
    end
  end)

  it("refuses a ufunc on arrays without an output array (it would allocate)", function()
    local k = cuda.jit "import numpy as np\ndef k(x):\n    y = np.sin(x)\n"
    local err = H.error_of(function() k[{ 1, 1 }](cuda.device_array(3, "float64")) end)
    assert.truthy(err:find("UnsupportedError: ufuncs on arrays are not supported on this target", 1, true), err)
  end)
end)
