-- expdecay.lua (plain Lua 5.4): out[i] = exp(-x[i] / tau) over tables.
-- args: n seed tau; check: sum of out in index order
local exp = math.exp

local function exp_decay(x, out, tau)
  for i = 1, #x do out[i] = exp(-x[i] / tau) end
end

return {
  setup = function(args, measure)
    local n, seed, tau = args[1], args[2], args[3]
    local x, out = {}, {}
    measure.fill_uniform(function(k, v) x[k + 1] = v; out[k + 1] = 0.0 end, n, seed)
    return { x = x, out = out, tau = tau }
  end,
  run = function(st) exp_decay(st.x, st.out, st.tau) end,
  check = function(st)
    local total = 0.0
    for i = 1, #st.out do total = total + st.out[i] end
    return total
  end,
}
