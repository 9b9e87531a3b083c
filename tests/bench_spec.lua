-- bench_spec.lua — the benchmark's own trustworthiness, in BENCH_QUICK mode:
-- every kernel's C references run and agree with values computed here in
-- plain Lua, every other available tool agrees with C (or says why it did
-- not run), and a result that disagrees is caught. No timing is asserted.

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  return out, ok == true
end

local function read(path)
  local f = assert(io.open(path))
  local s = f:read("a")
  f:close()
  return s
end

-- results.tsv -> rows[row_id][tool] = {status, check, reason}
local function read_tsv(path)
  local rows = {}
  local first = true
  for line in io.lines(path) do
    if first then
      first = false
    else
      local f = {}
      for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
      rows[f[1]] = rows[f[1]] or {}
      rows[f[1]][f[2]] = { status = f[3], check = tonumber(f[4]), reason = f[10] }
    end
  end
  return rows
end

local function bench(tmp, extra)
  return sh(string.format("BENCH_QUICK=1 BENCH_OUT=%s %s lua5.4 bench/run.lua", tmp, extra or ""))
end

-- the inputs of bench/c/bench.h, computed again here
local function minstd(seed, n)
  local s, t = seed, {}
  for k = 1, n do
    s = s * 48271 % 2147483647
    t[k] = s
  end
  return t
end

-- bench/c/cfunccall.c: an Euler loop calling y' = t - y/2 through a pointer
local function expected_cfunc(n)
  local y, t = 1.0, 0.0
  for _ = 1, n do
    y = y + 1e-7 * (t - 0.5 * y)
    t = t + 1e-7
  end
  return y
end

local function expected_sum(n, seed)
  local total = 0.0
  for _, s in ipairs(minstd(seed, n)) do total = total + s / 2147483647.0 end
  return total
end

-- bench/c/jcenergy.c: sum of 0.5 k x^2 + 0.5 v^2, x from seed, v from seed + 1
local function expected_jcenergy(n, seed, k4)
  local xs, vs, k, e = minstd(seed, n), minstd(seed + 1, n), k4 / 4, 0.0
  for i = 1, n do
    local x, v = xs[i] / 2147483647.0, vs[i] / 2147483647.0
    e = e + (0.5 * k * x * x + 0.5 * v * v)
  end
  return e
end

local function expected_expdecay(n, seed, tau)
  local total = 0.0
  for _, s in ipairs(minstd(seed, n)) do total = total + math.exp(-(s / 2147483647.0) / tau) end
  return total
end

local function expected_ising(N, seed)
  local st, spin = minstd(seed, N * N), {}
  for k, s in ipairs(st) do spin[k] = s >= 1073741824 and 1.0 or -1.0 end
  local e = 0.0
  for i = 0, N - 1 do
    for j = 0, N - 1 do
      e = e - spin[i * N + j + 1] * (spin[i * N + (j + 1) % N + 1] + spin[((i + 1) % N) * N + j + 1])
    end
  end
  return e
end

local function expected_mandelbrot(w, h, max_iter)
  local total = 0
  for i = 0, h - 1 do
    local ci = -1.0 + i * (2.0 / h)
    for j = 0, w - 1 do
      local cr = -2.0 + j * (3.0 / w)
      local zr, zi, n = 0.0, 0.0, 0
      while n < max_iter and zr * zr + zi * zi <= 4.0 do
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        n = n + 1
      end
      total = total + n * ((i * w + j) % 97 + 1)
    end
  end
  return total
end

local function f32(v) return (string.unpack("<f", string.pack("<f", v))) end

local function uniform(seed, n)
  local t = {}
  for k, s in ipairs(minstd(seed, n)) do t[k] = s / 2147483647.0 end
  return t
end

-- float32 a + b, summed as float64 in index order
local function expected_vadd(n, seed_a, seed_b)
  local a, b = uniform(seed_a, n), uniform(seed_b, n)
  local total = 0.0
  for k = 1, n do total = total + f32(f32(a[k]) + f32(b[k])) end
  return total
end

-- one softened n-body step from pos (3 x n, row-major), mass, vel = 0:
-- sum((npos[k] + nvel[k]) * (k % 97 + 1))
local function expected_nbody(n, seed, dt, eps2)
  local pos, mass = uniform(seed, 3 * n), uniform(seed + 1, n)
  local npos, nvel = {}, {}
  for i = 0, n - 1 do
    local ax, ay, az = 0.0, 0.0, 0.0
    for j = 0, n - 1 do
      local dx = pos[j + 1] - pos[i + 1]
      local dy = pos[n + j + 1] - pos[n + i + 1]
      local dz = pos[2 * n + j + 1] - pos[2 * n + i + 1]
      local r2 = dx * dx + dy * dy + dz * dz + eps2
      local inv = mass[j + 1] / (r2 * math.sqrt(r2))
      ax, ay, az = ax + dx * inv, ay + dy * inv, az + dz * inv
    end
    nvel[i + 1], nvel[n + i + 1], nvel[2 * n + i + 1] = 0.0 + dt * ax, 0.0 + dt * ay, 0.0 + dt * az
  end
  for k = 1, 3 * n do npos[k] = pos[k] + dt * nvel[k] end
  local total = 0.0
  for k = 0, 3 * n - 1 do total = total + (npos[k + 1] + nvel[k + 1]) * (k % 97 + 1) end
  return total
