-- build.lua — builds the C references (each kernel with gcc and clang, and
-- with -fopenmp for the parallel rows) and the benchclock module into the
-- build directory. Every build is redone each run, so the figures always
-- come from the flags written here.
local sys = require "sys"
local M = {}

-- -ffp-contract=off: no fused multiply-add, the floating-point semantics of
-- Python, Numba, Lua and LuaJIT (GCC would otherwise fuse a*b+c in
-- mandelbrot and change its iteration counts).
M.flags = "-O3 -march=native -ffp-contract=off"
local common = "-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unknown-pragmas"

function M.binary(dir, kernel, tool) return dir .. "/" .. kernel .. "-" .. tool end

-- Builds every kernel for every C tool; returns avail[tool] = true or the
-- reason that tool cannot run (its compiler is missing or failed).
function M.c_refs(root, dir, kernels, tools)
  local avail = {}
  for _, t in ipairs(tools) do
    local cc = t:match("^(%w+)")
    local omp = t:match("%-omp$") and " -fopenmp" or ""
    if t:match("%-fm$") then omp = " -ffast-math" .. (cc == "clang" and " -fveclib=libmvec" or "") end
    if not sys.have(cc) then
      avail[t] = t .. ": " .. cc .. " not found"
    else
      avail[t] = true
      for _, k in ipairs(kernels) do
        local cmd = string.format("%s %s%s %s -o %s %s -lm", cc, M.flags, omp, common,
          sys.quote(M.binary(dir, k, t)), sys.quote(root .. "/bench/c/" .. k .. ".c"))
        local out, ok = sys.shell(cmd)
        if not ok then
          avail[t] = t .. ": build failed: " .. cmd .. ": " .. (out:match("[^\n]*error[^\n]*") or out)
          break
        end
      end
    end
  end
  return avail
end

-- benchclock.so, the wall clock of the Lua 5.4 runners; false if it fails
-- (the runners then fall back to luasystem or os.clock and say so)
function M.clock(root, dir)
  local inc = sys.line("pkg-config --cflags-only-I lua5.4") or "-I/usr/include/lua5.4"
  local cmd = string.format("cc -O2 -shared -fPIC %s -o %s %s", inc,
    sys.quote(dir .. "/benchclock.so"), sys.quote(root .. "/bench/c/lclock.c"))
  local out, ok = sys.shell(cmd)
  return ok, out
end

return M
