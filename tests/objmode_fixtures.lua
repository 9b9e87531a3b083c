-- Object-mode fixtures: Python sources and their Lua-table ASTs, in the
-- format lumba.parse returns (src/ast.h). Generated once from the sources
-- with Python 3.11's ast module; the tests need no Python.
return {
  ops = {
    src = [==[def add(a, b):
    return a + b

def add_i(a, b):
    x = int(a)
    y = int(b)
    return x + y

def add_f(a, b):
    x = float(a)
    y = float(b)
    return x + y

def sub(a, b):
    return a - b

def sub_i(a, b):
    x = int(a)
    y = int(b)
    return x - y

def sub_f(a, b):
    x = float(a)
    y = float(b)
    return x - y

def mul(a, b):
    return a * b

def mul_i(a, b):
    x = int(a)
    y = int(b)
    return x * y

def mul_f(a, b):
    x = float(a)
    y = float(b)
    return x * y

def div(a, b):
    return a / b

def div_i(a, b):
    x = int(a)
    y = int(b)
    return x / y

def div_f(a, b):
    x = float(a)
    y = float(b)
    return x / y

def floordiv(a, b):
    return a // b

def floordiv_i(a, b):
    x = int(a)
    y = int(b)
    return x // y

def floordiv_f(a, b):
    x = float(a)
    y = float(b)
    return x // y

def mod(a, b):
    return a % b

def mod_i(a, b):
    x = int(a)
    y = int(b)
    return x % y

def mod_f(a, b):
    x = float(a)
    y = float(b)
    return x % y

def pow(a, b):
    return a ** b

def pow_i(a, b):
    x = int(a)
    y = int(b)
    return x ** y

def pow_f(a, b):
    x = float(a)
    y = float(b)
    return x ** y

def lshift(a, b):
    return a << b

def lshift_i(a, b):
    x = int(a)
    y = int(b)
    return x << y

def lshift_f(a, b):
    x = float(a)
    y = float(b)
    return x << y

def rshift(a, b):
    return a >> b

def rshift_i(a, b):
    x = int(a)
    y = int(b)
    return x >> y

def rshift_f(a, b):
    x = float(a)
    y = float(b)
    return x >> y

def band(a, b):
    return a & b

def band_i(a, b):
    x = int(a)
    y = int(b)
    return x & y

def band_f(a, b):
    x = float(a)
    y = float(b)
    return x & y

def bor(a, b):
    return a | b

def bor_i(a, b):
    x = int(a)
    y = int(b)
    return x | y

def bor_f(a, b):
    x = float(a)
    y = float(b)
    return x | y

def bxor(a, b):
    return a ^ b

def bxor_i(a, b):
    x = int(a)
    y = int(b)
    return x ^ y

def bxor_f(a, b):
    x = float(a)
    y = float(b)
    return x ^ y

def eq(a, b):
    return a == b

def ne(a, b):
    return a != b

def lt(a, b):
    return a < b

def le(a, b):
    return a <= b

def gt(a, b):
    return a > b

def ge(a, b):
    return a >= b

def neg(a):
    return -a

def pos(a):
    return +a

def inv(a):
    return ~a

def lnot(a):
    return not a

def neg_i(a):
    x = int(a)
    return -x

def truth(a):
    if a:
        return 1
    return 0

def land(a, b):
    return a and b

def lor(a, b):
    return a or b
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="add", args={tag="arguments", args={{tag="arg", arg="a", lineno=1, col_offset=8}, {tag="arg", arg="b", lineno=1, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=2, col_offset=11}, op="Add", right={tag="Name", id="b", lineno=2, col_offset=15}, lineno=2, col_offset=11}, lineno=2, col_offset=4}}, lineno=1, col_offset=0},
      {tag="FunctionDef", name="add_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=4, col_offset=10}, {tag="arg", arg="b", lineno=4, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=5, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=5, col_offset=8}, args={{tag="Name", id="a", lineno=5, col_offset=12}}, keywords={}, lineno=5, col_offset=8}, lineno=5, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=6, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=6, col_offset=8}, args={{tag="Name", id="b", lineno=6, col_offset=12}}, keywords={}, lineno=6, col_offset=8}, lineno=6, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=7, col_offset=11}, op="Add", right={tag="Name", id="y", lineno=7, col_offset=15}, lineno=7, col_offset=11}, lineno=7, col_offset=4}}, lineno=4, col_offset=0},
      {tag="FunctionDef", name="add_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=9, col_offset=10}, {tag="arg", arg="b", lineno=9, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=10, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=10, col_offset=8}, args={{tag="Name", id="a", lineno=10, col_offset=14}}, keywords={}, lineno=10, col_offset=8}, lineno=10, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=11, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=11, col_offset=8}, args={{tag="Name", id="b", lineno=11, col_offset=14}}, keywords={}, lineno=11, col_offset=8}, lineno=11, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=12, col_offset=11}, op="Add", right={tag="Name", id="y", lineno=12, col_offset=15}, lineno=12, col_offset=11}, lineno=12, col_offset=4}}, lineno=9, col_offset=0},
      {tag="FunctionDef", name="sub", args={tag="arguments", args={{tag="arg", arg="a", lineno=14, col_offset=8}, {tag="arg", arg="b", lineno=14, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=15, col_offset=11}, op="Sub", right={tag="Name", id="b", lineno=15, col_offset=15}, lineno=15, col_offset=11}, lineno=15, col_offset=4}}, lineno=14, col_offset=0},
      {tag="FunctionDef", name="sub_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=17, col_offset=10}, {tag="arg", arg="b", lineno=17, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=18, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=18, col_offset=8}, args={{tag="Name", id="a", lineno=18, col_offset=12}}, keywords={}, lineno=18, col_offset=8}, lineno=18, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=19, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=19, col_offset=8}, args={{tag="Name", id="b", lineno=19, col_offset=12}}, keywords={}, lineno=19, col_offset=8}, lineno=19, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=20, col_offset=11}, op="Sub", right={tag="Name", id="y", lineno=20, col_offset=15}, lineno=20, col_offset=11}, lineno=20, col_offset=4}}, lineno=17, col_offset=0},
      {tag="FunctionDef", name="sub_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=22, col_offset=10}, {tag="arg", arg="b", lineno=22, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=23, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=23, col_offset=8}, args={{tag="Name", id="a", lineno=23, col_offset=14}}, keywords={}, lineno=23, col_offset=8}, lineno=23, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=24, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=24, col_offset=8}, args={{tag="Name", id="b", lineno=24, col_offset=14}}, keywords={}, lineno=24, col_offset=8}, lineno=24, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=25, col_offset=11}, op="Sub", right={tag="Name", id="y", lineno=25, col_offset=15}, lineno=25, col_offset=11}, lineno=25, col_offset=4}}, lineno=22, col_offset=0},
      {tag="FunctionDef", name="mul", args={tag="arguments", args={{tag="arg", arg="a", lineno=27, col_offset=8}, {tag="arg", arg="b", lineno=27, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=28, col_offset=11}, op="Mult", right={tag="Name", id="b", lineno=28, col_offset=15}, lineno=28, col_offset=11}, lineno=28, col_offset=4}}, lineno=27, col_offset=0},
      {tag="FunctionDef", name="mul_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=30, col_offset=10}, {tag="arg", arg="b", lineno=30, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=31, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=31, col_offset=8}, args={{tag="Name", id="a", lineno=31, col_offset=12}}, keywords={}, lineno=31, col_offset=8}, lineno=31, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=32, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=32, col_offset=8}, args={{tag="Name", id="b", lineno=32, col_offset=12}}, keywords={}, lineno=32, col_offset=8}, lineno=32, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=33, col_offset=11}, op="Mult", right={tag="Name", id="y", lineno=33, col_offset=15}, lineno=33, col_offset=11}, lineno=33, col_offset=4}}, lineno=30, col_offset=0},
      {tag="FunctionDef", name="mul_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=35, col_offset=10}, {tag="arg", arg="b", lineno=35, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=36, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=36, col_offset=8}, args={{tag="Name", id="a", lineno=36, col_offset=14}}, keywords={}, lineno=36, col_offset=8}, lineno=36, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=37, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=37, col_offset=8}, args={{tag="Name", id="b", lineno=37, col_offset=14}}, keywords={}, lineno=37, col_offset=8}, lineno=37, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=38, col_offset=11}, op="Mult", right={tag="Name", id="y", lineno=38, col_offset=15}, lineno=38, col_offset=11}, lineno=38, col_offset=4}}, lineno=35, col_offset=0},
      {tag="FunctionDef", name="div", args={tag="arguments", args={{tag="arg", arg="a", lineno=40, col_offset=8}, {tag="arg", arg="b", lineno=40, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=41, col_offset=11}, op="Div", right={tag="Name", id="b", lineno=41, col_offset=15}, lineno=41, col_offset=11}, lineno=41, col_offset=4}}, lineno=40, col_offset=0},
      {tag="FunctionDef", name="div_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=43, col_offset=10}, {tag="arg", arg="b", lineno=43, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=44, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=44, col_offset=8}, args={{tag="Name", id="a", lineno=44, col_offset=12}}, keywords={}, lineno=44, col_offset=8}, lineno=44, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=45, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=45, col_offset=8}, args={{tag="Name", id="b", lineno=45, col_offset=12}}, keywords={}, lineno=45, col_offset=8}, lineno=45, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=46, col_offset=11}, op="Div", right={tag="Name", id="y", lineno=46, col_offset=15}, lineno=46, col_offset=11}, lineno=46, col_offset=4}}, lineno=43, col_offset=0},
      {tag="FunctionDef", name="div_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=48, col_offset=10}, {tag="arg", arg="b", lineno=48, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=49, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=49, col_offset=8}, args={{tag="Name", id="a", lineno=49, col_offset=14}}, keywords={}, lineno=49, col_offset=8}, lineno=49, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=50, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=50, col_offset=8}, args={{tag="Name", id="b", lineno=50, col_offset=14}}, keywords={}, lineno=50, col_offset=8}, lineno=50, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=51, col_offset=11}, op="Div", right={tag="Name", id="y", lineno=51, col_offset=15}, lineno=51, col_offset=11}, lineno=51, col_offset=4}}, lineno=48, col_offset=0},
      {tag="FunctionDef", name="floordiv", args={tag="arguments", args={{tag="arg", arg="a", lineno=53, col_offset=13}, {tag="arg", arg="b", lineno=53, col_offset=16}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=54, col_offset=11}, op="FloorDiv", right={tag="Name", id="b", lineno=54, col_offset=16}, lineno=54, col_offset=11}, lineno=54, col_offset=4}}, lineno=53, col_offset=0},
      {tag="FunctionDef", name="floordiv_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=56, col_offset=15}, {tag="arg", arg="b", lineno=56, col_offset=18}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=57, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=57, col_offset=8}, args={{tag="Name", id="a", lineno=57, col_offset=12}}, keywords={}, lineno=57, col_offset=8}, lineno=57, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=58, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=58, col_offset=8}, args={{tag="Name", id="b", lineno=58, col_offset=12}}, keywords={}, lineno=58, col_offset=8}, lineno=58, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=59, col_offset=11}, op="FloorDiv", right={tag="Name", id="y", lineno=59, col_offset=16}, lineno=59, col_offset=11}, lineno=59, col_offset=4}}, lineno=56, col_offset=0},
      {tag="FunctionDef", name="floordiv_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=61, col_offset=15}, {tag="arg", arg="b", lineno=61, col_offset=18}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=62, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=62, col_offset=8}, args={{tag="Name", id="a", lineno=62, col_offset=14}}, keywords={}, lineno=62, col_offset=8}, lineno=62, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=63, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=63, col_offset=8}, args={{tag="Name", id="b", lineno=63, col_offset=14}}, keywords={}, lineno=63, col_offset=8}, lineno=63, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=64, col_offset=11}, op="FloorDiv", right={tag="Name", id="y", lineno=64, col_offset=16}, lineno=64, col_offset=11}, lineno=64, col_offset=4}}, lineno=61, col_offset=0},
      {tag="FunctionDef", name="mod", args={tag="arguments", args={{tag="arg", arg="a", lineno=66, col_offset=8}, {tag="arg", arg="b", lineno=66, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=67, col_offset=11}, op="Mod", right={tag="Name", id="b", lineno=67, col_offset=15}, lineno=67, col_offset=11}, lineno=67, col_offset=4}}, lineno=66, col_offset=0},
      {tag="FunctionDef", name="mod_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=69, col_offset=10}, {tag="arg", arg="b", lineno=69, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=70, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=70, col_offset=8}, args={{tag="Name", id="a", lineno=70, col_offset=12}}, keywords={}, lineno=70, col_offset=8}, lineno=70, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=71, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=71, col_offset=8}, args={{tag="Name", id="b", lineno=71, col_offset=12}}, keywords={}, lineno=71, col_offset=8}, lineno=71, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=72, col_offset=11}, op="Mod", right={tag="Name", id="y", lineno=72, col_offset=15}, lineno=72, col_offset=11}, lineno=72, col_offset=4}}, lineno=69, col_offset=0},
      {tag="FunctionDef", name="mod_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=74, col_offset=10}, {tag="arg", arg="b", lineno=74, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=75, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=75, col_offset=8}, args={{tag="Name", id="a", lineno=75, col_offset=14}}, keywords={}, lineno=75, col_offset=8}, lineno=75, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=76, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=76, col_offset=8}, args={{tag="Name", id="b", lineno=76, col_offset=14}}, keywords={}, lineno=76, col_offset=8}, lineno=76, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=77, col_offset=11}, op="Mod", right={tag="Name", id="y", lineno=77, col_offset=15}, lineno=77, col_offset=11}, lineno=77, col_offset=4}}, lineno=74, col_offset=0},
      {tag="FunctionDef", name="pow", args={tag="arguments", args={{tag="arg", arg="a", lineno=79, col_offset=8}, {tag="arg", arg="b", lineno=79, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=80, col_offset=11}, op="Pow", right={tag="Name", id="b", lineno=80, col_offset=16}, lineno=80, col_offset=11}, lineno=80, col_offset=4}}, lineno=79, col_offset=0},
      {tag="FunctionDef", name="pow_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=82, col_offset=10}, {tag="arg", arg="b", lineno=82, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=83, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=83, col_offset=8}, args={{tag="Name", id="a", lineno=83, col_offset=12}}, keywords={}, lineno=83, col_offset=8}, lineno=83, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=84, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=84, col_offset=8}, args={{tag="Name", id="b", lineno=84, col_offset=12}}, keywords={}, lineno=84, col_offset=8}, lineno=84, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=85, col_offset=11}, op="Pow", right={tag="Name", id="y", lineno=85, col_offset=16}, lineno=85, col_offset=11}, lineno=85, col_offset=4}}, lineno=82, col_offset=0},
      {tag="FunctionDef", name="pow_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=87, col_offset=10}, {tag="arg", arg="b", lineno=87, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=88, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=88, col_offset=8}, args={{tag="Name", id="a", lineno=88, col_offset=14}}, keywords={}, lineno=88, col_offset=8}, lineno=88, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=89, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=89, col_offset=8}, args={{tag="Name", id="b", lineno=89, col_offset=14}}, keywords={}, lineno=89, col_offset=8}, lineno=89, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=90, col_offset=11}, op="Pow", right={tag="Name", id="y", lineno=90, col_offset=16}, lineno=90, col_offset=11}, lineno=90, col_offset=4}}, lineno=87, col_offset=0},
      {tag="FunctionDef", name="lshift", args={tag="arguments", args={{tag="arg", arg="a", lineno=92, col_offset=11}, {tag="arg", arg="b", lineno=92, col_offset=14}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=93, col_offset=11}, op="LShift", right={tag="Name", id="b", lineno=93, col_offset=16}, lineno=93, col_offset=11}, lineno=93, col_offset=4}}, lineno=92, col_offset=0},
      {tag="FunctionDef", name="lshift_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=95, col_offset=13}, {tag="arg", arg="b", lineno=95, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=96, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=96, col_offset=8}, args={{tag="Name", id="a", lineno=96, col_offset=12}}, keywords={}, lineno=96, col_offset=8}, lineno=96, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=97, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=97, col_offset=8}, args={{tag="Name", id="b", lineno=97, col_offset=12}}, keywords={}, lineno=97, col_offset=8}, lineno=97, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=98, col_offset=11}, op="LShift", right={tag="Name", id="y", lineno=98, col_offset=16}, lineno=98, col_offset=11}, lineno=98, col_offset=4}}, lineno=95, col_offset=0},
      {tag="FunctionDef", name="lshift_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=100, col_offset=13}, {tag="arg", arg="b", lineno=100, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=101, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=101, col_offset=8}, args={{tag="Name", id="a", lineno=101, col_offset=14}}, keywords={}, lineno=101, col_offset=8}, lineno=101, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=102, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=102, col_offset=8}, args={{tag="Name", id="b", lineno=102, col_offset=14}}, keywords={}, lineno=102, col_offset=8}, lineno=102, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=103, col_offset=11}, op="LShift", right={tag="Name", id="y", lineno=103, col_offset=16}, lineno=103, col_offset=11}, lineno=103, col_offset=4}}, lineno=100, col_offset=0},
      {tag="FunctionDef", name="rshift", args={tag="arguments", args={{tag="arg", arg="a", lineno=105, col_offset=11}, {tag="arg", arg="b", lineno=105, col_offset=14}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=106, col_offset=11}, op="RShift", right={tag="Name", id="b", lineno=106, col_offset=16}, lineno=106, col_offset=11}, lineno=106, col_offset=4}}, lineno=105, col_offset=0},
      {tag="FunctionDef", name="rshift_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=108, col_offset=13}, {tag="arg", arg="b", lineno=108, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=109, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=109, col_offset=8}, args={{tag="Name", id="a", lineno=109, col_offset=12}}, keywords={}, lineno=109, col_offset=8}, lineno=109, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=110, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=110, col_offset=8}, args={{tag="Name", id="b", lineno=110, col_offset=12}}, keywords={}, lineno=110, col_offset=8}, lineno=110, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=111, col_offset=11}, op="RShift", right={tag="Name", id="y", lineno=111, col_offset=16}, lineno=111, col_offset=11}, lineno=111, col_offset=4}}, lineno=108, col_offset=0},
      {tag="FunctionDef", name="rshift_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=113, col_offset=13}, {tag="arg", arg="b", lineno=113, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=114, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=114, col_offset=8}, args={{tag="Name", id="a", lineno=114, col_offset=14}}, keywords={}, lineno=114, col_offset=8}, lineno=114, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=115, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=115, col_offset=8}, args={{tag="Name", id="b", lineno=115, col_offset=14}}, keywords={}, lineno=115, col_offset=8}, lineno=115, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=116, col_offset=11}, op="RShift", right={tag="Name", id="y", lineno=116, col_offset=16}, lineno=116, col_offset=11}, lineno=116, col_offset=4}}, lineno=113, col_offset=0},
      {tag="FunctionDef", name="band", args={tag="arguments", args={{tag="arg", arg="a", lineno=118, col_offset=9}, {tag="arg", arg="b", lineno=118, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=119, col_offset=11}, op="BitAnd", right={tag="Name", id="b", lineno=119, col_offset=15}, lineno=119, col_offset=11}, lineno=119, col_offset=4}}, lineno=118, col_offset=0},
      {tag="FunctionDef", name="band_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=121, col_offset=11}, {tag="arg", arg="b", lineno=121, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=122, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=122, col_offset=8}, args={{tag="Name", id="a", lineno=122, col_offset=12}}, keywords={}, lineno=122, col_offset=8}, lineno=122, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=123, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=123, col_offset=8}, args={{tag="Name", id="b", lineno=123, col_offset=12}}, keywords={}, lineno=123, col_offset=8}, lineno=123, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=124, col_offset=11}, op="BitAnd", right={tag="Name", id="y", lineno=124, col_offset=15}, lineno=124, col_offset=11}, lineno=124, col_offset=4}}, lineno=121, col_offset=0},
      {tag="FunctionDef", name="band_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=126, col_offset=11}, {tag="arg", arg="b", lineno=126, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=127, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=127, col_offset=8}, args={{tag="Name", id="a", lineno=127, col_offset=14}}, keywords={}, lineno=127, col_offset=8}, lineno=127, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=128, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=128, col_offset=8}, args={{tag="Name", id="b", lineno=128, col_offset=14}}, keywords={}, lineno=128, col_offset=8}, lineno=128, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=129, col_offset=11}, op="BitAnd", right={tag="Name", id="y", lineno=129, col_offset=15}, lineno=129, col_offset=11}, lineno=129, col_offset=4}}, lineno=126, col_offset=0},
      {tag="FunctionDef", name="bor", args={tag="arguments", args={{tag="arg", arg="a", lineno=131, col_offset=8}, {tag="arg", arg="b", lineno=131, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=132, col_offset=11}, op="BitOr", right={tag="Name", id="b", lineno=132, col_offset=15}, lineno=132, col_offset=11}, lineno=132, col_offset=4}}, lineno=131, col_offset=0},
      {tag="FunctionDef", name="bor_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=134, col_offset=10}, {tag="arg", arg="b", lineno=134, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=135, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=135, col_offset=8}, args={{tag="Name", id="a", lineno=135, col_offset=12}}, keywords={}, lineno=135, col_offset=8}, lineno=135, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=136, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=136, col_offset=8}, args={{tag="Name", id="b", lineno=136, col_offset=12}}, keywords={}, lineno=136, col_offset=8}, lineno=136, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=137, col_offset=11}, op="BitOr", right={tag="Name", id="y", lineno=137, col_offset=15}, lineno=137, col_offset=11}, lineno=137, col_offset=4}}, lineno=134, col_offset=0},
      {tag="FunctionDef", name="bor_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=139, col_offset=10}, {tag="arg", arg="b", lineno=139, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=140, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=140, col_offset=8}, args={{tag="Name", id="a", lineno=140, col_offset=14}}, keywords={}, lineno=140, col_offset=8}, lineno=140, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=141, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=141, col_offset=8}, args={{tag="Name", id="b", lineno=141, col_offset=14}}, keywords={}, lineno=141, col_offset=8}, lineno=141, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=142, col_offset=11}, op="BitOr", right={tag="Name", id="y", lineno=142, col_offset=15}, lineno=142, col_offset=11}, lineno=142, col_offset=4}}, lineno=139, col_offset=0},
      {tag="FunctionDef", name="bxor", args={tag="arguments", args={{tag="arg", arg="a", lineno=144, col_offset=9}, {tag="arg", arg="b", lineno=144, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=145, col_offset=11}, op="BitXor", right={tag="Name", id="b", lineno=145, col_offset=15}, lineno=145, col_offset=11}, lineno=145, col_offset=4}}, lineno=144, col_offset=0},
      {tag="FunctionDef", name="bxor_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=147, col_offset=11}, {tag="arg", arg="b", lineno=147, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=148, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=148, col_offset=8}, args={{tag="Name", id="a", lineno=148, col_offset=12}}, keywords={}, lineno=148, col_offset=8}, lineno=148, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=149, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=149, col_offset=8}, args={{tag="Name", id="b", lineno=149, col_offset=12}}, keywords={}, lineno=149, col_offset=8}, lineno=149, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=150, col_offset=11}, op="BitXor", right={tag="Name", id="y", lineno=150, col_offset=15}, lineno=150, col_offset=11}, lineno=150, col_offset=4}}, lineno=147, col_offset=0},
      {tag="FunctionDef", name="bxor_f", args={tag="arguments", args={{tag="arg", arg="a", lineno=152, col_offset=11}, {tag="arg", arg="b", lineno=152, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=153, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=153, col_offset=8}, args={{tag="Name", id="a", lineno=153, col_offset=14}}, keywords={}, lineno=153, col_offset=8}, lineno=153, col_offset=4}, {tag="Assign", targets={{tag="Name", id="y", lineno=154, col_offset=4}}, value={tag="Call", func={tag="Name", id="float", lineno=154, col_offset=8}, args={{tag="Name", id="b", lineno=154, col_offset=14}}, keywords={}, lineno=154, col_offset=8}, lineno=154, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=155, col_offset=11}, op="BitXor", right={tag="Name", id="y", lineno=155, col_offset=15}, lineno=155, col_offset=11}, lineno=155, col_offset=4}}, lineno=152, col_offset=0},
      {tag="FunctionDef", name="eq", args={tag="arguments", args={{tag="arg", arg="a", lineno=157, col_offset=7}, {tag="arg", arg="b", lineno=157, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=158, col_offset=11}, ops={"Eq"}, comparators={{tag="Name", id="b", lineno=158, col_offset=16}}, lineno=158, col_offset=11}, lineno=158, col_offset=4}}, lineno=157, col_offset=0},
      {tag="FunctionDef", name="ne", args={tag="arguments", args={{tag="arg", arg="a", lineno=160, col_offset=7}, {tag="arg", arg="b", lineno=160, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=161, col_offset=11}, ops={"NotEq"}, comparators={{tag="Name", id="b", lineno=161, col_offset=16}}, lineno=161, col_offset=11}, lineno=161, col_offset=4}}, lineno=160, col_offset=0},
      {tag="FunctionDef", name="lt", args={tag="arguments", args={{tag="arg", arg="a", lineno=163, col_offset=7}, {tag="arg", arg="b", lineno=163, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=164, col_offset=11}, ops={"Lt"}, comparators={{tag="Name", id="b", lineno=164, col_offset=15}}, lineno=164, col_offset=11}, lineno=164, col_offset=4}}, lineno=163, col_offset=0},
      {tag="FunctionDef", name="le", args={tag="arguments", args={{tag="arg", arg="a", lineno=166, col_offset=7}, {tag="arg", arg="b", lineno=166, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=167, col_offset=11}, ops={"LtE"}, comparators={{tag="Name", id="b", lineno=167, col_offset=16}}, lineno=167, col_offset=11}, lineno=167, col_offset=4}}, lineno=166, col_offset=0},
      {tag="FunctionDef", name="gt", args={tag="arguments", args={{tag="arg", arg="a", lineno=169, col_offset=7}, {tag="arg", arg="b", lineno=169, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=170, col_offset=11}, ops={"Gt"}, comparators={{tag="Name", id="b", lineno=170, col_offset=15}}, lineno=170, col_offset=11}, lineno=170, col_offset=4}}, lineno=169, col_offset=0},
      {tag="FunctionDef", name="ge", args={tag="arguments", args={{tag="arg", arg="a", lineno=172, col_offset=7}, {tag="arg", arg="b", lineno=172, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=173, col_offset=11}, ops={"GtE"}, comparators={{tag="Name", id="b", lineno=173, col_offset=16}}, lineno=173, col_offset=11}, lineno=173, col_offset=4}}, lineno=172, col_offset=0},
      {tag="FunctionDef", name="neg", args={tag="arguments", args={{tag="arg", arg="a", lineno=175, col_offset=8}}, defaults={}}, body={{tag="Return", value={tag="UnaryOp", op="USub", operand={tag="Name", id="a", lineno=176, col_offset=12}, lineno=176, col_offset=11}, lineno=176, col_offset=4}}, lineno=175, col_offset=0},
      {tag="FunctionDef", name="pos", args={tag="arguments", args={{tag="arg", arg="a", lineno=178, col_offset=8}}, defaults={}}, body={{tag="Return", value={tag="UnaryOp", op="UAdd", operand={tag="Name", id="a", lineno=179, col_offset=12}, lineno=179, col_offset=11}, lineno=179, col_offset=4}}, lineno=178, col_offset=0},
      {tag="FunctionDef", name="inv", args={tag="arguments", args={{tag="arg", arg="a", lineno=181, col_offset=8}}, defaults={}}, body={{tag="Return", value={tag="UnaryOp", op="Invert", operand={tag="Name", id="a", lineno=182, col_offset=12}, lineno=182, col_offset=11}, lineno=182, col_offset=4}}, lineno=181, col_offset=0},
      {tag="FunctionDef", name="lnot", args={tag="arguments", args={{tag="arg", arg="a", lineno=184, col_offset=9}}, defaults={}}, body={{tag="Return", value={tag="UnaryOp", op="Not", operand={tag="Name", id="a", lineno=185, col_offset=15}, lineno=185, col_offset=11}, lineno=185, col_offset=4}}, lineno=184, col_offset=0},
      {tag="FunctionDef", name="neg_i", args={tag="arguments", args={{tag="arg", arg="a", lineno=187, col_offset=10}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="x", lineno=188, col_offset=4}}, value={tag="Call", func={tag="Name", id="int", lineno=188, col_offset=8}, args={{tag="Name", id="a", lineno=188, col_offset=12}}, keywords={}, lineno=188, col_offset=8}, lineno=188, col_offset=4}, {tag="Return", value={tag="UnaryOp", op="USub", operand={tag="Name", id="x", lineno=189, col_offset=12}, lineno=189, col_offset=11}, lineno=189, col_offset=4}}, lineno=187, col_offset=0},
      {tag="FunctionDef", name="truth", args={tag="arguments", args={{tag="arg", arg="a", lineno=191, col_offset=10}}, defaults={}}, body={{tag="If", test={tag="Name", id="a", lineno=192, col_offset=7}, body={{tag="Return", value={tag="Constant", value=1, lineno=193, col_offset=15}, lineno=193, col_offset=8}}, orelse={}, lineno=192, col_offset=4}, {tag="Return", value={tag="Constant", value=0, lineno=194, col_offset=11}, lineno=194, col_offset=4}}, lineno=191, col_offset=0},
      {tag="FunctionDef", name="land", args={tag="arguments", args={{tag="arg", arg="a", lineno=196, col_offset=9}, {tag="arg", arg="b", lineno=196, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="BoolOp", op="And", values={{tag="Name", id="a", lineno=197, col_offset=11}, {tag="Name", id="b", lineno=197, col_offset=17}}, lineno=197, col_offset=11}, lineno=197, col_offset=4}}, lineno=196, col_offset=0},
      {tag="FunctionDef", name="lor", args={tag="arguments", args={{tag="arg", arg="a", lineno=199, col_offset=8}, {tag="arg", arg="b", lineno=199, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BoolOp", op="Or", values={{tag="Name", id="a", lineno=200, col_offset=11}, {tag="Name", id="b", lineno=200, col_offset=16}}, lineno=200, col_offset=11}, lineno=200, col_offset=4}}, lineno=199, col_offset=0},
    }},
  },
  control = {
    src = [==[
def for_else(n, stop):
    found = -1
    for i in range(n):
        if i == stop:
            found = i
            break
    else:
        found = 100
    return found

def while_else(n, stop):
    i = 0
    r = 0
    while i < n:
        if i == stop:
            r = -i
            break
        i += 1
    else:
        r = 1000 + i
    return r

def cont_sum(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        if i > 15:
            break
        total += i
    return total

def while_cont(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        total += i
    return total

def nested(n, m):
    count = 0
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            if (i + j) % 2 == 1:
                continue
            count += 1
        else:
            count += 100
    return count

def ranges(a, b, c):
    s = 0
    k = 0
    for i in range(a, b, c):
        s += i
        k += 1
    return s, k

def range_neg(n):
    out = 0
    for i in range(n, -1, -1):
        out = out * 10 + i
    return out

def range_empty(n):
    last = -7
    for i in range(n, 3):
        last = i
    return last

def loop_var_after(n):
    i = -1
    for i in range(n):
        pass
    return i

def early(x):
    if x > 10:
        return 1
    elif x > 5:
        return 2
    elif x > 0:
        return 3
    else:
        if x == 0:
            return 0
    return -1

def ifexp(x):
    return 1.5 if x > 0 else -2

def chained(a, b, c):
    return a < b <= c

def chain_calls(a, arr):
    return bump(arr, 0, a) < bump(arr, 1, 5) < bump(arr, 2, 9)

def bump(arr, k, v):
    arr[k] = arr[k] + 1
    return v

def boolops(a, b, c):
    return (a and b) or c

def cond_mix(a, b):
    if a and not b:
        return 1
    if a or b:
        return 2
    return 3

def assert_pos(x):
    assert x > 0, "x must be positive"
    return x

def assert_plain(x):
    assert x
    return 1

def raise_it(x):
    if x < 0:
        raise ValueError("negative value")
    if x == 0:
        raise ZeroDivisionError
    return x

def raise_num(x):
    raise IndexError("bad index", x)

def while_true(n):
    i = 0
    while True:
        i += 1
        if i >= n:
            break
    return i

def aug(x):
    y = x
    y += 3
    y -= 1
    y *= 4
    y //= 3
    y %= 7
    y **= 2
    return y

def ann(x: float) -> float:
    y: float = x * 2
    z: int
    return y
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="for_else", args={tag="arguments", args={{tag="arg", arg="n", lineno=2, col_offset=13}, {tag="arg", arg="stop", lineno=2, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="found", lineno=3, col_offset=4}}, value={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=3, col_offset=13}, lineno=3, col_offset=12}, lineno=3, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=4, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=4, col_offset=13}, args={{tag="Name", id="n", lineno=4, col_offset=19}}, keywords={}, lineno=4, col_offset=13}, body={{tag="If", test={tag="Compare", left={tag="Name", id="i", lineno=5, col_offset=11}, ops={"Eq"}, comparators={{tag="Name", id="stop", lineno=5, col_offset=16}}, lineno=5, col_offset=11}, body={{tag="Assign", targets={{tag="Name", id="found", lineno=6, col_offset=12}}, value={tag="Name", id="i", lineno=6, col_offset=20}, lineno=6, col_offset=12}, {tag="Break", lineno=7, col_offset=12}}, orelse={}, lineno=5, col_offset=8}}, orelse={{tag="Assign", targets={{tag="Name", id="found", lineno=9, col_offset=8}}, value={tag="Constant", value=100, lineno=9, col_offset=16}, lineno=9, col_offset=8}}, lineno=4, col_offset=4}, {tag="Return", value={tag="Name", id="found", lineno=10, col_offset=11}, lineno=10, col_offset=4}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="while_else", args={tag="arguments", args={{tag="arg", arg="n", lineno=12, col_offset=15}, {tag="arg", arg="stop", lineno=12, col_offset=18}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="i", lineno=13, col_offset=4}}, value={tag="Constant", value=0, lineno=13, col_offset=8}, lineno=13, col_offset=4}, {tag="Assign", targets={{tag="Name", id="r", lineno=14, col_offset=4}}, value={tag="Constant", value=0, lineno=14, col_offset=8}, lineno=14, col_offset=4}, {tag="While", test={tag="Compare", left={tag="Name", id="i", lineno=15, col_offset=10}, ops={"Lt"}, comparators={{tag="Name", id="n", lineno=15, col_offset=14}}, lineno=15, col_offset=10}, body={{tag="If", test={tag="Compare", left={tag="Name", id="i", lineno=16, col_offset=11}, ops={"Eq"}, comparators={{tag="Name", id="stop", lineno=16, col_offset=16}}, lineno=16, col_offset=11}, body={{tag="Assign", targets={{tag="Name", id="r", lineno=17, col_offset=12}}, value={tag="UnaryOp", op="USub", operand={tag="Name", id="i", lineno=17, col_offset=17}, lineno=17, col_offset=16}, lineno=17, col_offset=12}, {tag="Break", lineno=18, col_offset=12}}, orelse={}, lineno=16, col_offset=8}, {tag="AugAssign", target={tag="Name", id="i", lineno=19, col_offset=8}, op="Add", value={tag="Constant", value=1, lineno=19, col_offset=13}, lineno=19, col_offset=8}}, orelse={{tag="Assign", targets={{tag="Name", id="r", lineno=21, col_offset=8}}, value={tag="BinOp", left={tag="Constant", value=1000, lineno=21, col_offset=12}, op="Add", right={tag="Name", id="i", lineno=21, col_offset=19}, lineno=21, col_offset=12}, lineno=21, col_offset=8}}, lineno=15, col_offset=4}, {tag="Return", value={tag="Name", id="r", lineno=22, col_offset=11}, lineno=22, col_offset=4}}, lineno=12, col_offset=0},
      {tag="FunctionDef", name="cont_sum", args={tag="arguments", args={{tag="arg", arg="n", lineno=24, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="total", lineno=25, col_offset=4}}, value={tag="Constant", value=0, lineno=25, col_offset=12}, lineno=25, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=26, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=26, col_offset=13}, args={{tag="Name", id="n", lineno=26, col_offset=19}}, keywords={}, lineno=26, col_offset=13}, body={{tag="If", test={tag="Compare", left={tag="BinOp", left={tag="Name", id="i", lineno=27, col_offset=11}, op="Mod", right={tag="Constant", value=2, lineno=27, col_offset=15}, lineno=27, col_offset=11}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=27, col_offset=20}}, lineno=27, col_offset=11}, body={{tag="Continue", lineno=28, col_offset=12}}, orelse={}, lineno=27, col_offset=8}, {tag="If", test={tag="Compare", left={tag="Name", id="i", lineno=29, col_offset=11}, ops={"Gt"}, comparators={{tag="Constant", value=15, lineno=29, col_offset=15}}, lineno=29, col_offset=11}, body={{tag="Break", lineno=30, col_offset=12}}, orelse={}, lineno=29, col_offset=8}, {tag="AugAssign", target={tag="Name", id="total", lineno=31, col_offset=8}, op="Add", value={tag="Name", id="i", lineno=31, col_offset=17}, lineno=31, col_offset=8}}, orelse={}, lineno=26, col_offset=4}, {tag="Return", value={tag="Name", id="total", lineno=32, col_offset=11}, lineno=32, col_offset=4}}, lineno=24, col_offset=0},
      {tag="FunctionDef", name="while_cont", args={tag="arguments", args={{tag="arg", arg="n", lineno=34, col_offset=15}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="i", lineno=35, col_offset=4}}, value={tag="Constant", value=0, lineno=35, col_offset=8}, lineno=35, col_offset=4}, {tag="Assign", targets={{tag="Name", id="total", lineno=36, col_offset=4}}, value={tag="Constant", value=0, lineno=36, col_offset=12}, lineno=36, col_offset=4}, {tag="While", test={tag="Compare", left={tag="Name", id="i", lineno=37, col_offset=10}, ops={"Lt"}, comparators={{tag="Name", id="n", lineno=37, col_offset=14}}, lineno=37, col_offset=10}, body={{tag="AugAssign", target={tag="Name", id="i", lineno=38, col_offset=8}, op="Add", value={tag="Constant", value=1, lineno=38, col_offset=13}, lineno=38, col_offset=8}, {tag="If", test={tag="Compare", left={tag="BinOp", left={tag="Name", id="i", lineno=39, col_offset=11}, op="Mod", right={tag="Constant", value=3, lineno=39, col_offset=15}, lineno=39, col_offset=11}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=39, col_offset=20}}, lineno=39, col_offset=11}, body={{tag="Continue", lineno=40, col_offset=12}}, orelse={}, lineno=39, col_offset=8}, {tag="AugAssign", target={tag="Name", id="total", lineno=41, col_offset=8}, op="Add", value={tag="Name", id="i", lineno=41, col_offset=17}, lineno=41, col_offset=8}}, orelse={}, lineno=37, col_offset=4}, {tag="Return", value={tag="Name", id="total", lineno=42, col_offset=11}, lineno=42, col_offset=4}}, lineno=34, col_offset=0},
      {tag="FunctionDef", name="nested", args={tag="arguments", args={{tag="arg", arg="n", lineno=44, col_offset=11}, {tag="arg", arg="m", lineno=44, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="count", lineno=45, col_offset=4}}, value={tag="Constant", value=0, lineno=45, col_offset=12}, lineno=45, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=46, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=46, col_offset=13}, args={{tag="Name", id="n", lineno=46, col_offset=19}}, keywords={}, lineno=46, col_offset=13}, body={{tag="For", target={tag="Name", id="j", lineno=47, col_offset=12}, iter={tag="Call", func={tag="Name", id="range", lineno=47, col_offset=17}, args={{tag="Name", id="m", lineno=47, col_offset=23}}, keywords={}, lineno=47, col_offset=17}, body={{tag="If", test={tag="Compare", left={tag="Name", id="j", lineno=48, col_offset=15}, ops={"Gt"}, comparators={{tag="Name", id="i", lineno=48, col_offset=19}}, lineno=48, col_offset=15}, body={{tag="Break", lineno=49, col_offset=16}}, orelse={}, lineno=48, col_offset=12}, {tag="If", test={tag="Compare", left={tag="BinOp", left={tag="BinOp", left={tag="Name", id="i", lineno=50, col_offset=16}, op="Add", right={tag="Name", id="j", lineno=50, col_offset=20}, lineno=50, col_offset=16}, op="Mod", right={tag="Constant", value=2, lineno=50, col_offset=25}, lineno=50, col_offset=15}, ops={"Eq"}, comparators={{tag="Constant", value=1, lineno=50, col_offset=30}}, lineno=50, col_offset=15}, body={{tag="Continue", lineno=51, col_offset=16}}, orelse={}, lineno=50, col_offset=12}, {tag="AugAssign", target={tag="Name", id="count", lineno=52, col_offset=12}, op="Add", value={tag="Constant", value=1, lineno=52, col_offset=21}, lineno=52, col_offset=12}}, orelse={{tag="AugAssign", target={tag="Name", id="count", lineno=54, col_offset=12}, op="Add", value={tag="Constant", value=100, lineno=54, col_offset=21}, lineno=54, col_offset=12}}, lineno=47, col_offset=8}}, orelse={}, lineno=46, col_offset=4}, {tag="Return", value={tag="Name", id="count", lineno=55, col_offset=11}, lineno=55, col_offset=4}}, lineno=44, col_offset=0},
      {tag="FunctionDef", name="ranges", args={tag="arguments", args={{tag="arg", arg="a", lineno=57, col_offset=11}, {tag="arg", arg="b", lineno=57, col_offset=14}, {tag="arg", arg="c", lineno=57, col_offset=17}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=58, col_offset=4}}, value={tag="Constant", value=0, lineno=58, col_offset=8}, lineno=58, col_offset=4}, {tag="Assign", targets={{tag="Name", id="k", lineno=59, col_offset=4}}, value={tag="Constant", value=0, lineno=59, col_offset=8}, lineno=59, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=60, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=60, col_offset=13}, args={{tag="Name", id="a", lineno=60, col_offset=19}, {tag="Name", id="b", lineno=60, col_offset=22}, {tag="Name", id="c", lineno=60, col_offset=25}}, keywords={}, lineno=60, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=61, col_offset=8}, op="Add", value={tag="Name", id="i", lineno=61, col_offset=13}, lineno=61, col_offset=8}, {tag="AugAssign", target={tag="Name", id="k", lineno=62, col_offset=8}, op="Add", value={tag="Constant", value=1, lineno=62, col_offset=13}, lineno=62, col_offset=8}}, orelse={}, lineno=60, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Name", id="s", lineno=63, col_offset=11}, {tag="Name", id="k", lineno=63, col_offset=14}}, lineno=63, col_offset=11}, lineno=63, col_offset=4}}, lineno=57, col_offset=0},
      {tag="FunctionDef", name="range_neg", args={tag="arguments", args={{tag="arg", arg="n", lineno=65, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="out", lineno=66, col_offset=4}}, value={tag="Constant", value=0, lineno=66, col_offset=10}, lineno=66, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=67, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=67, col_offset=13}, args={{tag="Name", id="n", lineno=67, col_offset=19}, {tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=67, col_offset=23}, lineno=67, col_offset=22}, {tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=67, col_offset=27}, lineno=67, col_offset=26}}, keywords={}, lineno=67, col_offset=13}, body={{tag="Assign", targets={{tag="Name", id="out", lineno=68, col_offset=8}}, value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="out", lineno=68, col_offset=14}, op="Mult", right={tag="Constant", value=10, lineno=68, col_offset=20}, lineno=68, col_offset=14}, op="Add", right={tag="Name", id="i", lineno=68, col_offset=25}, lineno=68, col_offset=14}, lineno=68, col_offset=8}}, orelse={}, lineno=67, col_offset=4}, {tag="Return", value={tag="Name", id="out", lineno=69, col_offset=11}, lineno=69, col_offset=4}}, lineno=65, col_offset=0},
      {tag="FunctionDef", name="range_empty", args={tag="arguments", args={{tag="arg", arg="n", lineno=71, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="last", lineno=72, col_offset=4}}, value={tag="UnaryOp", op="USub", operand={tag="Constant", value=7, lineno=72, col_offset=12}, lineno=72, col_offset=11}, lineno=72, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=73, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=73, col_offset=13}, args={{tag="Name", id="n", lineno=73, col_offset=19}, {tag="Constant", value=3, lineno=73, col_offset=22}}, keywords={}, lineno=73, col_offset=13}, body={{tag="Assign", targets={{tag="Name", id="last", lineno=74, col_offset=8}}, value={tag="Name", id="i", lineno=74, col_offset=15}, lineno=74, col_offset=8}}, orelse={}, lineno=73, col_offset=4}, {tag="Return", value={tag="Name", id="last", lineno=75, col_offset=11}, lineno=75, col_offset=4}}, lineno=71, col_offset=0},
      {tag="FunctionDef", name="loop_var_after", args={tag="arguments", args={{tag="arg", arg="n", lineno=77, col_offset=19}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="i", lineno=78, col_offset=4}}, value={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=78, col_offset=9}, lineno=78, col_offset=8}, lineno=78, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=79, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=79, col_offset=13}, args={{tag="Name", id="n", lineno=79, col_offset=19}}, keywords={}, lineno=79, col_offset=13}, body={{tag="Pass", lineno=80, col_offset=8}}, orelse={}, lineno=79, col_offset=4}, {tag="Return", value={tag="Name", id="i", lineno=81, col_offset=11}, lineno=81, col_offset=4}}, lineno=77, col_offset=0},
      {tag="FunctionDef", name="early", args={tag="arguments", args={{tag="arg", arg="x", lineno=83, col_offset=10}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=84, col_offset=7}, ops={"Gt"}, comparators={{tag="Constant", value=10, lineno=84, col_offset=11}}, lineno=84, col_offset=7}, body={{tag="Return", value={tag="Constant", value=1, lineno=85, col_offset=15}, lineno=85, col_offset=8}}, orelse={{tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=86, col_offset=9}, ops={"Gt"}, comparators={{tag="Constant", value=5, lineno=86, col_offset=13}}, lineno=86, col_offset=9}, body={{tag="Return", value={tag="Constant", value=2, lineno=87, col_offset=15}, lineno=87, col_offset=8}}, orelse={{tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=88, col_offset=9}, ops={"Gt"}, comparators={{tag="Constant", value=0, lineno=88, col_offset=13}}, lineno=88, col_offset=9}, body={{tag="Return", value={tag="Constant", value=3, lineno=89, col_offset=15}, lineno=89, col_offset=8}}, orelse={{tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=91, col_offset=11}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=91, col_offset=16}}, lineno=91, col_offset=11}, body={{tag="Return", value={tag="Constant", value=0, lineno=92, col_offset=19}, lineno=92, col_offset=12}}, orelse={}, lineno=91, col_offset=8}}, lineno=88, col_offset=4}}, lineno=86, col_offset=4}}, lineno=84, col_offset=4}, {tag="Return", value={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=93, col_offset=12}, lineno=93, col_offset=11}, lineno=93, col_offset=4}}, lineno=83, col_offset=0},
      {tag="FunctionDef", name="ifexp", args={tag="arguments", args={{tag="arg", arg="x", lineno=95, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="IfExp", test={tag="Compare", left={tag="Name", id="x", lineno=96, col_offset=18}, ops={"Gt"}, comparators={{tag="Constant", value=0, lineno=96, col_offset=22}}, lineno=96, col_offset=18}, body={tag="Constant", value=1.5, lineno=96, col_offset=11}, orelse={tag="UnaryOp", op="USub", operand={tag="Constant", value=2, lineno=96, col_offset=30}, lineno=96, col_offset=29}, lineno=96, col_offset=11}, lineno=96, col_offset=4}}, lineno=95, col_offset=0},
      {tag="FunctionDef", name="chained", args={tag="arguments", args={{tag="arg", arg="a", lineno=98, col_offset=12}, {tag="arg", arg="b", lineno=98, col_offset=15}, {tag="arg", arg="c", lineno=98, col_offset=18}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Name", id="a", lineno=99, col_offset=11}, ops={"Lt", "LtE"}, comparators={{tag="Name", id="b", lineno=99, col_offset=15}, {tag="Name", id="c", lineno=99, col_offset=20}}, lineno=99, col_offset=11}, lineno=99, col_offset=4}}, lineno=98, col_offset=0},
      {tag="FunctionDef", name="chain_calls", args={tag="arguments", args={{tag="arg", arg="a", lineno=101, col_offset=16}, {tag="arg", arg="arr", lineno=101, col_offset=19}}, defaults={}}, body={{tag="Return", value={tag="Compare", left={tag="Call", func={tag="Name", id="bump", lineno=102, col_offset=11}, args={{tag="Name", id="arr", lineno=102, col_offset=16}, {tag="Constant", value=0, lineno=102, col_offset=21}, {tag="Name", id="a", lineno=102, col_offset=24}}, keywords={}, lineno=102, col_offset=11}, ops={"Lt", "Lt"}, comparators={{tag="Call", func={tag="Name", id="bump", lineno=102, col_offset=29}, args={{tag="Name", id="arr", lineno=102, col_offset=34}, {tag="Constant", value=1, lineno=102, col_offset=39}, {tag="Constant", value=5, lineno=102, col_offset=42}}, keywords={}, lineno=102, col_offset=29}, {tag="Call", func={tag="Name", id="bump", lineno=102, col_offset=47}, args={{tag="Name", id="arr", lineno=102, col_offset=52}, {tag="Constant", value=2, lineno=102, col_offset=57}, {tag="Constant", value=9, lineno=102, col_offset=60}}, keywords={}, lineno=102, col_offset=47}}, lineno=102, col_offset=11}, lineno=102, col_offset=4}}, lineno=101, col_offset=0},
      {tag="FunctionDef", name="bump", args={tag="arguments", args={{tag="arg", arg="arr", lineno=104, col_offset=9}, {tag="arg", arg="k", lineno=104, col_offset=14}, {tag="arg", arg="v", lineno=104, col_offset=17}}, defaults={}}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="arr", lineno=105, col_offset=4}, slice={tag="Name", id="k", lineno=105, col_offset=8}, lineno=105, col_offset=4}}, value={tag="BinOp", left={tag="Subscript", value={tag="Name", id="arr", lineno=105, col_offset=13}, slice={tag="Name", id="k", lineno=105, col_offset=17}, lineno=105, col_offset=13}, op="Add", right={tag="Constant", value=1, lineno=105, col_offset=22}, lineno=105, col_offset=13}, lineno=105, col_offset=4}, {tag="Return", value={tag="Name", id="v", lineno=106, col_offset=11}, lineno=106, col_offset=4}}, lineno=104, col_offset=0},
      {tag="FunctionDef", name="boolops", args={tag="arguments", args={{tag="arg", arg="a", lineno=108, col_offset=12}, {tag="arg", arg="b", lineno=108, col_offset=15}, {tag="arg", arg="c", lineno=108, col_offset=18}}, defaults={}}, body={{tag="Return", value={tag="BoolOp", op="Or", values={{tag="BoolOp", op="And", values={{tag="Name", id="a", lineno=109, col_offset=12}, {tag="Name", id="b", lineno=109, col_offset=18}}, lineno=109, col_offset=12}, {tag="Name", id="c", lineno=109, col_offset=24}}, lineno=109, col_offset=11}, lineno=109, col_offset=4}}, lineno=108, col_offset=0},
      {tag="FunctionDef", name="cond_mix", args={tag="arguments", args={{tag="arg", arg="a", lineno=111, col_offset=13}, {tag="arg", arg="b", lineno=111, col_offset=16}}, defaults={}}, body={{tag="If", test={tag="BoolOp", op="And", values={{tag="Name", id="a", lineno=112, col_offset=7}, {tag="UnaryOp", op="Not", operand={tag="Name", id="b", lineno=112, col_offset=17}, lineno=112, col_offset=13}}, lineno=112, col_offset=7}, body={{tag="Return", value={tag="Constant", value=1, lineno=113, col_offset=15}, lineno=113, col_offset=8}}, orelse={}, lineno=112, col_offset=4}, {tag="If", test={tag="BoolOp", op="Or", values={{tag="Name", id="a", lineno=114, col_offset=7}, {tag="Name", id="b", lineno=114, col_offset=12}}, lineno=114, col_offset=7}, body={{tag="Return", value={tag="Constant", value=2, lineno=115, col_offset=15}, lineno=115, col_offset=8}}, orelse={}, lineno=114, col_offset=4}, {tag="Return", value={tag="Constant", value=3, lineno=116, col_offset=11}, lineno=116, col_offset=4}}, lineno=111, col_offset=0},
      {tag="FunctionDef", name="assert_pos", args={tag="arguments", args={{tag="arg", arg="x", lineno=118, col_offset=15}}, defaults={}}, body={{tag="Assert", test={tag="Compare", left={tag="Name", id="x", lineno=119, col_offset=11}, ops={"Gt"}, comparators={{tag="Constant", value=0, lineno=119, col_offset=15}}, lineno=119, col_offset=11}, msg={tag="Constant", value="x must be positive", lineno=119, col_offset=18}, lineno=119, col_offset=4}, {tag="Return", value={tag="Name", id="x", lineno=120, col_offset=11}, lineno=120, col_offset=4}}, lineno=118, col_offset=0},
      {tag="FunctionDef", name="assert_plain", args={tag="arguments", args={{tag="arg", arg="x", lineno=122, col_offset=17}}, defaults={}}, body={{tag="Assert", test={tag="Name", id="x", lineno=123, col_offset=11}, lineno=123, col_offset=4}, {tag="Return", value={tag="Constant", value=1, lineno=124, col_offset=11}, lineno=124, col_offset=4}}, lineno=122, col_offset=0},
      {tag="FunctionDef", name="raise_it", args={tag="arguments", args={{tag="arg", arg="x", lineno=126, col_offset=13}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=127, col_offset=7}, ops={"Lt"}, comparators={{tag="Constant", value=0, lineno=127, col_offset=11}}, lineno=127, col_offset=7}, body={{tag="Raise", exc={tag="Call", func={tag="Name", id="ValueError", lineno=128, col_offset=14}, args={{tag="Constant", value="negative value", lineno=128, col_offset=25}}, keywords={}, lineno=128, col_offset=14}, lineno=128, col_offset=8}}, orelse={}, lineno=127, col_offset=4}, {tag="If", test={tag="Compare", left={tag="Name", id="x", lineno=129, col_offset=7}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=129, col_offset=12}}, lineno=129, col_offset=7}, body={{tag="Raise", exc={tag="Name", id="ZeroDivisionError", lineno=130, col_offset=14}, lineno=130, col_offset=8}}, orelse={}, lineno=129, col_offset=4}, {tag="Return", value={tag="Name", id="x", lineno=131, col_offset=11}, lineno=131, col_offset=4}}, lineno=126, col_offset=0},
      {tag="FunctionDef", name="raise_num", args={tag="arguments", args={{tag="arg", arg="x", lineno=133, col_offset=14}}, defaults={}}, body={{tag="Raise", exc={tag="Call", func={tag="Name", id="IndexError", lineno=134, col_offset=10}, args={{tag="Constant", value="bad index", lineno=134, col_offset=21}, {tag="Name", id="x", lineno=134, col_offset=34}}, keywords={}, lineno=134, col_offset=10}, lineno=134, col_offset=4}}, lineno=133, col_offset=0},
      {tag="FunctionDef", name="while_true", args={tag="arguments", args={{tag="arg", arg="n", lineno=136, col_offset=15}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="i", lineno=137, col_offset=4}}, value={tag="Constant", value=0, lineno=137, col_offset=8}, lineno=137, col_offset=4}, {tag="While", test={tag="Constant", value=true, lineno=138, col_offset=10}, body={{tag="AugAssign", target={tag="Name", id="i", lineno=139, col_offset=8}, op="Add", value={tag="Constant", value=1, lineno=139, col_offset=13}, lineno=139, col_offset=8}, {tag="If", test={tag="Compare", left={tag="Name", id="i", lineno=140, col_offset=11}, ops={"GtE"}, comparators={{tag="Name", id="n", lineno=140, col_offset=16}}, lineno=140, col_offset=11}, body={{tag="Break", lineno=141, col_offset=12}}, orelse={}, lineno=140, col_offset=8}}, orelse={}, lineno=138, col_offset=4}, {tag="Return", value={tag="Name", id="i", lineno=142, col_offset=11}, lineno=142, col_offset=4}}, lineno=136, col_offset=0},
      {tag="FunctionDef", name="aug", args={tag="arguments", args={{tag="arg", arg="x", lineno=144, col_offset=8}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="y", lineno=145, col_offset=4}}, value={tag="Name", id="x", lineno=145, col_offset=8}, lineno=145, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=146, col_offset=4}, op="Add", value={tag="Constant", value=3, lineno=146, col_offset=9}, lineno=146, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=147, col_offset=4}, op="Sub", value={tag="Constant", value=1, lineno=147, col_offset=9}, lineno=147, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=148, col_offset=4}, op="Mult", value={tag="Constant", value=4, lineno=148, col_offset=9}, lineno=148, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=149, col_offset=4}, op="FloorDiv", value={tag="Constant", value=3, lineno=149, col_offset=10}, lineno=149, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=150, col_offset=4}, op="Mod", value={tag="Constant", value=7, lineno=150, col_offset=9}, lineno=150, col_offset=4}, {tag="AugAssign", target={tag="Name", id="y", lineno=151, col_offset=4}, op="Pow", value={tag="Constant", value=2, lineno=151, col_offset=10}, lineno=151, col_offset=4}, {tag="Return", value={tag="Name", id="y", lineno=152, col_offset=11}, lineno=152, col_offset=4}}, lineno=144, col_offset=0},
      {tag="FunctionDef", name="ann", args={tag="arguments", args={{tag="arg", arg="x", annotation={tag="Name", id="float", lineno=154, col_offset=11}, lineno=154, col_offset=8}}, defaults={}}, body={{tag="AnnAssign", target={tag="Name", id="y", lineno=155, col_offset=4}, annotation={tag="Name", id="float", lineno=155, col_offset=7}, value={tag="BinOp", left={tag="Name", id="x", lineno=155, col_offset=15}, op="Mult", right={tag="Constant", value=2, lineno=155, col_offset=19}, lineno=155, col_offset=15}, simple=1, lineno=155, col_offset=4}, {tag="AnnAssign", target={tag="Name", id="z", lineno=156, col_offset=4}, annotation={tag="Name", id="int", lineno=156, col_offset=7}, simple=1, lineno=156, col_offset=4}, {tag="Return", value={tag="Name", id="y", lineno=157, col_offset=11}, lineno=157, col_offset=4}}, returns={tag="Name", id="float", lineno=154, col_offset=21}, lineno=154, col_offset=0},
    }},
  },
  tuples = {
    src = [==[
def swap(a, b):
    a, b = b, a
    return a, b

def divmod2(a, b):
    return a // b, a % b

def use_divmod(a, b):
    q, r = divmod2(a, b)
    t = divmod2(a, b)
    return q * b + r, t[0], t[-1], len(t)

def tuple_index(i):
    t = (10, 20, 30, 40)
    return t[i]

def tuple_iter():
    s = 0
    for v in (1, 2, 3, 4):
        s = s * 10 + v
    return s

def nested_unpack():
    (a, b), c = (1, 2), 3
    return a * 100 + b * 10 + c

def tuple_ops(a, b):
    t = (a, b) + (3,)
    return t, t == (a, b, 3), (1, 2) < (1, 3), 2 in t

def dup_target():
    b, b = 1, 2
    arr = (10, 20, 30)
    c, c = arr[0], arr[-1]
    return b, c

def enum_zip(n):
    s = 0
    for i, v in enumerate((5, 6, 7)):
        s += i * v
    for x, y in zip((1, 2, 3), (10, 20)):
        s += x * y
    return s
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="swap", args={tag="arguments", args={{tag="arg", arg="a", lineno=2, col_offset=9}, {tag="arg", arg="b", lineno=2, col_offset=12}}, defaults={}}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="a", lineno=3, col_offset=4}, {tag="Name", id="b", lineno=3, col_offset=7}}, lineno=3, col_offset=4}}, value={tag="Tuple", elts={{tag="Name", id="b", lineno=3, col_offset=11}, {tag="Name", id="a", lineno=3, col_offset=14}}, lineno=3, col_offset=11}, lineno=3, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Name", id="a", lineno=4, col_offset=11}, {tag="Name", id="b", lineno=4, col_offset=14}}, lineno=4, col_offset=11}, lineno=4, col_offset=4}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="divmod2", args={tag="arguments", args={{tag="arg", arg="a", lineno=6, col_offset=12}, {tag="arg", arg="b", lineno=6, col_offset=15}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="BinOp", left={tag="Name", id="a", lineno=7, col_offset=11}, op="FloorDiv", right={tag="Name", id="b", lineno=7, col_offset=16}, lineno=7, col_offset=11}, {tag="BinOp", left={tag="Name", id="a", lineno=7, col_offset=19}, op="Mod", right={tag="Name", id="b", lineno=7, col_offset=23}, lineno=7, col_offset=19}}, lineno=7, col_offset=11}, lineno=7, col_offset=4}}, lineno=6, col_offset=0},
      {tag="FunctionDef", name="use_divmod", args={tag="arguments", args={{tag="arg", arg="a", lineno=9, col_offset=15}, {tag="arg", arg="b", lineno=9, col_offset=18}}, defaults={}}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="q", lineno=10, col_offset=4}, {tag="Name", id="r", lineno=10, col_offset=7}}, lineno=10, col_offset=4}}, value={tag="Call", func={tag="Name", id="divmod2", lineno=10, col_offset=11}, args={{tag="Name", id="a", lineno=10, col_offset=19}, {tag="Name", id="b", lineno=10, col_offset=22}}, keywords={}, lineno=10, col_offset=11}, lineno=10, col_offset=4}, {tag="Assign", targets={{tag="Name", id="t", lineno=11, col_offset=4}}, value={tag="Call", func={tag="Name", id="divmod2", lineno=11, col_offset=8}, args={{tag="Name", id="a", lineno=11, col_offset=16}, {tag="Name", id="b", lineno=11, col_offset=19}}, keywords={}, lineno=11, col_offset=8}, lineno=11, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="BinOp", left={tag="BinOp", left={tag="Name", id="q", lineno=12, col_offset=11}, op="Mult", right={tag="Name", id="b", lineno=12, col_offset=15}, lineno=12, col_offset=11}, op="Add", right={tag="Name", id="r", lineno=12, col_offset=19}, lineno=12, col_offset=11}, {tag="Subscript", value={tag="Name", id="t", lineno=12, col_offset=22}, slice={tag="Constant", value=0, lineno=12, col_offset=24}, lineno=12, col_offset=22}, {tag="Subscript", value={tag="Name", id="t", lineno=12, col_offset=28}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=12, col_offset=31}, lineno=12, col_offset=30}, lineno=12, col_offset=28}, {tag="Call", func={tag="Name", id="len", lineno=12, col_offset=35}, args={{tag="Name", id="t", lineno=12, col_offset=39}}, keywords={}, lineno=12, col_offset=35}}, lineno=12, col_offset=11}, lineno=12, col_offset=4}}, lineno=9, col_offset=0},
      {tag="FunctionDef", name="tuple_index", args={tag="arguments", args={{tag="arg", arg="i", lineno=14, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="t", lineno=15, col_offset=4}}, value={tag="Tuple", elts={{tag="Constant", value=10, lineno=15, col_offset=9}, {tag="Constant", value=20, lineno=15, col_offset=13}, {tag="Constant", value=30, lineno=15, col_offset=17}, {tag="Constant", value=40, lineno=15, col_offset=21}}, lineno=15, col_offset=8}, lineno=15, col_offset=4}, {tag="Return", value={tag="Subscript", value={tag="Name", id="t", lineno=16, col_offset=11}, slice={tag="Name", id="i", lineno=16, col_offset=13}, lineno=16, col_offset=11}, lineno=16, col_offset=4}}, lineno=14, col_offset=0},
      {tag="FunctionDef", name="tuple_iter", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=19, col_offset=4}}, value={tag="Constant", value=0, lineno=19, col_offset=8}, lineno=19, col_offset=4}, {tag="For", target={tag="Name", id="v", lineno=20, col_offset=8}, iter={tag="Tuple", elts={{tag="Constant", value=1, lineno=20, col_offset=14}, {tag="Constant", value=2, lineno=20, col_offset=17}, {tag="Constant", value=3, lineno=20, col_offset=20}, {tag="Constant", value=4, lineno=20, col_offset=23}}, lineno=20, col_offset=13}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=21, col_offset=8}}, value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="s", lineno=21, col_offset=12}, op="Mult", right={tag="Constant", value=10, lineno=21, col_offset=16}, lineno=21, col_offset=12}, op="Add", right={tag="Name", id="v", lineno=21, col_offset=21}, lineno=21, col_offset=12}, lineno=21, col_offset=8}}, orelse={}, lineno=20, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=22, col_offset=11}, lineno=22, col_offset=4}}, lineno=18, col_offset=0},
      {tag="FunctionDef", name="nested_unpack", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Tuple", elts={{tag="Name", id="a", lineno=25, col_offset=5}, {tag="Name", id="b", lineno=25, col_offset=8}}, lineno=25, col_offset=4}, {tag="Name", id="c", lineno=25, col_offset=12}}, lineno=25, col_offset=4}}, value={tag="Tuple", elts={{tag="Tuple", elts={{tag="Constant", value=1, lineno=25, col_offset=17}, {tag="Constant", value=2, lineno=25, col_offset=20}}, lineno=25, col_offset=16}, {tag="Constant", value=3, lineno=25, col_offset=24}}, lineno=25, col_offset=16}, lineno=25, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="BinOp", left={tag="BinOp", left={tag="Name", id="a", lineno=26, col_offset=11}, op="Mult", right={tag="Constant", value=100, lineno=26, col_offset=15}, lineno=26, col_offset=11}, op="Add", right={tag="BinOp", left={tag="Name", id="b", lineno=26, col_offset=21}, op="Mult", right={tag="Constant", value=10, lineno=26, col_offset=25}, lineno=26, col_offset=21}, lineno=26, col_offset=11}, op="Add", right={tag="Name", id="c", lineno=26, col_offset=30}, lineno=26, col_offset=11}, lineno=26, col_offset=4}}, lineno=24, col_offset=0},
      {tag="FunctionDef", name="tuple_ops", args={tag="arguments", args={{tag="arg", arg="a", lineno=28, col_offset=14}, {tag="arg", arg="b", lineno=28, col_offset=17}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="t", lineno=29, col_offset=4}}, value={tag="BinOp", left={tag="Tuple", elts={{tag="Name", id="a", lineno=29, col_offset=9}, {tag="Name", id="b", lineno=29, col_offset=12}}, lineno=29, col_offset=8}, op="Add", right={tag="Tuple", elts={{tag="Constant", value=3, lineno=29, col_offset=18}}, lineno=29, col_offset=17}, lineno=29, col_offset=8}, lineno=29, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Name", id="t", lineno=30, col_offset=11}, {tag="Compare", left={tag="Name", id="t", lineno=30, col_offset=14}, ops={"Eq"}, comparators={{tag="Tuple", elts={{tag="Name", id="a", lineno=30, col_offset=20}, {tag="Name", id="b", lineno=30, col_offset=23}, {tag="Constant", value=3, lineno=30, col_offset=26}}, lineno=30, col_offset=19}}, lineno=30, col_offset=14}, {tag="Compare", left={tag="Tuple", elts={{tag="Constant", value=1, lineno=30, col_offset=31}, {tag="Constant", value=2, lineno=30, col_offset=34}}, lineno=30, col_offset=30}, ops={"Lt"}, comparators={{tag="Tuple", elts={{tag="Constant", value=1, lineno=30, col_offset=40}, {tag="Constant", value=3, lineno=30, col_offset=43}}, lineno=30, col_offset=39}}, lineno=30, col_offset=30}, {tag="Compare", left={tag="Constant", value=2, lineno=30, col_offset=47}, ops={"In"}, comparators={{tag="Name", id="t", lineno=30, col_offset=52}}, lineno=30, col_offset=47}}, lineno=30, col_offset=11}, lineno=30, col_offset=4}}, lineno=28, col_offset=0},
      {tag="FunctionDef", name="dup_target", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="b", lineno=33, col_offset=4}, {tag="Name", id="b", lineno=33, col_offset=7}}, lineno=33, col_offset=4}}, value={tag="Tuple", elts={{tag="Constant", value=1, lineno=33, col_offset=11}, {tag="Constant", value=2, lineno=33, col_offset=14}}, lineno=33, col_offset=11}, lineno=33, col_offset=4}, {tag="Assign", targets={{tag="Name", id="arr", lineno=34, col_offset=4}}, value={tag="Tuple", elts={{tag="Constant", value=10, lineno=34, col_offset=11}, {tag="Constant", value=20, lineno=34, col_offset=15}, {tag="Constant", value=30, lineno=34, col_offset=19}}, lineno=34, col_offset=10}, lineno=34, col_offset=4}, {tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="c", lineno=35, col_offset=4}, {tag="Name", id="c", lineno=35, col_offset=7}}, lineno=35, col_offset=4}}, value={tag="Tuple", elts={{tag="Subscript", value={tag="Name", id="arr", lineno=35, col_offset=11}, slice={tag="Constant", value=0, lineno=35, col_offset=15}, lineno=35, col_offset=11}, {tag="Subscript", value={tag="Name", id="arr", lineno=35, col_offset=19}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=35, col_offset=24}, lineno=35, col_offset=23}, lineno=35, col_offset=19}}, lineno=35, col_offset=11}, lineno=35, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Name", id="b", lineno=36, col_offset=11}, {tag="Name", id="c", lineno=36, col_offset=14}}, lineno=36, col_offset=11}, lineno=36, col_offset=4}}, lineno=32, col_offset=0},
      {tag="FunctionDef", name="enum_zip", args={tag="arguments", args={{tag="arg", arg="n", lineno=38, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=39, col_offset=4}}, value={tag="Constant", value=0, lineno=39, col_offset=8}, lineno=39, col_offset=4}, {tag="For", target={tag="Tuple", elts={{tag="Name", id="i", lineno=40, col_offset=8}, {tag="Name", id="v", lineno=40, col_offset=11}}, lineno=40, col_offset=8}, iter={tag="Call", func={tag="Name", id="enumerate", lineno=40, col_offset=16}, args={{tag="Tuple", elts={{tag="Constant", value=5, lineno=40, col_offset=27}, {tag="Constant", value=6, lineno=40, col_offset=30}, {tag="Constant", value=7, lineno=40, col_offset=33}}, lineno=40, col_offset=26}}, keywords={}, lineno=40, col_offset=16}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=41, col_offset=8}, op="Add", value={tag="BinOp", left={tag="Name", id="i", lineno=41, col_offset=13}, op="Mult", right={tag="Name", id="v", lineno=41, col_offset=17}, lineno=41, col_offset=13}, lineno=41, col_offset=8}}, orelse={}, lineno=40, col_offset=4}, {tag="For", target={tag="Tuple", elts={{tag="Name", id="x", lineno=42, col_offset=8}, {tag="Name", id="y", lineno=42, col_offset=11}}, lineno=42, col_offset=8}, iter={tag="Call", func={tag="Name", id="zip", lineno=42, col_offset=16}, args={{tag="Tuple", elts={{tag="Constant", value=1, lineno=42, col_offset=21}, {tag="Constant", value=2, lineno=42, col_offset=24}, {tag="Constant", value=3, lineno=42, col_offset=27}}, lineno=42, col_offset=20}, {tag="Tuple", elts={{tag="Constant", value=10, lineno=42, col_offset=32}, {tag="Constant", value=20, lineno=42, col_offset=36}}, lineno=42, col_offset=31}}, keywords={}, lineno=42, col_offset=16}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=43, col_offset=8}, op="Add", value={tag="BinOp", left={tag="Name", id="x", lineno=43, col_offset=13}, op="Mult", right={tag="Name", id="y", lineno=43, col_offset=17}, lineno=43, col_offset=13}, lineno=43, col_offset=8}}, orelse={}, lineno=42, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=44, col_offset=11}, lineno=44, col_offset=4}}, lineno=38, col_offset=0},
    }},
  },
  calls = {
    src = [==[
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

def scale(x, k=2, off=0.5):
    return x * k + off

def use_scale(x):
    return scale(x), scale(x, 3), scale(x, off=1), scale(x, k=-1, off=0)

def gcd(a, b):
    while b:
        a, b = b, a % b
    return a

def lua_words(end, _x, P_y):
    local = end + _x
    then = local * P_y
    nil = then - 1
    return nil, local, repeat(nil)

def repeat(until):
    return until + 1

def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="fib", args={tag="arguments", args={{tag="arg", arg="n", lineno=2, col_offset=8}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="n", lineno=3, col_offset=7}, ops={"Lt"}, comparators={{tag="Constant", value=2, lineno=3, col_offset=11}}, lineno=3, col_offset=7}, body={{tag="Return", value={tag="Name", id="n", lineno=4, col_offset=15}, lineno=4, col_offset=8}}, orelse={}, lineno=3, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="Call", func={tag="Name", id="fib", lineno=5, col_offset=11}, args={{tag="BinOp", left={tag="Name", id="n", lineno=5, col_offset=15}, op="Sub", right={tag="Constant", value=1, lineno=5, col_offset=19}, lineno=5, col_offset=15}}, keywords={}, lineno=5, col_offset=11}, op="Add", right={tag="Call", func={tag="Name", id="fib", lineno=5, col_offset=24}, args={{tag="BinOp", left={tag="Name", id="n", lineno=5, col_offset=28}, op="Sub", right={tag="Constant", value=2, lineno=5, col_offset=32}, lineno=5, col_offset=28}}, keywords={}, lineno=5, col_offset=24}, lineno=5, col_offset=11}, lineno=5, col_offset=4}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="is_even", args={tag="arguments", args={{tag="arg", arg="n", lineno=7, col_offset=12}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="n", lineno=8, col_offset=7}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=8, col_offset=12}}, lineno=8, col_offset=7}, body={{tag="Return", value={tag="Constant", value=true, lineno=9, col_offset=15}, lineno=9, col_offset=8}}, orelse={}, lineno=8, col_offset=4}, {tag="Return", value={tag="Call", func={tag="Name", id="is_odd", lineno=10, col_offset=11}, args={{tag="BinOp", left={tag="Name", id="n", lineno=10, col_offset=18}, op="Sub", right={tag="Constant", value=1, lineno=10, col_offset=22}, lineno=10, col_offset=18}}, keywords={}, lineno=10, col_offset=11}, lineno=10, col_offset=4}}, lineno=7, col_offset=0},
      {tag="FunctionDef", name="is_odd", args={tag="arguments", args={{tag="arg", arg="n", lineno=12, col_offset=11}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="n", lineno=13, col_offset=7}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=13, col_offset=12}}, lineno=13, col_offset=7}, body={{tag="Return", value={tag="Constant", value=false, lineno=14, col_offset=15}, lineno=14, col_offset=8}}, orelse={}, lineno=13, col_offset=4}, {tag="Return", value={tag="Call", func={tag="Name", id="is_even", lineno=15, col_offset=11}, args={{tag="BinOp", left={tag="Name", id="n", lineno=15, col_offset=19}, op="Sub", right={tag="Constant", value=1, lineno=15, col_offset=23}, lineno=15, col_offset=19}}, keywords={}, lineno=15, col_offset=11}, lineno=15, col_offset=4}}, lineno=12, col_offset=0},
      {tag="FunctionDef", name="scale", args={tag="arguments", args={{tag="arg", arg="x", lineno=17, col_offset=10}, {tag="arg", arg="k", lineno=17, col_offset=13}, {tag="arg", arg="off", lineno=17, col_offset=18}}, defaults={{tag="Constant", value=2, lineno=17, col_offset=15}, {tag="Constant", value=0.5, lineno=17, col_offset=22}}}, body={{tag="Return", value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="x", lineno=18, col_offset=11}, op="Mult", right={tag="Name", id="k", lineno=18, col_offset=15}, lineno=18, col_offset=11}, op="Add", right={tag="Name", id="off", lineno=18, col_offset=19}, lineno=18, col_offset=11}, lineno=18, col_offset=4}}, lineno=17, col_offset=0},
      {tag="FunctionDef", name="use_scale", args={tag="arguments", args={{tag="arg", arg="x", lineno=20, col_offset=14}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Name", id="scale", lineno=21, col_offset=11}, args={{tag="Name", id="x", lineno=21, col_offset=17}}, keywords={}, lineno=21, col_offset=11}, {tag="Call", func={tag="Name", id="scale", lineno=21, col_offset=21}, args={{tag="Name", id="x", lineno=21, col_offset=27}, {tag="Constant", value=3, lineno=21, col_offset=30}}, keywords={}, lineno=21, col_offset=21}, {tag="Call", func={tag="Name", id="scale", lineno=21, col_offset=34}, args={{tag="Name", id="x", lineno=21, col_offset=40}}, keywords={{tag="keyword", arg="off", value={tag="Constant", value=1, lineno=21, col_offset=47}, lineno=21, col_offset=43}}, lineno=21, col_offset=34}, {tag="Call", func={tag="Name", id="scale", lineno=21, col_offset=51}, args={{tag="Name", id="x", lineno=21, col_offset=57}}, keywords={{tag="keyword", arg="k", value={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=21, col_offset=63}, lineno=21, col_offset=62}, lineno=21, col_offset=60}, {tag="keyword", arg="off", value={tag="Constant", value=0, lineno=21, col_offset=70}, lineno=21, col_offset=66}}, lineno=21, col_offset=51}}, lineno=21, col_offset=11}, lineno=21, col_offset=4}}, lineno=20, col_offset=0},
      {tag="FunctionDef", name="gcd", args={tag="arguments", args={{tag="arg", arg="a", lineno=23, col_offset=8}, {tag="arg", arg="b", lineno=23, col_offset=11}}, defaults={}}, body={{tag="While", test={tag="Name", id="b", lineno=24, col_offset=10}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="a", lineno=25, col_offset=8}, {tag="Name", id="b", lineno=25, col_offset=11}}, lineno=25, col_offset=8}}, value={tag="Tuple", elts={{tag="Name", id="b", lineno=25, col_offset=15}, {tag="BinOp", left={tag="Name", id="a", lineno=25, col_offset=18}, op="Mod", right={tag="Name", id="b", lineno=25, col_offset=22}, lineno=25, col_offset=18}}, lineno=25, col_offset=15}, lineno=25, col_offset=8}}, orelse={}, lineno=24, col_offset=4}, {tag="Return", value={tag="Name", id="a", lineno=26, col_offset=11}, lineno=26, col_offset=4}}, lineno=23, col_offset=0},
      {tag="FunctionDef", name="lua_words", args={tag="arguments", args={{tag="arg", arg="end", lineno=28, col_offset=14}, {tag="arg", arg="_x", lineno=28, col_offset=19}, {tag="arg", arg="P_y", lineno=28, col_offset=23}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="local", lineno=29, col_offset=4}}, value={tag="BinOp", left={tag="Name", id="end", lineno=29, col_offset=12}, op="Add", right={tag="Name", id="_x", lineno=29, col_offset=18}, lineno=29, col_offset=12}, lineno=29, col_offset=4}, {tag="Assign", targets={{tag="Name", id="then", lineno=30, col_offset=4}}, value={tag="BinOp", left={tag="Name", id="local", lineno=30, col_offset=11}, op="Mult", right={tag="Name", id="P_y", lineno=30, col_offset=19}, lineno=30, col_offset=11}, lineno=30, col_offset=4}, {tag="Assign", targets={{tag="Name", id="nil", lineno=31, col_offset=4}}, value={tag="BinOp", left={tag="Name", id="then", lineno=31, col_offset=10}, op="Sub", right={tag="Constant", value=1, lineno=31, col_offset=17}, lineno=31, col_offset=10}, lineno=31, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Name", id="nil", lineno=32, col_offset=11}, {tag="Name", id="local", lineno=32, col_offset=16}, {tag="Call", func={tag="Name", id="repeat", lineno=32, col_offset=23}, args={{tag="Name", id="nil", lineno=32, col_offset=30}}, keywords={}, lineno=32, col_offset=23}}, lineno=32, col_offset=11}, lineno=32, col_offset=4}}, lineno=28, col_offset=0},
      {tag="FunctionDef", name="repeat", args={tag="arguments", args={{tag="arg", arg="until", lineno=34, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="until", lineno=35, col_offset=11}, op="Add", right={tag="Constant", value=1, lineno=35, col_offset=19}, lineno=35, col_offset=11}, lineno=35, col_offset=4}}, lineno=34, col_offset=0},
      {tag="FunctionDef", name="ack", args={tag="arguments", args={{tag="arg", arg="m", lineno=37, col_offset=8}, {tag="arg", arg="n", lineno=37, col_offset=11}}, defaults={}}, body={{tag="If", test={tag="Compare", left={tag="Name", id="m", lineno=38, col_offset=7}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=38, col_offset=12}}, lineno=38, col_offset=7}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="n", lineno=39, col_offset=15}, op="Add", right={tag="Constant", value=1, lineno=39, col_offset=19}, lineno=39, col_offset=15}, lineno=39, col_offset=8}}, orelse={}, lineno=38, col_offset=4}, {tag="If", test={tag="Compare", left={tag="Name", id="n", lineno=40, col_offset=7}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=40, col_offset=12}}, lineno=40, col_offset=7}, body={{tag="Return", value={tag="Call", func={tag="Name", id="ack", lineno=41, col_offset=15}, args={{tag="BinOp", left={tag="Name", id="m", lineno=41, col_offset=19}, op="Sub", right={tag="Constant", value=1, lineno=41, col_offset=23}, lineno=41, col_offset=19}, {tag="Constant", value=1, lineno=41, col_offset=26}}, keywords={}, lineno=41, col_offset=15}, lineno=41, col_offset=8}}, orelse={}, lineno=40, col_offset=4}, {tag="Return", value={tag="Call", func={tag="Name", id="ack", lineno=42, col_offset=11}, args={{tag="BinOp", left={tag="Name", id="m", lineno=42, col_offset=15}, op="Sub", right={tag="Constant", value=1, lineno=42, col_offset=19}, lineno=42, col_offset=15}, {tag="Call", func={tag="Name", id="ack", lineno=42, col_offset=22}, args={{tag="Name", id="m", lineno=42, col_offset=26}, {tag="BinOp", left={tag="Name", id="n", lineno=42, col_offset=29}, op="Sub", right={tag="Constant", value=1, lineno=42, col_offset=33}, lineno=42, col_offset=29}}, keywords={}, lineno=42, col_offset=22}}, keywords={}, lineno=42, col_offset=11}, lineno=42, col_offset=4}}, lineno=37, col_offset=0},
    }},
  },
  builtins = {
    src = [==[
import math
import numpy as np

def conv(x):
    return int(x), float(x), bool(x)

def rnd(x):
    return round(x)

def rnd2(x, n):
    return round(x, n)

def absminmax(a, b, c):
    return abs(a), min(a, b, c), max(a, b, c), min(a, b), max(c, a)

def minmax_tuple():
    t = (3, -1, 7, 2)
    return min(t), max(t)

def bool_arith(a):
    t = True
    return t + 1, t * a, True + True, -t, t == 1, t < 2

def bool_acc(n):
    c = 0
    for i in range(n):
        c += i % 3 == 0
    return c

def mathf(x):
    return math.sqrt(x), math.exp(x), math.log(x), math.log(x, 2), math.log10(x), math.log2(x), math.sin(x), math.cos(x), math.tan(x), math.atan(x), math.atan2(x, 2.0), math.fabs(-x), math.hypot(x, 3.0), math.copysign(x, -1.0), math.pow(x, 1.5)

def mathf2(x):
    return math.log1p(x), math.expm1(x), math.sinh(x), math.cosh(x), math.tanh(x), math.asinh(x), math.acosh(x + 1.0), math.atanh(x / 10.0), math.erf(x), math.erfc(x), math.gamma(x), math.lgamma(x)

def mathint(x):
    return math.floor(x), math.ceil(x), math.trunc(x)

def mathpred(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x)

def consts():
    return math.pi, math.e, np.pi, math.inf, -np.inf

def npf(x):
    return np.sqrt(x), np.exp(x), np.arcsin(x / 10.0), np.arctan2(x, 1.0), np.floor(x), np.ceil(x), np.trunc(x), np.abs(-x), np.float64(x), np.int32(x), np.float32(x)

def trig_inv(x):
    return math.asin(x), math.acos(x)
]==],
    ast = {tag="Module", body={
      {tag="Import", names={{tag="alias", name="math", lineno=2, col_offset=7}}, lineno=2, col_offset=0},
      {tag="Import", names={{tag="alias", name="numpy", asname="np", lineno=3, col_offset=7}}, lineno=3, col_offset=0},
      {tag="FunctionDef", name="conv", args={tag="arguments", args={{tag="arg", arg="x", lineno=5, col_offset=9}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Name", id="int", lineno=6, col_offset=11}, args={{tag="Name", id="x", lineno=6, col_offset=15}}, keywords={}, lineno=6, col_offset=11}, {tag="Call", func={tag="Name", id="float", lineno=6, col_offset=19}, args={{tag="Name", id="x", lineno=6, col_offset=25}}, keywords={}, lineno=6, col_offset=19}, {tag="Call", func={tag="Name", id="bool", lineno=6, col_offset=29}, args={{tag="Name", id="x", lineno=6, col_offset=34}}, keywords={}, lineno=6, col_offset=29}}, lineno=6, col_offset=11}, lineno=6, col_offset=4}}, lineno=5, col_offset=0},
      {tag="FunctionDef", name="rnd", args={tag="arguments", args={{tag="arg", arg="x", lineno=8, col_offset=8}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Name", id="round", lineno=9, col_offset=11}, args={{tag="Name", id="x", lineno=9, col_offset=17}}, keywords={}, lineno=9, col_offset=11}, lineno=9, col_offset=4}}, lineno=8, col_offset=0},
      {tag="FunctionDef", name="rnd2", args={tag="arguments", args={{tag="arg", arg="x", lineno=11, col_offset=9}, {tag="arg", arg="n", lineno=11, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Name", id="round", lineno=12, col_offset=11}, args={{tag="Name", id="x", lineno=12, col_offset=17}, {tag="Name", id="n", lineno=12, col_offset=20}}, keywords={}, lineno=12, col_offset=11}, lineno=12, col_offset=4}}, lineno=11, col_offset=0},
      {tag="FunctionDef", name="absminmax", args={tag="arguments", args={{tag="arg", arg="a", lineno=14, col_offset=14}, {tag="arg", arg="b", lineno=14, col_offset=17}, {tag="arg", arg="c", lineno=14, col_offset=20}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Name", id="abs", lineno=15, col_offset=11}, args={{tag="Name", id="a", lineno=15, col_offset=15}}, keywords={}, lineno=15, col_offset=11}, {tag="Call", func={tag="Name", id="min", lineno=15, col_offset=19}, args={{tag="Name", id="a", lineno=15, col_offset=23}, {tag="Name", id="b", lineno=15, col_offset=26}, {tag="Name", id="c", lineno=15, col_offset=29}}, keywords={}, lineno=15, col_offset=19}, {tag="Call", func={tag="Name", id="max", lineno=15, col_offset=33}, args={{tag="Name", id="a", lineno=15, col_offset=37}, {tag="Name", id="b", lineno=15, col_offset=40}, {tag="Name", id="c", lineno=15, col_offset=43}}, keywords={}, lineno=15, col_offset=33}, {tag="Call", func={tag="Name", id="min", lineno=15, col_offset=47}, args={{tag="Name", id="a", lineno=15, col_offset=51}, {tag="Name", id="b", lineno=15, col_offset=54}}, keywords={}, lineno=15, col_offset=47}, {tag="Call", func={tag="Name", id="max", lineno=15, col_offset=58}, args={{tag="Name", id="c", lineno=15, col_offset=62}, {tag="Name", id="a", lineno=15, col_offset=65}}, keywords={}, lineno=15, col_offset=58}}, lineno=15, col_offset=11}, lineno=15, col_offset=4}}, lineno=14, col_offset=0},
      {tag="FunctionDef", name="minmax_tuple", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="t", lineno=18, col_offset=4}}, value={tag="Tuple", elts={{tag="Constant", value=3, lineno=18, col_offset=9}, {tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=18, col_offset=13}, lineno=18, col_offset=12}, {tag="Constant", value=7, lineno=18, col_offset=16}, {tag="Constant", value=2, lineno=18, col_offset=19}}, lineno=18, col_offset=8}, lineno=18, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Name", id="min", lineno=19, col_offset=11}, args={{tag="Name", id="t", lineno=19, col_offset=15}}, keywords={}, lineno=19, col_offset=11}, {tag="Call", func={tag="Name", id="max", lineno=19, col_offset=19}, args={{tag="Name", id="t", lineno=19, col_offset=23}}, keywords={}, lineno=19, col_offset=19}}, lineno=19, col_offset=11}, lineno=19, col_offset=4}}, lineno=17, col_offset=0},
      {tag="FunctionDef", name="bool_arith", args={tag="arguments", args={{tag="arg", arg="a", lineno=21, col_offset=15}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="t", lineno=22, col_offset=4}}, value={tag="Constant", value=true, lineno=22, col_offset=8}, lineno=22, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="BinOp", left={tag="Name", id="t", lineno=23, col_offset=11}, op="Add", right={tag="Constant", value=1, lineno=23, col_offset=15}, lineno=23, col_offset=11}, {tag="BinOp", left={tag="Name", id="t", lineno=23, col_offset=18}, op="Mult", right={tag="Name", id="a", lineno=23, col_offset=22}, lineno=23, col_offset=18}, {tag="BinOp", left={tag="Constant", value=true, lineno=23, col_offset=25}, op="Add", right={tag="Constant", value=true, lineno=23, col_offset=32}, lineno=23, col_offset=25}, {tag="UnaryOp", op="USub", operand={tag="Name", id="t", lineno=23, col_offset=39}, lineno=23, col_offset=38}, {tag="Compare", left={tag="Name", id="t", lineno=23, col_offset=42}, ops={"Eq"}, comparators={{tag="Constant", value=1, lineno=23, col_offset=47}}, lineno=23, col_offset=42}, {tag="Compare", left={tag="Name", id="t", lineno=23, col_offset=50}, ops={"Lt"}, comparators={{tag="Constant", value=2, lineno=23, col_offset=54}}, lineno=23, col_offset=50}}, lineno=23, col_offset=11}, lineno=23, col_offset=4}}, lineno=21, col_offset=0},
      {tag="FunctionDef", name="bool_acc", args={tag="arguments", args={{tag="arg", arg="n", lineno=25, col_offset=13}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="c", lineno=26, col_offset=4}}, value={tag="Constant", value=0, lineno=26, col_offset=8}, lineno=26, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=27, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=27, col_offset=13}, args={{tag="Name", id="n", lineno=27, col_offset=19}}, keywords={}, lineno=27, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="c", lineno=28, col_offset=8}, op="Add", value={tag="Compare", left={tag="BinOp", left={tag="Name", id="i", lineno=28, col_offset=13}, op="Mod", right={tag="Constant", value=3, lineno=28, col_offset=17}, lineno=28, col_offset=13}, ops={"Eq"}, comparators={{tag="Constant", value=0, lineno=28, col_offset=22}}, lineno=28, col_offset=13}, lineno=28, col_offset=8}}, orelse={}, lineno=27, col_offset=4}, {tag="Return", value={tag="Name", id="c", lineno=29, col_offset=11}, lineno=29, col_offset=4}}, lineno=25, col_offset=0},
      {tag="FunctionDef", name="mathf", args={tag="arguments", args={{tag="arg", arg="x", lineno=31, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=11}, attr="sqrt", lineno=32, col_offset=11}, args={{tag="Name", id="x", lineno=32, col_offset=21}}, keywords={}, lineno=32, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=25}, attr="exp", lineno=32, col_offset=25}, args={{tag="Name", id="x", lineno=32, col_offset=34}}, keywords={}, lineno=32, col_offset=25}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=38}, attr="log", lineno=32, col_offset=38}, args={{tag="Name", id="x", lineno=32, col_offset=47}}, keywords={}, lineno=32, col_offset=38}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=51}, attr="log", lineno=32, col_offset=51}, args={{tag="Name", id="x", lineno=32, col_offset=60}, {tag="Constant", value=2, lineno=32, col_offset=63}}, keywords={}, lineno=32, col_offset=51}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=67}, attr="log10", lineno=32, col_offset=67}, args={{tag="Name", id="x", lineno=32, col_offset=78}}, keywords={}, lineno=32, col_offset=67}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=82}, attr="log2", lineno=32, col_offset=82}, args={{tag="Name", id="x", lineno=32, col_offset=92}}, keywords={}, lineno=32, col_offset=82}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=96}, attr="sin", lineno=32, col_offset=96}, args={{tag="Name", id="x", lineno=32, col_offset=105}}, keywords={}, lineno=32, col_offset=96}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=109}, attr="cos", lineno=32, col_offset=109}, args={{tag="Name", id="x", lineno=32, col_offset=118}}, keywords={}, lineno=32, col_offset=109}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=122}, attr="tan", lineno=32, col_offset=122}, args={{tag="Name", id="x", lineno=32, col_offset=131}}, keywords={}, lineno=32, col_offset=122}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=135}, attr="atan", lineno=32, col_offset=135}, args={{tag="Name", id="x", lineno=32, col_offset=145}}, keywords={}, lineno=32, col_offset=135}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=149}, attr="atan2", lineno=32, col_offset=149}, args={{tag="Name", id="x", lineno=32, col_offset=160}, {tag="Constant", value=2.0, lineno=32, col_offset=163}}, keywords={}, lineno=32, col_offset=149}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=169}, attr="fabs", lineno=32, col_offset=169}, args={{tag="UnaryOp", op="USub", operand={tag="Name", id="x", lineno=32, col_offset=180}, lineno=32, col_offset=179}}, keywords={}, lineno=32, col_offset=169}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=184}, attr="hypot", lineno=32, col_offset=184}, args={{tag="Name", id="x", lineno=32, col_offset=195}, {tag="Constant", value=3.0, lineno=32, col_offset=198}}, keywords={}, lineno=32, col_offset=184}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=204}, attr="copysign", lineno=32, col_offset=204}, args={{tag="Name", id="x", lineno=32, col_offset=218}, {tag="UnaryOp", op="USub", operand={tag="Constant", value=1.0, lineno=32, col_offset=222}, lineno=32, col_offset=221}}, keywords={}, lineno=32, col_offset=204}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=32, col_offset=228}, attr="pow", lineno=32, col_offset=228}, args={{tag="Name", id="x", lineno=32, col_offset=237}, {tag="Constant", value=1.5, lineno=32, col_offset=240}}, keywords={}, lineno=32, col_offset=228}}, lineno=32, col_offset=11}, lineno=32, col_offset=4}}, lineno=31, col_offset=0},
      {tag="FunctionDef", name="mathf2", args={tag="arguments", args={{tag="arg", arg="x", lineno=34, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=11}, attr="log1p", lineno=35, col_offset=11}, args={{tag="Name", id="x", lineno=35, col_offset=22}}, keywords={}, lineno=35, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=26}, attr="expm1", lineno=35, col_offset=26}, args={{tag="Name", id="x", lineno=35, col_offset=37}}, keywords={}, lineno=35, col_offset=26}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=41}, attr="sinh", lineno=35, col_offset=41}, args={{tag="Name", id="x", lineno=35, col_offset=51}}, keywords={}, lineno=35, col_offset=41}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=55}, attr="cosh", lineno=35, col_offset=55}, args={{tag="Name", id="x", lineno=35, col_offset=65}}, keywords={}, lineno=35, col_offset=55}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=69}, attr="tanh", lineno=35, col_offset=69}, args={{tag="Name", id="x", lineno=35, col_offset=79}}, keywords={}, lineno=35, col_offset=69}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=83}, attr="asinh", lineno=35, col_offset=83}, args={{tag="Name", id="x", lineno=35, col_offset=94}}, keywords={}, lineno=35, col_offset=83}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=98}, attr="acosh", lineno=35, col_offset=98}, args={{tag="BinOp", left={tag="Name", id="x", lineno=35, col_offset=109}, op="Add", right={tag="Constant", value=1.0, lineno=35, col_offset=113}, lineno=35, col_offset=109}}, keywords={}, lineno=35, col_offset=98}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=119}, attr="atanh", lineno=35, col_offset=119}, args={{tag="BinOp", left={tag="Name", id="x", lineno=35, col_offset=130}, op="Div", right={tag="Constant", value=10.0, lineno=35, col_offset=134}, lineno=35, col_offset=130}}, keywords={}, lineno=35, col_offset=119}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=141}, attr="erf", lineno=35, col_offset=141}, args={{tag="Name", id="x", lineno=35, col_offset=150}}, keywords={}, lineno=35, col_offset=141}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=154}, attr="erfc", lineno=35, col_offset=154}, args={{tag="Name", id="x", lineno=35, col_offset=164}}, keywords={}, lineno=35, col_offset=154}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=168}, attr="gamma", lineno=35, col_offset=168}, args={{tag="Name", id="x", lineno=35, col_offset=179}}, keywords={}, lineno=35, col_offset=168}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=35, col_offset=183}, attr="lgamma", lineno=35, col_offset=183}, args={{tag="Name", id="x", lineno=35, col_offset=195}}, keywords={}, lineno=35, col_offset=183}}, lineno=35, col_offset=11}, lineno=35, col_offset=4}}, lineno=34, col_offset=0},
      {tag="FunctionDef", name="mathint", args={tag="arguments", args={{tag="arg", arg="x", lineno=37, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=38, col_offset=11}, attr="floor", lineno=38, col_offset=11}, args={{tag="Name", id="x", lineno=38, col_offset=22}}, keywords={}, lineno=38, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=38, col_offset=26}, attr="ceil", lineno=38, col_offset=26}, args={{tag="Name", id="x", lineno=38, col_offset=36}}, keywords={}, lineno=38, col_offset=26}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=38, col_offset=40}, attr="trunc", lineno=38, col_offset=40}, args={{tag="Name", id="x", lineno=38, col_offset=51}}, keywords={}, lineno=38, col_offset=40}}, lineno=38, col_offset=11}, lineno=38, col_offset=4}}, lineno=37, col_offset=0},
      {tag="FunctionDef", name="mathpred", args={tag="arguments", args={{tag="arg", arg="x", lineno=40, col_offset=13}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=41, col_offset=11}, attr="isnan", lineno=41, col_offset=11}, args={{tag="Name", id="x", lineno=41, col_offset=22}}, keywords={}, lineno=41, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=41, col_offset=26}, attr="isinf", lineno=41, col_offset=26}, args={{tag="Name", id="x", lineno=41, col_offset=37}}, keywords={}, lineno=41, col_offset=26}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=41, col_offset=41}, attr="isfinite", lineno=41, col_offset=41}, args={{tag="Name", id="x", lineno=41, col_offset=55}}, keywords={}, lineno=41, col_offset=41}}, lineno=41, col_offset=11}, lineno=41, col_offset=4}}, lineno=40, col_offset=0},
      {tag="FunctionDef", name="consts", args={tag="arguments", args={}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Attribute", value={tag="Name", id="math", lineno=44, col_offset=11}, attr="pi", lineno=44, col_offset=11}, {tag="Attribute", value={tag="Name", id="math", lineno=44, col_offset=20}, attr="e", lineno=44, col_offset=20}, {tag="Attribute", value={tag="Name", id="np", lineno=44, col_offset=28}, attr="pi", lineno=44, col_offset=28}, {tag="Attribute", value={tag="Name", id="math", lineno=44, col_offset=35}, attr="inf", lineno=44, col_offset=35}, {tag="UnaryOp", op="USub", operand={tag="Attribute", value={tag="Name", id="np", lineno=44, col_offset=46}, attr="inf", lineno=44, col_offset=46}, lineno=44, col_offset=45}}, lineno=44, col_offset=11}, lineno=44, col_offset=4}}, lineno=43, col_offset=0},
      {tag="FunctionDef", name="npf", args={tag="arguments", args={{tag="arg", arg="x", lineno=46, col_offset=8}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=11}, attr="sqrt", lineno=47, col_offset=11}, args={{tag="Name", id="x", lineno=47, col_offset=19}}, keywords={}, lineno=47, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=23}, attr="exp", lineno=47, col_offset=23}, args={{tag="Name", id="x", lineno=47, col_offset=30}}, keywords={}, lineno=47, col_offset=23}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=34}, attr="arcsin", lineno=47, col_offset=34}, args={{tag="BinOp", left={tag="Name", id="x", lineno=47, col_offset=44}, op="Div", right={tag="Constant", value=10.0, lineno=47, col_offset=48}, lineno=47, col_offset=44}}, keywords={}, lineno=47, col_offset=34}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=55}, attr="arctan2", lineno=47, col_offset=55}, args={{tag="Name", id="x", lineno=47, col_offset=66}, {tag="Constant", value=1.0, lineno=47, col_offset=69}}, keywords={}, lineno=47, col_offset=55}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=75}, attr="floor", lineno=47, col_offset=75}, args={{tag="Name", id="x", lineno=47, col_offset=84}}, keywords={}, lineno=47, col_offset=75}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=88}, attr="ceil", lineno=47, col_offset=88}, args={{tag="Name", id="x", lineno=47, col_offset=96}}, keywords={}, lineno=47, col_offset=88}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=100}, attr="trunc", lineno=47, col_offset=100}, args={{tag="Name", id="x", lineno=47, col_offset=109}}, keywords={}, lineno=47, col_offset=100}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=113}, attr="abs", lineno=47, col_offset=113}, args={{tag="UnaryOp", op="USub", operand={tag="Name", id="x", lineno=47, col_offset=121}, lineno=47, col_offset=120}}, keywords={}, lineno=47, col_offset=113}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=125}, attr="float64", lineno=47, col_offset=125}, args={{tag="Name", id="x", lineno=47, col_offset=136}}, keywords={}, lineno=47, col_offset=125}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=140}, attr="int32", lineno=47, col_offset=140}, args={{tag="Name", id="x", lineno=47, col_offset=149}}, keywords={}, lineno=47, col_offset=140}, {tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=47, col_offset=153}, attr="float32", lineno=47, col_offset=153}, args={{tag="Name", id="x", lineno=47, col_offset=164}}, keywords={}, lineno=47, col_offset=153}}, lineno=47, col_offset=11}, lineno=47, col_offset=4}}, lineno=46, col_offset=0},
      {tag="FunctionDef", name="trig_inv", args={tag="arguments", args={{tag="arg", arg="x", lineno=49, col_offset=13}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=50, col_offset=11}, attr="asin", lineno=50, col_offset=11}, args={{tag="Name", id="x", lineno=50, col_offset=21}}, keywords={}, lineno=50, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="math", lineno=50, col_offset=25}, attr="acos", lineno=50, col_offset=25}, args={{tag="Name", id="x", lineno=50, col_offset=35}}, keywords={}, lineno=50, col_offset=25}}, lineno=50, col_offset=11}, lineno=50, col_offset=4}}, lineno=49, col_offset=0},
    }},
  },
  arrays = {
    src = [==[
import numpy as np

def sum1(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s

def last(a):
    return a[-1], a[-2], a[0]

def get2(a, i, j):
    return a[i, j]

def set2(a, i, j, v):
    a[i, j] = v

def dims(a):
    return a.shape[0], a.shape[1], a.size, a.ndim, len(a), a.shape[-1]

def shape_tuple(a):
    n, m = a.shape
    return n * 10 + m

def make(n, m):
    out = np.zeros((n, m), dtype=np.float64)
    for i in range(n):
        for j in range(m):
            out[i, j] = i * 10 + j
    return out

def like(a):
    b = np.empty_like(a)
    for i in range(a.shape[0]):
        b[i] = a[i] * 2
    return b

def meth(a):
    return a.sum(), a.min(), a.max()

def inc(a):
    for i in range(len(a)):
        a[i] += 1
    a[-1] *= 10

def iter_rows(a):
    s = 0.0
    for row in a:
        s += row[0]
    return s

def iter_vals(a):
    s = 0
    for v in a:
        s = s * 10 + v
    return s

def slices(a):
    b = a[1:-1]
    c = a[::-2]
    return b[0], len(b), c[0], len(c)

def col(a, j):
    c = a[:, j]
    s = 0.0
    for i in range(c.shape[0]):
        s += c[i]
    return s

def fill_slice(a):
    a[1:3] = 7.0

def ones_full(n):
    a = np.ones(n)
    b = np.full((2, 2), 5)
    c = np.arange(n)
    return a.sum() + b.sum() + c.sum()

def tuple_slice():
    t = (1, 2, 3, 4, 5)
    u = t[1:4]
    return u[0], u[-1], len(u)
]==],
    ast = {tag="Module", body={
      {tag="Import", names={{tag="alias", name="numpy", asname="np", lineno=2, col_offset=7}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="sum1", args={tag="arguments", args={{tag="arg", arg="a", lineno=4, col_offset=9}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=5, col_offset=4}}, value={tag="Constant", value=0.0, lineno=5, col_offset=8}, lineno=5, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=6, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=6, col_offset=13}, args={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="a", lineno=6, col_offset=19}, attr="shape", lineno=6, col_offset=19}, slice={tag="Constant", value=0, lineno=6, col_offset=27}, lineno=6, col_offset=19}}, keywords={}, lineno=6, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=7, col_offset=8}, op="Add", value={tag="Subscript", value={tag="Name", id="a", lineno=7, col_offset=13}, slice={tag="Name", id="i", lineno=7, col_offset=15}, lineno=7, col_offset=13}, lineno=7, col_offset=8}}, orelse={}, lineno=6, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=8, col_offset=11}, lineno=8, col_offset=4}}, lineno=4, col_offset=0},
      {tag="FunctionDef", name="last", args={tag="arguments", args={{tag="arg", arg="a", lineno=10, col_offset=9}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Subscript", value={tag="Name", id="a", lineno=11, col_offset=11}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=11, col_offset=14}, lineno=11, col_offset=13}, lineno=11, col_offset=11}, {tag="Subscript", value={tag="Name", id="a", lineno=11, col_offset=18}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=2, lineno=11, col_offset=21}, lineno=11, col_offset=20}, lineno=11, col_offset=18}, {tag="Subscript", value={tag="Name", id="a", lineno=11, col_offset=25}, slice={tag="Constant", value=0, lineno=11, col_offset=27}, lineno=11, col_offset=25}}, lineno=11, col_offset=11}, lineno=11, col_offset=4}}, lineno=10, col_offset=0},
      {tag="FunctionDef", name="get2", args={tag="arguments", args={{tag="arg", arg="a", lineno=13, col_offset=9}, {tag="arg", arg="i", lineno=13, col_offset=12}, {tag="arg", arg="j", lineno=13, col_offset=15}}, defaults={}}, body={{tag="Return", value={tag="Subscript", value={tag="Name", id="a", lineno=14, col_offset=11}, slice={tag="Tuple", elts={{tag="Name", id="i", lineno=14, col_offset=13}, {tag="Name", id="j", lineno=14, col_offset=16}}, lineno=14, col_offset=13}, lineno=14, col_offset=11}, lineno=14, col_offset=4}}, lineno=13, col_offset=0},
      {tag="FunctionDef", name="set2", args={tag="arguments", args={{tag="arg", arg="a", lineno=16, col_offset=9}, {tag="arg", arg="i", lineno=16, col_offset=12}, {tag="arg", arg="j", lineno=16, col_offset=15}, {tag="arg", arg="v", lineno=16, col_offset=18}}, defaults={}}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="a", lineno=17, col_offset=4}, slice={tag="Tuple", elts={{tag="Name", id="i", lineno=17, col_offset=6}, {tag="Name", id="j", lineno=17, col_offset=9}}, lineno=17, col_offset=6}, lineno=17, col_offset=4}}, value={tag="Name", id="v", lineno=17, col_offset=14}, lineno=17, col_offset=4}}, lineno=16, col_offset=0},
      {tag="FunctionDef", name="dims", args={tag="arguments", args={{tag="arg", arg="a", lineno=19, col_offset=9}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="a", lineno=20, col_offset=11}, attr="shape", lineno=20, col_offset=11}, slice={tag="Constant", value=0, lineno=20, col_offset=19}, lineno=20, col_offset=11}, {tag="Subscript", value={tag="Attribute", value={tag="Name", id="a", lineno=20, col_offset=23}, attr="shape", lineno=20, col_offset=23}, slice={tag="Constant", value=1, lineno=20, col_offset=31}, lineno=20, col_offset=23}, {tag="Attribute", value={tag="Name", id="a", lineno=20, col_offset=35}, attr="size", lineno=20, col_offset=35}, {tag="Attribute", value={tag="Name", id="a", lineno=20, col_offset=43}, attr="ndim", lineno=20, col_offset=43}, {tag="Call", func={tag="Name", id="len", lineno=20, col_offset=51}, args={{tag="Name", id="a", lineno=20, col_offset=55}}, keywords={}, lineno=20, col_offset=51}, {tag="Subscript", value={tag="Attribute", value={tag="Name", id="a", lineno=20, col_offset=59}, attr="shape", lineno=20, col_offset=59}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=20, col_offset=68}, lineno=20, col_offset=67}, lineno=20, col_offset=59}}, lineno=20, col_offset=11}, lineno=20, col_offset=4}}, lineno=19, col_offset=0},
      {tag="FunctionDef", name="shape_tuple", args={tag="arguments", args={{tag="arg", arg="a", lineno=22, col_offset=16}}, defaults={}}, body={{tag="Assign", targets={{tag="Tuple", elts={{tag="Name", id="n", lineno=23, col_offset=4}, {tag="Name", id="m", lineno=23, col_offset=7}}, lineno=23, col_offset=4}}, value={tag="Attribute", value={tag="Name", id="a", lineno=23, col_offset=11}, attr="shape", lineno=23, col_offset=11}, lineno=23, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="n", lineno=24, col_offset=11}, op="Mult", right={tag="Constant", value=10, lineno=24, col_offset=15}, lineno=24, col_offset=11}, op="Add", right={tag="Name", id="m", lineno=24, col_offset=20}, lineno=24, col_offset=11}, lineno=24, col_offset=4}}, lineno=22, col_offset=0},
      {tag="FunctionDef", name="make", args={tag="arguments", args={{tag="arg", arg="n", lineno=26, col_offset=9}, {tag="arg", arg="m", lineno=26, col_offset=12}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="out", lineno=27, col_offset=4}}, value={tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=27, col_offset=10}, attr="zeros", lineno=27, col_offset=10}, args={{tag="Tuple", elts={{tag="Name", id="n", lineno=27, col_offset=20}, {tag="Name", id="m", lineno=27, col_offset=23}}, lineno=27, col_offset=19}}, keywords={{tag="keyword", arg="dtype", value={tag="Attribute", value={tag="Name", id="np", lineno=27, col_offset=33}, attr="float64", lineno=27, col_offset=33}, lineno=27, col_offset=27}}, lineno=27, col_offset=10}, lineno=27, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=28, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=28, col_offset=13}, args={{tag="Name", id="n", lineno=28, col_offset=19}}, keywords={}, lineno=28, col_offset=13}, body={{tag="For", target={tag="Name", id="j", lineno=29, col_offset=12}, iter={tag="Call", func={tag="Name", id="range", lineno=29, col_offset=17}, args={{tag="Name", id="m", lineno=29, col_offset=23}}, keywords={}, lineno=29, col_offset=17}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="out", lineno=30, col_offset=12}, slice={tag="Tuple", elts={{tag="Name", id="i", lineno=30, col_offset=16}, {tag="Name", id="j", lineno=30, col_offset=19}}, lineno=30, col_offset=16}, lineno=30, col_offset=12}}, value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="i", lineno=30, col_offset=24}, op="Mult", right={tag="Constant", value=10, lineno=30, col_offset=28}, lineno=30, col_offset=24}, op="Add", right={tag="Name", id="j", lineno=30, col_offset=33}, lineno=30, col_offset=24}, lineno=30, col_offset=12}}, orelse={}, lineno=29, col_offset=8}}, orelse={}, lineno=28, col_offset=4}, {tag="Return", value={tag="Name", id="out", lineno=31, col_offset=11}, lineno=31, col_offset=4}}, lineno=26, col_offset=0},
      {tag="FunctionDef", name="like", args={tag="arguments", args={{tag="arg", arg="a", lineno=33, col_offset=9}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="b", lineno=34, col_offset=4}}, value={tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=34, col_offset=8}, attr="empty_like", lineno=34, col_offset=8}, args={{tag="Name", id="a", lineno=34, col_offset=22}}, keywords={}, lineno=34, col_offset=8}, lineno=34, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=35, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=35, col_offset=13}, args={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="a", lineno=35, col_offset=19}, attr="shape", lineno=35, col_offset=19}, slice={tag="Constant", value=0, lineno=35, col_offset=27}, lineno=35, col_offset=19}}, keywords={}, lineno=35, col_offset=13}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="b", lineno=36, col_offset=8}, slice={tag="Name", id="i", lineno=36, col_offset=10}, lineno=36, col_offset=8}}, value={tag="BinOp", left={tag="Subscript", value={tag="Name", id="a", lineno=36, col_offset=15}, slice={tag="Name", id="i", lineno=36, col_offset=17}, lineno=36, col_offset=15}, op="Mult", right={tag="Constant", value=2, lineno=36, col_offset=22}, lineno=36, col_offset=15}, lineno=36, col_offset=8}}, orelse={}, lineno=35, col_offset=4}, {tag="Return", value={tag="Name", id="b", lineno=37, col_offset=11}, lineno=37, col_offset=4}}, lineno=33, col_offset=0},
      {tag="FunctionDef", name="meth", args={tag="arguments", args={{tag="arg", arg="a", lineno=39, col_offset=9}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="Call", func={tag="Attribute", value={tag="Name", id="a", lineno=40, col_offset=11}, attr="sum", lineno=40, col_offset=11}, args={}, keywords={}, lineno=40, col_offset=11}, {tag="Call", func={tag="Attribute", value={tag="Name", id="a", lineno=40, col_offset=20}, attr="min", lineno=40, col_offset=20}, args={}, keywords={}, lineno=40, col_offset=20}, {tag="Call", func={tag="Attribute", value={tag="Name", id="a", lineno=40, col_offset=29}, attr="max", lineno=40, col_offset=29}, args={}, keywords={}, lineno=40, col_offset=29}}, lineno=40, col_offset=11}, lineno=40, col_offset=4}}, lineno=39, col_offset=0},
      {tag="FunctionDef", name="inc", args={tag="arguments", args={{tag="arg", arg="a", lineno=42, col_offset=8}}, defaults={}}, body={{tag="For", target={tag="Name", id="i", lineno=43, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=43, col_offset=13}, args={{tag="Call", func={tag="Name", id="len", lineno=43, col_offset=19}, args={{tag="Name", id="a", lineno=43, col_offset=23}}, keywords={}, lineno=43, col_offset=19}}, keywords={}, lineno=43, col_offset=13}, body={{tag="AugAssign", target={tag="Subscript", value={tag="Name", id="a", lineno=44, col_offset=8}, slice={tag="Name", id="i", lineno=44, col_offset=10}, lineno=44, col_offset=8}, op="Add", value={tag="Constant", value=1, lineno=44, col_offset=16}, lineno=44, col_offset=8}}, orelse={}, lineno=43, col_offset=4}, {tag="AugAssign", target={tag="Subscript", value={tag="Name", id="a", lineno=45, col_offset=4}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=45, col_offset=7}, lineno=45, col_offset=6}, lineno=45, col_offset=4}, op="Mult", value={tag="Constant", value=10, lineno=45, col_offset=13}, lineno=45, col_offset=4}}, lineno=42, col_offset=0},
      {tag="FunctionDef", name="iter_rows", args={tag="arguments", args={{tag="arg", arg="a", lineno=47, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=48, col_offset=4}}, value={tag="Constant", value=0.0, lineno=48, col_offset=8}, lineno=48, col_offset=4}, {tag="For", target={tag="Name", id="row", lineno=49, col_offset=8}, iter={tag="Name", id="a", lineno=49, col_offset=15}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=50, col_offset=8}, op="Add", value={tag="Subscript", value={tag="Name", id="row", lineno=50, col_offset=13}, slice={tag="Constant", value=0, lineno=50, col_offset=17}, lineno=50, col_offset=13}, lineno=50, col_offset=8}}, orelse={}, lineno=49, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=51, col_offset=11}, lineno=51, col_offset=4}}, lineno=47, col_offset=0},
      {tag="FunctionDef", name="iter_vals", args={tag="arguments", args={{tag="arg", arg="a", lineno=53, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=54, col_offset=4}}, value={tag="Constant", value=0, lineno=54, col_offset=8}, lineno=54, col_offset=4}, {tag="For", target={tag="Name", id="v", lineno=55, col_offset=8}, iter={tag="Name", id="a", lineno=55, col_offset=13}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=56, col_offset=8}}, value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="s", lineno=56, col_offset=12}, op="Mult", right={tag="Constant", value=10, lineno=56, col_offset=16}, lineno=56, col_offset=12}, op="Add", right={tag="Name", id="v", lineno=56, col_offset=21}, lineno=56, col_offset=12}, lineno=56, col_offset=8}}, orelse={}, lineno=55, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=57, col_offset=11}, lineno=57, col_offset=4}}, lineno=53, col_offset=0},
      {tag="FunctionDef", name="slices", args={tag="arguments", args={{tag="arg", arg="a", lineno=59, col_offset=11}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="b", lineno=60, col_offset=4}}, value={tag="Subscript", value={tag="Name", id="a", lineno=60, col_offset=8}, slice={tag="Slice", lower={tag="Constant", value=1, lineno=60, col_offset=10}, upper={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=60, col_offset=13}, lineno=60, col_offset=12}, lineno=60, col_offset=10}, lineno=60, col_offset=8}, lineno=60, col_offset=4}, {tag="Assign", targets={{tag="Name", id="c", lineno=61, col_offset=4}}, value={tag="Subscript", value={tag="Name", id="a", lineno=61, col_offset=8}, slice={tag="Slice", step={tag="UnaryOp", op="USub", operand={tag="Constant", value=2, lineno=61, col_offset=13}, lineno=61, col_offset=12}, lineno=61, col_offset=10}, lineno=61, col_offset=8}, lineno=61, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Subscript", value={tag="Name", id="b", lineno=62, col_offset=11}, slice={tag="Constant", value=0, lineno=62, col_offset=13}, lineno=62, col_offset=11}, {tag="Call", func={tag="Name", id="len", lineno=62, col_offset=17}, args={{tag="Name", id="b", lineno=62, col_offset=21}}, keywords={}, lineno=62, col_offset=17}, {tag="Subscript", value={tag="Name", id="c", lineno=62, col_offset=25}, slice={tag="Constant", value=0, lineno=62, col_offset=27}, lineno=62, col_offset=25}, {tag="Call", func={tag="Name", id="len", lineno=62, col_offset=31}, args={{tag="Name", id="c", lineno=62, col_offset=35}}, keywords={}, lineno=62, col_offset=31}}, lineno=62, col_offset=11}, lineno=62, col_offset=4}}, lineno=59, col_offset=0},
      {tag="FunctionDef", name="col", args={tag="arguments", args={{tag="arg", arg="a", lineno=64, col_offset=8}, {tag="arg", arg="j", lineno=64, col_offset=11}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="c", lineno=65, col_offset=4}}, value={tag="Subscript", value={tag="Name", id="a", lineno=65, col_offset=8}, slice={tag="Tuple", elts={{tag="Slice", lineno=65, col_offset=10}, {tag="Name", id="j", lineno=65, col_offset=13}}, lineno=65, col_offset=10}, lineno=65, col_offset=8}, lineno=65, col_offset=4}, {tag="Assign", targets={{tag="Name", id="s", lineno=66, col_offset=4}}, value={tag="Constant", value=0.0, lineno=66, col_offset=8}, lineno=66, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=67, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=67, col_offset=13}, args={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="c", lineno=67, col_offset=19}, attr="shape", lineno=67, col_offset=19}, slice={tag="Constant", value=0, lineno=67, col_offset=27}, lineno=67, col_offset=19}}, keywords={}, lineno=67, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="s", lineno=68, col_offset=8}, op="Add", value={tag="Subscript", value={tag="Name", id="c", lineno=68, col_offset=13}, slice={tag="Name", id="i", lineno=68, col_offset=15}, lineno=68, col_offset=13}, lineno=68, col_offset=8}}, orelse={}, lineno=67, col_offset=4}, {tag="Return", value={tag="Name", id="s", lineno=69, col_offset=11}, lineno=69, col_offset=4}}, lineno=64, col_offset=0},
      {tag="FunctionDef", name="fill_slice", args={tag="arguments", args={{tag="arg", arg="a", lineno=71, col_offset=15}}, defaults={}}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="a", lineno=72, col_offset=4}, slice={tag="Slice", lower={tag="Constant", value=1, lineno=72, col_offset=6}, upper={tag="Constant", value=3, lineno=72, col_offset=8}, lineno=72, col_offset=6}, lineno=72, col_offset=4}}, value={tag="Constant", value=7.0, lineno=72, col_offset=13}, lineno=72, col_offset=4}}, lineno=71, col_offset=0},
      {tag="FunctionDef", name="ones_full", args={tag="arguments", args={{tag="arg", arg="n", lineno=74, col_offset=14}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="a", lineno=75, col_offset=4}}, value={tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=75, col_offset=8}, attr="ones", lineno=75, col_offset=8}, args={{tag="Name", id="n", lineno=75, col_offset=16}}, keywords={}, lineno=75, col_offset=8}, lineno=75, col_offset=4}, {tag="Assign", targets={{tag="Name", id="b", lineno=76, col_offset=4}}, value={tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=76, col_offset=8}, attr="full", lineno=76, col_offset=8}, args={{tag="Tuple", elts={{tag="Constant", value=2, lineno=76, col_offset=17}, {tag="Constant", value=2, lineno=76, col_offset=20}}, lineno=76, col_offset=16}, {tag="Constant", value=5, lineno=76, col_offset=24}}, keywords={}, lineno=76, col_offset=8}, lineno=76, col_offset=4}, {tag="Assign", targets={{tag="Name", id="c", lineno=77, col_offset=4}}, value={tag="Call", func={tag="Attribute", value={tag="Name", id="np", lineno=77, col_offset=8}, attr="arange", lineno=77, col_offset=8}, args={{tag="Name", id="n", lineno=77, col_offset=18}}, keywords={}, lineno=77, col_offset=8}, lineno=77, col_offset=4}, {tag="Return", value={tag="BinOp", left={tag="BinOp", left={tag="Call", func={tag="Attribute", value={tag="Name", id="a", lineno=78, col_offset=11}, attr="sum", lineno=78, col_offset=11}, args={}, keywords={}, lineno=78, col_offset=11}, op="Add", right={tag="Call", func={tag="Attribute", value={tag="Name", id="b", lineno=78, col_offset=21}, attr="sum", lineno=78, col_offset=21}, args={}, keywords={}, lineno=78, col_offset=21}, lineno=78, col_offset=11}, op="Add", right={tag="Call", func={tag="Attribute", value={tag="Name", id="c", lineno=78, col_offset=31}, attr="sum", lineno=78, col_offset=31}, args={}, keywords={}, lineno=78, col_offset=31}, lineno=78, col_offset=11}, lineno=78, col_offset=4}}, lineno=74, col_offset=0},
      {tag="FunctionDef", name="tuple_slice", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="t", lineno=81, col_offset=4}}, value={tag="Tuple", elts={{tag="Constant", value=1, lineno=81, col_offset=9}, {tag="Constant", value=2, lineno=81, col_offset=12}, {tag="Constant", value=3, lineno=81, col_offset=15}, {tag="Constant", value=4, lineno=81, col_offset=18}, {tag="Constant", value=5, lineno=81, col_offset=21}}, lineno=81, col_offset=8}, lineno=81, col_offset=4}, {tag="Assign", targets={{tag="Name", id="u", lineno=82, col_offset=4}}, value={tag="Subscript", value={tag="Name", id="t", lineno=82, col_offset=8}, slice={tag="Slice", lower={tag="Constant", value=1, lineno=82, col_offset=10}, upper={tag="Constant", value=4, lineno=82, col_offset=12}, lineno=82, col_offset=10}, lineno=82, col_offset=8}, lineno=82, col_offset=4}, {tag="Return", value={tag="Tuple", elts={{tag="Subscript", value={tag="Name", id="u", lineno=83, col_offset=11}, slice={tag="Constant", value=0, lineno=83, col_offset=13}, lineno=83, col_offset=11}, {tag="Subscript", value={tag="Name", id="u", lineno=83, col_offset=17}, slice={tag="UnaryOp", op="USub", operand={tag="Constant", value=1, lineno=83, col_offset=20}, lineno=83, col_offset=19}, lineno=83, col_offset=17}, {tag="Call", func={tag="Name", id="len", lineno=83, col_offset=24}, args={{tag="Name", id="u", lineno=83, col_offset=28}}, keywords={}, lineno=83, col_offset=24}}, lineno=83, col_offset=11}, lineno=83, col_offset=4}}, lineno=80, col_offset=0},
    }},
  },
  seeds = {
    src = [==[
import numpy as np
import numba
from numba import jit, njit, prange

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

@jit
def sum_array_numba(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total

@njit(parallel=True, cache=True)
def parallel_sum(arr):
    total = 0.0
    for i in prange(arr.shape[0]):
        total += arr[i]
    return total
]==],
    ast = {tag="Module", body={
      {tag="Import", names={{tag="alias", name="numpy", asname="np", lineno=2, col_offset=7}}, lineno=2, col_offset=0},
      {tag="Import", names={{tag="alias", name="numba", lineno=3, col_offset=7}}, lineno=3, col_offset=0},
      {tag="ImportFrom", module="numba", names={{tag="alias", name="jit", lineno=4, col_offset=18}, {tag="alias", name="njit", lineno=4, col_offset=23}, {tag="alias", name="prange", lineno=4, col_offset=29}}, level=0, lineno=4, col_offset=0},
      {tag="FunctionDef", name="ising_energy_numba", args={tag="arguments", args={{tag="arg", arg="spins", annotation={tag="Attribute", value={tag="Name", id="np", lineno=7, col_offset=30}, attr="ndarray", lineno=7, col_offset=30}, lineno=7, col_offset=23}, {tag="arg", arg="J", annotation={tag="Name", id="float", lineno=7, col_offset=45}, lineno=7, col_offset=42}}, defaults={{tag="Constant", value=1.0, lineno=7, col_offset=53}}}, body={{tag="Expr", value={tag="Constant", value="Numba JIT accelerated Ising energy.\n\n    nopython=True: compile fully or raise; cache=True: keep the result on disk.\n    ", lineno=8, col_offset=4}, lineno=8, col_offset=4}, {tag="Assign", targets={{tag="Name", id="N", lineno=12, col_offset=4}}, value={tag="Subscript", value={tag="Attribute", value={tag="Name", id="spins", lineno=12, col_offset=8}, attr="shape", lineno=12, col_offset=8}, slice={tag="Constant", value=0, lineno=12, col_offset=20}, lineno=12, col_offset=8}, lineno=12, col_offset=4}, {tag="Assign", targets={{tag="Name", id="energy", lineno=13, col_offset=4}}, value={tag="Constant", value=0.0, lineno=13, col_offset=13}, lineno=13, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=14, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=14, col_offset=13}, args={{tag="Name", id="N", lineno=14, col_offset=19}}, keywords={}, lineno=14, col_offset=13}, body={{tag="For", target={tag="Name", id="j", lineno=15, col_offset=12}, iter={tag="Call", func={tag="Name", id="range", lineno=15, col_offset=17}, args={{tag="Name", id="N", lineno=15, col_offset=23}}, keywords={}, lineno=15, col_offset=17}, body={{tag="Assign", targets={{tag="Name", id="s", lineno=16, col_offset=12}}, value={tag="Subscript", value={tag="Name", id="spins", lineno=16, col_offset=16}, slice={tag="Tuple", elts={{tag="Name", id="i", lineno=16, col_offset=22}, {tag="Name", id="j", lineno=16, col_offset=25}}, lineno=16, col_offset=22}, lineno=16, col_offset=16}, lineno=16, col_offset=12}, {tag="Assign", targets={{tag="Name", id="neighbor_right", lineno=18, col_offset=12}}, value={tag="Subscript", value={tag="Name", id="spins", lineno=18, col_offset=29}, slice={tag="Tuple", elts={{tag="Name", id="i", lineno=18, col_offset=35}, {tag="BinOp", left={tag="BinOp", left={tag="Name", id="j", lineno=18, col_offset=39}, op="Add", right={tag="Constant", value=1, lineno=18, col_offset=43}, lineno=18, col_offset=39}, op="Mod", right={tag="Name", id="N", lineno=18, col_offset=48}, lineno=18, col_offset=38}}, lineno=18, col_offset=35}, lineno=18, col_offset=29}, lineno=18, col_offset=12}, {tag="Assign", targets={{tag="Name", id="neighbor_down", lineno=19, col_offset=12}}, value={tag="Subscript", value={tag="Name", id="spins", lineno=19, col_offset=28}, slice={tag="Tuple", elts={{tag="BinOp", left={tag="BinOp", left={tag="Name", id="i", lineno=19, col_offset=35}, op="Add", right={tag="Constant", value=1, lineno=19, col_offset=39}, lineno=19, col_offset=35}, op="Mod", right={tag="Name", id="N", lineno=19, col_offset=44}, lineno=19, col_offset=34}, {tag="Name", id="j", lineno=19, col_offset=47}}, lineno=19, col_offset=34}, lineno=19, col_offset=28}, lineno=19, col_offset=12}, {tag="AugAssign", target={tag="Name", id="energy", lineno=20, col_offset=12}, op="Sub", value={tag="BinOp", left={tag="BinOp", left={tag="Name", id="J", lineno=20, col_offset=22}, op="Mult", right={tag="Name", id="s", lineno=20, col_offset=26}, lineno=20, col_offset=22}, op="Mult", right={tag="BinOp", left={tag="Name", id="neighbor_right", lineno=20, col_offset=31}, op="Add", right={tag="Name", id="neighbor_down", lineno=20, col_offset=48}, lineno=20, col_offset=31}, lineno=20, col_offset=22}, lineno=20, col_offset=12}}, orelse={}, lineno=15, col_offset=8}}, orelse={}, lineno=14, col_offset=4}, {tag="Return", value={tag="Name", id="energy", lineno=21, col_offset=11}, lineno=21, col_offset=4}}, decorator_list={{tag="Call", func={tag="Attribute", value={tag="Name", id="numba", lineno=6, col_offset=1}, attr="jit", lineno=6, col_offset=1}, args={}, keywords={{tag="keyword", arg="nopython", value={tag="Constant", value=true, lineno=6, col_offset=20}, lineno=6, col_offset=11}, {tag="keyword", arg="cache", value={tag="Constant", value=true, lineno=6, col_offset=32}, lineno=6, col_offset=26}}, lineno=6, col_offset=1}}, returns={tag="Name", id="float", lineno=7, col_offset=61}, lineno=7, col_offset=0},
      {tag="FunctionDef", name="sum_array_numba", args={tag="arguments", args={{tag="arg", arg="arr", lineno=24, col_offset=20}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="total", lineno=25, col_offset=4}}, value={tag="Constant", value=0.0, lineno=25, col_offset=12}, lineno=25, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=26, col_offset=8}, iter={tag="Call", func={tag="Name", id="range", lineno=26, col_offset=13}, args={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="arr", lineno=26, col_offset=19}, attr="shape", lineno=26, col_offset=19}, slice={tag="Constant", value=0, lineno=26, col_offset=29}, lineno=26, col_offset=19}}, keywords={}, lineno=26, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="total", lineno=27, col_offset=8}, op="Add", value={tag="Subscript", value={tag="Name", id="arr", lineno=27, col_offset=17}, slice={tag="Name", id="i", lineno=27, col_offset=21}, lineno=27, col_offset=17}, lineno=27, col_offset=8}}, orelse={}, lineno=26, col_offset=4}, {tag="Return", value={tag="Name", id="total", lineno=28, col_offset=11}, lineno=28, col_offset=4}}, decorator_list={{tag="Name", id="jit", lineno=23, col_offset=1}}, lineno=24, col_offset=0},
      {tag="FunctionDef", name="parallel_sum", args={tag="arguments", args={{tag="arg", arg="arr", lineno=31, col_offset=17}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="total", lineno=32, col_offset=4}}, value={tag="Constant", value=0.0, lineno=32, col_offset=12}, lineno=32, col_offset=4}, {tag="For", target={tag="Name", id="i", lineno=33, col_offset=8}, iter={tag="Call", func={tag="Name", id="prange", lineno=33, col_offset=13}, args={{tag="Subscript", value={tag="Attribute", value={tag="Name", id="arr", lineno=33, col_offset=20}, attr="shape", lineno=33, col_offset=20}, slice={tag="Constant", value=0, lineno=33, col_offset=30}, lineno=33, col_offset=20}}, keywords={}, lineno=33, col_offset=13}, body={{tag="AugAssign", target={tag="Name", id="total", lineno=34, col_offset=8}, op="Add", value={tag="Subscript", value={tag="Name", id="arr", lineno=34, col_offset=17}, slice={tag="Name", id="i", lineno=34, col_offset=21}, lineno=34, col_offset=17}, lineno=34, col_offset=8}}, orelse={}, lineno=33, col_offset=4}, {tag="Return", value={tag="Name", id="total", lineno=35, col_offset=11}, lineno=35, col_offset=4}}, decorator_list={{tag="Call", func={tag="Name", id="njit", lineno=30, col_offset=1}, args={}, keywords={{tag="keyword", arg="parallel", value={tag="Constant", value=true, lineno=30, col_offset=15}, lineno=30, col_offset=6}, {tag="keyword", arg="cache", value={tag="Constant", value=true, lineno=30, col_offset=27}, lineno=30, col_offset=21}}, lineno=30, col_offset=1}}, lineno=31, col_offset=0},
    }},
  },
  env = {
    src = [==[
def uses_env(x):
    return x * SCALE + OFFSET, FLAG, helper(x)

def callback(x):
    return pair(x)

def uses_table(i):
    return WEIGHTS[i] * 2
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="uses_env", args={tag="arguments", args={{tag="arg", arg="x", lineno=2, col_offset=13}}, defaults={}}, body={{tag="Return", value={tag="Tuple", elts={{tag="BinOp", left={tag="BinOp", left={tag="Name", id="x", lineno=3, col_offset=11}, op="Mult", right={tag="Name", id="SCALE", lineno=3, col_offset=15}, lineno=3, col_offset=11}, op="Add", right={tag="Name", id="OFFSET", lineno=3, col_offset=23}, lineno=3, col_offset=11}, {tag="Name", id="FLAG", lineno=3, col_offset=31}, {tag="Call", func={tag="Name", id="helper", lineno=3, col_offset=37}, args={{tag="Name", id="x", lineno=3, col_offset=44}}, keywords={}, lineno=3, col_offset=37}}, lineno=3, col_offset=11}, lineno=3, col_offset=4}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="callback", args={tag="arguments", args={{tag="arg", arg="x", lineno=5, col_offset=13}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Name", id="pair", lineno=6, col_offset=11}, args={{tag="Name", id="x", lineno=6, col_offset=16}}, keywords={}, lineno=6, col_offset=11}, lineno=6, col_offset=4}}, lineno=5, col_offset=0},
      {tag="FunctionDef", name="uses_table", args={tag="arguments", args={{tag="arg", arg="i", lineno=8, col_offset=15}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Subscript", value={tag="Name", id="WEIGHTS", lineno=9, col_offset=11}, slice={tag="Name", id="i", lineno=9, col_offset=19}, lineno=9, col_offset=11}, op="Mult", right={tag="Constant", value=2, lineno=9, col_offset=24}, lineno=9, col_offset=11}, lineno=9, col_offset=4}}, lineno=8, col_offset=0},
    }},
  },
  errors = {
    src = [==[
def lam(x):
    f = lambda y: y + 1
    return f(x)

def inner(x):
    def g(y):
        return y
    return g(x)

def unknown(x):
    return frobnicate(x)

def glob(x):
    global G
    return x

def fstr(x):
    raise ValueError(f"bad {x}")

def matmul(a, b):
    return a @ b

def starargs(*a):
    return 1

def ok(x):
    return x + 1

def bad_kw(x):
    return ok(x, y=2)

def bad_method(a):
    return a.frobnicate()

def range_value():
    r = range(3)
    return 1

def tuple_assign(t):
    t[0] = 1
]==],
    ast = {tag="Module", body={
      {tag="FunctionDef", name="lam", args={tag="arguments", args={{tag="arg", arg="x", lineno=2, col_offset=8}}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="f", lineno=3, col_offset=4}}, value={tag="Lambda", args={tag="arguments", args={{tag="arg", arg="y", lineno=3, col_offset=15}}, defaults={}}, body={tag="BinOp", left={tag="Name", id="y", lineno=3, col_offset=18}, op="Add", right={tag="Constant", value=1, lineno=3, col_offset=22}, lineno=3, col_offset=18}, lineno=3, col_offset=8}, lineno=3, col_offset=4}, {tag="Return", value={tag="Call", func={tag="Name", id="f", lineno=4, col_offset=11}, args={{tag="Name", id="x", lineno=4, col_offset=13}}, keywords={}, lineno=4, col_offset=11}, lineno=4, col_offset=4}}, lineno=2, col_offset=0},
      {tag="FunctionDef", name="inner", args={tag="arguments", args={{tag="arg", arg="x", lineno=6, col_offset=10}}, defaults={}}, body={{tag="FunctionDef", name="g", args={tag="arguments", args={{tag="arg", arg="y", lineno=7, col_offset=10}}, defaults={}}, body={{tag="Return", value={tag="Name", id="y", lineno=8, col_offset=15}, lineno=8, col_offset=8}}, lineno=7, col_offset=4}, {tag="Return", value={tag="Call", func={tag="Name", id="g", lineno=9, col_offset=11}, args={{tag="Name", id="x", lineno=9, col_offset=13}}, keywords={}, lineno=9, col_offset=11}, lineno=9, col_offset=4}}, lineno=6, col_offset=0},
      {tag="FunctionDef", name="unknown", args={tag="arguments", args={{tag="arg", arg="x", lineno=11, col_offset=12}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Name", id="frobnicate", lineno=12, col_offset=11}, args={{tag="Name", id="x", lineno=12, col_offset=22}}, keywords={}, lineno=12, col_offset=11}, lineno=12, col_offset=4}}, lineno=11, col_offset=0},
      {tag="FunctionDef", name="glob", args={tag="arguments", args={{tag="arg", arg="x", lineno=14, col_offset=9}}, defaults={}}, body={{tag="Global", names={"G"}, lineno=15, col_offset=4}, {tag="Return", value={tag="Name", id="x", lineno=16, col_offset=11}, lineno=16, col_offset=4}}, lineno=14, col_offset=0},
      {tag="FunctionDef", name="fstr", args={tag="arguments", args={{tag="arg", arg="x", lineno=18, col_offset=9}}, defaults={}}, body={{tag="Raise", exc={tag="Call", func={tag="Name", id="ValueError", lineno=19, col_offset=10}, args={{tag="JoinedStr", values={{tag="Constant", value="bad ", lineno=19, col_offset=21}, {tag="FormattedValue", value={tag="Name", id="x", lineno=19, col_offset=28}, conversion=-1, lineno=19, col_offset=21}}, lineno=19, col_offset=21}}, keywords={}, lineno=19, col_offset=10}, lineno=19, col_offset=4}}, lineno=18, col_offset=0},
      {tag="FunctionDef", name="matmul", args={tag="arguments", args={{tag="arg", arg="a", lineno=21, col_offset=11}, {tag="arg", arg="b", lineno=21, col_offset=14}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="a", lineno=22, col_offset=11}, op="MatMult", right={tag="Name", id="b", lineno=22, col_offset=15}, lineno=22, col_offset=11}, lineno=22, col_offset=4}}, lineno=21, col_offset=0},
      {tag="FunctionDef", name="starargs", args={tag="arguments", args={}, vararg={tag="arg", arg="a", lineno=24, col_offset=14}, defaults={}}, body={{tag="Return", value={tag="Constant", value=1, lineno=25, col_offset=11}, lineno=25, col_offset=4}}, lineno=24, col_offset=0},
      {tag="FunctionDef", name="ok", args={tag="arguments", args={{tag="arg", arg="x", lineno=27, col_offset=7}}, defaults={}}, body={{tag="Return", value={tag="BinOp", left={tag="Name", id="x", lineno=28, col_offset=11}, op="Add", right={tag="Constant", value=1, lineno=28, col_offset=15}, lineno=28, col_offset=11}, lineno=28, col_offset=4}}, lineno=27, col_offset=0},
      {tag="FunctionDef", name="bad_kw", args={tag="arguments", args={{tag="arg", arg="x", lineno=30, col_offset=11}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Name", id="ok", lineno=31, col_offset=11}, args={{tag="Name", id="x", lineno=31, col_offset=14}}, keywords={{tag="keyword", arg="y", value={tag="Constant", value=2, lineno=31, col_offset=19}, lineno=31, col_offset=17}}, lineno=31, col_offset=11}, lineno=31, col_offset=4}}, lineno=30, col_offset=0},
      {tag="FunctionDef", name="bad_method", args={tag="arguments", args={{tag="arg", arg="a", lineno=33, col_offset=15}}, defaults={}}, body={{tag="Return", value={tag="Call", func={tag="Attribute", value={tag="Name", id="a", lineno=34, col_offset=11}, attr="frobnicate", lineno=34, col_offset=11}, args={}, keywords={}, lineno=34, col_offset=11}, lineno=34, col_offset=4}}, lineno=33, col_offset=0},
      {tag="FunctionDef", name="range_value", args={tag="arguments", args={}, defaults={}}, body={{tag="Assign", targets={{tag="Name", id="r", lineno=37, col_offset=4}}, value={tag="Call", func={tag="Name", id="range", lineno=37, col_offset=8}, args={{tag="Constant", value=3, lineno=37, col_offset=14}}, keywords={}, lineno=37, col_offset=8}, lineno=37, col_offset=4}, {tag="Return", value={tag="Constant", value=1, lineno=38, col_offset=11}, lineno=38, col_offset=4}}, lineno=36, col_offset=0},
      {tag="FunctionDef", name="tuple_assign", args={tag="arguments", args={{tag="arg", arg="t", lineno=40, col_offset=17}}, defaults={}}, body={{tag="Assign", targets={{tag="Subscript", value={tag="Name", id="t", lineno=41, col_offset=4}, slice={tag="Constant", value=0, lineno=41, col_offset=6}, lineno=41, col_offset=4}}, value={tag="Constant", value=1, lineno=41, col_offset=11}, lineno=41, col_offset=4}}, lineno=40, col_offset=0},
    }},
  },
}
