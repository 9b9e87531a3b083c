-- A record scalar as a kernel argument (issue 22): a[i] of a record array
-- passed from Lua, its fields read (and written) by the kernel, as
-- numba-cuda takes a NumPy record scalar. On the GPU (tag gpu) and, through
-- cuda_sim_spec.lua, in the simulator; the PTX of a record signature is
-- assembled by ptxas. Expected values are worked by hand from the fields.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

local function rec_dtype()
  return lumba.dtype({ { "x", "float64" }, { "n", "int32" }, { "c", "int8" } })
end

describe("record kernel arguments #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end

  it("passes a[i] of a record array: the kernel reads its fields", function()
    local a = lumba.zeros(3, rec_dtype())
    a[2] = { x = 2.5, n = 7, c = -3 }
    a[3] = { x = -1.25, n = 40, c = 5 }
    local k = cuda.jit [[
def k(r, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = r.x * (i + 1) + r.n - r['c']
]]
    local out = cuda.device_array(4)
    k[{ 1, 4 }](a[2], out)
    -- 2.5 * (i + 1) + 7 + 3
    assert.are.same({ 12.5, 15.0, 17.5, 20.0 }, out:copy_to_host():totable())
    k[{ 1, 4 }](a[3], out)
    -- -1.25 * (i + 1) + 40 - 5
    assert.are.same({ 33.75, 32.5, 31.25, 30.0 }, out:copy_to_host():totable())
  end)

  it("passes a record made from Lua, a 0-d record array", function()
    local r = lumba.zeros({}, rec_dtype())
    r:set({ x = 1.25, n = 4, c = -1 })
    local k = cuda.jit "def k(r, out):\n    out[0] = r.x * r.n + r.c\n"
    local out = cuda.device_array(1)
    k[{ 1, 1 }](r, out)
    assert.are.same({ 4.0 }, out:copy_to_host():totable())   -- 1.25 * 4 - 1
  end)

  it("copies a host record back after the launch, as numba-cuda's InOut", function()
    local a = lumba.zeros(2, rec_dtype())
    a[1] = { x = 1.5, n = 1, c = 2 }
    local k = cuda.jit [[
def bump(r):
    if cuda.grid(1) == 0:
        r.n += 10
        r.x = r.x * 4
]]
    k[{ 1, 32 }](a[1])
    assert.are.equal(11, a[1].n)
    assert.are.equal(6.0, a[1].x)
    assert.are.equal(2, a[1].c)
    assert.are.equal(0, a[2].n)   -- the neighbour is untouched
  end)

  it("takes records under an explicit signature; another dtype is a clear error", function()
    local m = lumba.load [[
import numpy as np
from numba import cuda
rec = np.dtype([('x', np.float64), ('n', np.int32), ('c', np.int8)])

@cuda.jit("void(rec, float64[:])")
def ks(r, out):
    out[0] = r.x + r.n
]]
    local a = lumba.zeros(1, rec_dtype())
    a[1] = { x = 0.5, n = 3, c = 0 }
    local out = cuda.device_array(1)
    m.ks[{ 1, 1 }](a[1], out)
    assert.are.same({ 3.5 }, out:copy_to_host():totable())
    local other = lumba.zeros(1, lumba.dtype({ { "x", "float32" } }))
    local e = H.error_of(function() m.ks[{ 1, 1 }](other[1], out) end)
    assert.truthy(e:find("ks: argument #1 is a record of dtype Record(x[type=float32;offset=0];4;False), but the "
      .. "signature takes one of dtype Record(x[type=float64;offset=0],n[type=int32;offset=8],"
      .. "c[type=int8;offset=12];13;False)", 1, true), e)
    e = H.error_of(function() m.ks[{ 1, 1 }](3, out) end)
    assert.truthy(e:find("ks: argument #1 is not a record, but the signature takes one of dtype Record(", 1, true), e)
  end)
end)

describe("record kernel arguments in PTX", function()
  if not H.has_ptx_toolkit() then
    pending("[needs libNVVM and ptxas]")
    return
  end

  it("a record parameter is an address the kernel loads fields from; ptxas assembles it", function()
    local was = cuda.simulate(false)
    local ok, ptx = pcall(function()
      local m = lumba.load [[
import numpy as np
from numba import cuda
rec = np.dtype([('x', np.float64), ('n', np.int32)], align=True)

@cuda.jit("void(rec, float64[::1])")
def ks(r, out):
    out[0] = r.x + r.n
]]
      return m.ks:inspect_ptx(nil, { cc = { 9, 0 } })
    end)
    cuda.simulate(was)
    assert(ok, ptx)
    assert.truthy(ptx:find("ld.global.f64", 1, true) or ptx:find("ld.f64", 1, true), ptx)
    local assembled, said = H.ptxas(ptx)
    assert.is_true(assembled, said)
  end)
end)
