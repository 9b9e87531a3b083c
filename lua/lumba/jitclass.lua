-- @jitclass for lumba.load (numba.experimental.jitclass): the class body of
-- a pasted module is rewritten, before parsing, into top-level defs of the
-- same lines ("def increment(self, v)" in class Bag becomes "def
-- Bag__increment(self, v)", dedented; the decorator and class lines go
-- blank, so every other line keeps its number), plus a constructor def
-- Bag____new__ appended after the last line. The compiler knows the class
-- from core._jitclass (src/jitclass.c: fields, offsets, the methods' defs),
-- found under its name in the module's table of siblings (src/resolve.c).
local M = {}

local function blank_lines(text)
  local _, n = text:gsub("\n", "")
  return ("\n"):rep(n)
end

-- the text of a balanced (...) starting at position i of s, or nil
local function balanced(s, i)
  local depth = 0
  for j = i, #s do
    local c = s:sub(j, j)
    if c == "(" or c == "[" or c == "{" then depth = depth + 1
    elseif c == ")" or c == "]" or c == "}" then
      depth = depth - 1
      if depth == 0 then return s:sub(i, j), j end
    end
  end
end

-- parameter names of a def's parameter text "self, value, scale=1.0"
local function param_names(text)
  local names = {}
  for p in (text .. ","):gmatch("([^,]*),") do
    local name = p:match("^%s*([%a_][%w_]*)")
    if name then names[#names + 1] = name end
  end
  return names
end

-- src with its @jitclass classes rewritten, and the classes found:
-- {name, line, spec_text (nil: annotations), fields_ann = {{name, text, line}},
--  methods = {{name, def, prop}}, init_params}
function M.desugar(src, chunk)
  if not src:find("jitclass", 1, true) then return src, {} end
  local lines = {}
  for l in (src .. (src:sub(-1) == "\n" and "" or "\n")):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  local classes, i = {}, 1
  local where = chunk:gsub("^[@=]", "")
  while i <= #lines do
    local l = lines[i]
    local at = l:match("^@[%w_.]*jitclass()")
    if at then
      local line0 = i
      local rest = l:sub(at)
      local spec_text
      if rest:match("^%s*%(") then
        -- the argument list, possibly over several lines
        local text, j = rest, i
        local open = text:find("(", 1, true)
        local arg = balanced(text, open)
        while not arg and j < #lines do
          j = j + 1
          text = text .. "\n" .. lines[j]
          arg = balanced(text, open)
        end
        if not arg then error(("%s:%d:1: unclosed '(' in @jitclass"):format(where, line0), 0) end
        spec_text = arg:sub(2, -2)
        if spec_text:match("^%s*$") then spec_text = nil end
        -- a keyword (cache=True): jitclass takes none, as Numba's jitclass(cls_or_spec, spec)
        local depth, kw = 0, nil
        for k = 1, #(spec_text or "") do
          local ch = spec_text:sub(k, k)
          if ch == "(" or ch == "[" or ch == "{" then depth = depth + 1
          elseif ch == ")" or ch == "]" or ch == "}" then depth = depth - 1
          elseif depth == 0 and ch == "=" and spec_text:sub(k + 1, k + 1) ~= "=" and not spec_text:sub(k - 1, k - 1):match("[=!<>]") then
            kw = spec_text:sub(1, k - 1):match("([%a_][%w_]*)%s*$")
            if kw then break end
          end
        end
        if kw and kw ~= "spec" and kw ~= "cls_or_spec" then
          error(("%s:%d:1: jitclass() got an unexpected keyword argument '%s' (Numba's jitclass takes only the "
            .. "spec; cache=True goes on the @njit functions that use the class)"):format(where, line0, kw), 0)
        end
        if kw then spec_text = spec_text:gsub("^%s*[%a_][%w_]*%s*=%s*", "", 1) end
        for k = i, j do lines[k] = "" end
        i = j
      else
        lines[i] = ""
      end
      i = i + 1
      local name = lines[i] and lines[i]:match("^class%s+([%a_][%w_]*)%s*[:(]")
      if not name then error(("%s:%d:1: @jitclass must decorate a class"):format(where, line0), 0) end
      lines[i] = ""
      local cls = { name = name, line = line0, spec_text = spec_text, fields_ann = {}, methods = {} }
      classes[#classes + 1] = cls
      i = i + 1
      local ind, prop = nil, false
      local in_doc = nil
      while i <= #lines do
        local b = lines[i]
        if b:match("^%s*$") or b:match("^%s*#") then
          lines[i] = ""
        elseif not b:match("^%s") then
          break
        else
          ind = ind or b:match("^(%s+)")
          local body = b:sub(1, #ind) == ind and b:sub(#ind + 1) or b:gsub("^%s+", "")
          local at_class = not body:match("^%s")
          if in_doc then
            if b:find(in_doc, 1, true) then in_doc = nil end
            lines[i] = ""
          elseif at_class and (body:match('^"""') or body:match("^'''")) then
            local q = body:sub(1, 3)
            if not body:sub(4):find(q, 1, true) then in_doc = q end
            lines[i] = ""
          elseif at_class and (body:match("^[\"']") or body:match("^pass%s*$")) then
            lines[i] = ""
          elseif at_class and body:match("^@property%s*$") then
            prop = true
            lines[i] = ""
          elseif at_class and body:match("^@") then
            error(("%s:%d:%d: only @property can decorate a method of a jitclass"):format(where, i, #ind + 1), 0)
          elseif at_class and body:match("^def%s") then
            local m = body:match("^def%s+([%a_][%w_]*)")
            local def = name .. "__" .. m
            cls.methods[#cls.methods + 1] = { m, def, prop }
            if m == "__init__" then
              local open = body:find("(", 1, true)
              local ptext = open and balanced(body, open)
              cls.init_params = ptext and ptext:sub(2, -2) or ""
            end
            prop = false
            lines[i] = body:gsub("^def%s+[%a_][%w_]*", "def " .. def, 1)
          elseif at_class and body:match("^[%a_][%w_]*%s*:") then  -- value: int32
            local f, t = body:match("^([%a_][%w_]*)%s*:%s*(.-)%s*$")
            cls.fields_ann[#cls.fields_ann + 1] = { f, t, i }
            lines[i] = ""
          elseif at_class then
            error(("%s:%d:%d: a jitclass body holds its field annotations and its methods, not this"):format(
              where, i, #ind + 1), 0)
          else
            lines[i] = body
          end
        end
        i = i + 1
      end
    else
      i = i + 1
    end
  end
  -- node_type.define(Node.class_type.instance_type): what each deferred_type() stands for
  classes.defines = {}
  for k, l in ipairs(lines) do
    local dname, arg = l:match("^([%a_][%w_]*)%.define%s*%((.*)%)%s*$")
    if dname then classes.defines[dname] = { arg, k } end
  end
  -- the constructors, after the last line: every other line keeps its number
  local tail = {}
  for _, c in ipairs(classes) do
    local params = c.init_params and param_names(c.init_params) or {}
    local ptext = c.init_params and c.init_params:gsub("^%s*[%a_][%w_]*%s*,?%s*", "", 1) or ""
    table.remove(params, 1)
    local new = c.name .. "____new__"
    tail[#tail + 1] = ("def %s(%s):\n    self = %s()\n"):format(new, ptext, c.name)
    if c.init_params then
      tail[#tail + 1] = ("    %s____init__(self%s)\n"):format(c.name, #params > 0 and (", " .. table.concat(params, ", ")) or "")
    end
    tail[#tail + 1] = "    return self\n"
    c.methods[#c.methods + 1] = { "__new__", new, false }
  end
  return table.concat(lines, "\n") .. "\n" .. table.concat(tail), classes
end

-- the fields of class c as {{name, type text}}; sig_text turns a type
-- expression into lumba's type text; parse(text) the AST of an expression
-- known: the classes made so far, name → class userdata: a field typed
-- Other.class_type.instance_type (Numba's spelling) or Other holds an
-- instance of that class
local function class_ref(tnode, known)
  if tnode.tag == "Attribute" and tnode.attr == "instance_type" and tnode.value.tag == "Attribute"
      and tnode.value.attr == "class_type" and tnode.value.value.tag == "Name" then
    return known[tnode.value.value.id], tnode.value.value.id
  end
  if tnode.tag == "Name" then return known[tnode.id] end
  if tnode.tag == "Constant" and type(tnode.value) == "string" then return known[tnode.value] end
end

-- the name a call's function ends in: optional, nb.optional, types.UniTuple
local function callee(node)
  local f = node.tag == "Call" and node.func
  return f and (f.tag == "Name" and f.id or f.tag == "Attribute" and f.attr) or nil
end

-- fields: {{name, type, optional}}: type a type text, a class userdata,
-- false for the class itself (a deferred_type defined as this class), or
-- {name} for a class defined later (a deferred_type; linked once it is made)
function M.fields(c, mod, sig_text, parse_expr, where, known, defines, all_names)
  local fields = {}
  local function fail(line, fname, msg, ...)
    error(("%s:%d:1: field '%s' of jitclass %s: " .. msg):format(where, line, fname, c.name, ...), 0)
  end
  -- a deferred_type() variable: the class its define() names
  local function deferred(tnode, fname, line)
    if tnode.tag ~= "Name" then return nil end
    local v = mod.values[tnode.id]
    if not (v and callee(v) == "deferred_type") then return nil end
    local d = defines and defines[tnode.id]
    if not d then
      fail(line, fname, "%s = deferred_type() is never defined (add %s.define(%s.class_type.instance_type) after the class)",
        tnode.id, tnode.id, c.name)
    end
    local target = parse_expr(d[1], d[2])
    local cls, name = class_ref(target, known)
    if not name and target.tag == "Name" then name = target.id end
    if name == c.name then return false end
    if cls then return cls end
    if name and all_names and all_names[name] then return { name } end  -- a later class: linked once made
    fail(line, fname, "%s.define(...) must name a jitclass of this module, as %s.class_type.instance_type",
      tnode.id, c.name)
  end
  local function number_text(tnode, fname, line)
    local t = sig_text(tnode, mod)
    if not t then fail(line, fname, "the type must be a Numba type such as int32 or float32[:]") end
    return t
  end
  -- UniTuple(float64, 3) and Tuple((int64, float64)) of numbers: their tuple type text
  local function tuple_text(tnode, fname, line)
    local f = callee(tnode)
    local a = tnode.args
    if f == "UniTuple" then
      local n = a[2] and a[2].tag == "Constant" and math.type(a[2].value) == "integer" and a[2].value
      if #a ~= 2 or not n or n < 1 then fail(line, fname, "UniTuple takes an element type and a count: UniTuple(float64, 3)") end
      local e = number_text(a[1], fname, line)
      return "(" .. (e .. ", "):rep(n - 1) .. e .. ")"
    end
    if #a ~= 1 or (a[1].tag ~= "Tuple" and a[1].tag ~= "List") or #a[1].elts == 0 then
      fail(line, fname, "Tuple takes a tuple of element types: Tuple((int64, float64))")
    end
    local el = {}
    for i, e in ipairs(a[1].elts) do el[i] = number_text(e, fname, line) end
    return "(" .. table.concat(el, ", ") .. ")"
  end
  local function add(fname, tnode, line)
    if not tnode then fail(line, fname, "the type must be a Numba type such as int32 or float32[:]") end
    local opt = false
    if callee(tnode) == "optional" then
      if #tnode.args ~= 1 then fail(line, fname, "optional takes one type: optional(float64)") end
      opt, tnode = true, tnode.args[1]
    end
    local cls, missing = class_ref(tnode, known or {})
    if cls then
      fields[#fields + 1] = { fname, cls, opt }
      return
    end
    if missing == c.name then
      fail(line, fname, "a class refers to itself through a deferred_type: node_type = deferred_type(), "
        .. "('%s', optional(node_type)), then node_type.define(%s.class_type.instance_type)", fname, c.name)
    end
    if missing then
      fail(line, fname, "%s is not a jitclass defined above %s (a later class is reached through deferred_type)",
        missing, c.name)
    end
    local d = deferred(tnode, fname, line)
    if d ~= nil then
      fields[#fields + 1] = { fname, d, opt }
      return
    end
    local f = callee(tnode)
    local t = (f == "UniTuple" or f == "Tuple") and tuple_text(tnode, fname, line) or number_text(tnode, fname, line)
    fields[#fields + 1] = { fname, t, opt }
  end
  if c.spec_text then
    local node = parse_expr(c.spec_text, c.line)
    if node.tag == "Name" and mod.values[node.id] then node = mod.values[node.id] end
    if node.tag ~= "List" and node.tag ~= "Tuple" then
      error(("%s:%d:1: the spec of jitclass %s must be a list of (name, type) pairs such as [('value', int32)]")
        :format(where, c.line, c.name), 0)
    end
    for _, e in ipairs(node.elts) do
      local n = e.elts and e.elts[1]
      if e.tag ~= "Tuple" or #e.elts ~= 2 or n.tag ~= "Constant" or type(n.value) ~= "string" then
        error(("%s:%d:1: each entry of the spec of jitclass %s must be a ('name', type) pair")
          :format(where, e.lineno or c.line, c.name), 0)
      end
      add(n.value, e.elts[2], e.lineno or c.line)
    end
  end
  for _, a in ipairs(c.fields_ann) do
    local seen = false
    for _, f in ipairs(fields) do seen = seen or f[1] == a[1] end
    if not seen then add(a[1], parse_expr(a[2], a[3]), a[3]) end
  end
  return fields
end

-- ---- the Lua side: the class object and its instances ----

local class_data = setmetatable({}, { __mode = "k" })  -- class userdata → {name, methods, props}

local class_mt = {
  __call = function(self, ...) return self.new(...) end,
  __tostring = function(self) return "<jitclass " .. self.name .. ">" end,
}

function M.install(core)
  local imt = core._jc_instance_mt
  local get, set, field, cls_of = core._jc_get, core._jc_set, core._jc_field, core._jc_class
  imt.__index = function(inst, k)
    local i = field(inst, k)
    if i then return get(inst, i) end
    local cd = class_data[cls_of(inst)]
    local p = cd.props[k]
    if p then return p(inst) end
    local m = cd.methods[k]
    if m then return m end
    error(("%s has no field, property or method '%s'"):format(cd.name, tostring(k)), 2)
  end
  imt.__newindex = function(inst, k, v)
    local i = field(inst, k)
    local cd = class_data[cls_of(inst)]
    if not i then
      error(("%s has no field '%s'%s"):format(cd.name, tostring(k),
        (cd.props[k] or cd.methods[k]) and " (a property or method cannot be assigned)" or ""), 2)
    end
    local ok, err = pcall(set, inst, i, v)
    if not ok then error(tostring(err), 2) end
  end
  imt.__tostring = function(inst) return ("<%s instance>"):format(class_data[cls_of(inst)].name) end
  imt.__name = "lumba.jitclass_instance"
end

-- the class object of lumba.load's table: B(...) constructs; methods are
-- looked up by instances (b:increment(3) passes b as self)
function M.class_object(ud, c, siblings)
  local cd = { name = c.name, methods = {}, props = {} }
  for _, m in ipairs(c.methods) do
    local d = siblings[m[2]]
    if m[1] ~= "__new__" and m[1] ~= "__init__" then
      if m[3] then cd.props[m[1]] = d else cd.methods[m[1]] = d end
    end
  end
  class_data[ud] = cd
  return setmetatable({ name = c.name, new = siblings[c.name .. "____new__"], class_type = ud }, class_mt)
end

return M
