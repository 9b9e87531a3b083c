-- lumba.vectorize: Numba's @vectorize (ufunc objects) and @guvectorize
-- (generalized ufuncs), from lumba.load and from Lua. A ufunc keeps its
-- def's source; a call from Lua runs a small compiled wrapper of the same
-- source that calls the def on its arguments: the compiler treats a call
-- of a @vectorize def on arrays as a NumPy ufunc (infer_vectorize.c), so
-- broadcasting, loop choice and dtypes are the compiler's, and compiled
-- functions of the module calling the ufunc get the same fused loop.
local V = {}

local H  -- init.lua's helpers: make, signatures_of, const_value, qualified

local ufunc_mt, gufunc_mt = {}, {}
local split_sig, add_loop, result_dtype
local state = setmetatable({}, { __mode = "k" })  -- ufunc object → its source, options, wrappers

local VEC_DECORATORS = {
  vectorize = "vectorize", ["numba.vectorize"] = "vectorize",
  guvectorize = "guvectorize", ["numba.guvectorize"] = "guvectorize",
  stencil = "stencil", ["numba.stencil"] = "stencil", ["numba.stencils.stencil.stencil"] = "stencil",
}

-- "vectorize", "guvectorize", "stencil" or nil for a def's decorator list
function V.decorator_kind(def, mod)
  for _, dec in ipairs(def.decorator_list or {}) do
    local f = dec.tag == "Call" and dec.func or dec
    local q = H.qualified(f, mod)
    local k = q and VEC_DECORATORS[q]  -- through the imports: nb.vectorize, from numba import stencil
    if k then return k, dec end
  end
end

local function errf(chunk, node, fmt, ...)
  error(("%s:%d:%d: " .. fmt):format(chunk, node.lineno or 0, (node.col_offset or 0) + 1, ...), 0)
end

local TARGETS = { cpu = true, parallel = true, cuda = true }

-- the decorator's options as a table: signatures (texts), target, fastmath, ...
local function vec_options(dec, def, mod, chunk, kind)
  local o = { signatures = {} }
  if dec.tag ~= "Call" then return o end
  local what = ("'@%s' on '%s'"):format(kind, def.name)
  local args = dec.args
  if args[1] then
    local a = args[1]
    local list = (a.tag == "List" or a.tag == "Tuple") and a.elts or { a }
    for i, e in ipairs(list) do
      if e.tag == "Tuple" then  -- guvectorize's (float64[:], float64, float64[:])
        local parts = {}
        for j, t in ipairs(e.elts) do parts[j] = H.signatures_of(t, mod, chunk, what)[1] end
        o.signatures[i] = "void(" .. table.concat(parts, ", ") .. ")"
      else
        o.signatures[i] = H.signatures_of(e, mod, chunk, what)[1]
      end
    end
  end
  if kind == "guvectorize" then
    local lay = args[2]
    if not (lay and lay.tag == "Constant" and type(lay.value) == "string") then
      errf(chunk, lay or dec, "%s needs a layout string such as '(n),()->(n)' as its second argument", what)
    end
    o.layout, o.layout_node = lay.value, lay
  elseif args[2] then
    errf(chunk, args[2], "%s takes one positional argument, the list of signatures", what)
  end
  for _, kw in ipairs(dec.keywords) do
    local v = H.const_value(kw.value, "decorator option " .. tostring(kw.arg))
    if kw.arg == "target" then
      if not TARGETS[v] then errf(chunk, kw.value, "unknown target '%s' of %s (cpu, parallel or cuda)", tostring(v), what) end
      o.target = v
    elseif kw.arg == "identity" then
      -- Numba's values: 0, 1, None (no identity) or "reorderable" (none, but axes may be reordered)
      if v ~= 0 and v ~= 1 and v ~= "reorderable" and not (kw.value.tag == "Constant" and kw.value.value == nil) then
        errf(chunk, kw.value, "identity of %s must be 0, 1, None or 'reorderable'", what)
      end
      if v == 0 or v == 1 then o.identity = math.tointeger(v) end
    elseif kw.arg == "fastmath" or kw.arg == "cache" or kw.arg == "nopython"
        or kw.arg == "nogil" or kw.arg == "forceobj" or kw.arg == "boundscheck" or kw.arg == "writable_args" then
      if kw.arg == "fastmath" then o.fastmath = v end
    else
      errf(chunk, kw.value or kw, "unknown option '%s' of %s", tostring(kw.arg), what)
    end
  end
  return o
end

-- ---- dtypes on the Lua side ----

local KIND = {}
for _, d in ipairs({ "bool" }) do KIND[d] = "b" end
for _, d in ipairs({ "int8", "int16", "int32", "int64" }) do KIND[d] = "i" end
for _, d in ipairs({ "uint8", "uint16", "uint32", "uint64" }) do KIND[d] = "u" end
for _, d in ipairs({ "float32", "float64" }) do KIND[d] = "f" end
local SIZE = { bool = 1, int8 = 1, uint8 = 1, int16 = 2, uint16 = 2, int32 = 4, uint32 = 4, float32 = 4,
  int64 = 8, uint64 = 8, float64 = 8 }

local function cast_safe(f, t)
  if f == t or f == "bool" then return true end
  local kf, kt, sf, st = KIND[f], KIND[t], SIZE[f], SIZE[t]
  if not kf or not kt then return false end
  if kt == "b" or kf == "f" then return kt == kf and st >= sf end
  if kt == "f" then return st == 8 or sf <= 2 end
  if kf == kt then return sf <= st end
  return kf == "u" and sf < st
end

local array_mt
local function is_array(x)
  array_mt = array_mt or getmetatable(V.lumba.zeros(0))
  return type(x) == "userdata" and getmetatable(x) == array_mt
end

local function is_dev(x) return getmetatable(x) == "lumba.devicearray" end

local function as_array(x)
  if type(x) == "table" then return V.lumba.array(x) end
  return x
end

-- ufuncs loop over numbers: a record array (host or device) is refused by
-- name, as argument i of what, an error at level (Numba's ufuncs have no
-- loop for a record dtype either)
local function no_record(x, i, what, level)
  if not (is_array(x) or is_dev(x)) then return end
  local dt = x.dtype  -- a record's dtype object (a device array's: its name)
  local name = type(dt) ~= "string" and dt.name or dt:match("^Record%(") and dt
  if name then
    error(("bad argument #%d to %s (an array of record dtype %s: ufuncs take numbers; pass one of its fields, "
      .. "such as a.x)"):format(i, what, name), level + 1)
  end
