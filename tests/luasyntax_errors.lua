-- Functions with mistakes, at known lines, for luasyntax_spec.lua's
-- error messages (which name this file, the line and the column).
local lumba = require "lumba"
local M = {}

M.add_bool = function(a, b)
  local x = a[1] + b
  return x
end

M.number_condition = function(n)
  if n then return 1 end
  return 2
end

M.concat = function(a)
  return a .. "!"
end

M.set_upvalue = function(a)
  M = a
end

M.nested = function(a)
  local function g() return a end
  return g()
end

M.goto_out = function(n)
  for i = 1, n do
    for j = 1, n do
      if j > i then goto next_i end
    end
    ::next_i::
  end
end

M.raise = function(x)
  if x < 0 then error("negative input") end
  return x
end

M.mixed_and = function(x)
  return x > 0 and x
end

M.step = function(n, s)
  local c = 0
  for i = 1, n, s do c = c + i end
  return c
end

M.lumba = lumba
return M
