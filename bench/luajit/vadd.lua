-- vadd.lua (LuaJIT, FFI float arrays): out[i] = a[i] + b[i] in float32.
-- args: n seed_a seed_b; check: sum of out (as float64) in index order
local ffi = require "ffi"

local function vadd(a, b, out, n)
  for i = 0, n - 1 do out[i] = a[i] + b[i] end
end

return {
  setup = function(args, measure)
    local n, seed_a, seed_b = args[1], args[2], args[3]
    local a, b = ffi.new("float[?]", n), ffi.new("float[?]", n)
    -- a float element rounds the double it is given, as C's (float) cast
    measure.fill_uniform(function(k, v) a[k] = v end, n, seed_a)
    measure.fill_uniform(function(k, v) b[k] = v end, n, seed_b)
    return { a = a, b = b, out = ffi.new("float[?]", n), n = n }
  end,
  run = function(st) vadd(st.a, st.b, st.out, st.n) end,
  check = function(st)
    local total, out = 0.0, st.out
    for i = 0, st.n - 1 do total = total + out[i] end
    return total
  end,
}
