-- stencil.lua (plain Lua 5.4): Jacobi sweeps of the 5-point stencil with
-- ping-pong over flat tables, as stencil.c; element (i, j) (0-based) at
-- [i * n + j + 1].
-- args: n sweeps seed; check: sum(a[k] * (k % 97 + 1))

local function stencil(u0, a, b, n, sweeps)
  for k = 1, n * n do
    a[k] = u0[k]
    b[k] = u0[k]
  end
  for _ = 1, sweeps // 2 do
    for i = 1, n - 2 do
      local r = i * n + 1
      for j = 1, n - 2 do
        b[r + j] = 0.25 * (a[r - n + j] + a[r + n + j] + a[r + j - 1] + a[r + j + 1])
      end
    end
    for i = 1, n - 2 do
      local r = i * n + 1
      for j = 1, n - 2 do
        a[r + j] = 0.25 * (b[r - n + j] + b[r + n + j] + b[r + j - 1] + b[r + j + 1])
      end
    end
  end
end

return {
  setup = function(args, measure)
    local n, sweeps, seed = args[1], args[2], args[3]
    local st = { n = n, sweeps = sweeps, u0 = {}, a = {}, b = {} }
    measure.fill_uniform(function(k, v) st.u0[k + 1] = v end, n * n, seed)
    return st
  end,
  run = function(st) stencil(st.u0, st.a, st.b, st.n, st.sweeps) end,
  check = function(st)
    local total = 0.0
    for k = 0, st.n * st.n - 1 do total = total + st.a[k + 1] * (k % 97 + 1) end
    return total
  end,
}
