-- vadd.lua (plain Lua 5.4): out[i] = a[i] + b[i] over tables. Lua has no
-- float32: the inputs are float32 values (rounded once, at setup), the sums
-- are float64, and the check rounds each element to float32 (outside the
-- timed loop), which gives exactly the float32 sum: a float64 sum of two
-- float32 values rounded to float32 is the float32 sum.
-- args: n seed_a seed_b; check: sum of out (rounded to float32) in index order
local pack, unpack = string.pack, string.unpack

local function f32(v) return (unpack("<f", pack("<f", v))) end

local function vadd(a, b, out)
  for i = 1, #a do out[i] = a[i] + b[i] end
end

return {
  setup = function(args, measure)
    local n, seed_a, seed_b = args[1], args[2], args[3]
    local a, b, out = {}, {}, {}
    measure.fill_uniform(function(k, v) a[k + 1] = f32(v); out[k + 1] = 0.0 end, n, seed_a)
    measure.fill_uniform(function(k, v) b[k + 1] = f32(v) end, n, seed_b)
    print("NOTE float64 tables (Lua has no float32); the check rounds each sum to float32")
    return { a = a, b = b, out = out }
  end,
  run = function(st) vadd(st.a, st.b, st.out) end,
  check = function(st)
    local total = 0.0
    for i = 1, #st.out do total = total + f32(st.out[i]) end
    return total
  end,
}
