-- par_scaling.lua — how parallel=True array code scales with the thread
-- count (issue 20's 16-core target): a compute-bound fused expression
-- (sin * cos + sqrt over 10^7 float64), the same work as fused statements,
-- and a reduction along axis 0, each against the same source compiled
-- without parallel; the median of 9 calls after 2 untimed ones.
-- usage, from the project root: lua5.4 tools/par_scaling.lua
-- (LUMBA_CPATH: the build's directory, default build; needs luasystem's
-- monotonic clock, which busted brings along, also in the GPU bundle)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or "build") .. "/?.so;" .. package.cpath
local lumba = require "lumba"
local system = require "system"
local now = system.monotime
local function median(f, reps)
  local t = {}
  f(); f()
  for i = 1, reps do
    local t0 = now(); f(); t[i] = now() - t0
  end
  table.sort(t)
  return t[(reps + 1) // 2], t[1]
end
local n = 10000000
local a = lumba.arange(n) * 1e-7 + 0.5
local b = lumba.arange(n) * 2e-7 - 0.3
local forms = {
  {"expr sin*cos+sqrt", "def f(a, b):\n    return np.sin(a) * np.cos(b) + np.sqrt(a)\n"},
  {"fused stmts", "def f(a, b):\n    c = np.sin(a) * np.cos(b)\n    c += np.sqrt(a)\n    d = c * b - a\n    return d\n"},
  {"axis0 sum 2000x5000", "def f(a, b):\n    return a.reshape(2000, 5000).sum(axis=0)\n"},
}
local threads = {1, 2, 4, 8, 16}
for _, fm in ipairs(forms) do
  local s = lumba.njit(fm[2])
  local p = lumba.njit {parallel = true} (fm[2])
  local ts = median(function() return s(a, b) end, 9)
  local line = ("%-22s serial %.4f s"):format(fm[1], ts)
  for _, k in ipairs(threads) do
    if k <= lumba.max_threads() then
      lumba.set_num_threads(k)
      local tp = median(function() return p(a, b) end, 9)
      line = line .. ("  %d:%.4f (%.2fx)"):format(k, tp, ts / tp)
    end
  end
  print(line)
  collectgarbage()
end
