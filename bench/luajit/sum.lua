-- sum.lua (LuaJIT, FFI double array): seed 3's loop.
-- args: n seed
local ffi = require "ffi"

local function sum_array(arr, n)
  local total = 0.0
  for i = 0, n - 1 do total = total + arr[i] end
  return total
end

return {
  setup = function(args, measure)
    local n, seed = args[1], args[2]
    local x = ffi.new("double[?]", n)
    measure.fill_uniform(function(k, v) x[k] = v end, n, seed)
    return { x = x, n = n }
  end,
  run = function(st) return sum_array(st.x, st.n) end,
  check = function(_, result) return result end,
}
