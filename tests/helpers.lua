-- Shared tools for the specs.
local lumba = require "lumba"
local H = {}

-- it() for GPU-only tests: pending with "[needs CUDA]" where no GPU is
function H.gpu_it(name, fn)
  local ok = lumba.cuda.is_available()
  if ok then it(name, fn) else pending("[needs CUDA] " .. name) end
end

function H.assert_close(expected, got, rtol, atol)
  rtol = rtol or 1e-12
  atol = atol or 0
  local diff = math.abs(expected - got)
  if not (diff <= atol + rtol * math.abs(expected)) then
    error(string.format("expected %.17g, got %.17g (rtol %g)", expected, got, rtol), 2)
  end
end

-- the error message of f(...), failing the test when f does not raise
function H.error_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error, got none", 2) end
  return tostring(err)
end

return H
