-- lumba.parse: Python-subset source to the Lua-table AST, shaped and
-- positioned as Python's ast module does it. Expected shapes were produced
-- once by CPython 3.11 (ast.parse + ast.dump); the specs do not need Python.
local lumba = require "lumba"
local shape = require "ast_shape"

local SEEDS = {
  ising = [==[
import numpy as np
import numba

@numba.jit(nopython=True, cache=True)
def ising_energy_numba(spins: np.ndarray, J: float = 1.0) -> float:
    """Numba JIT accelerated Ising energy.

    nopython=True: compile fully or raise; cache=True: keep the result on disk.
    """
    N = spins.shape[0]
    energy = 0.0
    for i in range(N):
        for j in range(N):
            s = spins[i, j]
            # periodic boundary via modulo
            neighbor_right = spins[i, (j + 1) % N]
            neighbor_down = spins[(i + 1) % N, j]
            energy -= J * s * (neighbor_right + neighbor_down)
    return energy
]==],
  decay = [==[
from numba import cuda
import math

@cuda.jit
def exponential_decay_kernel(x, out, tau, n):
    idx = cuda.grid(1)
    if idx < n:
        out[idx] = math.exp(-x[idx] / tau)
]==],
  sum = [==[
from numba import jit
import numpy as np

@jit
def sum_array_numba(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total
]==],
  psum = [==[
from numba import njit, prange

@njit(parallel=True, cache=True)
def parallel_sum(arr):
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
]==],
  add = [==[
from numba import cuda
import numpy as np

@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]
]==],
}

-- seed 1 as CPython's ast.dump shows it, positions included
local ISING_TREE =
    "Module(body=[Import(names=[alias(name='numpy', asname='np', @1:7)], @1:0), Import(names=" ..
    "[alias(name='numba', @2:7)], @2:0), FunctionDef(name='ising_energy_numba', args=argument" ..
    "s(args=[arg(arg='spins', annotation=Attribute(value=Name(id='np', @5:30), attr='ndarray'" ..
    ", @5:30), @5:23), arg(arg='J', annotation=Name(id='float', @5:45), @5:42)], defaults=[Co" ..
    "nstant(value=1.0, @5:53)]), body=[Expr(value=Constant(value='Numba JIT accelerated Ising" ..
    " energy.\\n\\n    nopython=True: compile fully or raise; cache=True: keep the result on di" ..
    "sk.\\n    ', @6:4), @6:4), Assign(targets=[Name(id='N', @10:4)], value=Subscript(value=At" ..
    "tribute(value=Name(id='spins', @10:8), attr='shape', @10:8), slice=Constant(value=0, @10" ..
    ":20), @10:8), @10:4), Assign(targets=[Name(id='energy', @11:4)], value=Constant(value=0." ..
    "0, @11:13), @11:4), For(target=Name(id='i', @12:8), iter=Call(func=Name(id='range', @12:" ..
    "13), args=[Name(id='N', @12:19)], @12:13), body=[For(target=Name(id='j', @13:12), iter=C" ..
    "all(func=Name(id='range', @13:17), args=[Name(id='N', @13:23)], @13:17), body=[Assign(ta" ..
    "rgets=[Name(id='s', @14:12)], value=Subscript(value=Name(id='spins', @14:16), slice=Tupl" ..
    "e(elts=[Name(id='i', @14:22), Name(id='j', @14:25)], @14:22), @14:16), @14:12), Assign(t" ..
    "argets=[Name(id='neighbor_right', @16:12)], value=Subscript(value=Name(id='spins', @16:2" ..
    "9), slice=Tuple(elts=[Name(id='i', @16:35), BinOp(left=BinOp(left=Name(id='j', @16:39), " ..
    "op=Add, right=Constant(value=1, @16:43), @16:39), op=Mod, right=Name(id='N', @16:48), @1" ..
    "6:38)], @16:35), @16:29), @16:12), Assign(targets=[Name(id='neighbor_down', @17:12)], va" ..
    "lue=Subscript(value=Name(id='spins', @17:28), slice=Tuple(elts=[BinOp(left=BinOp(left=Na" ..
    "me(id='i', @17:35), op=Add, right=Constant(value=1, @17:39), @17:35), op=Mod, right=Name" ..
    "(id='N', @17:44), @17:34), Name(id='j', @17:47)], @17:34), @17:28), @17:12), AugAssign(t" ..
    "arget=Name(id='energy', @18:12), op=Sub, value=BinOp(left=BinOp(left=Name(id='J', @18:22" ..
    "), op=Mult, right=Name(id='s', @18:26), @18:22), op=Mult, right=BinOp(left=Name(id='neig" ..
    "hbor_right', @18:31), op=Add, right=Name(id='neighbor_down', @18:48), @18:31), @18:22), " ..
    "@18:12)], @13:8)], @12:4), Return(value=Name(id='energy', @19:11), @19:4)], decorator_li" ..
    "st=[Call(func=Attribute(value=Name(id='numba', @4:1), attr='jit', @4:1), args=[], keywor" ..
    "ds=[keyword(arg='nopython', value=Constant(value=True, @4:20), @4:11), keyword(arg='cach" ..
    "e', value=Constant(value=True, @4:32), @4:26)], @4:1)], returns=Name(id='float', @5:61)," ..
    " @5:0)])"

