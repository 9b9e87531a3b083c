-- sum.lua (plain Lua 5.4): seed 3's loop over a table of floats.
-- args: n seed

local function sum_array(arr)
  local total = 0.0
  for i = 1, #arr do total = total + arr[i] end
  return total
end

return {
  setup = function(args, measure)
    local n, seed = args[1], args[2]
    local x = {}
    measure.fill_uniform(function(k, v) x[k + 1] = v end, n, seed)
    return { x = x }
  end,
  run = function(st) return sum_array(st.x) end,
  check = function(_, result) return result end,
}