end

-- ---- the wrappers ----

-- an error raised in a wrapper's own lines is about the call: its message
-- without the wrapper's position and source line (errors in the user's
-- defs keep theirs)
function V.at_call(st, msg)
  msg = tostring(msg)
  local _, nl = st.src:gsub("\n", "")
  local line, rest = msg:match("^[^\n]-:(%d+):%d+: (.*)$")
  if line and tonumber(line) > nl + 1 then
    rest = rest:gsub("^%u%a+Error: ", ""):gsub("\n.*$", "")
    return rest
  end
  -- the traceback form (message, then "<chunk>:l:c: in __lumba_ufunc_...")
  local head = msg:match("^(.-)\n[^\n]-:%d+:%d+: in __lumba_ufunc_[%w_]*\n")
  if head then return head end
  return msg
end

local function params(n, prefix)
  local t = {}
  for i = 1, n do t[i] = (prefix or "a") .. (i - 1) end
  return table.concat(t, ", ")
end

local function wrapper(u, key, text, extra)
  local st = state[u]
  local d = st.wrappers[key]
  if d then return d end
  local opts = { name = text:match("def ([%w_]+)"), chunkname = st.chunk, env = st.env, decorators_read = true,
    locals_named = true, siblings = st.siblings, fastmath = st.fastmath }
  for k, v in pairs(extra or {}) do opts[k] = v end
  d = H.make(st.src .. "\n" .. text, opts, st.globals, st.locals)
  st.wrappers[key] = d
  return d
end

local function kind_rank(dt) return KIND[dt] == "b" and 0 or KIND[dt] == "f" and 2 or 1 end

