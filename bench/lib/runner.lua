-- runner.lua — runs one kernel of the plain-Lua or LuaJIT implementation and
-- prints TIME and CHECK lines for the harness.
-- usage: lua5.4|luajit bench/lib/runner.lua <lua|luajit> <kernel> args...
-- The kernel file bench/<impl>/<kernel>.lua returns {setup(args, measure),
-- run(state) -> result, check(state, result) -> number}.
local dir = (arg[0]:match("^(.*)/[^/]*$") or ".")
package.path = dir .. "/?.lua;" .. package.path
local measure = require "measure"

measure.main(function()
  local impl, kind = arg[1], arg[2]
  assert(impl == "lua" or impl == "luajit", "implementation must be lua or luajit")
  assert(kind and kind:match("^[%w_]+$"), "bad kernel name")
  local kernel = dofile(dir .. "/../" .. impl .. "/" .. kind .. ".lua")
  local args = {}
  for i = 3, #arg do args[#args + 1] = tonumber(arg[i]) end
  local state = kernel.setup(args, measure)
  local now = measure.clock()
  local result, times = measure.measure(function() return kernel.run(state) end, now)
  measure.report(times)
  measure.check(kernel.check(state, result))
end)
