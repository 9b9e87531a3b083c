-- mandelbrot.lua (LuaJIT, FFI int64 array): escape-time counts, as mandelbrot.c.
-- args: w h max_iter; check: sum(count[k] * (k % 97 + 1))
local ffi = require "ffi"

local function mandelbrot(out, h, w, max_iter)
  local dx = 3.0 / w
  local dy = 2.0 / h
  for i = 0, h - 1 do
    local ci = -1.0 + i * dy
    for j = 0, w - 1 do
      local cr = -2.0 + j * dx
      local zr, zi = 0.0, 0.0
      local n = 0
      while n < max_iter and zr * zr + zi * zi <= 4.0 do
        local zi2 = 2.0 * zr * zi + ci
        zr = zr * zr - zi * zi + cr
        zi = zi2
        n = n + 1
      end
      out[i * w + j] = n
    end
  end
end

return {
  setup = function(args)
    local w, h, max_iter = args[1], args[2], args[3]
    return { out = ffi.new("int64_t[?]", w * h), w = w, h = h, max_iter = max_iter }
  end,
  run = function(st) mandelbrot(st.out, st.h, st.w, st.max_iter) end,
  check = function(st)
    local total = 0
    for k = 0, st.w * st.h - 1 do total = total + tonumber(st.out[k]) * (k % 97 + 1) end
    return total
  end,
}
