-- `dst[...] = s(args)[slices]` with s a @stencil: lua/lumba/stencil.lua
-- computes the kernel straight into dst (no full result, no copy), falling
-- back to the plain statement when dst overlaps an input, broadcasts or has
-- another rank. Every case runs here and under Numba itself (the oracle:
-- /usr/bin/python3 has numba), on the same inputs; dst must end the same.
local lumba = require "lumba"
local H = require "helpers"

local SRC = [[
import numpy as np
from numba import njit, stencil

@stencil
def five(a):
    return 0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])

@stencil(cval=7.0)
def seven(a):
    return a[0, 1] - a[0, -1]

@stencil
def two(a, c):
    return a[0, 0] + 2 * c[1, 1]

@njit
def aligned(a, b):
    b[1:-1, 1:-1] = five(a)[1:-1, 1:-1]

@njit
def shifted(a, b):
    b[:-2, 1:-1] = five(a)[1:-1, 1:-1]  # the view lies elsewhere in b

@njit
def whole(a, b):
    b[:, :] = seven(a)[:, :]

@njit
def corner(a, b):
    n = 3
    b[0:n, 2:] = five(a)[0:n, 2:]

@njit
def inplace(a, b):
    a[1:-1, 1:-1] = five(a)[1:-1, 1:-1]
    b[:, :] = a

@njit
def spread(a, b):
    b[1:-1, 1:-1] = five(a)[2:3, 1:-1]

@njit
def pair(a, b):
    c = a * 0.5
    b[1:, :-1] = two(a, c)[1:, :-1]

@njit
def int_target(a, b):
    k = b.astype(np.int64)
    k[1:-1, 1:-1] = five(a)[1:-1, 1:-1]
    b[:, :] = k

@njit
def three_d(a, b):
    b[1:-1, 1:-1] = five(a[0])[1:-1, 1:-1]

@njit
def wrong_shape(a, b):
    b[1:-1, 1:] = five(a)[1:-1, 1:-1]
]]

local N, M = 7, 9

-- an N x M float64 array, element k (0-based, row-major) f(k)
local function grid(f)
  local rows = {}
  for i = 0, N - 1 do
    rows[i + 1] = {}
    for j = 0, M - 1 do rows[i + 1][j + 1] = f(i * M + j) + 0.0 end
  end
  return lumba.array(rows)
end

local CASES = { "aligned", "shifted", "whole", "corner", "inplace", "spread", "pair", "int_target", "wrong_shape" }

local function numba_results()
  local py = os.tmpname()
  local f = assert(io.open(py, "w"))
  f:write(SRC, "\n", ([[
for name in %s:
    a = (np.arange(%d * %d) %% 17 * 0.5).reshape(%d, %d)
    b = np.full((%d, %d), -1.0)
    try:
        globals()[name](a, b)
        print('ok', ' '.join(repr(float(x)) for x in b.ravel()))
    except Exception as e:
        print('err', type(e).__name__)
]]):format("['" .. table.concat(CASES, "', '") .. "']", N, M, N, M, N, M))
  f:close()
  local p = io.popen("/usr/bin/python3 " .. py .. " 2>&1")
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  os.remove(py)
  return out
end

describe("a stored slice of a @stencil result", function()
  local ok_numba = os.execute("/usr/bin/python3 -c 'import numba' 2>/dev/null")
  if not ok_numba then
    pending("[needs /usr/bin/python3 with Numba]")
    return
  end

  it("ends as under Numba: aligned, shifted, borders, overlap, broadcast, two inputs, casts, bad shapes", function()
    local want = numba_results()
    assert.are.equal(#CASES, #want, table.concat(want, "\n"))
    local m = lumba.load(SRC, { chunkname = "=stencil_slice" })
    local bad = {}
    for i, name in ipairs(CASES) do
      local a = grid(function(k) return (k % 17) * 0.5 end)
      local b = lumba.full({ N, M }, -1.0)
      local ok, err = pcall(m[name], a, b)
      local got
      if ok then
        local v = {}
        local flat = b:reshape(N * M)
        for k = 1, N * M do v[k] = ("%.17g"):format(flat:get(k)) end
        got = "ok " .. table.concat(v, " ")
      else
        got = "err " .. (tostring(err):match("(%a+Error)") or tostring(err))
      end
      local w = want[i]:gsub("%S+", function(x)
        local n = tonumber(x)
        return n and ("%.17g"):format(n) or x
      end)
      if got ~= w then bad[#bad + 1] = name .. ":\n  lumba " .. got .. "\n  numba " .. w end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)

  it("also inside a parallel caller, and for a 3-d array's plane", function()
    local m = lumba.load(SRC, { chunkname = "=stencil_slice" })
    local par = lumba.load(SRC:gsub("@njit\ndef aligned", "@njit(parallel=True)\ndef aligned"), { chunkname = "=par" })
    local a = grid(function(k) return (k * 7 % 11) * 0.25 end)
    local b1, b2 = lumba.full({ N, M }, -1.0), lumba.full({ N, M }, -1.0)
    m.aligned(a, b1)
    par.aligned(a, b2)
    assert.are.same(b1:totable(), b2:totable())
    local t = a:totable()
    local a3 = lumba.array({ t, t })
    local b3 = lumba.full({ N, M }, -1.0)
    m.three_d(a3, b3)
    assert.are.same(b1:totable(), b3:totable())
  end)

  it("rewrites the line only: errors elsewhere keep their line and column", function()
    local src = SRC .. "\n@njit\ndef broken(a, b):\n    b[1:-1, 1:-1] = five(a)[1:-1, 1:-1]\n    return undefined_name\n"
    local m = lumba.load(src, { chunkname = "=broken" })
    local msg = H.message_of(m.broken, lumba.zeros({ 4, 4 }), lumba.zeros({ 4, 4 }))
    local line = select(2, src:gsub("\n", "\n"))
    assert.truthy(msg:find("undefined_name", 1, true), msg)
    assert.truthy(msg:find(":" .. line .. ":", 1, true), msg)
  end)
end)