end

-- sweeps of the 5-point stencil from u0, boundary fixed:
-- sum(u[k] * (k % 97 + 1)) of the result
local function expected_stencil(n, sweeps, seed)
  local u = uniform(seed, n * n)
  for _ = 1, sweeps do
    local v = {}
    for k = 1, n * n do v[k] = u[k] end
    for i = 1, n - 2 do
      for j = 1, n - 2 do
        local k = i * n + j + 1
        v[k] = 0.25 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1])
      end
    end
    u = v
  end
  local total = 0.0
  for k = 0, n * n - 1 do total = total + u[k + 1] * (k % 97 + 1) end
  return total
end

-- c = a b, each c[i][j] summed over k in order: sum(c[k] * (k % 97 + 1))
local function expected_matmul(n, seed)
  local a, b = uniform(seed, n * n), uniform(seed + 1, n * n)
  local total = 0.0
  for i = 0, n - 1 do
    for j = 0, n - 1 do
      local c = 0.0
      for k = 0, n - 1 do c = c + a[i * n + k + 1] * b[k * n + j + 1] end
      total = total + c * ((i * n + j) % 97 + 1)
    end
  end
  return total
end

-- counts of the MINSTD values by value % nbins: sum(bins[k] * (k + 1))
local function expected_histogram(n, seed, nbins)
  local bins = {}
  for k = 1, nbins do bins[k] = 0 end
  for _, s in ipairs(minstd(seed, n)) do bins[s % nbins + 1] = bins[s % nbins + 1] + 1 end
  local total = 0
  for k = 1, nbins do total = total + bins[k] * k end
  return total
end

-- the array-notation rows' C references: sum(out[k] * (k % 97 + 1))
local function checksum97(out)
  local total = 0.0
  for k = 0, #out - 1 do total = total + out[k + 1] * (k % 97 + 1) end
  return total
end

local function expected_fused(n, seed)
  local x = {}
  for k = 1, 5 do x[k] = uniform(seed + k - 1, n) end
  local out = {}
  for i = 1, n do out[i] = x[1][i] * x[2][i] + x[3][i] * x[4][i] - x[5][i] end
  return checksum97(out)
end

local function expected_clip(n, seed, lo, hi)
  local out = {}
  for i, v in ipairs(uniform(seed, n)) do out[i] = math.min(math.max(v, lo), hi) end
  return checksum97(out)
end

local function expected_softmax(n, m, seed)
  local x, out = uniform(seed, n * m), {}
  for i = 0, n - 1 do
    local mx = x[i * m + 1]
    for j = 1, m - 1 do mx = math.max(mx, x[i * m + j + 1]) end
    local s = 0.0
    for j = 0, m - 1 do
      out[i * m + j + 1] = math.exp(x[i * m + j + 1] - mx)
      s = s + out[i * m + j + 1]
    end
    for j = 0, m - 1 do out[i * m + j + 1] = out[i * m + j + 1] / s end
  end
  return checksum97(out)
end

