-- check.lua — whether a tool's result agrees with C's, and the ratios of a
-- row. A result that disagrees is FAILED and its time does not count.
local M = {}

-- true when got agrees with ref: exactly when rtol is 0, else within rtol
-- relative to the larger magnitude. NaN and missing values never agree.
function M.agree(ref, got, rtol)
  if type(ref) ~= "number" or type(got) ~= "number" then return false end
  if ref ~= ref or got ~= got then return false end
  if rtol == 0 then return ref == got end
  return math.abs(ref - got) <= rtol * math.max(math.abs(ref), math.abs(got))
end

-- The reference result of a row: that of the first serial C build that ran.
local function reference(results)
  for _, t in ipairs { "gcc", "clang" } do
    local r = results[t]
    if r and r.status == "ok" and r.check then return r.check, t end
  end
end

-- Marks every result of a row against C's, then finds the fastest C of the
-- row's group (serial C, or C with OpenMP for parallel rows) and each tool's
-- ratio to it. results[tool] = {status = "ok"|"error"|"skip", check, time}.
-- Returns {ref_check, ref_tool, fast_tool, fast_median, failed = n}.
function M.evaluate(row, results, order, c_ref)
  local ev = { failed = 0 }
  ev.ref_check, ev.ref_tool = reference(results)
  for _, t in ipairs(order) do
    local r = results[t]
    if r and r.status == "ok" then
      if not ev.ref_check then
        r.status = "error"
        r.reason = "no C result to check against"
      elseif r.check == nil then
        r.status = "error"
        r.reason = "printed no result"
      elseif not M.agree(ev.ref_check, r.check, row.rtol) then
        r.status = "failed"
        r.reason = string.format("result %.17g differs from %s's %.17g%s", r.check, ev.ref_tool,
          ev.ref_check, row.rtol == 0 and " (must be equal)" or string.format(" (rtol %g)", row.rtol))
        -- a foreign tool known to compute this kernel wrong (row.known_wrong[tool]: why) is
        -- shown FAILED but does not fail the run
        local known = row.known_wrong and row.known_wrong[t]
        if known then r.reason = r.reason .. "; known: " .. known
        else ev.failed = ev.failed + 1 end
      else
        r.exact = r.check == ev.ref_check
      end
    end
  end
  for _, t in ipairs(c_ref[row.group]) do
    local r = results[t]
    if r and r.status == "ok" and (not ev.fast_median or r.time.median < ev.fast_median) then
      ev.fast_tool, ev.fast_median = t, r.time.median
    end
  end
  for _, t in ipairs(order) do
    local r = results[t]
    if r and r.status == "ok" and ev.fast_median then r.ratio = r.time.median / ev.fast_median end
  end
  return ev
end

return M
