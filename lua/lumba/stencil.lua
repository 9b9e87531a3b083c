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

-- the options of @stencil(...): neighborhood, cval, standard_indexing
local function options(dec, def, chunk, const_value)
  local o = { cval = 0, standard = {} }
  if dec.tag ~= "Call" then return o end
  if dec.args[1] then errf(chunk, dec.args[1], "'@stencil' on '%s' takes keyword options only", def.name) end
  for _, kw in ipairs(dec.keywords) do
    local v = const_value(kw.value, "stencil option " .. tostring(kw.arg))
    if kw.arg == "cval" then
      if type(v) ~= "number" and type(v) ~= "boolean" then errf(chunk, kw.value, "cval of '@stencil' on '%s' must be a number", def.name) end
      o.cval = v
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
      -- mode='constant' is the only one Numba has
    else
      errf(chunk, kw, "unknown option '%s' of '@stencil' on '%s' (neighborhood, cval, standard_indexing)",
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
  local tail = {}
  for _, s in ipairs(stencils) do
    local def, dec = s.def, s.dec
    local o = options(dec, def, chunk, const_value)
    local ps = param_names(def)
    local isparam = {}
    for _, p in ipairs(ps) do isparam[p] = true end
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
    -- the driver: out = full(shape, cval) of the kernel's type, the inner points computed
    local probe, call = {}, {}
    for i, p in ipairs(ps) do
      if rel[p] then
        local ext = {}
        for k = 1, ndim do ext[k] = tostring(hi[k] - lo[k] + 1) end
        tail[#tail + 1] = ("    __p%d = __lumba_np.ones((%s,), %s.dtype)"):format(i, table.concat(ext, ", "), p)
        probe[i] = "__p" .. i
      else
        probe[i] = p
      end
      call[i] = p
    end
    local at = {}
    for k = 1, ndim do at[k] = tostring(-lo[k]) end
    local body = {
      ("def %s(%s):"):format(def.name, table.concat(ps, ", ")),
      ("    if %s.ndim != %d:"):format(first, ndim),
      ("        raise ValueError(\"stencil '%s': the array must have %d dimensions, as its relative indices\")"):format(def.name, ndim),
    }
    for i, p in ipairs(ps) do
      if rel[p] and p ~= first then
        local ne = {}
        for k = 1, ndim do ne[k] = ("%s.shape[%d] != %s.shape[%d]"):format(p, k - 1, first, k - 1) end
        body[#body + 1] = ("    if %s.ndim != %d or %s:"):format(p, ndim, table.concat(ne, " or "))
        body[#body + 1] = ("        raise ValueError(\"stencil '%s': the input arrays must have the same shape\")"):format(def.name)
      end
    end
    for _, l in ipairs(tail) do body[#body + 1] = l end
    tail = {}
    body[#body + 1] = ("    __out = __lumba_np.full(%s.shape, %s(%s, %s))"):format(first, kname, table.concat(probe, ", "),
      table.concat(at, ", "))
    body[#body + 1] = ("    __out[:] = %s"):format(num_text(o.cval))
    for k = 1, ndim do
      body[#body + 1] = ("    "):rep(k) .. ("for __i%d in %s(%d, %s.shape[%d] - %d):"):format(k - 1,
        k == 1 and "__lumba_prange" or "range", -lo[k], first, k - 1, hi[k])
    end
    body[#body + 1] = ("    "):rep(ndim + 1) .. ("__out[%s] = %s(%s, %s)"):format(table.concat(idx, ", "), kname,
      table.concat(call, ", "), table.concat(idx, ", "))
    body[#body + 1] = "    return __out"
    s.driver = table.concat(body, "\n")
  end
  for line, list in pairs(inserts) do
    table.sort(list, function(x, y) return x.col > y.col end)
    local l = lines[line]
    for _, ins in ipairs(list) do l = l:sub(1, ins.col) .. ins.text .. l:sub(ins.col + 1) end
    lines[line] = l
  end
  local out = { table.concat(lines, "\n") }
  for _, s in ipairs(stencils) do out[#out + 1] = s.driver end
  out[#out + 1] = "import numpy as __lumba_np"
  out[#out + 1] = "from numba import prange as __lumba_prange"
  return table.concat(out, "\n") .. "\n"
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
  return #list > 0 and list or nil
end

return S
