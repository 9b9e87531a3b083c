-- Seed 3: summing an array with njit; lazy compilation per argument type.
-- Run: lua5.4 examples/sum_array.lua
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

-- @jit (no nopython=True): compiled when it can be, object mode otherwise
local sum_array_numba = lumba.jit [[
from numba import jit
import numpy as np

@jit
def sum_array_numba(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total
]]

local n = os.getenv("LUMBA_EXAMPLE_QUICK") == "1" and 100000 or 10000000
local a = lumba.arange(n, "float64")
local t0 = os.clock()
local s = sum_array_numba(a)                 -- first call: compiles for float64[::1]
local t_first = os.clock() - t0
t0 = os.clock()
s = sum_array_numba(a)                       -- same types: reuses the compiled code
local t_second = os.clock() - t0
local expected = (n - 1) * n / 2
assert(s == expected, ("sum %.17g, expected %.17g"):format(s, expected))
print(("sum of 0..%d = %.0f (first call %.4f s, second %.4f s)"):format(n - 1, s, t_first, t_second))

-- an int32 array is a new signature: compiled on its first call
local b = lumba.arange(1000, "int32")
assert(sum_array_numba(b) == 499500.0)
print("signatures: " .. table.concat(sum_array_numba.signatures, "; "))

-- jit falls back to object mode, with one warning, when it cannot compile:
-- here the function calls a plain Lua function (a Lua-only feature) through env
local calls = 0
local weighted_sum = lumba.jit { env = { weight = function(i) calls = calls + 1; return 1 / (i + 1) end } } [[
def weighted_sum(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i] * weight(i)
    return total
]]
local w = weighted_sum(lumba.ones(4))          -- warns once, runs in object mode
assert(math.abs(w - (1 + 1/2 + 1/3 + 1/4)) < 1e-12 and calls == 4)
assert(weighted_sum.objmode and not sum_array_numba.objmode)
print(("object-mode fallback: weighted_sum = %.4f"):format(w))

-- njit never falls back: the same function is a clear error
local ok, err = pcall(lumba.njit { env = { weight = function(i) return i end } } [[
def weighted_sum(arr):
    return arr[0] * weight(0)
]], lumba.ones(1))
assert(not ok and err:find("TypingError", 1, true))
print("njit refuses it: " .. err:match("TypingError: [^\n]*"))
