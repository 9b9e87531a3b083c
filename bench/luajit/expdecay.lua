-- expdecay.lua (LuaJIT, FFI double arrays): out[i] = exp(-x[i] / tau).
-- args: n seed tau; check: sum of out in index order
local ffi = require "ffi"
local exp = math.exp

local function exp_decay(x, out, n, tau)
  for i = 0, n - 1 do out[i] = exp(-x[i] / tau) end
end

return {
  setup = function(args, measure)
    local n, seed, tau = args[1], args[2], args[3]
    local x = ffi.new("double[?]", n)
    local out = ffi.new("double[?]", n)
    measure.fill_uniform(function(k, v) x[k] = v end, n, seed)
    return { x = x, out = out, n = n, tau = tau }
  end,
  run = function(st) exp_decay(st.x, st.out, st.n, st.tau) end,
  check = function(st)
    local total, out = 0.0, st.out
    for i = 0, st.n - 1 do total = total + out[i] end
    return total
  end,
}
