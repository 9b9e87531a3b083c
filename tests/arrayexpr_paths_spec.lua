-- The two inner loops of a fused array expression or store (ax_loop in
-- src/lower_arrayexpr.c: every operand contiguous along the last axis, or
-- the strided loop), chosen at run time, and min/max reductions, against
-- NumPy itself (tests/numpy_oracle.lua, one python run for all cases):
-- contiguous, strided, reversed, transposed and broadcast operands mixed in
-- one expression, overlapping stores, empty arrays, every dtype.
local lumba = require "lumba"
local oracle = dofile("tests/numpy_oracle.lua")

local D = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

local H = require "helpers"
local function flat(a) return H.flat(a, true) end  -- uint64 as the oracle's floats

local function shape_of(a)
  local s = {}
  for k = 1, a.ndim do s[k] = a.shape[k] end
  return s
end

local function to_lumba(v)
  local fv = {}
  for j, x in ipairs(v.values) do fv[j] = v.dtype == "bool" and x == 1 or x end
  local a = lumba.array(fv, v.dtype)
  return #v.shape == 1 and a or a:reshape(table.unpack(v.shape))
end

local function same(w, g)
  if #w ~= #g then return false end
  for j = 1, #w do
    if w[j] ~= w[j] then
      if g[j] == g[j] then return false end
    elseif w[j] ~= g[j] then
      return false
    end
  end
  return true
end

-- small values every dtype holds exactly, and no two rows alike
local function values(dt, n, k)
  local S, U, F = {-7, -3, -1, 0, 1, 2, 5, 7, 3}, {0, 1, 2, 3, 5, 7, 9, 4, 6}, {-2.5, -1, 0, 0.5, 1, 3, 7.25, -0.5, 2}
  local out = {}
  for j = 1, n do
    local i = (j * 5 + k * 3) % 9 + 1
    out[j] = dt == "bool" and ((j + k) % 3 ~= 0 and 1 or 0) or dt:match("^int") and S[i] or dt:match("^uint") and U[i] or F[i]
  end
  return out
end

-- expressions (a, b: 4x6, col: 4x1, row: 6) over both loops and their mixes
local EXPRS = {
  "a * b + a",                    -- all contiguous
  "a[:, ::2] - b[:, 1::2]",       -- strided along the last axis
  "a[:, ::-1] * b",               -- reversed along it, with a contiguous one
  "a[::-1] + b[1:2]",             -- reversed rows, a broadcast row
  "a + col",                      -- a column stretched along the last axis
  "a.T + b.T",                    -- transposed: the last axis strides by a row
  "a - row",                      -- a row broadcast over the rows, contiguous
  "a[:, 2:3] * b[:, 3:4]",        -- one element per row
  "a[1] + b[2, ::-1]",
  "a[:, :0] + 1",                 -- empty along the last axis
  "a[:0] * b[:0]",                -- no rows
}
-- stores into views of a copy t of a: overlapping ones go through a temporary
local STORES = {
  "t[1:] = t[:-1] * 2 + 1",
  "t[:-1] = t[1:] + t[:-1]",
  "t[:, 1:] += t[:, :-1]",
  "t += t[::-1]",
  "t[:, ::-1] += t",
  "t[:, ::2] -= b[:, 1::2]",
  "t[::-1] = b",
  "t[:] = t * 3",
  "t *= col",
  "t[:, :] = row",
  "t[:0] += 1",
  "t[:, 1:] = b[:, :-1] - t[:, 1:]",
}