local EXPRESSIONS = {
  {"-2**2",
   "UnaryOp(op=USub, operand=BinOp(left=Constant(value=2), op=Pow, right=Constant(value=2)))"},
  {"2**-1",
   "BinOp(left=Constant(value=2), op=Pow, right=UnaryOp(op=USub, operand=Constant(value=1)))"},
  {"2**3**2",
   "BinOp(left=Constant(value=2), op=Pow, right=BinOp(left=Constant(value=3), op=Pow, right=Constant(value=2)))"},
  {"-x**-y",
   "UnaryOp(op=USub, operand=BinOp(left=Name(id='x'), op=Pow, right=UnaryOp(op=USub, operand=Name(id='y'))))"},
  {"a + b * c - d / e // f % g @ h",
   "BinOp(left=BinOp(left=Name(id='a'), op=Add, right=BinOp(left=Name(id='b'), op=Mult, right=Name(id='c'))), op=Sub, right=BinOp(left=BinOp(left=BinOp(left=BinOp(left=Name(id='d'), op=Div, right=Name(id='e')), op=FloorDiv, right=Name(id='f')), op=Mod, right=Name(id='g')), op=MatMult, right=Name(id='h')))"},
  {"a - b - c",
   "BinOp(left=BinOp(left=Name(id='a'), op=Sub, right=Name(id='b')), op=Sub, right=Name(id='c'))"},
  {"a | b ^ c & d << e >> f",
   "BinOp(left=Name(id='a'), op=BitOr, right=BinOp(left=Name(id='b'), op=BitXor, right=BinOp(left=Name(id='c'), op=BitAnd, right=BinOp(left=BinOp(left=Name(id='d'), op=LShift, right=Name(id='e')), op=RShift, right=Name(id='f')))))"},
  {"a << b + c",
   "BinOp(left=Name(id='a'), op=LShift, right=BinOp(left=Name(id='b'), op=Add, right=Name(id='c')))"},
  {"not a == b",
   "UnaryOp(op=Not, operand=Compare(left=Name(id='a'), ops=[Eq], comparators=[Name(id='b')]))"},
  {"a and b or c and not d",
   "BoolOp(op=Or, values=[BoolOp(op=And, values=[Name(id='a'), Name(id='b')]), BoolOp(op=And, values=[Name(id='c'), UnaryOp(op=Not, operand=Name(id='d'))])])"},
  {"a or b or c",
   "BoolOp(op=Or, values=[Name(id='a'), Name(id='b'), Name(id='c')])"},
  {"x if a else y if b else z",
   "IfExp(test=Name(id='a'), body=Name(id='x'), orelse=IfExp(test=Name(id='b'), body=Name(id='y'), orelse=Name(id='z')))"},
  {"0 <= i < n",
   "Compare(left=Constant(value=0), ops=[LtE, Lt], comparators=[Name(id='i'), Name(id='n')])"},
  {"a is not b is c",
   "Compare(left=Name(id='a'), ops=[IsNot, Is], comparators=[Name(id='b'), Name(id='c')])"},
  {"a not in b in c",
   "Compare(left=Name(id='a'), ops=[NotIn, In], comparators=[Name(id='b'), Name(id='c')])"},
  {"~a + -b * +c",
   "BinOp(left=UnaryOp(op=Invert, operand=Name(id='a')), op=Add, right=BinOp(left=UnaryOp(op=USub, operand=Name(id='b')), op=Mult, right=UnaryOp(op=UAdd, operand=Name(id='c'))))"},
  {"((a, b))",
   "Tuple(elts=[Name(id='a'), Name(id='b')])"},
  {"()",
   "Tuple(elts=[])"},
  {"(1,)",
   "Tuple(elts=[Constant(value=1)])"},
  {"[1, 2]",
   "List(elts=[Constant(value=1), Constant(value=2)])"},
  {"a.b(c)[d].e",
   "Attribute(value=Subscript(value=Call(func=Attribute(value=Name(id='a'), attr='b'), args=[Name(id='c')]), slice=Name(id='d')), attr='e')"},
  {"a[i, j]",
   "Subscript(value=Name(id='a'), slice=Tuple(elts=[Name(id='i'), Name(id='j')]))"},
  {"a[i,]",
   "Subscript(value=Name(id='a'), slice=Tuple(elts=[Name(id='i')]))"},
  {"a[1:-1]",
   "Subscript(value=Name(id='a'), slice=Slice(lower=Constant(value=1), upper=UnaryOp(op=USub, operand=Constant(value=1))))"},
  {"a[:, j]",
   "Subscript(value=Name(id='a'), slice=Tuple(elts=[Slice(), Name(id='j')]))"},
  {"a[::2]",
   "Subscript(value=Name(id='a'), slice=Slice(step=Constant(value=2)))"},
  {"a[1:2:3, :]",
   "Subscript(value=Name(id='a'), slice=Tuple(elts=[Slice(lower=Constant(value=1), upper=Constant(value=2), step=Constant(value=3)), Slice()]))"},
  {"a[-1]",
   "Subscript(value=Name(id='a'), slice=UnaryOp(op=USub, operand=Constant(value=1)))"},
  {"f(a, b=1, c=x + 1)",
   "Call(func=Name(id='f'), args=[Name(id='a')], keywords=[keyword(arg='b', value=Constant(value=1)), keyword(arg='c', value=BinOp(left=Name(id='x'), op=Add, right=Constant(value=1)))])"},
  {"np.zeros((n, m), dtype=np.int64)",
   "Call(func=Attribute(value=Name(id='np'), attr='zeros'), args=[Tuple(elts=[Name(id='n'), Name(id='m')])], keywords=[keyword(arg='dtype', value=Attribute(value=Name(id='np'), attr='int64'))])"},
  {"True, False, None",
   "Tuple(elts=[Constant(value=True), Constant(value=False), Constant()])"},
  {"-1.5e-9",
   "UnaryOp(op=USub, operand=Constant(value=1.5e-09))"},
  {"0x_ff + 0o17 + 0b101 + 1_000",
   "BinOp(left=BinOp(left=BinOp(left=Constant(value=255), op=Add, right=Constant(value=15)), op=Add, right=Constant(value=5)), op=Add, right=Constant(value=1000))"},
  {"'abc' \"def\"",
   "Constant(value='abcdef')"},
}

