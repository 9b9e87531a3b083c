-- lumba: Numba for Lua 5.4. The C core (lumba.core) holds arrays, the
-- compiler and the CUDA binding; this file adds the curried decorators
-- (njit{opts}(src)) and the Lua-side conveniences.
local core = require "lumba.core"

local lumba = {}
for k, v in pairs(core) do lumba[k] = v end

return lumba
