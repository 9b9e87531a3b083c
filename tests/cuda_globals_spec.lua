-- Arrays used as globals inside kernels (issue 22), frozen as constants as
-- numba-cuda freezes them: the value at compile time, every real dtype and
-- any number of dimensions, in the GPU's constant memory (.const in the
-- PTX), at most 64 KiB, refused beyond with the user's file:line:col. On
-- the GPU (tag gpu) and, through cuda_sim_spec.lua, in the simulator. The
-- expected values are the host arrays' own.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local DTYPES = { "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
                 "float64", "bool" }

local function values_for(dt)
  if dt == "bool" then return { 1, 0, 0, 1, 1 } end
  if dt:find("float") then return { 1.5, -2.25, 0.125, 1024, -0.0625 } end
  if dt:find("uint") then return { 0, 1, 7, 100, 255 } end
  return { -128, -1, 0, 5, 127 }
end

describe("arrays as kernel globals #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("freezes Lua arrays of every real dtype", function()
    for _, dt in ipairs(DTYPES) do
      local V = lumba.array(values_for(dt), dt)
      local k = cuda.jit [[
def k(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = V[i]
]]
      local out = cuda.device_array(5, dt)
      k[{ 1, 32 }](out)
      assert.are.same(V:totable(), out:copy_to_host():totable(), dt)
    end
  end)

  it("freezes 2-D and 3-D arrays, C-order or not", function()
    local M = lumba.arange(24):astype("float32"):reshape(2, 3, 4) * 0.5
    local T = lumba.arange(12):astype("int16"):reshape(3, 4).T   -- a transposed view: frozen by its values
    local k = cuda.jit [[
def k(out, out2):
    i, j, l = cuda.grid(3)
    if i < 2 and j < 3 and l < 4:
        out[i, j, l] = M[i, j, l] + 1
    if i == 0 and j < 4 and l < 3:
        out2[j, l] = T[j, l]
]]
    local out, out2 = cuda.device_array({ 2, 3, 4 }, "float32"), cuda.device_array({ 4, 3 }, "int16")
    k[{ { 1, 1, 1 }, { 2, 4, 4 } }](out, out2)
    assert.are.same((M + 1):totable(), out:copy_to_host():totable())
    assert.are.same(T:totable(), out2:copy_to_host():totable())
  end)

  it("takes the value at compile time: later changes reach only kernels compiled later", function()
    local W = lumba.array({ 1.0, 2.0, 3.0 })
    local src = "def k(out):\n    i = cuda.grid(1)\n    if i < 3:\n        out[i] = W[i] * 10\n"
    local k = cuda.jit(src)
    local out = cuda.device_array(3)
    k[{ 1, 3 }](out)
    assert.are.same({ 10.0, 20.0, 30.0 }, out:copy_to_host():totable())
    W[2] = 7.0
    k[{ 1, 3 }](out)   -- the compiled kernel keeps its constants
    assert.are.same({ 10.0, 20.0, 30.0 }, out:copy_to_host():totable())
    local k2 = cuda.jit(src)
    k2[{ 1, 3 }](out)
    assert.are.same({ 10.0, 70.0, 30.0 }, out:copy_to_host():totable())
  end)

  it("freezes module-level float16 and bool arrays of a pasted module", function()
    local m = lumba.load [=[
import numpy as np
from numba import cuda
H = np.array([[0.5, -1.5], [2.0, 65504.0]], dtype=np.float16)
B = np.array([True, False, True])

@cuda.jit
def k(out, flags):
    i = cuda.grid(1)
    if i < 4:
        out[i] = H[i // 2, i % 2]
    if i < 3:
        flags[i] = B[i]
]=]
    local out, flags = cuda.device_array(4, "float16"), cuda.device_array(3, "bool")
    m.k[{ 1, 4 }](out, flags)
    assert.are.same({ 0.5, -1.5, 2.0, 65504.0 }, out:copy_to_host():totable())
    assert.are.same({ true, false, true }, flags:copy_to_host():totable())
  end)

  it("freezes complex arrays, from Lua and from a pasted module", function()
    local Zl = lumba.array({ 1, 2, 3 }, "complex64")
    Zl[2] = lumba.complex(1.5, -2.5)
    local k = cuda.jit "def k(out):\n    i = cuda.grid(1)\n    if i < 3:\n        out[i] = Zl[i] * 2\n"
    local out = cuda.device_array(3, "complex64")
    k[{ 1, 3 }](out)
    assert.are.same((Zl * 2):totable(), out:copy_to_host():totable())
    local m = lumba.load [=[
import numpy as np
from numba import cuda
Z = np.array([[1+2j, 3-1j], [-0.5j, 4]])

@cuda.jit
def kz(re, im):
    i, j = cuda.grid(2)
    if i < 2 and j < 2:
        re[i, j] = Z[i, j].real
        im[i, j] = Z[i, j].imag
]=]
    local re, im = cuda.device_array({ 2, 2 }), cuda.device_array({ 2, 2 })
    m.kz[{ { 1, 1 }, { 2, 2 } }](re, im)
    -- NumPy: Z.real, Z.imag (-0.5j is -(0.5j): its real part -0.0)
    assert.are.same({ { 1.0, 3.0 }, { -0.0, 4.0 } }, re:copy_to_host():totable())
    assert.are.equal(-math.huge, 1 / re:copy_to_host():get(2, 1))
    assert.are.same({ { 2.0, -1.0 }, { -0.5, 0.0 } }, im:copy_to_host():totable())
  end)

  it("refuses arrays over 64 KiB of constant memory naming file:line:col", function()
    local m = lumba.load([[
import numpy as np
from numba import cuda
BIG = np.array([]] .. string.rep("1.0, ", 8192) .. [[1.0])

@cuda.jit
def big(out):
    out[0] = BIG[3]
]], { chunkname = "kernels.py" })
    local e = H.error_of(function() m.big[{ 1, 1 }](cuda.device_array(1)) end)
    assert.truthy(e:find("kernels.py:7:14: TypingError: 'BIG' is a module-level array of 65544 bytes: a kernel freezes "
      .. "the arrays it uses as globals into its 64 KiB of constant memory (pass it as an argument)", 1, true), e)
    -- exactly 64 KiB fits
    local m2 = lumba.load([[
import numpy as np
from numba import cuda
FULL = np.array([]] .. string.rep("2.0, ", 8191) .. [[2.0])

@cuda.jit
def full(out):
    out[0] = FULL[8191]
]], { chunkname = "kernels.py" })
    local out = cuda.device_array(1)
    m2.full[{ 1, 1 }](out)
    assert.are.same({ 2.0 }, out:copy_to_host():totable())
    -- a Lua array over 64 KiB: named at its use in the kernel
    local L = lumba.zeros(8193)
    local k = cuda.jit { chunkname = "lua_globals.py" } "def k(out):\n    out[0] = L[0]\n"
    e = H.error_of(function() k[{ 1, 1 }](cuda.device_array(1)) end)
    assert.truthy(e:find(":2:14: TypingError: 'L' is a Lua array of 65544 bytes: a kernel freezes the arrays it uses "
      .. "as globals into its 64 KiB of constant memory (pass it as an argument)", 1, true), e)
  end)
end)

describe("arrays as kernel globals in PTX", function()
  if not H.has_ptx_toolkit() then
    pending("[needs libNVVM and ptxas]")
    return
  end

  it("puts Lua and module-level arrays in .const; ptxas assembles them for sm_90", function()
    local was = cuda.simulate(false)
    local ok, ptx1, ptx2, ptx3 = pcall(function()
      local W = lumba.array({ { 1, 2 }, { 3, 4 } }, "float16")
      local k = cuda.jit({ "void(float16[::1])" }, "def k(out):\n    i = cuda.grid(1)\n    if i < 4:\n        out[i] = W[i // 2, i % 2]\n")
      local m = lumba.load [=[
import numpy as np
from numba import cuda
C = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)

@cuda.jit("void(int32[::1])")
def km(out):
    i = cuda.grid(1)
    if i < 6:
        out[i] = C[i // 3, i % 3]
]=]
      local mz = lumba.load [=[
import numpy as np
from numba import cuda
Z = np.array([1+2j, 3-1j])

@cuda.jit("void(float64[::1])")
def kz(out):
    i = cuda.grid(1)
    if i < 2:
        out[i] = Z[i].imag
]=]
      return k:inspect_ptx(nil, { cc = { 9, 0 } }), m.km:inspect_ptx(nil, { cc = { 9, 0 } }),
        mz.kz:inspect_ptx(nil, { cc = { 9, 0 } })
    end)
    cuda.simulate(was)
    assert(ok, ptx1)
    for _, ptx in ipairs { ptx1, ptx2, ptx3 } do
      assert.truthy(ptx:find("%.const %.align %d+ %.b8 cmem%d+%[%d+%]"), ptx)
      assert.truthy(ptx:find("ld.const.", 1, true), ptx)
      local assembled, said = H.ptxas(ptx)
      assert.is_true(assembled, said)
    end
    -- the float16 constants are the array's bits: 1, 2, 3, 4 are 0x3c00, 0x4000, 0x4200, 0x4400
    assert.truthy(ptx1:find("cmem%d+%[8%] = {0, 60, 0, 64, 0, 66, 0, 68}"), ptx1)
  end)
end)
