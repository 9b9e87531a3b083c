-- targets.lua — the performance targets of issues 3, 4, 5, 8, 18, 19, 21 and 23, judged from
-- one run's figures: PASS, MISS (by how much), or why it was not measured.
local M = {}

local function find(done, pred)
  for _, d in ipairs(done) do
    if pred(d.row) then return d end
  end
end

local function ok(r) return r and r.status == "ok" end

-- why a figure is missing, short: the rows above carry the whole reason
local function short(reason)
  if reason and reason:match("^lumba: not available") then return "not measured: lumba not available" end
  return reason
end

local function why_not(r, fallback)
  if r and r.status ~= "ok" then
    return short((r.status == "skip" and "" or (r.status:upper() .. ": ")) .. (r.reason or "?"))
  end
  return fallback
end

-- a "measured <= limit" target: PASS, or MISS with the excess in percent
local function at_most(list, issue, what, value, limit, fmt, missing)
  local t = { issue = issue, what = what }
  if value == nil then
    t.status, t.measured = "n/a", missing
  else
    t.measured = string.format(fmt, value)
    if value <= limit then
      t.status = "PASS"
    else
      t.status = "MISS"
      t.detail = string.format("by %.0f%%", (value / limit - 1) * 100)
    end
  end
  list[#list + 1] = t
end

local function at_least(list, issue, what, value, limit, fmt, missing)
  local t = { issue = issue, what = what }
  if value == nil then
    t.status, t.measured = "n/a", missing
  else
    t.measured = string.format(fmt, value)
    if value >= limit then
      t.status = "PASS"
    else
      t.status = "MISS"
      t.detail = string.format("by %.0f%%", (1 - value / limit) * 100)
    end
  end
  list[#list + 1] = t
end

function M.evaluate(done, latency, machine, quick, is_noisy)
  local list = {}
  is_noisy = is_noisy or function() return false end
  -- marks the last target noisy when a figure it used was disturbed
  local function noisy(...)
    local t = list[#list]
    for _, r in ipairs { ... } do
      if is_noisy(r) and (t.status == "PASS" or t.status == "MISS") then
        t.detail = (t.detail and (t.detail .. " ") or "") .. "(noisy: another process was busy)"
        return
      end
    end
  end
  -- the reason of a miss, when this run's figures (or the row) know it
  local function because(text)
    local t = list[#list]
    if t.status == "MISS" and text then t.detail = (t.detail and (t.detail .. "; ") or "") .. text end
  end
  -- a "faster than" missed by less than 3%: the two ran the loop at one speed
  local function tie()
    local t = list[#list]
    local v = t.status == "MISS" and tonumber((t.measured or ""):match("^([%d.]+)"))
    if v and v <= 1.03 then because("within 3%: a tie, inside this run's noise") end
  end
  -- issues 3 and 8: each CPU kernel within 1.10x the faster C, faster than
  -- LuaJIT (2x where the loop vectorises) and faster than Numba; the kernels
  -- issue 3 named first are judged under it, the ones issue 8 added under 8
  local kernels = { { "ising", 3 }, { "sum", 3 }, { "expdecay", 3 }, { "mandelbrot", 3 }, { "vadd", 8 },
    { "nbody", 8 }, { "stencil", 8 }, { "matmul", 8 }, { "histogram", 8 } }
  for _, kv in ipairs(kernels) do
    local k, issue = kv[1], kv[2]
    local d = find(done, function(r) return r.group == "serial" and r.kind == k and r.target end)
    if d then
      local name = d.row.title .. " " .. d.row.size
      local lu, lj, nb = d.results.lumba, d.results.luajit, d.results.numba
      at_most(list, issue, name .. ": lumba ≤ 1.10× fastest C", ok(lu) and lu.ratio or nil, 1.10, "%.2f×",
        why_not(lu, "no C reference"))
      noisy(lu, d.results.gcc, d.results.clang)
      local vec = d.row.vectorises
      at_most(list, vec and 8 or issue, name .. (vec and ": lumba ≥ 2× faster than LuaJIT (vectorised loop: lumba / LuaJIT ≤ 0.5)"
          or ": lumba faster than LuaJIT (lumba / LuaJIT < 1)"),
        ok(lu) and ok(lj) and lu.time.median / lj.time.median or nil, vec and 0.5 or 0.9999, "%.2f×",
        why_not(lu, why_not(lj, "?")))
      noisy(lu, lj)
      if not vec then tie() end
      because(d.row.why_luajit)
      -- a vectorised loop that misses only at the large size is bound by memory there
      local small = find(done, function(r) return r.group == "serial" and r.kind == k and r.lua end)
      if vec and small and ok(small.results.lumba) and ok(small.results.luajit) then
        local q = small.results.lumba.time.median / small.results.luajit.time.median
        if q <= 0.5 then
          because(string.format("at %s (in cache) lumba / LuaJIT is %.2f×: this size is bound by memory bandwidth",
            small.row.size, q))
        end
      end
      at_most(list, 8, name .. ": lumba faster than Numba (lumba / Numba < 1)",
        ok(lu) and ok(nb) and lu.time.median / nb.time.median or nil, 0.9999, "%.2f×",
        why_not(lu, why_not(nb, "?")))
      noisy(lu, nb)
      tie()
    end
  end
  local L = latency
  local function lv(x) return x and x.status == "ok" and x.median or nil end
  local function lwhy(x) return short(x and x.reason or "not run") end
  local llvm_ms = lv(L.llvm_load) and lv(L.llvm_load) * 1e3
  at_most(list, 3, "first call of ising_energy_numba in a fresh process ≤ 30 ms",
    lv(L.lumba_first) and lv(L.lumba_first) * 1e3, 30, "%.3g ms", lwhy(L.lumba_first))
  noisy(L.lumba_first)
  because(llvm_ms and string.format("loading the backend (LLVM) takes %.3g ms of it", llvm_ms))
  at_most(list, 5, "first call with a warm cache (njit{cache=true}, fresh process) ≤ 3 ms",
    lv(L.lumba_cache) and lv(L.lumba_cache) * 1e3, 3, "%.3g ms", lwhy(L.lumba_cache))
  noisy(L.lumba_cache)
  because(llvm_ms and string.format(
    "the cache's fast path missed (LUMBA_DEBUG_CACHE=1 says why), so the hit went through LLVM's JIT, " ..
    "and loading the backend (LLVM) alone takes %.3g ms", llvm_ms))
  local om = L.objmode and L.objmode.status == "ok" and L.objmode.values
  at_most(list, 5, "object mode on ising_energy (N = 500) within 2× of the loop written by hand in plain Lua",
    om and om.OBJMODE / om.HANDLUA or nil, 2, "%.2f×", lwhy(L.objmode))
  local ld = L.lumba_dispatch and L.lumba_dispatch.status == "ok" and L.lumba_dispatch.values.DISPATCH
  at_most(list, 3, "dispatch overhead ≤ 75 ns per call", ld or nil, 75, "%.1f ns", lwhy(L.lumba_dispatch))
  noisy(L.lumba_dispatch)
  at_most(list, 3, "require \"lumba\" ≤ 10 ms", lv(L.lumba_require) and lv(L.lumba_require) * 1e3, 10,
    "%.3g ms", lwhy(L.lumba_require))
  noisy(L.lumba_require)
  at_least(list, 8, "first call ≥ 10× faster than Numba's",
    lv(L.lumba_first) and lv(L.numba_first) and lv(L.numba_first) / lv(L.lumba_first), 10, "%.1f×",
    lwhy(lv(L.lumba_first) and L.numba_first or L.lumba_first))
  noisy(L.lumba_first, L.numba_first)
  because(llvm_ms and string.format("%.3g ms of lumba's first call load the backend; nearly all the rest is LLVM's O3 pipeline and X86 code generator running cold " ..
    "(LUMBA_VERBOSE=1 shows the split; compiling the same function again in that process takes about half as long as this first call); " ..
    "Numba's figure excludes `import numba`, which loads its LLVM",
    llvm_ms))
  local nd = L.numba_dispatch and L.numba_dispatch.status == "ok" and L.numba_dispatch.values.DISPATCH
  at_most(list, 8, "dispatch overhead below Numba's (lumba / Numba < 1)", ld and nd and ld / nd or nil,
    0.9999, "%.2f×", lwhy(ld and L.numba_dispatch or L.lumba_dispatch))
  noisy(L.lumba_dispatch, L.numba_dispatch)
  -- issue 23: chains of calls compile in linear time, load is linear, calls are cheap
  local ls = L.lumba_scaling and L.lumba_scaling.status == "ok" and L.lumba_scaling.values
  local ns = L.numba_scaling and L.numba_scaling.status == "ok" and L.numba_scaling.values
  local function sizes(key)
    local t = {}
    for k, v in pairs(ls or {}) do
      local n = tonumber(k:match("^" .. key .. "(%d+)$"))
      if n then t[#t + 1] = n end
    end
    table.sort(t)
    return t
  end
  local function beside(key, n)
    local nb = ns and ns[key .. n]
    return nb and string.format(" (Numba %.3g s)", nb) or ""
  end
  local chains, loads = sizes("CHAIN"), sizes("LOAD")
  local c1, cn = chains[1], chains[#chains]
  at_most(list, 23, string.format("a chain of %s calling functions compiles in ≤ 1.5 s", cn or "?"),
    cn and ls["CHAIN" .. cn], 1.5, "%.3g s", lwhy(L.lumba_scaling))
  if cn then list[#list].measured = list[#list].measured .. beside("CHAIN", cn) end
  noisy(L.lumba_scaling)
  at_most(list, 23, string.format("compile time linear: chain of %s ≤ 15× chain of %s", cn or "?", c1 or "?"),
    cn and c1 ~= cn and ls["CHAIN" .. cn] / ls["CHAIN" .. c1], 15, "%.2f×", lwhy(L.lumba_scaling))
  noisy(L.lumba_scaling)
  local lmax = loads[#loads]
  at_most(list, 23, string.format("lumba.load of %s small functions ≤ 2 s", lmax or "?"),
    lmax and ls["LOAD" .. lmax], 2, "%.3g s", lwhy(L.lumba_scaling))
  if lmax then list[#list].measured = list[#list].measured .. beside("LOAD", lmax) end
  noisy(L.lumba_scaling)
  local l2k, l200 = ls and ls.LOAD2000, ls and ls.LOAD200
  at_most(list, 23, "lumba.load linear: 2,000 functions ≤ 15× 200", l2k and l200 and l2k / l200, 15, "%.2f×",
    lwhy(L.lumba_scaling))
  noisy(L.lumba_scaling)
  local luafn = L.lumba_dispatch and L.lumba_dispatch.status == "ok" and L.lumba_dispatch.values.LUAFN
  at_most(list, 23, "a scalar call ≤ 1.6× a plain Lua call", ld and luafn and ld / luafn, 1.6, "%.2f×",
    lwhy(L.lumba_dispatch))
  noisy(L.lumba_dispatch)
  at_most(list, 23, "a call with 3 arrays ≤ 4× a plain Lua call with 3 tables",
    ls and ls.DISPATCH3 and ls.LUAFN3 and ls.DISPATCH3 / ls.LUAFN3, 4, "%.2f×", lwhy(L.lumba_scaling))
  if ns and ns.DISPATCH3 then list[#list].measured = list[#list].measured .. string.format(" (Numba %.0f ns)", ns.DISPATCH3) end
  noisy(L.lumba_scaling)
  -- issue 4: parallel speed-up over the same lumba function, and vs C+OpenMP
  local cores = machine.cores
  local need = cores <= 2 and 1.8 or 0.8 * cores
  for _, d in ipairs(done) do
    if d.row.group == "parallel" then
      local name = d.row.title .. " " .. d.row.size
      local s, p = d.results.lumba, d.results["lumba-par"]
      local missing = why_not(p, why_not(s, "?"))
      if cores < 2 then
        list[#list + 1] = { issue = 4, what = name .. ": parallel speed-up", status = "n/a",
          measured = "one core" }
      else
        at_least(list, 4, string.format("%s: speed-up over lumba serial ≥ %.2g× (%d cores)", name, need, cores),
          ok(s) and ok(p) and s.time.median / p.time.median or nil, need, "%.2f×", missing)
        noisy(s, p)
        because((d.row.foreign or 0) > 0.5 and string.format(
          "other processes kept %.2f of the %d cores busy during this row", d.row.foreign, cores) or nil)
        -- a memory-bound loop: C+OpenMP gains no more over C than lumba over lumba
        local function best(a, b)
          local x, y = d.results[a], d.results[b]
          local tx, ty = ok(x) and x.time.median, ok(y) and y.time.median
          return tx and ty and math.min(tx, ty) or tx or ty
        end
        local cs, cp = best("gcc", "clang"), best("gcc-omp", "clang-omp")
        because(ok(s) and ok(p) and cs and cp and p.time.median <= 1.15 * cp and string.format(
          "lumba parallel runs at %.2f× C+OpenMP's time, and its speed-up is over a lumba serial loop at %.2f× " ..
          "serial C's; C+OpenMP gains %.2f× over serial C: a loop bound by the memory bandwidth the cores share",
          p.time.median / cp, s.time.median / cs, cs / cp) or nil)
      end
      at_most(list, 4, name .. ": lumba parallel ≤ 1.15× fastest C+OpenMP", ok(p) and p.ratio or nil, 1.15,
        "%.2f×", why_not(p, "no C+OpenMP reference"))
      noisy(p, d.results["gcc-omp"], d.results["clang-omp"])
    end
  end
  -- issue 18: array notation within 1.15x of lumba's own loops and of C, faster than Numba
  for _, d in ipairs(done) do
    if d.row.group == "array" then
      local name = d.row.title .. " " .. d.row.size
      local a, l, nb = d.results.lumba, d.results["lumba-loop"], d.results.numba
      at_most(list, 18, name .. ": array notation ≤ 1.15× lumba's loops",
        ok(a) and ok(l) and a.time.median / l.time.median or nil, 1.15, "%.2f×", why_not(a, why_not(l, "?")))
      noisy(a, l)
      at_most(list, 18, name .. ": array notation ≤ 1.15× fastest C", ok(a) and a.ratio or nil, 1.15, "%.2f×",
        why_not(a, "no C reference"))
      noisy(a, d.results.gcc, d.results.clang)
      at_most(list, 18, name .. ": faster than Numba (lumba / Numba < 1)",
        ok(a) and ok(nb) and a.time.median / nb.time.median or nil, 0.9999, "%.2f×", why_not(a, why_not(nb, "?")))
      noisy(a, nb)
    end
  end
  -- issue 19: a @ b through OpenBLAS at >= 0.9x the speed of cblas_dgemm called from C
  for _, d in ipairs(done) do
    if d.row.blas_target then
      local a = d.results.lumba
      at_least(list, 19, d.row.title .. " " .. d.row.size .. ": lumba ≥ 0.9× OpenBLAS from C (C's time / lumba's)",
        ok(a) and a.ratio and 1 / a.ratio or nil, 0.9, "%.2f×", why_not(a, "no C reference"))
      noisy(a, d.results.gcc, d.results.clang)
    end
  end
  -- issue 23: calls between compiled functions and float ** int, against Numba
  for _, d in ipairs(done) do
    local name = d.row.title .. " " .. d.row.size
    local function ratio(a, b)
      local x, y = d.results[a], d.results[b]
      return ok(x) and ok(y) and x.time.median / y.time.median or nil, why_not(x, why_not(y, "?"))
    end
    if d.row.kind == "lj" then
      local v, why = ratio("lumba", "numba")
      at_most(list, 23, name .. ": lumba serial ≤ 1.1× Numba serial", v, 1.1, "%.2f×", why)
      noisy(d.results.lumba, d.results.numba)
      v, why = ratio("lumba-par", "numba-par")
      at_most(list, 23, name .. ": lumba parallel ≤ 1.1× Numba parallel", v, 1.1, "%.2f×", why)
      noisy(d.results["lumba-par"], d.results["numba-par"])
      v, why = ratio("lumba-par", "lumba")
      at_most(list, 23, string.format("%s: lumba parallel faster than lumba serial (parallel / serial < 1, %d cores)",
        name, machine.cores), v, 0.9999, "%.2f×", why)
      noisy(d.results["lumba-par"], d.results.lumba)
    elseif d.row.kind == "cfunc" then
      -- issue 21: a @cfunc called through its pointer costs no more than a C indirect call
      local c = d.ev and d.ev.fast_tool or "gcc"  -- the faster of gcc and clang
      local g = d.results[c]
      local v, why = ratio("lumba", c)
      at_most(list, 21, name .. ": ≤ 1.1× a C function called through a pointer", v, 1.1, "%.2f×", why)
      noisy(d.results.lumba, g)
    elseif d.row.group == "calls" then
      local v, why = ratio("lumba", "lumba-hand")
      at_most(list, 23, name .. ": ≤ 1.1× the loop written out by hand", v, 1.1, "%.2f×", why)
      noisy(d.results.lumba, d.results["lumba-hand"])
      v, why = ratio("lumba", "numba")
      at_most(list, 23, name .. ": ≤ 1.1× Numba", v, 1.1, "%.2f×", why)
      noisy(d.results.lumba, d.results.numba)
    end
  end
  -- issue 23 item 3: fastmath exp calls a vector math library, as gcc -ffast-math does
  for _, d in ipairs(done) do
    if d.row.group == "fastmath" then
      local name = d.row.title .. " " .. d.row.size
      local f, g = d.results["lumba-fm"], d.results["gcc-fm"]
      at_most(list, 23, name .. ": lumba fastmath ≤ 1.25× gcc -ffast-math",
        ok(f) and ok(g) and f.time.median / g.time.median or nil, 1.25, "%.2f×", why_not(f, why_not(g, "?")))
      noisy(f, g)
    end
  end
  if quick then
    for _, t in ipairs(list) do
      if t.status == "PASS" or t.status == "MISS" then t.detail = (t.detail or "") .. " (quick sizes)" end
    end
  end
  return list
end

return M
