-- Runs every row of tests/bad_input_rows.lua in this process and writes,
-- after each, one line of Lua: R[i] = {message, still_works}. The parent
-- (tests/bad_input_spec.lua) reads the lines back, so a row that crashes
-- this process is the first row without a line, and the runner survives.
-- Usage (from the repository root): lua5.4 tests/bad_input_child.lua
local build = os.getenv("LUMBA_CPATH") or "build"
package.path = "lua/?.lua;lua/?/init.lua;tests/?.lua;" .. package.path
package.cpath = build .. "/?.so;" .. package.cpath

local B = require "bad_input"
for i, row in ipairs(B.rows) do
  -- a line announcing the row first: if it dies, the parent knows which one
  io.write(("S[%d] = true\n"):format(i))
  io.flush()
  local got = B.run(row)
  local ok, why = pcall(B.still_works)
  io.write(("R[%d] = {%q, %s}\n"):format(i, got, ok and "true" or ("%q"):format(tostring(why))))
  io.flush()
end
io.write("DONE = true\n")