-- a lazy ufunc's loops: the inputs' types appended when no loop so far fits
-- them (Numba's DUFunc; the compiler picks the loop, infer_vectorize.c)
function add_loop(u, args, nin, any_array)
  local dts, strong, top = {}, {}, 0
  for i = 1, nin do
    local a = args[i]
    if is_array(a) then
      dts[i], strong[i] = a.dtype, true
      top = math.max(top, kind_rank(a.dtype))
    else
      dts[i] = type(a) == "boolean" and "bool" or math.type(a) == "integer" and "int64" or "float64"
    end
  end
  for i = 1, nin do strong[i] = strong[i] or not any_array or kind_rank(dts[i]) > top end
  for _, s in ipairs(u._vectorize) do
    local parts, ok = split_sig(s), true
    for i = 1, nin do
      local t = parts[i]:match("[%w_]+")
      ok = ok and (strong[i] and cast_safe(dts[i], t) or not strong[i] and kind_rank(t) >= kind_rank(dts[i]))
    end
    if ok then return end
  end
  u._vectorize[#u._vectorize + 1] = "(" .. table.concat(dts, ", ") .. ")"
end

-- u(a0, ..., out) with out an array; u(a0, ...) a new array or a number
local function ufunc_call(u, ...)
  local st = state[u]
  local n, nin = select("#", ...), st.nin
  if n ~= nin and n ~= nin + 1 then
    error(("ufunc '%s' takes %d arguments (and an optional output array), got %d"):format(st.name, nin, n), 2)
  end
  local args, any_array = { ... }, false
  for i = 1, nin do
    local a = as_array(args[i])
    if type(a) ~= "number" and type(a) ~= "boolean" and not is_array(a) and not (st.target == "cuda" and is_dev(a)) then
      error(("bad argument #%d to ufunc '%s' (number, table or array expected, got %s)"):format(i, st.name, type(a)), 2)
    end
    no_record(a, i, ("ufunc '%s'"):format(st.name), 2)
    args[i] = a
    any_array = any_array or is_array(a)
  end
  if args[nin + 1] ~= nil then no_record(args[nin + 1], nin + 1, ("ufunc '%s'"):format(st.name), 2) end
  if st.target == "cuda" then return V.cuda_ufunc_call(u, st, args, nin) end
  if u._lazy then add_loop(u, args, nin, any_array) end
  local out = args[nin + 1]
  local ok, r
  if out ~= nil then
    if not is_array(out) then error(("bad argument #%d to ufunc '%s' (output array expected)"):format(nin + 1, st.name), 2) end
    local d = wrapper(u, "out", ("def __lumba_ufunc_out(%s, out):\n    %s(%s, out)\n"):format(params(nin), st.name, params(nin)))
    ok, r = pcall(d, table.unpack(args, 1, nin + 1))
    r = out
  elseif st.target == "parallel" and any_array then
    -- a prange over the first axis of the broadcast shape, each row one fused loop
    local pat, nd = {}, 0
    for i = 1, nin do
      local a = args[i]
      pat[i] = is_array(a) and a.ndim or 0
      if pat[i] > nd then nd = pat[i] end
    end
    local key = "par" .. nd .. ":" .. table.concat(pat, ",")
    local lines = { ("def __lumba_ufunc_par(%s):"):format(params(nin)) }
    local probe, shape, elems = {}, {}, {}
    for i = 1, nin do
      local a = "a" .. (i - 1)
      if pat[i] > 0 then
        probe[i] = a .. "[" .. (":1, "):rep(pat[i]):sub(1, -3) .. "]"
        elems[i] = "b" .. (i - 1) .. "[i]"
      else
        probe[i], elems[i] = a, a
      end
    end
    for k = 1, nd do
      local s = "1"
      for i = 1, nin do
        local j = k - (nd - pat[i])
        if pat[i] > 0 and j >= 1 then s = ("max(%s, a%d.shape[%d])"):format(s, i - 1, j - 1) end
      end
      shape[k] = s
    end
    lines[#lines + 1] = ("    out = __lumba_np.empty((%s,), %s(%s).dtype)"):format(table.concat(shape, ", "), st.name,
      table.concat(probe, ", "))
    for i = 1, nin do
      if pat[i] > 0 then lines[#lines + 1] = ("    b%d = __lumba_np.broadcast_to(a%d, out.shape)"):format(i - 1, i - 1) end
    end
    lines[#lines + 1] = "    for i in __lumba_prange(out.shape[0]):"
    lines[#lines + 1] = ("        out[i] = %s(%s)"):format(st.name, table.concat(elems, ", "))
    lines[#lines + 1] = "    return out"
    lines[#lines + 1] = "import numpy as __lumba_np"
    lines[#lines + 1] = "from numba import prange as __lumba_prange"
    local d = wrapper(u, key, table.concat(lines, "\n") .. "\n", { parallel = true })
    ok, r = pcall(d, table.unpack(args, 1, nin))
  else
    local d = wrapper(u, "call", ("def __lumba_ufunc_call(%s):\n    return %s(%s)\n"):format(params(nin), st.name, params(nin)))
    ok, r = pcall(d, table.unpack(args, 1, nin))
  end
  if not ok then error(V.at_call(st, r), 2) end
  return r
end
ufunc_mt.__call = ufunc_call
ufunc_mt.__name = "lumba.ufunc"
ufunc_mt.__tostring = function(u) return ("<lumba.ufunc '%s'>"):format(state[u].name) end

local ufunc_methods = {}
ufunc_mt.__index = function(u, k)
  if k == "nin" then return state[u].nin end
  if k == "nout" then return 1 end
  if k == "__name__" then return state[u].name end
  if k == "target" then return state[u].target end
  if k == "identity" then return state[u].identity end
  return ufunc_methods[k]
end

-- the dtype of u's result for nin inputs of a's dtype (the loop NumPy's rule picks)
function result_dtype(u, a, nin)
  local probe = {}
  for i = 1, nin do probe[i] = V.lumba.zeros(1, a.dtype) end
  local ok, r = pcall(ufunc_call, u, table.unpack(probe, 1, nin))
  if not ok then error(r, 3) end
  return r.dtype
end

local function binary_only(st, what)
  if st.nin ~= 2 then error(("%s only supported for binary functions ('%s' takes %d)"):format(what, st.name, st.nin), 3) end
end

-- the array and 0-based axis (0 by default, negative from the end) of
-- u:reduce/u:accumulate; errors at the method's caller
local function array_axis(a, axis, method, scalar_msg)
  a = as_array(a)
  if not is_array(a) then error(("bad argument #1 to '%s' (array or table expected)"):format(method), 3) end
  no_record(a, 1, ("'%s'"):format(method), 3)
  local nd = a.ndim
  if nd == 0 then error(scalar_msg, 3) end
  axis = axis or 0
  if math.type(axis) ~= "integer" then error(("bad argument #2 to '%s' (integer axis expected)"):format(method), 3) end
  if axis < 0 then axis = axis + nd end
  if axis < 0 or axis >= nd then error(("axis %d is out of bounds for array of dimension %d"):format(axis, nd), 3) end
  return a, axis, nd
end

-- u:accumulate(a [, axis]): NumPy's ufunc.accumulate: r[0] = a[0], r[i] = u(r[i-1], a[i]) along axis (0 by default)
function ufunc_methods.accumulate(u, a, axis)
  local st = state[u]
  binary_only(st, "accumulate")
  local nd
  a, axis, nd = array_axis(a, axis, "accumulate", "cannot accumulate on a scalar")
  local step = nd == 1 and "        r[i] = %s(r[i - 1], b[i])\n" or "        %s(r[i - 1], b[i], r[i])\n"
  local text = ("def __lumba_ufunc_accumulate(a, o):\n    b = __lumba_np.moveaxis(a, %d, 0)\n"
    .. "    r = __lumba_np.moveaxis(o, %d, 0)\n    if b.shape[0] > 0:\n        r[0] = b[0]\n"
    .. "    for i in range(1, b.shape[0]):\n" .. step .. "import numpy as __lumba_np\n"):format(axis, axis, st.name)
  local out = V.lumba.zeros(a.shape, result_dtype(u, a, 2))
  local d = wrapper(u, "accumulate" .. nd .. ":" .. axis, text)
  local ok, r = pcall(d, a, out)
  if not ok then error(V.at_call(st, r), 2) end
  return out
end

-- u:outer(a, b): NumPy's ufunc.outer: r[i..., j...] = u(a[i...], b[j...]), shape a.shape .. b.shape
function ufunc_methods.outer(u, a, b)
  local st = state[u]
  binary_only(st, "outer product")
  a, b = as_array(a), as_array(b)
  if type(a) == "number" or type(a) == "boolean" then return ufunc_call(u, a, b) end
  if not is_array(a) then error("bad argument #1 to 'outer' (array, table or number expected)", 2) end
  no_record(a, 1, "'outer'", 2)
  no_record(b, 2, "'outer'", 2)
  local shape = {}
  for k = 1, a.ndim do shape[k] = a.shape[k] end
  for _ = 1, is_array(b) and b.ndim or 0 do shape[#shape + 1] = 1 end
  if #shape == 0 then return ufunc_call(u, a, b) end
  local ok, r = pcall(ufunc_call, u, a:reshape(shape), b)
  if not ok then error(r, 2) end
  return r
end

-- u:at(a, indices [, b]): NumPy's unbuffered in-place ufunc.at on a 1-D
-- array: for each k, a[indices[k]] = u(a[indices[k]], b[k]) (b broadcast;
-- one-input ufuncs take no b); indices are NumPy's (0-based, negative from
-- the end), repeated indices apply each time
function ufunc_methods.at(u, a, idx, b)
  local st = state[u]
  if not is_array(a) then error("bad argument #1 to 'at' (array expected)", 2) end
  if a.ndim ~= 1 then error("bad argument #1 to 'at' (lumba's ufunc.at takes a 1-D array)", 2) end
  if type(idx) == "number" then idx = { idx } end
  idx = as_array(idx)
  if not is_array(idx) or not (idx.dtype:match("int") or idx.dtype == "bool") then
    error("bad argument #2 to 'at' (integer indices expected)", 2)
  end
  if idx.dtype == "bool" then error("bad argument #2 to 'at' (boolean masks are not indices for at)", 2) end
  local text
  if st.nin == 1 then
    if b ~= nil then error(("ufunc '%s' takes one input: at(a, indices) has no b"):format(st.name), 2) end
    text = ("def __lumba_ufunc_at1(a, idx):\n    n = a.shape[0]\n    for k in range(idx.shape[0]):\n"
      .. "        i = idx[k]\n        if i < -n or i >= n:\n"
      .. "            raise IndexError('index out of bounds for ufunc.at')\n"
      .. "        a[i] = %s(a[i])\n"):format(st.name)
    local d = wrapper(u, "at1", text)
    local ok, r = pcall(d, a, idx:reshape(-1))
    if not ok then error(V.at_call(st, r), 2) end
    return
  end
  binary_only(st, "at")
  if b == nil then error(("ufunc '%s' takes two inputs: at(a, indices, b) needs b"):format(st.name), 2) end
  b = as_array(b)
  local flat = idx:reshape(-1)
  if type(b) == "number" or type(b) == "boolean" then b = V.lumba.full(flat.size, b, V.lumba.array({ b }).dtype) end
  if not is_array(b) then error("bad argument #3 to 'at' (array, table or number expected)", 2) end
  if b.size == 1 and flat.size ~= 1 then b = V.lumba.full(flat.size, b:reshape(-1)[1], b.dtype) end
  if b.size ~= flat.size then
    error(("shape mismatch: the %d values do not broadcast to the %d indices of 'at'"):format(b.size, flat.size), 2)
  end
  text = ("def __lumba_ufunc_at2(a, idx, b):\n    n = a.shape[0]\n    for k in range(idx.shape[0]):\n"
    .. "        i = idx[k]\n        if i < -n or i >= n:\n"
    .. "            raise IndexError('index out of bounds for ufunc.at')\n"
    .. "        a[i] = %s(a[i], b[k])\n"):format(st.name)
  local d = wrapper(u, "at2", text)
  local ok, r = pcall(d, a, flat, b:reshape(-1))
  if not ok then error(V.at_call(st, r), 2) end
end

-- u:reduce(a [, axis]): NumPy's ufunc.reduce of a two-input ufunc, axis 0 by default
function ufunc_methods.reduce(u, a, axis)
  local st = state[u]
  if st.nin ~= 2 then error(("reduce only supported for binary functions ('%s' takes %d)"):format(st.name, st.nin), 2) end
  local nd
  a, axis, nd = array_axis(a, axis, "reduce", "cannot reduce a 0-d array")
  local n = a.shape[axis + 1]
  if n == 0 then
    if st.identity == nil then
      error(("zero-size array to reduction operation %s which has no identity"):format(st.name), 2)
    end
    -- NumPy: the identity, in the dtype of the loop the array's dtype picks
    local dt = result_dtype(u, a, 2)
    if nd == 1 then return dt:match("^float") and st.identity + 0.0 or dt == "bool" and st.identity == 1 or st.identity end
    local shape = {}
    for k = 1, nd do if k ~= axis + 1 then shape[#shape + 1] = a.shape[k] end end
    return V.lumba.full(shape, st.identity, dt)
  end
  local text
  if nd == 1 then
    text = ("def __lumba_ufunc_reduce(a):\n    acc = a[0]\n    for i in range(1, a.shape[0]):\n"
      .. "        acc = %s(acc, a[i])\n    return acc\n"):format(st.name)
    local d = wrapper(u, "reduce1", text)
    if n >= 2 then
      text = ("def __lumba_ufunc_reduce2(a):\n    acc = %s(a[0], a[1])\n    for i in range(2, a.shape[0]):\n"
        .. "        acc = %s(acc, a[i])\n    return acc\n"):format(st.name, st.name)
      d = wrapper(u, "reduce2", text)
    end
    local ok, r = pcall(d, a)
    if not ok then error(V.at_call(st, r), 2) end
    return r
  end
  if n == 1 then
    text = ("def __lumba_ufunc_reduce1n(a):\n    return __lumba_np.moveaxis(a, %d, 0)[0].copy()\n"
      .. "import numpy as __lumba_np\n"):format(axis)
  else
    text = ("def __lumba_ufunc_reducen(a):\n    b = __lumba_np.moveaxis(a, %d, 0)\n    acc = %s(b[0], b[1])\n"
      .. "    for i in range(2, b.shape[0]):\n        %s(acc, b[i], acc)\n    return acc\n"
      .. "import numpy as __lumba_np\n"):format(axis, st.name, st.name)
  end
  local d = wrapper(u, (n == 1 and "reduce1n" or "reducen") .. axis, text)
  local ok, r = pcall(d, a)
  if not ok then error(V.at_call(st, r), 2) end
  return r
end

local function check_sigs(sigs, nin, chunk, name, at)
  for _, s in ipairs(sigs) do
    local args = split_sig(s)
    if args and #args ~= nin then
      local where = at and ("%s:%d:%d: "):format(chunk, at.lineno or 0, (at.col_offset or 0) + 1) or ""
      error(("%sthe signature '%s' of ufunc '%s' has %d arguments but '%s' takes %d"):format(where, s, name, #args,
        name, nin), 0)
    end
  end
end

-- a ufunc object for the def `name` of src (opts: signatures, target, fastmath, chunkname, env, siblings)
function V.ufunc(src, name, nin, opts, globals, locals)
  if opts.target == "cuda" and (not opts.signatures or #opts.signatures == 0) then
    error(("ufunc '%s': target 'cuda' needs a list of signatures, as numba-cuda's"):format(name), 0)
  end
  local lazy = not opts.signatures or #opts.signatures == 0
  if not lazy and opts.target ~= "cuda" then
    -- the kernel compiled for each signature now, as Numba does: a bad
    -- signature or a typing error in the def is reported where it is made
    local ok, err = pcall(H.make, src, { name = name, signatures = opts.signatures, chunkname = opts.chunkname,
      env = opts.env, decorators_read = true, locals_named = true, fastmath = opts.fastmath }, globals, locals)
    if not ok then
      err = tostring(err):gsub("^[^\n]-vectorize%.lua:%d+: ", "")
      if err:find("^bad signature") or not err:find("^[^\n]-:%d+:%d+: ") then
        error(("ufunc '%s': %s"):format(name, err), 0)
      end
      error({ positioned = err }, 0)
    end
  end
  local u = setmetatable({ _vectorize = lazy and {} or opts.signatures, _lazy = lazy }, ufunc_mt)
  local siblings = opts.siblings or {}
  siblings[name] = u
  state[u] = { src = src, name = name, nin = nin, target = opts.target or "cpu", fastmath = opts.fastmath,
    identity = opts.identity,
    chunk = opts.chunkname, env = opts.env, siblings = siblings, globals = globals, locals = locals, wrappers = {} }
  return u
end

-- ---- guvectorize ----

-- "(n),()->(n)" → { ins = {{"n"}, {}}, outs = {{"n"}} }
local function parse_layout(s)
  local lhs, rhs = s:gsub("%s", ""):match("^(.*)%->(.*)$")
  if not lhs then return nil, "no '->'" end
  local function groups(t)
    local list, rest = {}, t
    while rest ~= "" do
      local g, after = rest:match("^%(([%w_,]*)%)(.*)$")
      if not g then return nil end
      local dims = {}
      for d in g:gmatch("[^,]+") do
        if not d:match("^[%a_][%w_]*$") and not d:match("^%d+$") then return nil end
        dims[#dims + 1] = d
      end
      list[#list + 1] = dims
      rest = after:gsub("^,", "", 1)
      if after ~= "" and after:sub(1, 1) ~= "," then return nil end
    end
    return list
  end
  local ins, outs = groups(lhs), groups(rhs)
  if not ins or not outs or #outs == 0 then return nil, "expected groups such as (n,m) separated by commas" end
  return { ins = ins, outs = outs }
end

-- "float64[:, :]" → "float64", 2
local function sig_arg(t)
  local base, dims = t:match("^%s*([%w_]+)%s*%[(.*)%]%s*$")
  if base then
    local _, n = dims:gsub(":", "")
    _, n = dims:gsub("[^,]+", "")
    return base, n
  end
  return (t:match("^%s*([%w_]+)%s*$")), 0
end

function split_sig(s)
  local inner = s:match("^%s*[%w_]*%s*%((.*)%)%s*$")
  if not inner then return nil end
  local args, depth, cur = {}, 0, ""
  for c in inner:gmatch(".") do
    if c == "[" then depth = depth + 1 elseif c == "]" then depth = depth - 1 end
    if c == "," and depth == 0 then args[#args + 1] = cur; cur = "" else cur = cur .. c end
  end
  if cur:match("%S") then args[#args + 1] = cur end
  return args
end


-- a gufunc output's shape: the loop dimensions, then its core dimensions
-- (numbers, or names sized by the inputs); { 1 } for a scalar output.
-- level: error()'s, counted from the caller of out_shape
local function out_shape(st, lead, core, dims, level)
  local shape = {}
  for k = 1, #lead do shape[k] = lead[k] end
  for k = 1, #core do
    local s = tonumber(core[k]) or dims[core[k]]
    if not s then
      error(("gufunc '%s': the size of output dimension '%s' is not known from the inputs"):format(st.name, core[k]), level)
    end
    shape[#shape + 1] = s
  end
  return #shape > 0 and shape or { 1 }
end

function V.gufunc(src, name, nparams, opts, globals, locals, at)
  local chunk = opts.chunkname or "<string>"
  local function fail(fmt, ...)
    local where = at and ("%s:%d:%d: "):format(chunk:gsub("^[@=]", ""), at.lineno or 0, (at.col_offset or 0) + 1) or ""
    error(where .. fmt:format(...), 0)
  end
  local lay, why = parse_layout(opts.layout or "")
  if not lay then fail("bad layout '%s' of gufunc '%s': %s", tostring(opts.layout), name, why) end
  local nargs = #lay.ins + #lay.outs
  if nargs ~= nparams then
    fail("the layout '%s' names %d arrays but '%s' takes %d parameters", opts.layout, nargs, name, nparams)
  end
  local loops = {}
  for i, s in ipairs(opts.signatures or {}) do
    local parts = split_sig(s)
    if not parts or #parts ~= nargs then
      fail("the signature '%s' of gufunc '%s' must list %d types, as its layout '%s'", s, name, nargs, opts.layout)
    end
    local l = {}
    for j, p in ipairs(parts) do
      local dt, nd = sig_arg(p)
      local core = j <= #lay.ins and lay.ins[j] or lay.outs[j - #lay.ins]
      if not SIZE[dt] then fail("unknown type '%s' in the signature '%s' of gufunc '%s'", p, s, name) end
      -- an output with no core dimensions is a 1-element array in Numba's signatures
      if nd ~= #core and not (j > #lay.ins and #core == 0 and nd == 1) then
        fail("argument %d of the signature '%s' has %d dimensions but the layout '%s' gives it %d", j, s, nd,
          opts.layout, #core)
      end
      l[j] = dt
    end
    loops[i] = l
  end
  if #loops == 0 then fail("gufunc '%s' needs a list of signatures (lumba compiles no lazy @guvectorize)", name) end
  local g = setmetatable({}, gufunc_mt)
  local siblings = opts.siblings or {}
  state[g] = { src = src, name = name, lay = lay, loops = loops, target = opts.target or "cpu", fastmath = opts.fastmath,
    chunk = opts.chunkname, env = opts.env, siblings = siblings, globals = globals, locals = locals, wrappers = {},
    layout = opts.layout }
  return g
end

local function shape_text(s)
  local t = {}
  for i, v in ipairs(s) do t[i] = tostring(v) end
  return "(" .. table.concat(t, ", ") .. (#t == 1 and ",)" or ")")
end

local function gufunc_call(g, ...)
  local st = state[g]
  local lay, nin, nout = st.lay, #st.lay.ins, #st.lay.outs
  local n = select("#", ...)
  if n ~= nin and n ~= nin + nout then
    error(("gufunc '%s' takes %d inputs (and %d output arrays), got %d arguments"):format(st.name, nin, nout, n), 2)
  end
  local args = { ... }
  for i = 1, n do
    args[i] = as_array(args[i])
    if type(args[i]) ~= "number" and not is_array(args[i]) and not (st.target == "cuda" and is_dev(args[i])) then
      error(("bad argument #%d to gufunc '%s' (number, table or array expected, got %s)"):format(i, st.name, type(args[i])), 2)
    end
    no_record(args[i], i, ("gufunc '%s'"):format(st.name), 2)
  end
  -- the loop: the first signature every input casts to safely
  local loop
  for _, l in ipairs(st.loops) do
    local ok = true
    for i = 1, nin do
      local a = args[i]
      local arr = is_array(a) or is_dev(a)
      local dt = arr and a.dtype or (math.type(a) == "integer" and "int64" or "float64")
      if not cast_safe(dt, l[i]) and not (not arr and KIND[dt] ~= "f" or (not arr and KIND[l[i]] == "f")) then
        ok = false
      end
    end
    if ok then loop = l break end
  end
  if not loop then
    local ts = {}
    for i = 1, nin do ts[i] = (is_array(args[i]) or is_dev(args[i])) and args[i].dtype or math.type(args[i]) end
    error(("gufunc '%s' has no loop for the input types (%s) under NumPy's safe casting"):format(st.name,
      table.concat(ts, ", ")), 2)
  end
  -- core dimensions bound, leading (loop) dimensions broadcast
  local dims, lead, leadnd = {}, {}, 0
  local function bind(i, core, shape, nd)
    for k = 1, #core do
      local d, size = core[k], shape[nd - #core + k]
      local want = tonumber(d) or dims[d]
      if want and want ~= size then
        error(("gufunc '%s': core dimension '%s' of argument %d is %d, expected %d (layout '%s')"):format(st.name, d, i,
          size, want, st.layout), 3)
      end
      if not tonumber(d) then dims[d] = size end
    end
  end
  local leads = {}
  for i = 1, nin do
    local a, core = args[i], lay.ins[i]
    local nd = (is_array(a) or is_dev(a)) and a.ndim or 0
    if nd < #core then
      error(("gufunc '%s': argument %d has %d dimensions, its layout '(%s)' needs at least %d"):format(st.name, i, nd,
        table.concat(core, ","), #core), 2)
    end
    local shape = (is_array(a) or is_dev(a)) and a.shape or {}
    bind(i, core, shape, nd)
    leads[i] = nd - #core
    if leads[i] > leadnd then
      for k = leadnd + 1, leads[i] do table.insert(lead, 1, 1) end
      leadnd = leads[i]
    end
    for k = 1, leads[i] do
      local j = leadnd - leads[i] + k
      local s = shape[k]
      if lead[j] == 1 then lead[j] = s
      elseif s ~= 1 and s ~= lead[j] then
        error(("gufunc '%s': operands could not be broadcast together (loop dimension %d: %d and %d)"):format(st.name,
          k, lead[j], s), 2)
      end
    end
  end
  for i = 1, nin do
    if is_array(args[i]) and args[i].dtype ~= loop[i] then args[i] = args[i]:astype(loop[i]) end
    if is_dev(args[i]) and args[i].dtype ~= loop[i] then
      error(("gufunc '%s': argument %d is a %s device array; the loop takes %s"):format(st.name, i, args[i].dtype, loop[i]), 2)
    end
  end
  if st.target == "cuda" then return V.cuda_gufunc_call(g, st, args, loop, lead, leads, dims) end
  local outs = {}
  for o = 1, nout do
    local core, out = lay.outs[o], args[nin + o]
    if out ~= nil then
      if not is_array(out) then error(("bad argument #%d to gufunc '%s' (output array expected)"):format(nin + o, st.name), 2) end
      if out.ndim ~= math.max(leadnd + #core, #core == 0 and 1 or 0) then
        error(("gufunc '%s': output %d has %d dimensions, expected %d"):format(st.name, o, out.ndim, leadnd + #core), 2)
      end
      for k = 1, leadnd do
        if out.shape[k] ~= lead[k] then
          error(("gufunc '%s': output %d has loop dimension %d of size %d, expected %d"):format(st.name, o, k,
            out.shape[k], lead[k]), 2)
        end
      end
      bind(nin + o, core, out.shape, out.ndim)
    else
      out = V.lumba.empty(out_shape(st, lead, core, dims, 3), loop[nin + o])
    end
    outs[o] = out
  end
  -- the compiled loop over the leading dimensions (inputs with fewer, or of size 1, broadcast)
  local key = leadnd .. ":" .. table.concat(leads, ",") .. (st.target == "parallel" and ":par" or "")
  local d = st.wrappers[key]
  if not d then
    local ps = params(nin) .. ", " .. params(nout, "o")
    local lines = { ("def __lumba_gufunc(%s):"):format(ps) }
    local idx = {}
    for k = 1, leadnd do idx[k] = "i" .. k end
    for k = 1, leadnd do
      local r = (k == 1 and st.target == "parallel") and "__lumba_prange" or "range"
      lines[#lines + 1] = ("    "):rep(k) .. ("for i%d in %s(o0.shape[%d]):"):format(k, r, k - 1)
    end
    local ind = ("    "):rep(leadnd + 1)
    local call = {}
    for i = 1, nin do
      local l = leads[i]
      if l == 0 then
        call[i] = "a" .. (i - 1)
      else
        local ix = {}
        for k = 1, l do
          local j = leadnd - l + k
          ix[k] = ("i%d if a%d.shape[%d] != 1 else 0"):format(j, i - 1, k - 1)
        end
        call[i] = ("a%d[%s]"):format(i - 1, table.concat(ix, ", "))
      end
    end
    for o = 1, nout do
      if #lay.outs[o] == 0 then  -- a scalar output: the kernel writes element 0 of a 1-element view
        local ix = {}
        for k = 1, leadnd - 1 do ix[k] = idx[k] end
        ix[#ix + 1] = leadnd == 0 and "0:1" or ("%s:%s + 1"):format(idx[leadnd], idx[leadnd])
        call[nin + o] = ("o%d[%s]"):format(o - 1, table.concat(ix, ", "))
      else
        call[nin + o] = leadnd == 0 and ("o" .. (o - 1)) or ("o%d[%s]"):format(o - 1, table.concat(idx, ", "))
      end
    end
    lines[#lines + 1] = ind .. ("%s(%s)"):format(st.name, table.concat(call, ", "))
    lines[#lines + 1] = "    return 0"
    if st.target == "parallel" then lines[#lines + 1] = "from numba import prange as __lumba_prange" end
    d = wrapper(g, key, table.concat(lines, "\n") .. "\n", { parallel = st.target == "parallel" or nil })
  end
  local call = {}
  for i = 1, nin do call[i] = args[i] end
  for o = 1, nout do call[nin + o] = outs[o] end
  local ok, err = pcall(d, table.unpack(call, 1, nin + nout))
  if not ok then error(V.at_call(st, err), 2) end
  for o = 1, nout do  -- an allocated scalar output of a call with no loop dimensions: a number, as NumPy's
    if args[nin + o] == nil and leadnd == 0 and #lay.outs[o] == 0 then outs[o] = outs[o][1] end
  end
  return table.unpack(outs, 1, nout)
end
gufunc_mt.__call = gufunc_call
gufunc_mt.__name = "lumba.gufunc"
gufunc_mt.__tostring = function(g) return ("<lumba.gufunc '%s' %s>"):format(state[g].name, state[g].layout) end
gufunc_mt.__index = function(g, k)
  if k == "layout" then return state[g].layout end
  if k == "__name__" then return state[g].name end
end
V.shape_text = shape_text

-- ---- target 'cuda': a kernel over the broadcast elements (numba-cuda's CUDA ufuncs) ----

-- "j0, j1, ..." for the nd axes of out, unravelled from the thread's index t
local function unravel_lines(nd, ind, shape_of)
  local lines = { ind .. "r = t" }
  for k = nd, 1, -1 do
    if k > 1 then
      lines[#lines + 1] = ("%sj%d = r %% %s"):format(ind, k - 1, shape_of(k - 1))
      lines[#lines + 1] = ("%sr = r // %s"):format(ind, shape_of(k - 1))
    else
      lines[#lines + 1] = ("%sj0 = r"):format(ind)
    end
  end
  return lines
end

-- the index of an input of p dimensions into an output of nd, broadcast (size-1 axes stay 0)
local function bcast_index(a, p, nd)
  local ix = {}
  for k = 1, p do
    ix[k] = ("j%d if %s.shape[%d] != 1 else 0"):format(nd - p + k - 1, a, k - 1)
  end
  return table.concat(ix, ", ")
end

-- the result of a launch: device arrays in, a device array out; else a host array
local function deliver(cuda, dev_in, dout, out)
  if out ~= nil then
    if not is_dev(out) then dout:copy_to_host(out) end
    return out
  end
  return dev_in and dout or dout:copy_to_host()
end

local function signature_parts(s)
  return s:match("^%s*([%w_]+)%s*%("), split_sig(s)
end

function V.cuda_ufunc_call(u, st, args, nin)
  local cuda = V.lumba.cuda
  -- the loop: the first signature every input casts to safely (numbers beside arrays by their kind)
  local loop, ret, any_arr = nil, nil, false
  for i = 1, nin do any_arr = any_arr or is_array(args[i]) or is_dev(args[i]) end
  for _, s in ipairs(u._vectorize) do
    local r, parts = signature_parts(s)
    local ok = parts and #parts == nin
    for i = 1, nin do
      if not ok then break end
      local a, t = args[i], parts[i]:match("[%w_]+")
      local arr = is_array(a) or is_dev(a)
      local dt = arr and a.dtype or type(a) == "boolean" and "bool" or math.type(a) == "integer" and "int64" or "float64"
      ok = cast_safe(dt, t) or (not arr and any_arr and (KIND[dt] ~= "f" or KIND[t] == "f"))
    end
    if ok then
      loop, ret = {}, r
      for i = 1, nin do loop[i] = parts[i]:match("[%w_]+") end
      break
    end
  end
  if not loop then
    local ts = {}
    for i = 1, nin do ts[i] = (is_array(args[i]) or is_dev(args[i])) and args[i].dtype or math.type(args[i]) or type(args[i]) end
    error(("ufunc '%s' has no loop for the input types (%s) under NumPy's safe casting"):format(st.name,
      table.concat(ts, ", ")), 3)
  end
  -- the broadcast shape (NumPy's rules)
  local shape, pat, dev_in, nd = {}, {}, false, 0
  for i = 1, nin do
    local a = args[i]
    pat[i] = (is_array(a) or is_dev(a)) and a.ndim or 0
    dev_in = dev_in or is_dev(a)
    nd = math.max(nd, pat[i])
  end
  for k = 1, nd do shape[k] = 1 end
  for i = 1, nin do
    local a = args[i]
    for k = 1, pat[i] do
      local j, s = #shape - pat[i] + k, a.shape[k]
      if shape[j] == 1 then shape[j] = s
      elseif s ~= 1 and s ~= shape[j] then
        local ss = {}
        for q = 1, nin do ss[q] = pat[q] > 0 and V.shape_text(args[q].shape) or "()" end
        error(("operands could not be broadcast together with shapes %s "):format(table.concat(ss, " ")), 3)
      end
    end
  end
  local out = args[nin + 1]
  if out ~= nil then
    if not (is_array(out) or is_dev(out)) then
      error(("bad argument #%d to ufunc '%s' (output array expected)"):format(nin + 1, st.name), 3)
    end
    local same = out.ndim == nd
    for k = 1, nd do same = same and out.shape[k] == shape[k] end
    if not same then
      error(("ufunc '%s': the output array has shape %s; the inputs broadcast to %s"):format(st.name,
        V.shape_text(out.shape), V.shape_text(shape)), 3)
    end
  end
  local dout = out ~= nil and is_dev(out) and out or cuda.device_array(nd > 0 and shape or { 1 }, out and out.dtype or ret)
  local key = "cuda" .. nd .. ":" .. table.concat(pat, ",") .. ":" .. table.concat(loop, ",")
  local d = st.wrappers[key]
  if not d then
    local lines = { ("def __lumba_cuda_ufunc(%s, out):"):format(params(nin)), "    t = cuda.grid(1)",
      "    if t < out.size:" }
    for _, l in ipairs(unravel_lines(math.max(nd, 1), "        ", function(k) return ("out.shape[%d]"):format(k) end)) do
      lines[#lines + 1] = l
    end
    local call = {}
    for i = 1, nin do
      local a = "a" .. (i - 1)
      local e = pat[i] > 0 and ("%s[%s]"):format(a, bcast_index(a, pat[i], nd)) or a
      call[i] = ("__lumba_np.%s(%s)"):format(loop[i], e)  -- the loop's input types, as numba-cuda converts them
    end
    local oi = {}
    for k = 1, math.max(nd, 1) do oi[k] = "j" .. (k - 1) end
    lines[#lines + 1] = ("        out[%s] = %s(%s)"):format(table.concat(oi, ", "), st.name, table.concat(call, ", "))
    lines[#lines + 1] = "import numpy as __lumba_np"
    lines[#lines + 1] = "from numba import cuda"
    d = wrapper(u, key, table.concat(lines, "\n") .. "\n", { target = "cuda" })
  end
  local call = {}
  for i = 1, nin do call[i] = is_array(args[i]) and cuda.to_device(args[i]) or args[i] end
  call[nin + 1] = dout
  local n = 1
  for k = 1, nd do n = n * shape[k] end
  if n > 0 then
    local ok, err = pcall(function() d:forall(n)(table.unpack(call, 1, nin + 1)) end)
    if not ok then error(V.at_call(st, err), 3) end
  end
  if nd == 0 and out == nil then  -- numbers in: a number out, as the CPU ufunc
    return dout:copy_to_host()[1]
  end
  return deliver(cuda, dev_in, dout, out)
end

function V.cuda_gufunc_call(g, st, args, loop, lead, leads, dims)
  local cuda = V.lumba.cuda
  local lay, nin, nout = st.lay, #st.lay.ins, #st.lay.outs
  local leadnd, dev_in = #lead, false
  for i = 1, nin do dev_in = dev_in or is_dev(args[i]) end
  local outs, douts = {}, {}
  for o = 1, nout do
    local core, out = lay.outs[o], args[nin + o]
    local shape = out_shape(st, lead, core, dims, 4)
    if out ~= nil then
      if not (is_array(out) or is_dev(out)) then
        error(("bad argument #%d to gufunc '%s' (output array expected)"):format(nin + o, st.name), 3)
      end
      local same = out.ndim == #shape
      for k = 1, #shape do same = same and out.shape[k] == shape[k] end
      if not same then
        error(("gufunc '%s': output %d has shape %s, expected %s"):format(st.name, o, V.shape_text(out.shape),
          V.shape_text(shape)), 3)
      end
    end
    outs[o] = out
    douts[o] = out ~= nil and is_dev(out) and out or cuda.device_array(shape, out and out.dtype or loop[nin + o])
  end
  local key = "cuda" .. leadnd .. ":" .. table.concat(leads, ",")
  local d = st.wrappers[key]
  if not d then
    local ps = params(nin) .. ", " .. params(nout, "o")
    local lines = { ("def __lumba_cuda_gufunc(%s):"):format(ps), "    t = cuda.grid(1)" }
    local total = {}
    for k = 1, leadnd do total[k] = ("o0.shape[%d]"):format(k - 1) end
    lines[#lines + 1] = ("    if t < %s:"):format(leadnd > 0 and table.concat(total, " * ") or "1")
    if leadnd > 0 then
      for _, l in ipairs(unravel_lines(leadnd, "        ", function(k) return ("o0.shape[%d]"):format(k) end)) do
        lines[#lines + 1] = l
      end
    end
    local call = {}
    for i = 1, nin do
      local l = leads[i]
      call[i] = l == 0 and ("a" .. (i - 1)) or ("a%d[%s]"):format(i - 1, bcast_index("a" .. (i - 1), l, leadnd))
    end
    local idx = {}
    for k = 1, leadnd do idx[k] = "j" .. (k - 1) end
    for o = 1, nout do
      if #lay.outs[o] == 0 then  -- a scalar output: element 0 of a 1-element view
        local ix = {}
        for k = 1, leadnd - 1 do ix[k] = idx[k] end
        ix[#ix + 1] = leadnd == 0 and "0:1" or ("%s:%s + 1"):format(idx[leadnd], idx[leadnd])
        call[nin + o] = ("o%d[%s]"):format(o - 1, table.concat(ix, ", "))
      else
        call[nin + o] = leadnd == 0 and ("o" .. (o - 1)) or ("o%d[%s]"):format(o - 1, table.concat(idx, ", "))
      end
    end
    lines[#lines + 1] = ("        %s(%s)"):format(st.name, table.concat(call, ", "))
    lines[#lines + 1] = "from numba import cuda"
    d = wrapper(g, key, table.concat(lines, "\n") .. "\n", { target = "cuda" })
  end
  local call = {}
  for i = 1, nin do call[i] = is_array(args[i]) and cuda.to_device(args[i]) or args[i] end
  for o = 1, nout do call[nin + o] = douts[o] end
  local n = 1
  for k = 1, leadnd do n = n * lead[k] end
  if n > 0 then
    local ok, err = pcall(function() d:forall(n)(table.unpack(call, 1, nin + nout)) end)
    if not ok then error(V.at_call(st, err), 3) end
  end
  local res = {}
  for o = 1, nout do res[o] = deliver(cuda, dev_in, douts[o], outs[o]) end
  return table.unpack(res, 1, nout)
end

-- ---- entry points ----

-- the def of a one-def source: its name and parameter count (lumba.vectorize(sigs)(src))
local function single_def(src, chunk)
  local tree = H.parse(src, chunk, "decorators")
  local def
  for _, st in ipairs(tree.body) do
    if st.tag == "FunctionDef" then def = st end
  end
  if not def then error("no def in the source", 3) end
  return def, tree
end

function V.from_load(kind, def, dec, src, mod, chunk, options, globals, locals, siblings)
  local o = vec_options(dec, def, mod, chunk:gsub("^[@=]", ""), kind)
  o.chunkname, o.env, o.siblings = chunk, options.env, siblings
  local nparams = (def.nparams or #(def.args or {}))
  if kind == "vectorize" then
    check_sigs(o.signatures, nparams, chunk:gsub("^[@=]", ""), def.name, dec)
    local ok, u = pcall(V.ufunc, src, def.name, nparams, o, globals, locals)
    if not ok and type(u) == "table" then error(u.positioned, 0) end
    if not ok then error(("%s:%d:%d: %s"):format(chunk:gsub("^[@=]", ""), dec.lineno, dec.col_offset + 1, u), 0) end
    return u
  end
  return V.gufunc(src, def.name, nparams, o, globals, locals, dec)
end

function V.install(lumba, helpers)
  H, V.lumba = helpers, lumba
  -- lumba.vectorize(sigs [, opts])(src) | lumba.vectorize(opts)(src) | lumba.vectorize(src)
  function lumba.vectorize(a, b)
    local function build(src, sigs, opts)
      if type(src) ~= "string" then error("bad argument to 'vectorize' (source string expected)", 3) end
      local chunk = opts.chunkname or "<string>"
      local def = single_def(src, chunk)
      local nparams = (def.nparams or #(def.args or {}))
      local o = { signatures = sigs, target = opts.target, fastmath = opts.fastmath, chunkname = chunk, env = opts.env }
      if o.target and not TARGETS[o.target] then
        error(("bad option 'target' to 'vectorize' (cpu, parallel or cuda, got %s)"):format(tostring(o.target)), 3)
      end
      check_sigs(sigs, nparams, chunk, def.name)
      local ok, u = pcall(V.ufunc, src, def.name, nparams, o, helpers.caller_globals(4), {})
      if not ok then error(type(u) == "table" and u.positioned or u, type(u) == "table" and 0 or 3) end
      return u
    end
    if type(a) == "string" and b == nil and a:find("def ", 1, true) then return build(a, {}, {}) end
    local sigs, opts = {}, b or {}
    if type(a) == "string" then sigs = { a }
    elseif type(a) == "table" and a[1] ~= nil then sigs = a
    elseif type(a) == "table" then opts = a end
    return function(src) return build(src, sigs, opts) end
  end
  -- lumba.guvectorize(sigs, layout [, opts])(src)
  function lumba.guvectorize(sigs, layout, opts)
    opts = opts or {}
    if type(sigs) == "string" then sigs = { sigs } end
    return function(src)
      local chunk = opts.chunkname or "<string>"
      local def = single_def(src, chunk)
      local o = { signatures = sigs, layout = layout, target = opts.target, fastmath = opts.fastmath, chunkname = chunk,
        env = opts.env }
      return V.gufunc(src, def.name, (def.nparams or #(def.args or {})), o, helpers.caller_globals(3), {})
    end
  end
end

return V
