-- Metaprogramming: a Lua program writes the kernel. For a stencil of any
-- radius R, Lua builds the syntax tree of a 2-D convolution with every
-- neighbour unrolled and every weight a constant (the Lua-table AST that
-- lumba.parse returns, shaped like Python's ast module), and lumba.njit
-- compiles the tree directly, with no source text. The result is checked
-- against a plain-Lua stencil, and against the same kernel printed as
-- Python and compiled from that text.
-- Run: lua5.4 examples/stencil_ast.lua [R]   (LUMBA_EXAMPLE_QUICK=1: small)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local lumba = require "lumba"

local quick = os.getenv("LUMBA_EXAMPLE_QUICK") == "1"

-- ---- AST constructors (node tags and fields as in Python's ast) ----
local function Name(id) return { tag = "Name", id = id } end
local function Const(v) return { tag = "Constant", value = v } end
local function BinOp(l, op, r) return { tag = "BinOp", left = l, op = op, right = r } end
local function Index(arr, ...) return { tag = "Subscript", value = Name(arr), slice = { tag = "Tuple", elts = { ... } } } end
local function Assign(target, value) return { tag = "Assign", targets = { target }, value = value } end
local function Range(a, b) return { tag = "Call", func = Name "range", args = { a, b }, keywords = {} } end
local function For(var, iter, body) return { tag = "For", target = Name(var), iter = iter, body = body } end
-- i + d as a node: i, i + d or i - |d|
local function offset(var, d)
  if d == 0 then return Name(var) end
  return BinOp(Name(var), d > 0 and "Add" or "Sub", Const(math.abs(d)))
end

-- Gaussian weights of radius R (sigma = R/2), normalised to sum to 1
local function gaussian(R)
  local w, total = {}, 0
  for di = -R, R do
    w[di] = {}
    for dj = -R, R do
      w[di][dj] = math.exp(-(di * di + dj * dj) / (2 * (R / 2) ^ 2))
      total = total + w[di][dj]
    end
  end
  for di = -R, R do for dj = -R, R do w[di][dj] = w[di][dj] / total end end
  return w
end

-- def blur_R(a, out):
--     h, w = a.shape
--     for i in range(R, h - R):
--         for j in range(R, w - R):
--             out[i, j] = w[-R][-R] * a[i - R, j - R] + ... + w[R][R] * a[i + R, j + R]
local function stencil_ast(R, w)
  local sum
  for di = -R, R do
    for dj = -R, R do
      local term = BinOp(Const(w[di][dj]), "Mult", Index("a", offset("i", di), offset("j", dj)))
      sum = sum and BinOp(sum, "Add", term) or term
    end
  end
  return {
    tag = "FunctionDef", name = "blur_" .. R, lineno = 1, col_offset = 0,
    args = { args = { { tag = "arg", arg = "a" }, { tag = "arg", arg = "out" } } },
    body = {
      Assign({ tag = "Tuple", elts = { Name "h", Name "w" } }, { tag = "Attribute", value = Name "a", attr = "shape" }),
      For("i", Range(Const(R), BinOp(Name "h", "Sub", Const(R))), {
        For("j", Range(Const(R), BinOp(Name "w", "Sub", Const(R))), {
          Assign(Index("out", Name "i", Name "j"), sum),
        }),
      }),
    },
  }
end

-- ---- the tree printed back as Python (only the node kinds used above) ----
local unparse_expr
local OPS = { Add = "+", Sub = "-", Mult = "*" }
function unparse_expr(n)
  if n.tag == "Name" then return n.id end
  if n.tag == "Constant" then return math.type(n.value) == "float" and ("%.17g"):format(n.value) or tostring(n.value) end
  if n.tag == "BinOp" then return unparse_expr(n.left) .. " " .. OPS[n.op] .. " " .. unparse_expr(n.right) end
  if n.tag == "Attribute" then return unparse_expr(n.value) .. "." .. n.attr end
  if n.tag == "Tuple" then
    local t = {}
    for i, e in ipairs(n.elts) do t[i] = unparse_expr(e) end
    return table.concat(t, ", ")
  end
  if n.tag == "Subscript" then return unparse_expr(n.value) .. "[" .. unparse_expr(n.slice) .. "]" end
  if n.tag == "Call" then
    local t = {}
    for i, e in ipairs(n.args) do t[i] = unparse_expr(e) end
    return unparse_expr(n.func) .. "(" .. table.concat(t, ", ") .. ")"
  end
  error("cannot print a " .. n.tag)
end
local function unparse(n, indent, out)
  indent, out = indent or "", out or {}
  if n.tag == "FunctionDef" then
    local params = {}
    for i, a in ipairs(n.args.args) do params[i] = a.arg end
    out[#out + 1] = ("%sdef %s(%s):"):format(indent, n.name, table.concat(params, ", "))
    for _, s in ipairs(n.body) do unparse(s, indent .. "    ", out) end
  elseif n.tag == "For" then
    out[#out + 1] = ("%sfor %s in %s:"):format(indent, unparse_expr(n.target), unparse_expr(n.iter))
    for _, s in ipairs(n.body) do unparse(s, indent .. "    ", out) end
  elseif n.tag == "Assign" then
    out[#out + 1] = indent .. unparse_expr(n.targets[1]) .. " = " .. unparse_expr(n.value)
  end
  return table.concat(out, "\n") .. "\n"
end

-- ---- the same stencil in plain Lua (same order of additions) ----
local function stencil_lua(t, h, w, R, wt)
  local out = {}
  for i = 1, h do out[i] = {} for j = 1, w do out[i][j] = 0.0 end end
  for i = R, h - R - 1 do
    for j = R, w - R - 1 do
      local s
      for di = -R, R do
        for dj = -R, R do
          local term = wt[di][dj] * t[i + di + 1][j + dj + 1]
          s = s and s + term or term
        end
      end
      out[i + 1][j + 1] = s
    end
  end
  return out
end

-- a generic kernel for comparison: the weights in an array, loops over them
local blur_loop = lumba.njit [[
def blur_loop(a, out, wt):
    h, w = a.shape
    R = wt.shape[0] // 2
    for i in range(R, h - R):
        for j in range(R, w - R):
            s = 0.0
            for di in range(-R, R + 1):
                for dj in range(-R, R + 1):
                    s += wt[di + R, dj + R] * a[i + di, j + dj]
            out[i, j] = s
]]

local radii = arg[1] and { tonumber(arg[1]) } or (quick and { 1, 2 } or { 1, 2, 3, 5 })
local h, w = 48, 64
if not quick then h, w = 1000, 1000 end
lumba.random.seed(11)
local a = lumba.random.rand(h, w)
local small = a:slice({ 1, 20 }, { 1, 30 }):copy()   -- checked against plain Lua
local small_t = small:totable()

for _, R in ipairs(radii) do
  local wt = gaussian(R)
  local tree = stencil_ast(R, wt)
  local blur = lumba.njit(tree)                      -- compiled from the Lua tables
  local text = unparse(tree)
  local blur_text = lumba.njit(text)                 -- the same kernel as Python text

  -- plain Lua agrees on a small array (same summation order: equal to rounding)
  local o = lumba.zeros({ 20, 30 })
  blur(small, o)
  local want = stencil_lua(small_t, 20, 30, R, wt)
  for i = 1, 20 do
    for j = 1, 30 do
      assert(math.abs(o:get(i, j) - want[i][j]) <= 1e-15, ("R=%d: (%d, %d) differs from plain Lua"):format(R, i, j))
    end
  end

  -- both compile paths give the same bits; the generic loop agrees to rounding
  local o1, o2, o3 = lumba.zeros({ h, w }), lumba.zeros({ h, w }), lumba.zeros({ h, w })
  local warr = lumba.empty({ 2 * R + 1, 2 * R + 1 })
  for di = -R, R do for dj = -R, R do warr:set(di + R + 1, dj + R + 1, wt[di][dj]) end end
  blur(a, o1)
  blur_text(a, o2)
  blur_loop(a, o3, warr)
  local t0 = os.clock()
  blur(a, o1)
  local t_unrolled = os.clock() - t0
  t0 = os.clock()
  blur_loop(a, o3, warr)
  local t_loop = os.clock() - t0
  assert(lumba.allclose(o1, o2, 0, 0), "the AST and the text compile to different results")
  assert(lumba.allclose(o1, o3, 1e-12, 1e-15), "the unrolled and the generic stencil disagree")
  -- a blur keeps the mean of uniform noise (0.5) in the interior
  local interior = o1:slice({ R + 1, h - R }, { R + 1, w - R })
  local mean = interior:sum() / interior.size
  assert(math.abs(mean - 0.5) < (quick and 0.05 or 0.01), "the blurred mean drifted")

  local lines = select(2, text:gsub("\n", ""))
  print(("R=%d: %d-point stencil, a %d-line kernel of %d characters; plain Lua agrees; "
    .. "unrolled %.4f s, generic loop %.4f s on %dx%d"):format(
    R, (2 * R + 1) ^ 2, lines, #text, t_unrolled, t_loop, h, w))
  if R == 1 and not quick then io.write(text) end
end
