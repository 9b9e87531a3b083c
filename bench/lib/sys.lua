-- sys.lua — what the harness needs from the system: running a command with
-- an environment and a time limit, reading its protocol lines, files, and
-- the facts about the machine that RESULTS.md records.
local M = {}

-- a word for sh, single-quoted
function M.quote(s)
  s = tostring(s)
  if s:match("^[%w%._/%-=:,+]+$") then return s end
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

function M.read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

function M.write(path, s)
  local f = assert(io.open(path, "w"))
  f:write(s)
  f:close()
end

-- output (stdout and stderr) and success of a shell command
function M.shell(cmd)
  local p = io.popen(cmd .. " 2>&1", "r")
  local out = p:read("a")
  local ok, how, code = p:close()
  return out, ok == true, how, code
end

-- first line of a command's output, or nil when it fails
function M.line(cmd)
  local out, ok = M.shell(cmd)
  if not ok then return nil end
  return (out:match("[^\n]+"))
end

function M.have(cmd)
  local _, ok = M.shell("command -v " .. M.quote(cmd) .. " >/dev/null")
  return ok
end

function M.mkdir(path)
  local out, ok = M.shell("mkdir -p " .. M.quote(path))
  if not ok then error("cannot create " .. path .. ": " .. out) end
end

-- A temporary directory (removed by M.rmtree)
function M.tmpdir(parent)
  local out, ok = M.shell("mktemp -d " .. M.quote(parent .. "/tmp.XXXXXX"))
  if not ok then error("mktemp failed: " .. out) end
  return (out:gsub("%s+$", ""))
end

-- true when path is missing or an empty directory
function M.empty(path)
  local out = M.shell("{ ls -A " .. M.quote(path) .. " 2>/dev/null; }")
  return not out:match("%S")
end

function M.rmtree(path)
  M.shell("rm -rf " .. M.quote(path))
end

