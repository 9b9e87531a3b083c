-- Runs the ```lua code blocks of one Markdown page and checks every
-- `print(...) --> expected` against what was printed.
--   lua5.4 tests/doc_blocks.lua docs/page.md
-- Each block runs as a script of its own, its first line line 1, so the
-- positions it prints are what a reader who saves it as a file sees. A
-- block whose first line is `-- continuing the example above` runs after
-- the block before it, in the same chunk (its locals visible). A block is
-- skipped only when the line before its fence is `<!-- not run: reason -->`
-- (the reason is required). Every chunk starts with
-- `local lumba = require "lumba"`; on pages that use CUDA, kernels run in
-- the simulator and `cuda` is `lumba.cuda`. Exit status 0 when every block ran and every expectation
-- held, else the first failure on stderr.
local path = assert(arg[1], "usage: lua5.4 tests/doc_blocks.lua page.md")

local lines = {}
for line in assert(io.open(path, "rb")):lines() do lines[#lines + 1] = line end

local function fail(fmt, ...)
  io.stderr:write(fmt:format(...), "\n")
  os.exit(1)
end

-- the lua blocks: {start = line of the first code line, code = {...}}
local blocks, skipped = {}, 0
do
  local cur, fence = nil, false
  for i, line in ipairs(lines) do
    if line:match("^```") then
      if fence then
        if cur then blocks[#blocks + 1] = cur end
        cur, fence = nil, false
      else
        fence = true
        local prev = lines[i - 1] or ""
        if line:match("^```lua%s*$") then
          if prev:match("^<!%-%- not run") then
            if not prev:match("^<!%-%- not run: %S.-%-%->$") then
              fail("%s:%d: a skipped block needs a reason: <!-- not run: why -->", path, i - 1)
            end
            skipped = skipped + 1
          else
            cur = { start = i + 1, code = {} }
          end
        end
      end
    elseif cur then
      cur.code[#cur.code + 1] = line
    end
  end
  if fence then fail("%s: a code block is not closed", path) end
end

-- chains of blocks, a continuation joined to the block before it
local chains = {}
for _, b in ipairs(blocks) do
  if b.code[1] and b.code[1]:match("^%-%- continuing the example above") and #chains > 0 then
    local c = chains[#chains]
    for _, l in ipairs(b.code) do c.code[#c.code + 1] = l end
  else
    local c = { start = b.start, code = {} }
    for _, l in ipairs(b.code) do c.code[#c.code + 1] = l end
    chains[#chains + 1] = c
  end
end

-- `print(...) --> text`, or a print followed by lines of `--> text`, is an
-- expectation: print becomes __print(key), which records what it printed
local function expectations(code, chain_no)
  local expect = {}
  local i = 1
  while i <= #code do
    local line = code[i]
    local head, want = line:match("^(.-)%-%->%s?(.*)$")
    if not head and line:find("print%(") and (code[i + 1] or ""):match("^%s*%-%->") then
      head = line
    end
    if head and head:find("print%(") and not head:find("%-%-") then
      local wanted = { want }
      local j = i + 1
      while code[j] and code[j]:match("^%s*%-%->") do
        wanted[#wanted + 1] = code[j]:match("^%s*%-%->%s?(.*)$")
        j = j + 1
      end
      local key = chain_no .. ":" .. i
      code[i] = head:gsub("print%(", ("__print(%q)("):format(key), 1)
      expect[#expect + 1] = { key = key, line = i, text = table.concat(wanted, "\n") }
      i = j
    else
      i = i + 1
    end
  end
  return expect
end

local printed = {}
_G.__print = function(key)
  return function(...)
    local parts = {}
    for k = 1, select("#", ...) do parts[k] = tostring((select(k, ...))) end
    local s = table.concat(parts, "\t")
    printed[key] = s
    io.write(s, "\n")
  end
end

local prelude = 'local lumba = require "lumba"; lumba.warnings = function() end; '
if table.concat(lines, "\n"):find("cuda%.") then prelude = prelude .. "lumba.cuda.simulate(true); local cuda = lumba.cuda; " end

-- whitespace runs compare equal: the pages align their comments
local function norm(s) return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end

local nexpect = 0
for n, c in ipairs(chains) do
  local name = ("%s (block at line %d)"):format(path, c.start)
  local expect = expectations(c.code, n)
  nexpect = nexpect + #expect
  -- a file, not a string: lumba.njit(function ... end) reads its source
  local file = os.tmpname()
  local f = assert(io.open(file, "wb"))
  f:write(prelude, table.concat(c.code, "\n"), "\n")
  f:close()
  local fn, err = loadfile(file)
  local ok, e = fn ~= nil, err
  if fn then ok, e = xpcall(fn, debug.traceback) end
  os.remove(file)
  if not ok then fail("%s: %s", name, (tostring(e):gsub(file:gsub("%p", "%%%0"), "block"))) end
  for _, x in ipairs(expect) do
    local got = printed[x.key]
    if got == nil then fail("%s:%d: this print never ran", name, x.line) end
    if norm(got) ~= norm(x.text) then
      fail("%s:%d: printed %q, the page says %q", name, x.line, got, x.text)
    end
  end
end
io.write(("%d blocks (%d skipped), %d expectations\n"):format(#blocks + skipped, skipped, nexpect))
