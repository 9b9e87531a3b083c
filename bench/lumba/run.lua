-- run.lua — the lumba runner of the bench: compiles one bench/kernels/*.py
-- file (the very file the Numba runner imports) with lumba.njit and prints
-- the TIME/CHECK lines the harness reads, or one of the latency figures.
--
-- usage: lua5.4 bench/lumba/run.lua probe
--        lua5.4 bench/lumba/run.lua kernel <kind> <file.py> <parallel 0|1> args...
--        lua5.4 bench/lumba/run.lua firstcall <file.py> <N> [cache]   (cache: HITS/MISSES too)
--        lua5.4 bench/lumba/run.lua require
--        lua5.4 bench/lumba/run.lua backendload <backend.so>
--        lua5.4 bench/lumba/run.lua dispatch <file.py> <calls>
--        lua5.4 bench/lumba/run.lua scaling <chain sizes> <load sizes> <calls>   (sizes: "10,30,100")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local root = here .. "/../.."
package.path = here .. "/../lib/?.lua;" .. root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;"
  .. package.path
package.cpath = (os.getenv("LUMBA_CPATH") or (root .. "/build")) .. "/?.so;" .. package.cpath
local measure = require "measure"
local now = measure.clock()

local function read(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("a")
  f:close()
  return s
end

local function need_njit(lumba)
  if type(lumba.njit) ~= "function" and type(lumba.njit) ~= "table" then
    error("lumba.njit is missing (the compiler is not built into this lumba)", 0)
  end
end

-- The file's first def compiled by njit ({parallel=true} when asked), and
-- its first call first(f), timed: returns f, the seconds that compile and
-- first call took, and first's results. Compilation may happen in njit or
-- lazily in the first call, so both are inside the attempt. The seed's own
-- decorator line stays in the source (DESIGN.md: pasted Numba code compiles
-- verbatim); if lumba rejects it, the row says so and the def runs without
-- its decorator lines.
local function compile(lumba, path, opts, first)
  need_njit(lumba)
  local src = read(path)
  local function attempt(s)
    local t0 = now()
    local f
    if s:find("\n@[%w_.]*vectorize") or s:find("\n@[%w_.]*stencil") then
      -- a module with @vectorize / @stencil defs: lumba.load, its first def (as Numba's runner)
      f = lumba.load(s, { chunkname = "@" .. path })[s:match("\ndef%s+([%w_]+)")]
    elseif opts then f = lumba.njit(opts)(s) else f = lumba.njit(s) end
    local res = table.pack(first(f))
    return f, now() - t0, res
  end
  local ok, f, secs, res = pcall(attempt, src)
  if ok then return f, secs, table.unpack(res, 1, res.n) end
  if not src:find("\n@") and not src:find("^@") then error(f, 0) end
  local stripped = src:gsub("\n@[^\n]*", "\n"):gsub("^@[^\n]*", "")
  measure.note("decorator lines stripped: lumba rejected the verbatim source: " .. tostring(f))
  f, secs, res = attempt(stripped)
  return f, secs, table.unpack(res, 1, res.n)
end

-- A first call forces compilation of lazy dispatchers; errors surface here.
local fill_file = { spins = "fill_spins.py", uniform = "fill_uniform.py", ints = "fill_ints.py" }
local function f32(v) return (string.unpack("<f", string.pack("<f", v))) end

local function fill_checked(lumba, kind, a, seed, dims)
  local M = measure.MINSTD_M
  compile(lumba, here .. "/../kernels/" .. fill_file[kind], nil, function(fill) return fill(a, seed) end)
  -- spot checks against the stream computed here, so a wrong fill is told
  -- apart from a wrong kernel
  local n = a.size
  for _, k in ipairs { 0, 1, n // 2, n - 1 } do
    local s = measure.minstd_at(seed, k)
    local want
    if kind == "spins" then
      want = s >= 1073741824 and 1.0 or -1.0
    elseif kind == "ints" then
      want = s
    else
      want = a.dtype == "float32" and f32(s / M) or s / M
    end
    local got
    if dims == 2 then
      local w = a.shape[2]
      got = a:get(k // w + 1, k % w + 1)
    else
      got = a:get(k + 1)
    end
    if got ~= want then
      error(string.format("input fill by lumba is wrong at element %d: %.17g, expected %.17g",
        k, got, want), 0)
    end
  end
end

-- sum(flat[k] * (k % 97 + 1)) in index order, computed here in Lua
local function checksum97(flat)
  local total, get = 0.0, flat.get
  for k = 0, flat.size - 1 do total = total + get(flat, k + 1) * (k % 97 + 1) end
  return total
end

-- What one call allocates at its peak, in MB: the peak resident set is
-- reset (Linux: clear_refs 5) after a full collection, then the call runs
-- and the new peak is read against the resident set before it. A fused
-- array expression allocates only its result. Returns the call's result.
local function status_kb(field)
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return tonumber(s:match(field .. ":%s*(%d+)"))
end

local function alloc_note(call, result_bytes)
  collectgarbage("collect")
  local c = io.open("/proc/self/clear_refs", "w")
  if not c then return call() end
  c:write("5")
  c:close()
  local base = status_kb("VmRSS")
  local r = call()
  local peak = status_kb("VmHWM")
  if base and peak then
    measure.note(string.format("one call's peak allocation: %.1f MB (its result: %.1f MB)",
      (peak - base) / 1024, result_bytes / 1048576))
  end
  return r
end

local modes = {}

function modes.probe()
  local lumba = require "lumba"
  need_njit(lumba)
  local _, _, r = compile(lumba, here .. "/../kernels/dispatch.py", nil, function(f) return f(1.5) end)
  if r ~= 2.5 then error("f(1.5) returned " .. tostring(r) .. ", expected 2.5", 0) end
  print("OK " .. tostring(lumba.version))
end

-- the compiled kernel with its first call done, on the given arguments
local function kernel_fn(lumba, path, parallel, ...)
  local args = table.pack(...)
  local opts = parallel == "1" and { parallel = true } or parallel == "fm" and { fastmath = true } or nil
  return (compile(lumba, path, opts,
    function(f) return f(table.unpack(args, 1, args.n)) end))
end

function modes.kernel(kind, path, parallel, ...)
  local lumba = require "lumba"
  local args = { ... }
  local result, times, check
  if kind == "ising" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local spins = lumba.zeros({ n, n }, "float64")
    fill_checked(lumba, "spins", spins, seed, 2)
    local f = kernel_fn(lumba, path, parallel, spins)
    result, times = measure.measure(function() return f(spins) end, now)
    check = result
  elseif kind == "sum" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local x = lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", x, seed, 1)
    local f = kernel_fn(lumba, path, parallel, x)
    result, times = measure.measure(function() return f(x) end, now)
    check = result
  elseif kind == "cfunc" then
    -- a @cfunc called n times through its address by a C loop (benchclock's
    -- cfunc_drive, the loop of bench/c/cfunccall.c); the loop file (lumba-hand)
    -- is the same loop compiled with the right-hand side written in it
    local n = math.tointeger(args[1])
    local src = read(path)
    if src:find("@cfunc", 1, true) then
      local bc = require "benchclock"
      local c = lumba.load(src, { chunkname = path }).rhs
      result, times = measure.measure(function() return bc.cfunc_drive(c.address, n) end, now)
    else
      local f = kernel_fn(lumba, path, parallel, n)
      result, times = measure.measure(function() return f(n) end, now)
    end
    check = result
  elseif kind == "jcenergy" then
    -- a @jitclass method called per element in the loop (the module's
    -- total_energy), or the loop file: a plain function on the arrays
    local n, seed, k = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3]) / 4
    local x, v = lumba.zeros(n, "float64"), lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", x, seed, 1)
    fill_checked(lumba, "uniform", v, seed + 1, 1)
    local src = read(path)
    if src:find("@jitclass", 1, true) then
      local m = lumba.load(src, { chunkname = path })
      local s = m.Springs(x, v, k)
      result, times = measure.measure(function() return m.total_energy(s) end, now)
    else
      local f = kernel_fn(lumba, path, parallel, x, v, k)
      result, times = measure.measure(function() return f(x, v, k) end, now)
    end
    check = result
  elseif kind == "lj" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local c = lumba.zeros({ n, 3 }, "float64")
    fill_checked(lumba, "uniform", c:reshape(3 * n), seed, 1)
    local f = kernel_fn(lumba, path, parallel, c)
    result, times = measure.measure(function() return f(c) end, now)
    check = result
  elseif kind == "mcpi" then
    local n = math.tointeger(args[1])
    local f = kernel_fn(lumba, path, parallel, n)
    result, times = measure.measure(function() return f(n) end, now)
    check = result
  elseif kind == "expdecay" then
    local n, seed, tau = math.tointeger(args[1]), math.tointeger(args[2]), tonumber(args[3]) + 0.0
    local x, out = lumba.zeros(n, "float64"), lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", x, seed, 1)
    local f = kernel_fn(lumba, path, parallel, x, out, tau)
    result, times = measure.measure(function() return f(x, out, tau) end, now)
    check = 0.0
    local get = out.get
    for i = 1, n do check = check + get(out, i) end
  elseif kind == "mandelbrot" then
    local w, h, max_iter = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local out = lumba.zeros({ h, w }, "int64")
    local f = kernel_fn(lumba, path, parallel, out, max_iter)
    result, times = measure.measure(function() return f(out, max_iter) end, now)
    check = 0
    local get = out.get
    for i = 1, h do
      for j = 1, w do
        local k = (i - 1) * w + (j - 1)
        check = check + get(out, i, j) * (k % 97 + 1)
      end
    end
  elseif kind == "vadd" then
    local n, seed_a, seed_b = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local a, b = lumba.zeros(n, "float32"), lumba.zeros(n, "float32")
    local out = lumba.zeros(n, "float32")
    fill_checked(lumba, "uniform", a, seed_a, 1)
    fill_checked(lumba, "uniform", b, seed_b, 1)
    local f = kernel_fn(lumba, path, parallel, a, b, out)
    result, times = measure.measure(function() return f(a, b, out) end, now)
    check = 0.0
    local get = out.get
    for i = 1, n do check = check + get(out, i) end
  elseif kind == "nbody" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local dt, eps2 = tonumber(args[3]) + 0.0, tonumber(args[4]) + 0.0
    local pos, mass = lumba.zeros({ 3, n }, "float64"), lumba.zeros(n, "float64")
    local vel = lumba.zeros({ 3, n }, "float64")
    local npos, nvel = lumba.zeros({ 3, n }, "float64"), lumba.zeros({ 3, n }, "float64")
    fill_checked(lumba, "uniform", pos:reshape(3 * n), seed, 1)
    fill_checked(lumba, "uniform", mass, seed + 1, 1)
    local f = kernel_fn(lumba, path, parallel, pos, vel, mass, npos, nvel, dt, eps2)
    result, times = measure.measure(function() return f(pos, vel, mass, npos, nvel, dt, eps2) end, now)
    local fp, fv = npos:reshape(3 * n), nvel:reshape(3 * n)
    check = 0.0
    for k = 0, 3 * n - 1 do check = check + (fp:get(k + 1) + fv:get(k + 1)) * (k % 97 + 1) end
  elseif kind == "stencil" then
    local n, sweeps, seed = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local u0 = lumba.zeros({ n, n }, "float64")
    local a, b = lumba.zeros({ n, n }, "float64"), lumba.zeros({ n, n }, "float64")
    fill_checked(lumba, "uniform", u0:reshape(n * n), seed, 1)
    local f = kernel_fn(lumba, path, parallel, u0, a, b, sweeps)
    result, times = measure.measure(function() return f(u0, a, b, sweeps) end, now)
    check = checksum97(a:reshape(n * n))
  elseif kind == "matmul" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local a, b = lumba.zeros({ n, n }, "float64"), lumba.zeros({ n, n }, "float64")
    local c = lumba.zeros({ n, n }, "float64")
    fill_checked(lumba, "uniform", a:reshape(n * n), seed, 1)
    fill_checked(lumba, "uniform", b:reshape(n * n), seed + 1, 1)
    local f = kernel_fn(lumba, path, parallel, a, b, c)
    result, times = measure.measure(function() return f(a, b, c) end, now)
    check = checksum97(c:reshape(n * n))
  elseif kind == "solve" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local a, b, x = lumba.zeros({ n, n }, "float64"), lumba.zeros(n, "float64"), lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", a:reshape(n * n), seed, 1)
    for i = 1, n do a:set(i, i, a:get(i, i) + n) end  -- well conditioned, as solve.c's
    fill_checked(lumba, "uniform", b, seed + 1, 1)
    local f = kernel_fn(lumba, path, parallel, a, b, x)
    result, times = measure.measure(function() return f(a, b, x) end, now)
    check = checksum97(x)
  elseif kind == "histogram" then
    local n, seed, nbins = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local x, bins = lumba.zeros(n, "int64"), lumba.zeros(nbins, "int64")
    fill_checked(lumba, "ints", x, seed, 1)
    local f = kernel_fn(lumba, path, parallel, x, bins)
    result, times = measure.measure(function() return f(x, bins) end, now)
    check = 0
    for k = 1, nbins do check = check + bins:get(k) * k end
  elseif kind == "fused" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local x = {}
    for k = 1, 5 do
      x[k] = lumba.zeros(n, "float64")
      fill_checked(lumba, "uniform", x[k], seed + k - 1, 1)
    end
    local f = kernel_fn(lumba, path, parallel, x[1], x[2], x[3], x[4], x[5])
    alloc_note(function() return f(x[1], x[2], x[3], x[4], x[5]) end, n * 8)
    result, times = measure.measure(function() return f(x[1], x[2], x[3], x[4], x[5]) end, now)
    check = checksum97(result)
  elseif kind == "clip" then
    local n, seed = math.tointeger(args[1]), math.tointeger(args[2])
    local lo, hi = tonumber(args[3]) + 0.0, tonumber(args[4]) + 0.0
    local x = lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", x, seed, 1)
    local f = kernel_fn(lumba, path, parallel, x, lo, hi)
    alloc_note(function() return f(x, lo, hi) end, n * 8)
    result, times = measure.measure(function() return f(x, lo, hi) end, now)
    check = checksum97(result)
  elseif kind == "nphist" then
    local n, seed, nbins = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local x = lumba.zeros(n, "float64")
    fill_checked(lumba, "uniform", x, seed, 1)
    local f = kernel_fn(lumba, path, parallel, x, nbins)
    result, times = measure.measure(function() return f(x, nbins) end, now)
    check = 0
    for k = 1, nbins do check = check + result:get(k) * k end
  elseif kind == "softmax" then
    local n, m, seed = math.tointeger(args[1]), math.tointeger(args[2]), math.tointeger(args[3])
    local x = lumba.zeros({ n, m }, "float64")
    fill_checked(lumba, "uniform", x:reshape(n * m), seed, 1)
    local f = kernel_fn(lumba, path, parallel, x)
    alloc_note(function() return f(x) end, n * m * 8)
    result, times = measure.measure(function() return f(x) end, now)
    check = checksum97(result:reshape(n * m))
  else
    error("unknown kernel kind " .. tostring(kind), 0)
  end
  measure.report(times)
  measure.check(check)
  if parallel == "1" and lumba.get_num_threads then
    measure.note("lumba " .. tostring(lumba.version) .. ", " .. lumba.get_num_threads() .. " threads")
  end
end

-- seconds from njit(src) to the end of the first call, in a fresh process
function modes.firstcall(path, n, cache)
  local lumba = require "lumba"
  n = math.tointeger(n)
  local spins = lumba.ones({ n, n }, "float64")
  local _, secs = compile(lumba, path, cache == "cache" and { cache = true } or nil,
    function(f) return f(spins) end)
  print(string.format("SECONDS %.9g", secs))
  -- whether this process loaded the entry or compiled and wrote it
  if cache == "cache" and lumba.cache and lumba.cache.info then
    local info = lumba.cache.info()
    print(string.format("HITS %d", info.hits))
    print(string.format("MISSES %d", info.misses))
  end
end

-- seconds to load lumba's backend (backend.so with the LLVM parts it links:
-- dlopen, relocation, LLVM's static constructors): the floor under every
-- first compilation in a process. Run with LUMBA_PRELOAD=0, so that require
-- does not start loading it in the background.
function modes.backendload(path)
  require "lumba"
  local t0 = now()
  local ok, err = package.loadlib(path, "*")
  local t1 = now()
  if not ok then error("cannot load " .. path .. ": " .. tostring(err), 0) end
  print(string.format("SECONDS %.9g", t1 - t0))
end

function modes.require()
  local t0 = now()
  require "lumba"
  local t1 = now()
  print(string.format("SECONDS %.9g", t1 - t0))
end

-- ns per call (median of 5 batches) of the compiled f(x) = x + 1.0, of the
-- same function written in Lua, of an empty C function, and of the empty loop
function modes.dispatch(path, calls)
  local lumba = require "lumba"
  calls = math.tointeger(calls)
  local f = compile(lumba, path, nil, function(f) return f(1.5) end)
  local function luaf(x) return x + 1.0 end
  local okc, bc = pcall(require, "benchclock")
  local function batch(fn)
    local t = {}
    for b = 1, 5 do
      local t0 = now()
      for _ = 1, calls do fn(1.5) end
      t[b] = (now() - t0) / calls * 1e9
    end
    table.sort(t)
    return t[3]
  end
  print(string.format("DISPATCH %.6g", batch(f)))
  print(string.format("LUAFN %.6g", batch(luaf)))
  if okc then print(string.format("CFN %.6g", batch(bc.empty))) end
  local t = {}
  for b = 1, 5 do
    local t0 = now()
    for _ = 1, calls do end
    t[b] = (now() - t0) / calls * 1e9
  end
  table.sort(t)
  print(string.format("EMPTYLOOP %.6g", t[3]))
end

-- the module texts of the scaling figures, the same as bench/numba/run.py's:
-- n functions each calling the previous one, and n independent ones
local function chain_source(n)
  local t = { "from numba import njit\n\n@njit\ndef f0(x):\n    return x + 1.0\n" }
  for i = 1, n - 1 do t[#t + 1] = ("\n@njit\ndef f%d(x):\n    return f%d(x) * 0.5 + %d.0\n"):format(i, i - 1, i) end
  return table.concat(t)
end
local function flat_source(n)
  local t = { "from numba import njit\n" }
  for i = 0, n - 1 do t[#t + 1] = ("\n@njit\ndef f%d(x):\n    return x + %d\n"):format(i, i) end
  return table.concat(t)
end

-- issue 23: CHAIN<n> (lumba.load of a chain of n functions and one call of
-- each, the last first: every one compiled), LOAD<n> (lumba.load alone of n
-- functions), DISPATCH3/LUAFN3 (ns per call with 3 arrays, and of a Lua
-- function indexing 3 tables)
function modes.scaling(chains, loads, calls)
  local lumba = require "lumba"
  for n in chains:gmatch("%d+") do
    n = math.tointeger(n)
    local t0 = now()
    local m = lumba.load(chain_source(n))
    local top = m["f" .. (n - 1)](1.0)
    for i = 0, n - 2 do m["f" .. i](1.0) end
    print(string.format("CHAIN%d %.9g", n, now() - t0))
    assert(top == top)
  end
  for n in loads:gmatch("%d+") do
    local src = flat_source(math.tointeger(n))
    collectgarbage()
    local t0 = now()
    lumba.load(src)
    print(string.format("LOAD%s %.9g", n, now() - t0))
  end
  calls = math.tointeger(calls)
  local g = lumba.njit("def g(a, b, c):\n    return a[0] + b[0] + c[0]\n")
  local a, b, c = lumba.zeros(4), lumba.zeros(4), lumba.zeros(4)
  local ta, tb, tc = { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }
  local function luag(x, y, z) return x[1] + y[1] + z[1] end
  g(a, b, c)
  local function batch(fn, x, y, z)
    local t = {}
    for k = 1, 5 do
      local t0 = now()
      for _ = 1, calls do fn(x, y, z) end
      t[k] = (now() - t0) / calls * 1e9
    end
    table.sort(t)
    return t[3]
  end
  print(string.format("DISPATCH3 %.6g", batch(g, a, b, c)))
  print(string.format("LUAFN3 %.6g", batch(luag, ta, tb, tc)))
end

measure.main(function()
  local mode = arg[1]
  local fn = modes[mode or ""]
  if not fn then error("unknown mode " .. tostring(mode), 0) end
  fn(table.unpack(arg, 2))
end)