-- an ERROR line's text as the report shows it: a Python traceback (" | "
-- between its lines) from its exception line on, without the frames,
-- Numba's "During: ..." notes and repeated lines, at most 400 characters
function M.short_error(text)
  local from = text:find("| [%w_%.]*Error: ") or text:find("| [%w_%.]*Exception: ")
  if not text:find("^Traceback") or not from then return text end
  local kept, last = {}, nil
  for part in (text:sub(from + 2) .. " | "):gmatch("(.-) | ") do
    part = part:match("^%s*(.-)%s*$")
    if part ~= "" and part ~= last and not part:find("^During:") and not part:find("^File ")
      and not part:find("source missing") and not part:find("^Enable logging") then
      kept[#kept + 1] = part
    end
    last = part
  end
  local s = table.concat(kept, " | ")
  return #s > 400 and s:sub(1, 397) .. "..." or s
end

-- Runs argv (a list of words) with env (a table of extra variables) under
-- `timeout`; returns a table:
--   ok        exit status 0
--   timedout  killed by the time limit
--   out       everything it printed
--   time      {median=, min=, max=, reps=} from a TIME line
--   check     the number of a CHECK line
--   error     the text of an ERROR line, skip the text of a SKIP line
--   notes     the NOTE lines; values: KEY number lines (SECONDS, DISPATCH...)
function M.run(argv, env, limit)
  local words = {}
  for k, v in pairs(env or {}) do words[#words + 1] = k .. "=" .. M.quote(v) end
  table.sort(words)
  table.insert(words, 1, "env")
  local cmd = table.concat(words, " ") .. " timeout -k 5 " .. math.floor(limit or 300)
  for _, a in ipairs(argv) do cmd = cmd .. " " .. M.quote(a) end
  local out, ok, how, code = M.shell(cmd)
  local r = { ok = ok, out = out, notes = {}, values = {}, cmd = cmd }
  r.timedout = how == "exit" and code == 124
  for line in out:gmatch("[^\n]+") do
    local key, rest = line:match("^(%u[%u%d]*) ?(.*)$")
    if key == "TIME" then
      r.time = {}
      for k, v in rest:gmatch("(%w+)=(%S+)") do r.time[k] = tonumber(v) end
    elseif key == "CHECK" then
      r.check = tonumber(rest)
    elseif key == "ERROR" then
      r.error = M.short_error(rest)
    elseif key == "SKIP" then
      r.skip = rest
    elseif key == "NOTE" then
      r.notes[#r.notes + 1] = rest
    elseif key and tonumber(rest) then
      r.values[key] = tonumber(rest)
    end
  end
  if not ok and not r.error then
    -- a crash or a failing command: its last lines say why
    local tail = {}
    for line in out:gmatch("[^\n]+") do tail[#tail + 1] = line end
    local from = math.max(1, #tail - 2)
    local why
    if r.timedout then
      why = "timed out after " .. math.floor(limit or 300) .. " s"
    elseif how == "exit" and code == 137 then
      why = "killed (SIGKILL: the time limit, or out of memory)"
    elseif how == "exit" and code > 128 then
      why = "crashed (signal " .. (code - 128) .. ")"
    else
      why = "exit " .. tostring(code)
    end
    r.error = why ..
      (#tail > 0 and (": " .. table.concat(tail, " | ", from)) or "")
  end
  return r
end

local function first_match(text, pat)
  return text and text:match(pat)
end

-- The facts RESULTS.md records about this machine and these tools.
function M.machine(root)
  local cpuinfo = M.read("/proc/cpuinfo") or ""
  local m = {}
  m.cpu = first_match(cpuinfo, "model name%s*:%s*([^\n]+)") or "unknown CPU"
  local logical = 0
  for _ in cpuinfo:gmatch("\nprocessor%s*:") do logical = logical + 1 end
  if cpuinfo:match("^processor%s*:") then logical = logical + 1 end
  m.cores = tonumber(M.line("nproc") or "") or logical
  m.logical = logical
  m.flags = {}
  local flags = first_match(cpuinfo, "\nflags%s*:%s*([^\n]+)") or ""
  for _, f in ipairs { "avx2", "fma", "avx512f" } do
    if (" " .. flags .. " "):find(" " .. f .. " ", 1, true) then m.flags[#m.flags + 1] = f end
  end
  m.mem = first_match(M.read("/proc/meminfo"), "MemTotal:%s*(%d+)")
  m.os = first_match(M.read("/etc/os-release"), 'PRETTY_NAME="([^"]+)"') or "unknown OS"
  m.kernel = M.line("uname -srm") or "?"
  m.gcc = M.line("gcc --version") or "absent"
  m.clang = M.line("clang --version") or "absent"
  local llvm_config = os.getenv("LLVM_CONFIG") or "llvm-config-14"
  if not M.have(llvm_config) then llvm_config = "llvm-config" end
  m.llvm = M.line(M.quote(llvm_config) .. " --version") or "absent"
  m.lua = (M.line("lua5.4 -v") or "?"):match("^(%S+ %S+)")
  m.luajit = (M.line("luajit -v") or "absent"):match("^(%S+ %S+)")
  m.date = os.date("!%Y-%m-%d %H:%M UTC")
  m.load_start = first_match(M.read("/proc/loadavg"), "^(%S+ %S+ %S+)")
  local rev = M.line("git -C " .. M.quote(root) .. " rev-parse --short HEAD")
  if rev then
    local dirty = M.line("git -C " .. M.quote(root) .. " status --porcelain --untracked-files=no")
    m.git = rev .. (dirty and " (with uncommitted changes)" or "")
  end
  return m
end

-- A sample of CPU use: busy jiffies of the whole machine (/proc/stat, steal
-- included), jiffies of this process and its waited-for children
-- (/proc/self/stat), and uptime. foreign(a, b) is then the average number of
-- cores that other processes (or other virtual machines) kept busy between
-- two samples: the noise a shared machine adds to a row.
function M.cpu_sample()
  local stat = M.read("/proc/stat") or ""
  local f = {}
  for n in (stat:match("^cpu%s+([^\n]+)") or ""):gmatch("%d+") do f[#f + 1] = tonumber(n) end
  local busy = 0
  for i, v in ipairs(f) do
    if i ~= 4 and i ~= 5 and i <= 8 then busy = busy + v end -- all but idle and iowait
  end
  local own = 0
  local rest = (M.read("/proc/self/stat") or ""):match("%)%s+(.*)$") or ""
  local g = {}
  for n in rest:gmatch("%S+") do g[#g + 1] = n end
  for i = 12, 15 do own = own + (tonumber(g[i]) or 0) end -- utime stime cutime cstime
  local up = tonumber((M.read("/proc/uptime") or ""):match("^(%S+)"))
  return { busy = busy, own = own, up = up }
end

function M.foreign(a, b, hz)
  hz = hz or 100
  if not (a.up and b.up) or b.up <= a.up then return nil end
  local other = (b.busy - a.busy) - (b.own - a.own)
  return math.max(0, other / hz / (b.up - a.up))
end

function M.loadavg()
  return first_match(M.read("/proc/loadavg"), "^(%S+ %S+ %S+)")
end

return M