local function cases()
  local out = {}
  for i, da in ipairs(D) do
    for _, db in ipairs({da, D[(i * 4) % #D + 1]}) do
      local c = {name = da .. " with " .. db, da = da, db = db,
        inputs = {
          {name = "a", dtype = da, shape = {4, 6}, values = values(da, 24, 1)},
          {name = "b", dtype = db, shape = {4, 6}, values = values(db, 24, 2)},
          {name = "col", dtype = db, shape = {4, 1}, values = values(db, 4, 3)},
          {name = "row", dtype = da, shape = {6}, values = values(da, 6, 4)}},
        exprs = {}, lum = {}}
      for _, e in ipairs(EXPRS) do
        c.exprs[#c.exprs + 1] = e
        c.lum[#c.lum + 1] = {ret = e}
      end
      for _, s in ipairs(STORES) do
        -- negative floats into unsigned elements: C leaves them undefined, NumPy
        -- wraps; not this file's subject
        if da:match("^uint") and da ~= db and s:match("b") and s:match(" = ") then goto next end
        c.exprs[#c.exprs + 1] = "!t = a.copy(); " .. s .. "; r = t"
        c.lum[#c.lum + 1] = {body = "t# = a.copy()\n    " .. s:gsub("t", "t#") .. "\n", ret = "t#"}
        ::next::
      end
      if da == "float64" then  -- a ufunc writing into an overlapping out
        c.exprs[#c.exprs + 1] = "!t = a.copy(); np.add(t[:, 1:], b[:, :-1], out=t[:, :-1]); r = t"
        c.lum[#c.lum + 1] = {body = "t# = a.copy()\n    np.add(t#[:, 1:], b[:, :-1], out=t#[:, :-1])\n", ret = "t#"}
      end
      out[#out + 1] = c
    end
  end
  return out
end

describe("the contiguous and the strided inner loop", function()
  it("agree with NumPy over mixed views, broadcasts, overlaps and empty arrays", function()
    if not oracle.available() then pending("python3 with NumPy is not installed") return end
    local cs = cases()
    local want = oracle.batch(cs)
    local problems, checked = {}, 0
    local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end
    local head = "import numpy as np\ndef f(a, b, col, row):\n"
    for ci, c in ipairs(cs) do
      local args = {}
      for k, v in ipairs(c.inputs) do args[k] = to_lumba(v) end
      local body, rets, idx = {}, {}, {}
      for j, l in ipairs(c.lum) do
        local w = want[ci][j]
        local b = l.body and l.body:gsub("#", tostring(j)) or ""
        local ret = l.ret:gsub("#", tostring(j))
        if w.error then  -- NumPy refuses: so must the compiled code
          local ok = pcall(lumba.njit(head .. (b ~= "" and "    " .. b or "") .. "    return " .. ret .. "\n"), table.unpack(args))
          if ok then problem("%s: %s is accepted; NumPy: %s", c.name, c.exprs[j], w.error) end
        else
          body[#body + 1] = b ~= "" and "    " .. b or nil
          rets[#rets + 1] = ret
          idx[#idx + 1] = j
        end
      end
      local got = table.pack(pcall(lumba.njit(head .. table.concat(body) .. "    return (" .. table.concat(rets, ", ") .. ",)\n"),
                                   table.unpack(args)))
      if not got[1] then
        problem("%s: %s", c.name, got[2])
      else
        for r, j in ipairs(idx) do
          local w, g, what = want[ci][j], got[r + 1], c.name .. ": " .. c.exprs[j]
          checked = checked + 1
          if w.dtype ~= g.dtype then
            problem("%s: dtype %s, NumPy %s", what, g.dtype, w.dtype)
          elseif table.concat(w.shape, ",") ~= table.concat(shape_of(g), ",") then
            problem("%s: shape (%s), NumPy (%s)", what, table.concat(shape_of(g), ","), table.concat(w.shape, ","))
          elseif not same(w.values, flat(g)) then
            problem("%s: values %s, NumPy %s", what, table.concat(flat(g), " "), table.concat(w.values, " "))
          end
        end
      end
    end
    assert(#problems == 0, #problems .. " differences from NumPy:\n" .. table.concat(problems, "\n", 1, math.min(#problems, 40)))
    assert.is_true(checked > 400)
  end)

  it("vectorise the contiguous loop (LLVM's vector types in the optimised IR)", function()
    local f = lumba.njit "def f(a, b, c):\n    return a * b + c\n"
    local x = lumba.zeros({64})
    f(x, x, x)
    assert.is_truthy(f:inspect_llvm():match("<%d+ x double>"))
  end)
end)

-- extremes of each dtype, NaN and infinities at several places
local function extremes(dt)
  if dt == "bool" then return {{0, 1, 0}, {0, 0}, {1, 1}} end
  if dt:match("float") then
    local nan, inf = 0 / 0, math.huge
    return {{-inf, -inf}, {inf, 3, inf}, {1, nan, 5}, {nan, 2, -1}, {2, -1, nan}, {-0.0, 0.0, -2.5}, {7.25, -inf, inf}}
  end
  local bits = tonumber(dt:match("%d+"))
  local big = bits == 64 and 1 << 53 or nil  -- the oracle prints floats: 64-bit extremes it holds exactly
  if dt:match("^u") then
    local top = big or (1 << bits) - 1
    return {{0, top, 3}, {top, top}, {0, 0}, {5, 1, 9, 2}}
  end
  local lo, hi = big and -big or -(1 << (bits - 1)), big or (1 << (bits - 1)) - 1
  return {{lo, hi, 0}, {lo, lo}, {hi, hi}, {-1, -7, -3}, {4, -2, 9, 1}}
end

describe("min and max of a whole array", function()
  it("agree with NumPy: every dtype, extremes, NaN anywhere, views, the empty error", function()
    if not oracle.available() then pending("python3 with NumPy is not installed") return end
    local EX = {"v.max()", "v.min()", "v[::-1].max()", "v[::-2].min()", "np.max(v)", "np.min(v)",
                "m.T.max()", "m[:, ::-1].min()", "v[:0].max()", "v[:0].min()"}
    local cs = {}
    for _, dt in ipairs(D) do
      for _, vals in ipairs(extremes(dt)) do
        local m = {}
        for j = 1, 2 * #vals do m[j] = vals[(j - 1) % #vals + 1] end
        cs[#cs + 1] = {name = dt .. " {" .. table.concat(vals, ", ") .. "}",
          inputs = {{name = "v", dtype = dt, shape = {#vals}, values = vals},
                    {name = "m", dtype = dt, shape = {2, #vals}, values = m}},
          exprs = EX}
      end
    end
    local want = oracle.batch(cs)
    local problems = {}
    for ci, c in ipairs(cs) do
      local args = {to_lumba(c.inputs[1]), to_lumba(c.inputs[2])}
      for j, e in ipairs(c.exprs) do
        local w = want[ci][j]
        local ok, g = pcall(lumba.njit("import numpy as np\ndef f(v, m):\n    return " .. e .. "\n"), table.unpack(args))
        if w.error then
          if ok then problems[#problems + 1] = ("%s: %s gives %s; NumPy: %s"):format(c.name, e, tostring(g), w.error) end
        elseif not ok then
          problems[#problems + 1] = ("%s: %s: %s"):format(c.name, e, g)
        else
          local gv = g == true and 1 or g == false and 0 or g
          if c.inputs[1].dtype == "uint64" and gv < 0 then gv = gv + 2.0^64 end
          local wv = w.values[1]
          if not (wv ~= wv and gv ~= gv or wv == gv) then
            problems[#problems + 1] = ("%s: %s = %s, NumPy %s"):format(c.name, e, tostring(gv), tostring(wv))
          end
        end
      end
    end
    assert(#problems == 0, #problems .. " differences from NumPy:\n" .. table.concat(problems, "\n", 1, math.min(#problems, 40)))
  end)
end)
