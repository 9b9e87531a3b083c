-- lumba.stencil: Numba's @stencil as a rewrite of the module source. The
-- kernel def `s` becomes `__lumba_stencil_s(a, ..., __i0, __i1)`, each
-- relative index a[i, j] turned into a[__i0 + i, __i1 + j] (text inserted
-- in place, so line numbers stay); a def named `s` is appended that runs it
-- over the points where the neighbourhood lies inside the array, the border
-- cval (0 by default), as Numba's stencil does. Being a plain def of the
-- module, `s` is called by compiled functions like any other, and its loop
-- is a prange: run on all cores inside an @njit(parallel=True) caller.
local S = {}

local function param_names(def)
  local a = def.args
  local list = a and (a.args or a) or {}
  local t = {}
  for i, p in ipairs(list) do t[i] = p.arg or p.id or p.name end
  return t
end

-- every node under n, in source order (pairs' order would change which of
-- two clashing indices an error names from run to run)
local function walk(n, f)
  if type(n) ~= "table" then return end
  if n.tag then f(n) end
  local kids = {}
  for k, v in pairs(n) do
    if k ~= "decorator_list" and type(v) == "table" then kids[#kids + 1] = v end
  end
  local function pos(v)
    local lo = v.lineno or (v[1] and v[1].lineno) or math.huge
    local co = v.col_offset or (v[1] and v[1].col_offset) or math.huge
    return lo, co
  end
  table.sort(kids, function(a, b)
    local la, ca = pos(a)
    local lb, cb = pos(b)
    if la ~= lb then return la < lb end
    return ca < cb
  end)
  for _, v in ipairs(kids) do walk(v, f) end
end

local function const_int(e)
  if e.tag == "Constant" and math.type(e.value) == "integer" then return e.value end
  if e.tag == "UnaryOp" and e.op == "USub" and e.operand.tag == "Constant" and math.type(e.operand.value) == "integer" then
    return -e.operand.value
  end
end

local function errf(chunk, node, fmt, ...)
  error(("%s:%d:%d: " .. fmt):format(chunk, node.lineno or 0, (node.col_offset or 0) + 1, ...), 0)
end

-- the options of @stencil(...): func_or_mode ('constant', the only mode
-- Numba has), neighborhood, cval, standard_indexing
local function options(dec, def, chunk, const_value)
  local o = { cval = 0, standard = {} }
  if dec.tag ~= "Call" then return o end
  local function mode(node, v)
    if v ~= "constant" then
      errf(chunk, node, "'@stencil' on '%s': unsupported mode style %s (Numba has only 'constant')", def.name, tostring(v))
    end
  end
  if dec.args[2] then errf(chunk, dec.args[2], "'@stencil' on '%s' takes one positional option, func_or_mode", def.name) end
  if dec.args[1] then mode(dec.args[1], const_value(dec.args[1], "stencil mode")) end
  for _, kw in ipairs(dec.keywords) do
    local v = const_value(kw.value, "stencil option " .. tostring(kw.arg))
    if kw.arg == "cval" then
      if type(v) ~= "number" and type(v) ~= "boolean" then errf(chunk, kw.value, "cval of '@stencil' on '%s' must be a number", def.name) end
      o.cval, o.cval_given = v, true
    elseif kw.arg == "neighborhood" then
      if type(v) ~= "table" then errf(chunk, kw.value, "neighborhood of '@stencil' on '%s' must be a tuple of (low, high) pairs", def.name) end
      for k, p in ipairs(v) do
        if type(p) ~= "table" or math.type(p[1]) ~= "integer" or math.type(p[2]) ~= "integer" or p[1] > p[2] then
          errf(chunk, kw.value, "neighborhood of '@stencil' on '%s': entry %d must be (low, high) integers, low <= high",
            def.name, k)
        end
      end
      o.neighborhood = v
    elseif kw.arg == "standard_indexing" then
      for _, name in ipairs(type(v) == "table" and v or { v }) do o.standard[name] = true end
    elseif kw.arg == "func_or_mode" then
      mode(kw.value, v)
    else
      errf(chunk, kw, "unknown option '%s' of '@stencil' on '%s' (func_or_mode, neighborhood, cval, standard_indexing)",
        tostring(kw.arg), def.name)
    end
  end
  return o
end

local function num_text(v)
  if type(v) == "boolean" then return v and "True" or "False" end
  if math.type(v) == "integer" then return tostring(v) end
  if v ~= v then return "float('nan')" end
  if v == math.huge then return "float('inf')" end
  if v == -math.huge then return "-float('inf')" end
  return ("%.17g"):format(v):find("[%.eEn]") and ("%.17g"):format(v) or ("%.17g.0"):format(v)
end

-- the two driver defs of stencil `name` (kernel `kname`, parameters ps, the
-- relatively indexed ones rel, extent lo..hi per axis): `name(ps)` allocates
-- its result as Numba does (np.empty, the border slabs set to cval, the inner
-- points computed); `__lumba_stencil_out_<name>(ps, out)` writes into out
-- (filled with cval first only when cval= was given, as Numba) and returns it
local function drivers(name, kname, ps, rel, first, ndim, lo, hi, o)
  local idx, at = {}, {}
  for k = 1, ndim do idx[k], at[k] = "__i" .. (k - 1), tostring(-lo[k]) end
  local function checks(body)
    body[#body + 1] = ("    if %s.ndim != %d:"):format(first, ndim)
    body[#body + 1] = ("        raise ValueError(\"stencil '%s': the array must have %d dimensions, as its relative indices\")")
      :format(name, ndim)
    for _, p in ipairs(ps) do
      if rel[p] and p ~= first then
        local ne = {}
        for k = 1, ndim do ne[k] = ("%s.shape[%d] != %s.shape[%d]"):format(p, k - 1, first, k - 1) end
        body[#body + 1] = ("    if %s.ndim != %d or %s:"):format(p, ndim, table.concat(ne, " or "))
        body[#body + 1] = ("        raise ValueError(\"stencil '%s': the input arrays must have the same shape\")"):format(name)
      end
    end
  end
  local function loops(body, out)
    for k = 1, ndim do
      body[#body + 1] = ("    "):rep(k) .. ("for __i%d in %s(%d, %s.shape[%d] - %d):"):format(k - 1,
        k == 1 and "__lumba_prange" or "range", -lo[k], first, k - 1, hi[k])
    end
    body[#body + 1] = ("    "):rep(ndim + 1) .. ("%s[%s] = %s(%s, %s)"):format(out, table.concat(idx, ", "), kname,
      table.concat(ps, ", "), table.concat(idx, ", "))
    body[#body + 1] = ("    return %s"):format(out)
  end
  -- the result's dtype: the kernel's return type, from one call on a probe
  -- array of ones as large as the extent
  local alloc = { ("def %s(%s):"):format(name, table.concat(ps, ", ")) }
  checks(alloc)
  local probe = {}
  for i, p in ipairs(ps) do
    if rel[p] then
      local ext = {}
      for k = 1, ndim do ext[k] = tostring(hi[k] - lo[k] + 1) end
      alloc[#alloc + 1] = ("    __p%d = __lumba_np.ones((%s,), %s.dtype)"):format(i, table.concat(ext, ", "), p)
      probe[i] = "__p" .. i
    else
      probe[i] = p
    end
  end
  alloc[#alloc + 1] = ("    __out = __lumba_np.empty(%s.shape, __lumba_np.asarray(%s(%s, %s)).dtype)"):format(first, kname,
    table.concat(probe, ", "), table.concat(at, ", "))
  for k = 1, ndim do
    local sl = {}
    for j = 1, ndim do sl[j] = ":" end
    if lo[k] < 0 then
      sl[k] = (":%d"):format(-lo[k])
      alloc[#alloc + 1] = ("    __out[%s] = %s"):format(table.concat(sl, ", "), num_text(o.cval))
    end
    if hi[k] > 0 then
      sl[k] = ("max(%s.shape[%d] - %d, 0):"):format(first, k - 1, hi[k])
      alloc[#alloc + 1] = ("    __out[%s] = %s"):format(table.concat(sl, ", "), num_text(o.cval))
    end
  end
  loops(alloc, "__out")
  local into = { ("def __lumba_stencil_out_%s(%s, out):"):format(name, table.concat(ps, ", ")) }
  checks(into)
  local ne = {}
  for k = 1, ndim do ne[k] = ("out.shape[%d] != %s.shape[%d]"):format(k - 1, first, k - 1) end
  into[#into + 1] = ("    if out.ndim != %d or %s:"):format(ndim, table.concat(ne, " or "))
  into[#into + 1] = ("        raise ValueError(\"stencil '%s': out must have the shape of the input array\")"):format(name)
  if o.cval_given then into[#into + 1] = ("    out[:] = %s"):format(num_text(o.cval)) end
  loops(into, "out")
  return table.concat(alloc, "\n") .. "\n" .. table.concat(into, "\n")
end

-- text split at top-level occurrences of the character sep (brackets and
-- strings respected); nil when the brackets do not balance
local function split_top(text, sep)
  local parts, depth, start, q = {}, 0, 1, nil
  for i = 1, #text do
    local c = text:sub(i, i)
    if q then
      if c == q then q = nil end
    elseif c == "'" or c == '"' then q = c
    elseif c == "(" or c == "[" or c == "{" then depth = depth + 1
    elseif c == ")" or c == "]" or c == "}" then
      depth = depth - 1
      if depth < 0 then return nil end
    elseif c == sep and depth == 0 then
      parts[#parts + 1] = text:sub(start, i - 1)
      start = i + 1
    end
  end
  if depth ~= 0 or q then return nil end
  parts[#parts + 1] = text:sub(start)
  return parts
end

-- `dst = s(args)[lo:hi, ...]`, the statement alone on its line: the driver
-- of that line, which computes the kernel at the selected points straight
-- into dst (no full result, no copy), or nil. It falls back to the plain
-- statement when dst has another rank or shape (broadcasting) or shares
-- memory with an input (NumPy computes all of s(args) before the store).
local function slice_store(info, site, stmt, line)
  local pre = line:sub(1, stmt.col_offset)
  if pre:find("%S") then return nil end
  local text = line:sub(stmt.col_offset + 1):gsub("%s*#[^'\"]*$", ""):gsub("%s+$", "")
  local halves = split_top(text, "=")
  if not halves or #halves ~= 2 or halves[1]:find("[<>!=+%-*/%%&|^@]$") then return nil end
  local dst, rhs = halves[1]:gsub("%s+$", ""), halves[2]:gsub("^%s+", "")
  -- dst must be a view (a name sliced on every axis it names): an element or
  -- a fancy selection would reach the driver as a value or a copy
  local dsub = dst:match("^[%a_][%w_]*%s*(%b[])$")
  local dparts = dsub and split_top(dsub:sub(2, -2), ",")
  if not dparts then return nil end
  for _, part in ipairs(dparts) do
    local c = split_top(part, ":")
    if not c or #c < 2 then return nil end
  end
  local name, args, sl = rhs:match("^([%a_][%w_]*)%s*(%b())%s*(%b[])$")
  if name ~= info.name then return nil end
  args, sl = args:sub(2, -2), sl:sub(2, -2)
  local a = split_top(args, ",")
  -- the driver's caller evaluates the first array twice: plain names and
  -- subscripts only (no call, whose effects would happen twice)
  if not a or #a ~= #info.ps or args:find("[=(]") then return nil end
  local axes = split_top(sl, ",")
  if not axes or #axes ~= info.ndim then return nil end
  for _, ax in ipairs(axes) do
    local c = split_top(ax, ":")
    if not c or #c ~= 2 then return nil end  -- a plain index or a step: the general path
  end
  local nd, ps, first = info.ndim, info.ps, info.first
  local base = dst:match("^([%a_][%w_]*)")
  -- the kernel writes into the base array at the view's offsets (a C array
  -- keeps its unit stride: the loop vectorizes); the view's first index per
  -- axis comes from the caller, where the slice's names are defined
  local direct = #dparts == nd
  for _, part in ipairs(dparts) do direct = direct and #split_top(part, ":") == 2 end
  local call = ("__lumba_stencil_at%d_%s"):format(site, name)
  local dpar = {}
  for k = 0, nd - 1 do dpar[k + 1] = "__d" .. k end
  local rpar = {}
  for k = 0, nd - 1 do rpar[k + 1] = "__r" .. k end
  local d = { ("def %s(%s, __base, __dst, %s%s):"):format(call, table.concat(ps, ", "), table.concat(rpar, ", "),
    direct and ", " .. table.concat(dpar, ", ") or "") }
  local function add(depth, fmt, ...) d[#d + 1] = ("    "):rep(depth) .. fmt:format(...) end
  if direct then
    local ranks, apart, same = {}, {}, {}
    for _, p in ipairs(ps) do
      ranks[#ranks + 1] = ("%s.ndim == %d"):format(p, nd)
      apart[#apart + 1] = ("_lumba.overlaps(%s, __dst)"):format(p)
      for k = 0, nd - 1 do same[#same + 1] = ("%s.shape[%d] == %s.shape[%d]"):format(p, k, first, k) end
    end
    add(1, "if __dst.ndim == %d and __base.ndim == %d and %s:", nd, nd, table.concat(ranks, " and "))
    add(2, "if not (%s) and %s:", table.concat(apart, " or "), table.concat(same, " and "))
    local fit, edge, idx, at = {}, {}, {}, {}
    for k = 0, nd - 1 do
      fit[#fit + 1] = ("__r%d.shape[0] == __dst.shape[%d] and __d%d.shape[0] == __dst.shape[%d]"):format(k, k, k, k)
    end
    add(3, "if %s:", table.concat(fit, " and "))
    for k = 0, nd - 1 do
      -- source indices lo..hi-1 are inside (lo >= -low: LLVM drops the
      -- negative-index wrap of i + low); o maps them to the base array
      add(4, "__s%d = __r%d[0] if __r%d.shape[0] > 0 else 0", k, k, k)
      add(4, "__lo%d = max(__s%d, %d)", k, k, -info.lo[k + 1])
      add(4, "__hi%d = min(__s%d + __r%d.shape[0], %s.shape[%d] - %d)", k, k, k, first, k, info.hi[k + 1])
      add(4, "__o%d = (__d%d[0] if __d%d.shape[0] > 0 else 0) - __s%d", k, k, k, k)
      edge[#edge + 1] = ("__lo%d > __s%d or __hi%d < __s%d + __r%d.shape[0]"):format(k, k, k, k, k)
      idx[#idx + 1] = ("__o%d + __i%d"):format(k, k)
      at[#at + 1] = "__i" .. k
    end
    add(4, "if %s:", table.concat(edge, " or "))
    add(5, "__dst[:] = %s", info.cval)
    -- the usual case, dst[1:-1] = s(a)[1:-1]: the same index on both sides,
    -- which LLVM knows is in range (no wrap selects: the loop vectorizes)
    local zero = {}
    for k = 0, nd - 1 do zero[k + 1] = ("__o%d == 0"):format(k) end
    local function nest(depth, target)
      for k = 0, nd - 1 do
        add(depth + k, "for __i%d in %s(__lo%d, __hi%d):", k, k == 0 and "__lumba_prange" or "range", k, k)
      end
      add(depth + nd, "__base[%s] = %s(%s, %s)", target, info.kname, table.concat(ps, ", "), table.concat(at, ", "))
    end
    add(4, "if %s:", table.concat(zero, " and "))
    nest(5, table.concat(at, ", "))
    add(4, "else:")
    nest(5, table.concat(idx, ", "))
    add(4, "return")
  end
  -- the plain statement; its slices have step 1: start:start + length
  local plain = {}
  for k = 0, nd - 1 do
    add(1, "__t%d = __r%d[0] if __r%d.shape[0] > 0 else 0", k, k, k)
    plain[k + 1] = ("__t%d:__t%d + __r%d.shape[0]"):format(k, k, k)
  end
  add(1, "__dst[:] = %s(%s)[%s]", name, table.concat(ps, ", "), table.concat(plain, ", "))
  -- the selected indices of each axis, computed where the slice's names live
  local farg
  for i, p in ipairs(ps) do
    if p == first then farg = a[i] end
  end
  local cargs = { args, base, dst }
  for k = 0, nd - 1 do cargs[#cargs + 1] = ("__lumba_np.arange((%s).shape[%d])[%s]"):format(farg, k, axes[k + 1]) end
  if direct then
    for k = 0, nd - 1 do cargs[#cargs + 1] = ("__lumba_np.arange(%s.shape[%d])[%s]"):format(base, k, dparts[k + 1]) end
  end
  return pre .. ("%s(%s)"):format(call, table.concat(cargs, ", ")), table.concat(d, "\n")
end

-- rewrites each `dst = s(args)[slices]` line (s a stencil whose parameters
-- are all relatively indexed) into a call of its own driver; the drivers
local function stored_slices(stencils, lines, inserts)
  local by, drivers = {}, {}
  for _, s in ipairs(stencils) do
    if s.info then by[s.def.name] = s.info end
  end
  walk(stencils.tree, function(n)
    if n.tag ~= "Assign" or #n.targets ~= 1 or n.targets[1].tag ~= "Subscript" then return end
    local v = n.value
    if v.tag ~= "Subscript" or v.value.tag ~= "Call" or v.value.func.tag ~= "Name" then return end
    local info = by[v.value.func.id]
    if not info or (v.value.keywords and #v.value.keywords > 0) or inserts[n.lineno] then return end
    local text, driver = slice_store(info, #drivers + 1, n, lines[n.lineno])
    if text then
      lines[n.lineno] = text
      drivers[#drivers + 1] = driver
    end
  end)
  return drivers
end

-- src with every @stencil def rewritten (stencils: list of {def=, dec=} from
-- the full parse); returns the new source
function S.transform(src, chunk, stencils, const_value)
  local lines = {}
  for l in (src .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  local inserts = {}  -- line → list of {col, text}
  local function insert(line, col, text)
    inserts[line] = inserts[line] or {}
    table.insert(inserts[line], { col = col, text = text })
  end
  for _, s in ipairs(stencils) do
    local def, dec = s.def, s.dec
    local o = options(dec, def, chunk, const_value)
    local ps = param_names(def)
    local isparam = {}
    for _, p in ipairs(ps) do
      isparam[p] = true
      if p == "out" then errf(chunk, def, "stencil '%s': cannot use the reserved word 'out' in stencil kernels", def.name) end
    end
    -- the relatively indexed arrays: parameters subscripted in the body
    local rel, ndim, lo, hi = {}, nil, {}, {}
    walk(def.body, function(n)
      if n.tag == "Subscript" and n.value.tag == "Name" and isparam[n.value.id] and not o.standard[n.value.id] then
        local elts = n.slice.tag == "Tuple" and n.slice.elts or { n.slice }
        if ndim and #elts ~= ndim then
          errf(chunk, n, "stencil '%s': relative index with %d dimensions, but another has %d", def.name, #elts, ndim)
        end
        ndim = #elts
        rel[n.value.id] = true
        for k, e in ipairs(elts) do
          if e.tag == "Slice" then errf(chunk, e, "stencil '%s': slices are not relative indices", def.name) end
          local c = const_int(e)
          if c == nil and not o.neighborhood then
            errf(chunk, e, "stencil '%s': a relative index that is not a constant needs neighborhood= (Numba's rule)", def.name)
          end
          if c then
            lo[k] = math.min(lo[k] or 0, c)
            hi[k] = math.max(hi[k] or 0, c)
          end
          insert(e.lineno, e.col_offset, ("__i%d + "):format(k - 1))
        end
      end
    end)
    if not ndim then errf(chunk, def, "stencil '%s' indexes none of its parameters relatively", def.name) end
    if o.neighborhood then
      if #o.neighborhood ~= ndim then
        errf(chunk, dec, "stencil '%s': neighborhood has %d dimensions, the relative indices %d", def.name,
          #o.neighborhood, ndim)
      end
      for k = 1, ndim do lo[k], hi[k] = o.neighborhood[k][1], o.neighborhood[k][2] end
      s.neighborhood = o.neighborhood
    end
    for k = 1, ndim do lo[k], hi[k] = math.min(lo[k] or 0, 0), math.max(hi[k] or 0, 0) end
    local first
    for _, p in ipairs(ps) do
      if rel[p] then first = p break end
    end
    -- the decorator lines go (blank: line numbers stay), the def is renamed
    for l = dec.lineno, def.lineno - 1 do lines[l] = "" end
    local kname = "__lumba_stencil_" .. def.name
    local dl = lines[def.lineno]
    local a, b = dl:find("def%s+" .. def.name .. "%s*%(")
    if not a then errf(chunk, def, "stencil '%s': write its def on one line", def.name) end
    local depth, close = 1, nil
    for i = b + 1, #dl do
      local c = dl:sub(i, i)
      if c == "(" then depth = depth + 1 elseif c == ")" then depth = depth - 1 end
      if depth == 0 then close = i break end
    end
    if not close then errf(chunk, def, "stencil '%s': write its parameters on one line", def.name) end
    local idx = {}
    for k = 1, ndim do idx[k] = "__i" .. (k - 1) end
    insert(def.lineno, close - 1, (#ps > 0 and ", " or "") .. table.concat(idx, ", "))
    insert(def.lineno, a - 1 + #dl:sub(a, b):match("^def%s+"), "__lumba_stencil_")
    s.driver = drivers(def.name, kname, ps, rel, first, ndim, lo, hi, o)
    local allrel = true
    for _, p in ipairs(ps) do allrel = allrel and rel[p] and not o.standard[p] end
    if allrel then
      s.info = { name = def.name, kname = kname, ps = ps, first = first, ndim = ndim, lo = lo, hi = hi,
        cval = num_text(o.cval) }
    end
    if not s.neighborhood then
      s.neighborhood = {}
      for k = 1, ndim do s.neighborhood[k] = { lo[k], hi[k] } end
    end
  end
  -- a call s(..., out=b) in compiled code goes to the driver that writes into b
  local named = {}
  for _, s in ipairs(stencils) do named[s.def.name] = true end
  walk(stencils.tree, function(n)
    if n.tag == "Call" and n.func.tag == "Name" and named[n.func.id] then
      for _, kw in ipairs(n.keywords or {}) do
        if kw.arg == "out" then insert(n.func.lineno, n.func.col_offset, "__lumba_stencil_out_") break end
      end
    end
  end)
  local sites = stored_slices(stencils, lines, inserts)
  for line, list in pairs(inserts) do
    table.sort(list, function(x, y) return x.col > y.col end)
    local l = lines[line]
    for _, ins in ipairs(list) do l = l:sub(1, ins.col) .. ins.text .. l:sub(ins.col + 1) end
    lines[line] = l
  end
  local out = { table.concat(lines, "\n") }
  for _, s in ipairs(stencils) do out[#out + 1] = s.driver end
  for _, d in ipairs(sites) do out[#out + 1] = d end
  out[#out + 1] = "import numpy as __lumba_np"
  out[#out + 1] = "from numba import prange as __lumba_prange"
  return table.concat(out, "\n") .. "\n"
end

-- the stencil as lumba.load returns it, Numba's StencilFunc: s(a, ...)
-- returns a new array, s(a, ..., {out = b}) writes into b (Lua has no
-- keywords: a last table holding `out`) and returns it; s.neighborhood is the
-- extent per axis, {{lo, hi}, ...}, as given or inferred
local stencil_mt = {
  __name = "lumba.stencil",
  __call = function(self, ...)
    local n = select("#", ...)
    local last = n > 0 and select(n, ...)
    if type(last) == "table" and getmetatable(last) == nil and last.out ~= nil then
      for k in pairs(last) do
        if k ~= "out" then error(("stencil '%s': unknown option '%s' (out)"):format(self.name, tostring(k)), 2) end
      end
      local args = table.pack(...)
      args[n] = last.out
      return self.into(table.unpack(args, 1, n))
    end
    return self.dispatcher(...)
  end,
  __tostring = function(self) return ("<lumba stencil '%s'>"):format(self.name) end,
}

function S.object(d, into, s)
  local nb = {}
  for k, p in ipairs(s.neighborhood) do nb[k] = { p[1], p[2] } end
  return setmetatable({ name = s.def.name, dispatcher = d, into = into, neighborhood = nb }, stencil_mt)
end

-- the defs of src decorated @stencil (from the full parse), each {def=, dec=}
function S.find(src, chunk, names, kind_of)
  if not src:find("stencil", 1, true) then return nil end
  local full = require("lumba.core").parse(src, chunk)
  local list = {}
  for _, st in ipairs(full.body) do
    if st.tag == "FunctionDef" then
      local k, dec = kind_of(st, names)
      if k == "stencil" then list[#list + 1] = { def = st, dec = dec } end
    end
  end
  list.tree = full.body
  return #list > 0 and list or nil
end

return S
