-- Device arrays of general strides (issue 22): slices with steps on every
-- axis, transposes, such views passed to kernels (layout 'A' or 'F', indexed
-- through their strides), strided copies and host indexing through views.
-- On the GPU (tag gpu) and, through cuda_sim_spec.lua, in the simulator.
-- Expected values come from NumPy doing the same slicing on the host.
local lumba = require "lumba"
local H = require "helpers"
local cuda = lumba.cuda

-- NumPy's answer: code sets r (an array); returns r.tolist() and its
-- shape and strides as Lua tables, or nil when python3 with NumPy is missing
local function numpy(code)
  local path = os.tmpname()
  H.spit(path, "import numpy as np, json\n" .. code .. "\nprint(json.dumps([np.asarray(r).tolist(), "
    .. "list(np.shape(r)), list(np.asarray(r).strides)]))\n")
  local p = io.popen("/usr/bin/python3 " .. path .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  os.remove(path)
  if not ok then error("python3: " .. out) end
  local lua = out:gsub("%[", "{"):gsub("%]", "}")
  return load("return " .. lua)()
end

local function have_numpy()
  return os.execute("/usr/bin/python3 -c 'import numpy' 2>/dev/null") == true
end

-- a 5x12 float64 matrix 0..59 on the device, the same as NumPy's A
local A = "A = np.arange(60.0).reshape(5, 12)\n"
local function dev_a()
  return cuda.to_device(lumba.arange(60):astype("float64"):reshape(5, 12))
end

describe("strided device arrays #gpu", function()
  if not cuda.is_available() then
    pending("[no CUDA device and no simulator]")
    return
  end
  if not have_numpy() then
    pending("[needs /usr/bin/python3 with NumPy]")
    return
  end

  it("slices with steps on every axis and transposes as NumPy does", function()
    local d = dev_a()
    local cases = {
      { d:slice({ 1, nil, 2 }, { 2, 11, 3 }), "r = A[0::2, 1:11:3]" },
      { d:slice({ nil, nil, -1 }, { nil, nil, -2 }), "r = A[::-1, ::-2]" },
      { d:slice({}, 3), "r = A[:, 2]" },
      { d:slice(":", { -3 }), "r = A[:, -3:]" },
      { d:slice(2, { nil, nil, 5 }), "r = A[1, ::5]" },
      { d.T, "r = A.T" },
      { d:transpose(2, 1):slice({ 2, 8, 2 }), "r = A.T[1:8:2]" },
      { d.T:slice({ nil, nil, -3 }, { 2, 4 }), "r = A.T[::-3, 1:4]" },
      { d:slice({ 4, 2 }), "r = A[3:1]" },
    }
    for _, c in ipairs(cases) do
      local v, want = c[1], numpy(A .. c[2])
      assert.are.same(want[2], v.shape, c[2])
      assert.are.same(want[3], v.strides, c[2])
      assert.are.same(want[1], v:copy_to_host():totable(), c[2])
    end
    -- the old row form keeps its meaning: rows 2..4, and rows -2..end
    assert.are.same(numpy(A .. "r = A[1:4]")[1], d:slice(2, 4):copy_to_host():totable())
    assert.are.same(numpy(A .. "r = A[-2:]")[1], d:slice(-2):copy_to_host():totable())
    assert.is_true(d:is_c_contiguous())
    assert.is_false(d.T:is_c_contiguous())
    assert.is_true(d.T:is_f_contiguous())
    assert.is_false(d:slice({}, { 1, nil, 2 }):is_c_contiguous())
    assert.truthy(H.error_of(function() return d:slice({ 1, 2, 0 }) end):find("slice step cannot be zero", 1, true))
    assert.truthy(H.error_of(function() return d:slice(1, 2, 3) end):find("too many indices", 1, true))
  end)

  it("passes non-contiguous views to kernels, which index them through their strides", function()
    local k = cuda.jit [[
def k(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * 2.0 + i - j
]]
    local d = dev_a()
    local out = cuda.to_device(lumba.full({ 12, 5 }, -1.0))
    -- x a stepped, reversed view; out the transpose's stepped columns
    local x = d:slice({ nil, nil, -2 }, { 2, nil, 3 })      -- A[::-2, 1::3], 3x4
    local o = out:slice({ 1, 8, 2 }, { 3, 5 }).T            -- O[0:8:2, 2:5].T, 3x4
    assert.are.same({ 3, 4 }, x.shape)
    assert.are.same({ 3, 4 }, o.shape)
    k[{ { 1, 1 }, { 4, 4 } }](x, o)
    local want = numpy(A .. [[
O = np.full((12, 5), -1.0)
x = A[::-2, 1::3]
o = O[0:8:2, 2:5].T
for i in range(3):
    for j in range(4):
        o[i, j] = x[i, j] * 2.0 + i - j
r = O
]])
    assert.are.same(want[1], out:copy_to_host():totable())
    -- the same kernel with C-order arrays is another specialization
    local c, oc = dev_a(), cuda.device_array({ 5, 12 })
    k[{ { 1, 1 }, { 8, 16 } }](c, oc)
    local wc = numpy(A .. "r = A * 2.0 + np.arange(5)[:, None] - np.arange(12)[None, :]")
    assert.are.same(wc[1], oc:copy_to_host():totable())
    -- a transposed (F-order) array and a 1-D reversed one
    local k1 = cuda.jit "def k1(x, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        out[i] = x[i] + 0.5\n"
    local r = cuda.device_array(12)
    k1[{ 1, 32 }](d:slice(3, { nil, nil, -1 }), r)
    assert.are.same(numpy(A .. "r = A[2, ::-1] + 0.5")[1], r:copy_to_host():totable())
    local t = cuda.device_array({ 12, 5 })
    k[{ { 1, 1 }, { 16, 8 } }](d.T, t)
    local wt = numpy(A .. "r = A.T * 2.0 + np.arange(12)[:, None] - np.arange(5)[None, :]")
    assert.are.same(wt[1], t:copy_to_host():totable())
  end)

  it("uses strided views as kernel globals and in cuda.reduce", function()
    local d = dev_a()
    local G = d:slice({ nil, nil, -2 }, { 12, 1, -5 })   -- A[::-2, ::-5], 3x3
    local k = cuda.jit [[
def k(out):
    i, j = cuda.grid(2)
    if i < G.shape[0] and j < G.shape[1]:
        out[i, j] = G[i, j] + 0.5
]]
    local out = cuda.device_array({ 3, 3 })
    k[{ { 1, 1 }, { 4, 4 } }](out)
    assert.are.same(numpy(A .. "r = A[::-2, ::-5] + 0.5")[1], out:copy_to_host():totable())
    local sum = cuda.reduce "def sum_reduce(a, b):\n    return a + b\n"
    assert.are.equal(numpy(A .. "r = A[2, ::-3].sum()")[1], sum(d:slice(3, { nil, nil, -3 })))
  end)

  it("copies into strided views from the host and between views, leaving the gaps alone", function()
    local d = dev_a()
    local v = d:slice({ 2, nil, 2 }, { nil, nil, -3 })   -- A[1::2, ::-3], 2x4
    v:copy_to_device(lumba.arange(8):astype("float64"):reshape(2, 4) + 100)
    local want = numpy(A .. "A[1::2, ::-3] = np.arange(8.0).reshape(2, 4) + 100\nr = A")
    assert.are.same(want[1], d:copy_to_host():totable())
    -- from a non-contiguous host view, and into an existing host array
    local e = dev_a()
    local h = lumba.arange(30):astype("float64"):reshape(5, 6)
    e:slice({}, { 1, nil, 3 }):copy_to_device(h:slice({}, { 2, 5 }))
    local we = numpy(A .. "A[:, ::3] = np.arange(30.0).reshape(5, 6)[:, 1:5]\nr = A")
    assert.are.same(we[1], e:copy_to_host():totable())
    local into = lumba.zeros({ 4, 5 })
    e.T:slice({ 1, nil, 3 }):copy_to_host(into)
    assert.are.same(numpy(A .. "A[:, ::3] = np.arange(30.0).reshape(5, 6)[:, 1:5]\nr = A.T[::3]")[1], into:totable())
    -- a view into another view of the same shape
    local f = dev_a()
    f:slice({ 1, 2 }, { nil, nil, 2 }):copy_to_device(f:slice({ 4, 5 }, { 12, 1, -2 }))
    local wf = numpy(A .. "A[0:2, ::2] = A[3:5, ::-2].copy()\nr = A")
    assert.are.same(wf[1], f:copy_to_host():totable())
    local g = cuda.device_array({ 6, 5 })
    f.T:slice({ nil, nil, 2 }):copy_to(g)
    assert.are.same(numpy(A .. "A[0:2, ::2] = A[3:5, ::-2].copy()\nr = A.T[::2]")[1], g:copy_to_host():totable())
  end)

  it("reads and writes elements and rows through views from the host", function()
    local d = dev_a()
    local v = d.T:slice({ 2, nil, 4 })   -- A.T[1::4], 3x5
    assert.are.equal(numpy(A .. "r = A.T[1::4][1, 3]")[1], v[2][4])
    assert.are.equal(numpy(A .. "r = A.T[1::4][2, -1]")[1], v:get(3, -1))
    v[1][2] = 7
    v:set(3, 5, -8)
    v[2] = 0.25                           -- a row of the view: a column of d
    local want = numpy(A .. [[
v = A.T[1::4]
v[0, 1] = 7
v[2, 4] = -8
v[1] = 0.25
r = A
]])
    assert.are.same(want[1], d:copy_to_host():totable())
  end)
end)

describe("strided device arrays in PTX", function()
  if not H.has_ptx_toolkit() then
    pending("[needs libNVVM and ptxas]")
    return
  end

  it("an A-layout kernel indexes with its strides and assembles for sm_90", function()
    local was = cuda.simulate(false)
    local src = [[
def k(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * 2.0
]]
    local loads = {}
    for _, sig in ipairs { "void(float64[:, :], float64[:, :])", "void(float64[:, ::1], float64[:, ::1])" } do
      local ok, ptx = pcall(function() return cuda.jit({ sig }, src):inspect_ptx(nil, { cc = { 9, 0 } }) end)
      if not ok then cuda.simulate(was) error(ptx) end
      loads[#loads + 1] = select(2, ptx:gsub("ld%.param%.u64", ""))
      local assembled, said = H.ptxas(ptx)
      assert.is_true(assembled, sig .. ": " .. said)
    end
    cuda.simulate(was)
    -- the A-layout kernel reads its strides (inner ones too); the C one computes them
    assert.is_true(loads[1] > loads[2], loads[1] .. " vs " .. loads[2])
  end)
end)