describe("make bench, BENCH_QUICK #bench #noasan", function()
  local tmp, out, ok, rows

  setup(function()
    tmp = sh("mktemp -d"):gsub("%s+$", "")
    out, ok = bench(tmp)
    rows = read_tsv(tmp .. "/results.tsv")
  end)

  teardown(function()
    if tmp and tmp:match("^/tmp/") then sh("rm -rf " .. tmp) end
  end)

  it("finishes and writes RESULTS.md with the machine, chart.svg and results.tsv", function()
    assert.is_true(ok, out)
    local md = read(tmp .. "/RESULTS.md")
    local cpu = read("/proc/cpuinfo"):match("model name%s*:%s*([^\n]+)")
    assert.truthy(md:find("| CPU | " .. cpu, 1, true))
    assert.truthy(md:find("## Targets", 1, true))
    assert.truthy(md:find("BENCH_QUICK run", 1, true))
    local svg = read(tmp .. "/chart.svg")
    assert.are.equal("<svg ", svg:sub(1, 5))
    assert.are.equal("</svg>\n", svg:sub(-7))
  end)

  it("runs every kernel's C references, and they agree with values computed here", function()
    local want = {
      ["ising-64"] = expected_ising(64, 2024),
      ["sum-1e4"] = expected_sum(10000, 12345),
      ["expdecay-1e4"] = expected_expdecay(10000, 777, 0.5),
      ["mandelbrot-64"] = expected_mandelbrot(64, 48, 200),
      ["psum-1e5"] = expected_sum(100000, 12345),
      ["pexpdecay-1e4"] = expected_expdecay(10000, 777, 0.5),
      ["pmandelbrot-64"] = expected_mandelbrot(64, 48, 200),
      ["pising-64"] = expected_ising(64, 2024),
      ["vadd-1e4"] = expected_vadd(10000, 2718, 3141),
      ["nbody-64"] = expected_nbody(64, 4242, 0.001, 0.01),
      ["stencil-32"] = expected_stencil(32, 10, 99),
      ["matmul-24"] = expected_matmul(24, 31),
      ["histogram-1e4"] = expected_histogram(10000, 4711, 256),
      ["pnbody-64"] = expected_nbody(64, 4242, 0.001, 0.01),
      ["pstencil-32"] = expected_stencil(32, 10, 99),
      ["pmatmul-24"] = expected_matmul(24, 31),
      ["astencil-32"] = expected_stencil(32, 10, 99),
      ["fused-1e4"] = expected_fused(10000, 71),
      ["vfused-1e4"] = expected_fused(10000, 71),
      ["vpfused-1e4"] = expected_fused(10000, 71),
      ["sstencil-32"] = expected_stencil(32, 10, 99),
      ["sostencil-32"] = expected_stencil(32, 10, 99),
      ["clip-1e4"] = expected_clip(10000, 37, 0.25, 0.75),
      ["softmax-64"] = expected_softmax(64, 32, 5),
      ["cfunc-1e4"] = expected_cfunc(10000),
      ["jcenergy-1e4"] = expected_jcenergy(10000, 4242, 3),
    }
    for id, v in pairs(want) do
      assert.is_table(rows[id], id)
      local par = id:sub(1, 1) == "p"
      for _, t in ipairs(par and { "gcc", "clang", "gcc-omp", "clang-omp" } or { "gcc", "clang" }) do
        local r = rows[id][t]
        assert.are.equal("ok", r.status, id .. " " .. t .. ": " .. tostring(r.reason))
        if t:match("omp") and (id:match("^psum") or id:match("^pising")) then
          -- the threads sum in another order
          assert.is_true(math.abs(r.check - v) <= 1e-9 * math.abs(v), id .. " " .. t)
        else
          assert.are.equal(v, r.check, id .. " " .. t)
        end
      end
    end
  end)

  it("has every other tool agree with C, or say why it did not run", function()
    local count = 0
    for id, tools in pairs(rows) do
      if id ~= "latency" then
        local ref = tools.gcc.check
        -- Monte-Carlo pi: every tool draws other numbers (10^5 points: 30 standard errors)
        local rtol = id:match("mandelbrot") and 0 or id:match("^mcpi") and 5e-2 or 1e-9
        for t, r in pairs(tools) do
          -- only a foreign tool the row knows to be wrong there (catalog known_wrong) may fail
          if r.status == "failed" then
            assert.is_true(not t:match("^lumba") and tostring(r.reason):find("; known: ", 1, true) ~= nil,
              id .. " " .. t .. ": " .. tostring(r.reason))
          elseif r.status == "ok" then
            assert.is_true(math.abs(r.check - ref) <= rtol * math.abs(ref), id .. " " .. t)
            count = count + 1
          elseif t:match("^lumba") then
            -- the compiler may be absent or incomplete: then the row says why
            assert.is_true(#r.reason > 0, id .. " " .. t)
          else
            -- a tool missing from this machine is skipped with its name
            assert.are.equal("skip", r.status, id .. " " .. t .. ": " .. tostring(r.reason))
            assert.truthy(r.reason:find("not found", 1, true) or r.reason:find("not available", 1, true) or
              r.reason:find("not run at this size", 1, true), r.reason)
          end
        end
      end
    end
    assert.is_true(count >= 40) -- at least both C builds of the twenty rows
  end)

  it("skips the lumba rows with 'lumba: not available (...)' when its probe fails", function()
    local probe_out, probe_ok = sh("lua5.4 bench/lumba/run.lua probe")
    for id, tools in pairs(rows) do
      if id ~= "latency" then
        local r = tools.lumba
        if probe_ok then
          assert.are_not.equal("skip", r.status, id)
        else
          assert.are.equal("skip", r.status, id)
          local err = probe_out:match("ERROR ([^\n]*)")
          assert.are.equal("lumba: not available (" .. err .. ")", r.reason)
        end
      end
    end
  end)

  it("marks a result that disagrees with C as FAILED and exits with an error", function()
    local tmp2 = sh("mktemp -d"):gsub("%s+$", "")
    local out2, ok2 = bench(tmp2, "BENCH_ONLY=sum BENCH_CORRUPT=lua")
    local r2 = read_tsv(tmp2 .. "/results.tsv")
    local md = read(tmp2 .. "/RESULTS.md")
    sh("rm -rf " .. tmp2)
    assert.is_false(ok2)
    assert.are.equal("failed", r2["sum-1e4"].lua.status)
    assert.are.equal("ok", r2["sum-1e4"].clang.status)
    assert.is_nil(r2["ising-64"])
    assert.truthy(out2:find("FAILED: 1 result(s) disagree with C", 1, true))
    local line = md:match("\n(| plain Lua 5.4, tables |[^\n]*)")
    assert.truthy(line:find("| **FAILED**: result ", 1, true), line)
  end)
end)
