-- Array buffers live outside Lua's heap. A loop dropping big temporaries
-- must not let them pile up: in generational mode a temporary still
-- referenced at a minor collection turns old, and only a full collection
-- frees it (src/array.c forces one per 64 MiB of new buffers). The loops run
-- in a fresh lua5.4 so that its peak RSS (VmHWM) is theirs alone. Tagged
-- noasan: ASan's quarantine holds freed buffers, so RSS says nothing there.
local H = require "helpers"

local function peak_mib(mode, body)
  local out = H.run_lua("", ([[
local lumba = require "lumba"
collectgarbage(%q)
%s
for l in io.lines("/proc/self/status") do
  local kb = l:match("^VmHWM:%%s*(%%d+)")
  if kb then print("HWM " .. kb // 1024) end
end
]]):format(mode, body))
  local mib = tonumber(out:match("HWM (%d+)"))
  assert(mib, out)
  return mib
end

-- 1000 temporaries of 8 MB each: 8 GB in all, a few live at any time
local LUA_LOOP = [[
local a = lumba.ones(1000000)
for i = 1, 1000 do local t = a + i end
]]
local JIT_LOOP = [[
local f = lumba.njit "def f(a, x):\n    return a * x + 1.0\n"
local a = lumba.ones(1000000)
for i = 1, 1000 do local t = f(a, i) end
]]

describe("memory of dropped array temporaries", function()
  for _, mode in ipairs { "generational", "incremental" } do
    it("stays bounded in " .. mode .. " mode for Lua-side arithmetic #noasan", function()
      local mib = peak_mib(mode, LUA_LOOP)
      assert(mib < 400, mode .. ": peak RSS " .. mib .. " MiB")
    end)

    it("stays bounded in " .. mode .. " mode for arrays compiled code returns #noasan", function()
      local mib = peak_mib(mode, JIT_LOOP)
      assert(mib < 500, mode .. ": peak RSS " .. mib .. " MiB")
    end)
  end

  it("leaves a stopped collector stopped", function()
    local out = H.run_lua("", [[
local lumba = require "lumba"
collectgarbage("stop")
local a = lumba.ones(1000)
for i = 1, 100 do local t = a + i end
print(collectgarbage("isrunning"))
]])
    assert.are.equal("false\n", out)
  end)
end)
