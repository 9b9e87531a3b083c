-- matmul.lua (LuaJIT, FFI double arrays): naive c = a b in i-k-j order, as
-- matmul.c; element (i, j) at i * n + j.
-- args: n seed; check: sum(c[k] * (k % 97 + 1))
local ffi = require "ffi"

local function matmul(a, b, c, n)
  for i = 0, n - 1 do
    local r = i * n
    for j = 0, n - 1 do c[r + j] = 0.0 end
    for k = 0, n - 1 do
      local aik, rb = a[r + k], k * n
      for j = 0, n - 1 do c[r + j] = c[r + j] + aik * b[rb + j] end
    end
  end
end

return {
  setup = function(args, measure)
    local n, seed = args[1], args[2]
    local st = { n = n }
    for _, k in ipairs { "a", "b", "c" } do st[k] = ffi.new("double[?]", n * n) end
    measure.fill_uniform(function(k, v) st.a[k] = v end, n * n, seed)
    measure.fill_uniform(function(k, v) st.b[k] = v end, n * n, seed + 1)
    return st
  end,
  run = function(st) matmul(st.a, st.b, st.c, st.n) end,
  check = function(st)
    local total = 0.0
    for k = 0, st.n * st.n - 1 do total = total + st.c[k] * (k % 97 + 1) end
    return total
  end,
}