local STATEMENTS = {
  {"x = y = 0",
   "[Assign(targets=[Name(id='x'), Name(id='y')], value=Constant(value=0))]"},
  {"a, b = b, a",
   "[Assign(targets=[Tuple(elts=[Name(id='a'), Name(id='b')])], value=Tuple(elts=[Name(id='b'), Name(id='a')]))]"},
  {"n, m = x.shape",
   "[Assign(targets=[Tuple(elts=[Name(id='n'), Name(id='m')])], value=Attribute(value=Name(id='x'), attr='shape'))]"},
  {"(a, b) = [c, d] = e",
   "[Assign(targets=[Tuple(elts=[Name(id='a'), Name(id='b')]), List(elts=[Name(id='c'), Name(id='d')])], value=Name(id='e'))]"},
  {"a[i, j] = s.t = 1",
   "[Assign(targets=[Subscript(value=Name(id='a'), slice=Tuple(elts=[Name(id='i'), Name(id='j')])), Attribute(value=Name(id='s'), attr='t')], value=Constant(value=1))]"},
  {"energy -= J * s",
   "[AugAssign(target=Name(id='energy'), op=Sub, value=BinOp(left=Name(id='J'), op=Mult, right=Name(id='s')))]"},
  {"x: float = 1.0",
   "[AnnAssign(target=Name(id='x'), annotation=Name(id='float'), value=Constant(value=1.0))]"},
  {"if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3",
   "[If(test=Name(id='a'), body=[Assign(targets=[Name(id='x')], value=Constant(value=1))], orelse=[If(test=Name(id='b'), body=[Assign(targets=[Name(id='x')], value=Constant(value=2))], orelse=[If(test=Name(id='c'), body=[Pass()], orelse=[Assign(targets=[Name(id='x')], value=Constant(value=3))])])])]"},
  {"for i in range(n):\n    if i: break\n    continue\nelse:\n    pass",
   "[For(target=Name(id='i'), iter=Call(func=Name(id='range'), args=[Name(id='n')]), body=[If(test=Name(id='i'), body=[Break()]), Continue()], orelse=[Pass()])]"},
  {"while i < n:\n    i += 1",
   "[While(test=Compare(left=Name(id='i'), ops=[Lt], comparators=[Name(id='n')]), body=[AugAssign(target=Name(id='i'), op=Add, value=Constant(value=1))])]"},
  {"for i, j in pairs: pass",
   "[For(target=Tuple(elts=[Name(id='i'), Name(id='j')]), iter=Name(id='pairs'), body=[Pass()])]"},
  {"def f():\n    return a, b",
   "[FunctionDef(name='f', args=arguments(args=[]), body=[Return(value=Tuple(elts=[Name(id='a'), Name(id='b')]))])]"},
  {"def f():\n    return",
   "[FunctionDef(name='f', args=arguments(args=[]), body=[Return()])]"},
  {"assert x > 0, \"x must be positive\"",
   "[Assert(test=Compare(left=Name(id='x'), ops=[Gt], comparators=[Constant(value=0)]), msg=Constant(value='x must be positive'))]"},
  {"raise ValueError(\"bad\")",
   "[Raise(exc=Call(func=Name(id='ValueError'), args=[Constant(value='bad')]))]"},
  {"raise",
   "[Raise()]"},
  {"import numpy as np, math",
   "[Import(names=[alias(name='numpy', asname='np'), alias(name='math')])]"},
  {"import numba.cuda",
   "[Import(names=[alias(name='numba.cuda')])]"},
  {"from numba import njit, prange, cuda",
   "[ImportFrom(module='numba', names=[alias(name='njit'), alias(name='prange'), alias(name='cuda')])]"},
  {"from numba import (jit,\n    float32 as f32,)",
   "[ImportFrom(module='numba', names=[alias(name='jit'), alias(name='float32', asname='f32')])]"},
  {"x = 1; y = 2;",
   "[Assign(targets=[Name(id='x')], value=Constant(value=1)), Assign(targets=[Name(id='y')], value=Constant(value=2))]"},
  {"def f(a, b=1, c: int = 2) -> int: pass",
   "[FunctionDef(name='f', args=arguments(args=[arg(arg='a'), arg(arg='b'), arg(arg='c', annotation=Name(id='int'))], defaults=[Constant(value=1), Constant(value=2)]), body=[Pass()], returns=Name(id='int'))]"},
  {"@njit\n@numba.jit(nopython=True, cache=True)\n@cuda.jit\ndef k(x): pass",
   "[FunctionDef(name='k', args=arguments(args=[arg(arg='x')]), body=[Pass()], decorator_list=[Name(id='njit'), Call(func=Attribute(value=Name(id='numba'), attr='jit'), args=[], keywords=[keyword(arg='nopython', value=Constant(value=True)), keyword(arg='cache', value=Constant(value=True))]), Attribute(value=Name(id='cuda'), attr='jit')])]"},
  {"def f(x):\n    \"\"\"doc\"\"\"\n    return x",
   "[FunctionDef(name='f', args=arguments(args=[arg(arg='x')]), body=[Expr(value=Constant(value='doc')), Return(value=Name(id='x'))])]"},
}

