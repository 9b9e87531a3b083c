-- matmul.lua (plain Lua 5.4): naive c = a b in i-k-j order over flat
-- tables, as matmul.c; element (i, j) (0-based) at [i * n + j + 1].
-- args: n seed; check: sum(c[k] * (k % 97 + 1))

local function matmul(a, b, c, n)
  for i = 0, n - 1 do
    local r = i * n + 1
    for j = 0, n - 1 do c[r + j] = 0.0 end
    for k = 0, n - 1 do
      local aik, rb = a[r + k], k * n + 1
      for j = 0, n - 1 do c[r + j] = c[r + j] + aik * b[rb + j] end
    end
  end
end

return {
  setup = function(args, measure)
    local n, seed = args[1], args[2]
    local st = { n = n, a = {}, b = {}, c = {} }
    measure.fill_uniform(function(k, v) st.a[k + 1] = v end, n * n, seed)
    measure.fill_uniform(function(k, v) st.b[k + 1] = v end, n * n, seed + 1)
    return st
  end,
  run = function(st) matmul(st.a, st.b, st.c, st.n) end,
  check = function(st)
    local total = 0.0
    for k = 0, st.n * st.n - 1 do total = total + st.c[k + 1] * (k % 97 + 1) end
    return total
  end,
}
