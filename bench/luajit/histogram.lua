-- histogram.lua (LuaJIT, FFI double arrays): counts of n values in nbins
-- bins, bin = x % nbins, as histogram.c; the values (below 2^31) and the
-- counts are exact in doubles.
-- args: n seed nbins; check: sum(bins[k] * (k + 1))
local ffi = require "ffi"

local function histogram(x, n, bins, nbins)
  for k = 0, nbins - 1 do bins[k] = 0 end
  for i = 0, n - 1 do
    local k = x[i] % nbins
    bins[k] = bins[k] + 1
  end
end

return {
  setup = function(args, measure)
    local n, seed, nbins = args[1], args[2], args[3]
    local x = ffi.new("double[?]", n)
    local s = seed
    for k = 0, n - 1 do
      s = measure.minstd_next(s)
      x[k] = s
    end
    return { x = x, n = n, bins = ffi.new("double[?]", nbins), nbins = nbins }
  end,
  run = function(st) histogram(st.x, st.n, st.bins, st.nbins) end,
  check = function(st)
    local total = 0
    for k = 0, st.nbins - 1 do total = total + st.bins[k] * (k + 1) end
    return total
  end,
}
