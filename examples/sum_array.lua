-- Seed 3: summing an array with njit; lazy compilation per argument type.
-- Run: lua5.4 examples/sum_array.lua
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local sum_array_numba = lumba.njit [[
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
