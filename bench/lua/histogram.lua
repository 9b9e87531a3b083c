-- histogram.lua (plain Lua 5.4): counts of n integers in nbins bins,
-- bin = x % nbins, over tables of Lua integers, as histogram.c.
-- args: n seed nbins; check: sum(bins[k] * (k + 1))

local function histogram(x, bins, nbins)
  for k = 1, nbins do bins[k] = 0 end
  for i = 1, #x do
    local k = x[i] % nbins + 1
    bins[k] = bins[k] + 1
  end
end

return {
  setup = function(args, measure)
    local n, seed, nbins = args[1], args[2], args[3]
    local x = {}
    local s = math.tointeger(seed)
    for k = 1, n do
      s = measure.minstd_next(s)
      x[k] = s
    end
    return { x = x, bins = {}, nbins = math.tointeger(nbins) }
  end,
  run = function(st) histogram(st.x, st.bins, st.nbins) end,
  check = function(st)
    local total = 0
    for k = 1, st.nbins do total = total + st.bins[k] * k end
    return total
  end,
}