describe("lumba.parse", function()
  it("gives seed 1 exactly Python's tree, every position included", function()
    assert.are.equal(ISING_TREE, shape(lumba.parse(SEEDS.ising), true))
  end)

  it("with \"decorators\", gives only the top-level defs' names, positions and decorators", function()
    local full = lumba.parse(SEEDS.psum)
    local d = lumba.parse(SEEDS.psum, "<psum>", "decorators")
    assert.are.equal(1, #d.body)  -- the import is left out
    local def, want = d.body[1], full.body[2]
    assert.are.equal("FunctionDef", def.tag)
    assert.are.equal(want.name, def.name)
    assert.are.equal(want.lineno, def.lineno)
    assert.are.equal(want.col_offset, def.col_offset)
    assert.are.equal(shape(want.decorator_list), shape(def.decorator_list))
    assert.is_nil(def.body)
    assert.has_error(function() lumba.parse(SEEDS.psum, "x", "body") end,
      "bad argument #3 to 'parse' (\"decorators\" or nothing expected)")
    -- syntax errors are the same either way
    local ok1, e1 = pcall(lumba.parse, "def f(:\n", "c")
    local ok2, e2 = pcall(lumba.parse, "def f(:\n", "c", "decorators")
    assert.is_false(ok1 or ok2)
    assert.are.equal(e1, e2)
  end)

  it("parses every seed verbatim, decorators and imports included", function()
    local decay = lumba.parse(SEEDS.decay)
    assert.are.equal("[ImportFrom(module='numba', names=[alias(name='cuda')]), " ..
                     "Import(names=[alias(name='math')])]",
                     shape({decay.body[1], decay.body[2]}))
    local k = decay.body[3]
    assert.are.equal("exponential_decay_kernel", k.name)
    assert.are.equal("[Attribute(value=Name(id='cuda'), attr='jit')]", shape(k.decorator_list))
    assert.are.equal("Assign(targets=[Subscript(value=Name(id='out'), slice=Name(id='idx'))], " ..
                     "value=Call(func=Attribute(value=Name(id='math'), attr='exp'), " ..
                     "args=[BinOp(left=UnaryOp(op=USub, operand=Subscript(value=Name(id='x'), " ..
                     "slice=Name(id='idx'))), op=Div, right=Name(id='tau'))]))",
                     shape(k.body[2].body[1]))
    local sum = lumba.parse(SEEDS.sum).body[3]
    assert.are.equal("[Name(id='jit')]", shape(sum.decorator_list))
    assert.are.equal("For(target=Name(id='i'), iter=Call(func=Name(id='range'), " ..
                     "args=[Subscript(value=Attribute(value=Name(id='arr'), attr='shape'), " ..
                     "slice=Constant(value=0))]), body=[AugAssign(target=Name(id='total'), " ..
                     "op=Add, value=Subscript(value=Name(id='arr'), slice=Name(id='i')))])",
                     shape(sum.body[2]))
    local psum = lumba.parse(SEEDS.psum)
    assert.are.equal("[Call(func=Name(id='njit'), args=[], keywords=[keyword(arg='parallel', " ..
                     "value=Constant(value=True)), keyword(arg='cache', value=Constant(value=True))])]",
                     shape(psum.body[2].decorator_list))
    assert.are.equal("prange", psum.body[2].body[2].iter.func.id)
    local add = lumba.parse(SEEDS.add).body[3]
    assert.are.equal("If(test=Compare(left=Name(id='idx'), ops=[Lt], comparators=[" ..
                     "Subscript(value=Attribute(value=Name(id='x'), attr='shape'), " ..
                     "slice=Constant(value=0))]), body=[Assign(targets=[Subscript(" ..
                     "value=Name(id='out'), slice=Name(id='idx'))], value=BinOp(left=" ..
                     "Subscript(value=Name(id='x'), slice=Name(id='idx')), op=Add, right=" ..
                     "Subscript(value=Name(id='y'), slice=Name(id='idx'))))])",
                     shape(add.body[2]))
  end)

  describe("expressions have Python's shapes (precedence, chains, slices)", function()
    for _, case in ipairs(EXPRESSIONS) do
      it(case[1], function()
        assert.are.equal(case[2], shape(lumba.parse(case[1]).body[1].value))
      end)
    end
  end)

  describe("statements have Python's shapes", function()
    for _, case in ipairs(STATEMENTS) do
      it((case[1]:gsub("\n", "\\n")), function()
        assert.are.equal(case[2], shape(lumba.parse(case[1]).body))
      end)
    end
  end)

  it("puts the position of a node at its first token, parentheses included", function()
    local e = lumba.parse("x = (a + b) * -c[i:j]\n").body[1].value
    assert.are.equal("BinOp(left=BinOp(left=Name(id='a', @1:5), op=Add, right=Name(id='b', @1:9), " ..
                     "@1:5), op=Mult, right=UnaryOp(op=USub, operand=Subscript(value=Name(id='c', " ..
                     "@1:15), slice=Slice(lower=Name(id='i', @1:17), upper=Name(id='j', @1:19), " ..
                     "@1:17), @1:15), @1:14), @1:4)", shape(e, true))
    local m = lumba.parse("if a:\n    pass\nelif b:\n    pass\n")
    assert.are.same({3, 0}, {m.body[1].orelse[1].lineno, m.body[1].orelse[1].col_offset})
    local f = lumba.parse("@njit\n\ndef f(x,\n      y=2): pass\n").body[1]
    assert.are.same({3, 0, 1, 1}, {f.lineno, f.col_offset, f.decorator_list[1].lineno,
                                   f.decorator_list[1].col_offset})
    assert.are.same({4, 6}, {f.args.args[2].lineno, f.args.args[2].col_offset})
  end)

  it("writes the Lua-table form with Python's field names", function()
    local f = lumba.parse("def f(a, b=2.5):\n    return a < b\n").body[1]
    assert.are.same({
      tag = "FunctionDef", name = "f", lineno = 1, col_offset = 0,
      args = {tag = "arguments",
              args = {{tag = "arg", arg = "a", lineno = 1, col_offset = 6},
                      {tag = "arg", arg = "b", lineno = 1, col_offset = 9}},
              defaults = {{tag = "Constant", value = 2.5, lineno = 1, col_offset = 11}}},
      decorator_list = {},
      body = {{tag = "Return", lineno = 2, col_offset = 4,
               value = {tag = "Compare", lineno = 2, col_offset = 11,
                        left = {tag = "Name", id = "a", lineno = 2, col_offset = 11},
                        ops = {"Lt"},
                        comparators = {{tag = "Name", id = "b", lineno = 2, col_offset = 15}}}}},
    }, f)
    local c = lumba.parse("None, 1, 1.0, True, 's'\n").body[1].value.elts
    assert.is_nil(c[1].value)
    assert.are.equal("integer", math.type(c[2].value))
    assert.are.equal("float", math.type(c[3].value))
    assert.are.equal(true, c[4].value)
    assert.are.equal("s", c[5].value)
  end)

  it("parses an empty source to an empty Module", function()
    assert.are.same({tag = "Module", body = {}}, lumba.parse(""))
    assert.are.same({tag = "Module", body = {}}, lumba.parse("\n# nothing\n\n"))
  end)

  it("nests up to the limit: 150 parentheses, blocks and operators", function()
    local m = lumba.parse("x = " .. ("("):rep(150) .. "1" .. (")"):rep(150) .. "\n")
    assert.are.equal(1, m.body[1].value.value)
    local e = lumba.parse("x = 1" .. ("+1"):rep(150) .. "\n").body[1].value
    local height = 0
    while e.tag == "BinOp" do e, height = e.left, height + 1 end
    assert.are.equal(150, height)
    local lines = {}
    for i = 0, 149 do lines[#lines + 1] = (" "):rep(i) .. "while x:\n" end
    lines[#lines + 1] = (" "):rep(150) .. "pass\n"
    local w = lumba.parse(table.concat(lines)).body[1]
    for _ = 1, 149 do w = w.body[1] end
    assert.are.equal("Pass", w.body[1].tag)
    -- long flat lists are not nesting
    local cmp = lumba.parse("x = a" .. (" < a"):rep(10000) .. "\n").body[1].value
    assert.are.equal(10000, #cmp.ops)
  end)
end)

describe("the Lua-table AST round trip", function()
  local function roundtrip(src)
    local t = lumba.parse(src)
    assert.are.same(t, lumba._ast_roundtrip(t))
  end

  it("gives back the same table for every seed", function()
    for _, src in pairs(SEEDS) do roundtrip(src) end
  end)

  it("gives back the same table for every expression and statement sample", function()
    for _, case in ipairs(EXPRESSIONS) do roundtrip(case[1]) end
    for _, case in ipairs(STATEMENTS) do roundtrip(case[1]) end
  end)

  it("gives back the deepest trees the parser accepts", function()
    roundtrip("x = " .. ("-"):rep(190) .. "1\n")
    roundtrip("x = a" .. (".b"):rep(190) .. "\n")
    -- statements nested 190 deep holding an expression 190 high
    local lines = {"def f():\n"}
    for i = 1, 188 do lines[#lines + 1] = (" "):rep(i) .. "if x:\n" end
    lines[#lines + 1] = (" "):rep(189) .. "return 1" .. ("+1"):rep(190) .. "\n"
    roundtrip(table.concat(lines))
  end)

  it("wraps a lone FunctionDef table in a Module", function()
    local f = lumba.parse("def f(x):\n    return x\n").body[1]
    assert.are.same({tag = "Module", body = {f}}, lumba._ast_roundtrip(f))
  end)
end)
