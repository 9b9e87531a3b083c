-- The lexer as lumba.parse shows it: literal values, line structure,
-- indentation. (tests/c/test_lex.c checks the token stream itself.)
local lumba = require "lumba"

-- the value of the expression statement on the source's only line
local function value_of(src)
  return lumba.parse(src).body[1].value.value
end

describe("lexer", function()
  it("reads integer literals in every base, with underscores", function()
    local cases = {
      {"0", 0}, {"00", 0}, {"0_0", 0}, {"42", 42}, {"1_000_000", 1000000},
      {"0x_ff", 255}, {"0XFF", 255}, {"0o17", 15}, {"0O7_7", 63}, {"0b101", 5},
      {"0B1_0", 2}, {"9223372036854775807", math.maxinteger},
      {"0x7fffffffffffffff", math.maxinteger},
    }
    for _, c in ipairs(cases) do
      local v = value_of(c[1])
      assert.are.equal("integer", math.type(v), c[1])
      assert.are.equal(c[2], v, c[1])
    end
  end)

  it("reads float literals as Python does", function()
    local cases = {
      {"1.", 1.0}, {".5", 0.5}, {"1e-9", 1e-9}, {"1_000.5", 1000.5}, {"2.5E+3", 2500.0},
      {"0.0", 0.0}, {"1e10", 1e10}, {"07.5", 7.5}, {"1_0e1_0", 1e11}, {"3.141592653589793", math.pi},
      {"1e400", math.huge},
    }
    for _, c in ipairs(cases) do
      local v = value_of(c[1])
      assert.are.equal("float", math.type(v), c[1])
      assert.are.equal(c[2], v, c[1])
    end
  end)

  it("keeps a negative literal as USub applied to a constant", function()
    local e = lumba.parse("-1.5\n").body[1].value
    assert.are.same({"UnaryOp", "USub", 1.5}, {e.tag, e.op, e.operand.value})
  end)

  it("decodes string escapes, raw strings and triple-quoted strings", function()
    assert.are.equal("a\tb\nc\\d'e\"f", value_of([['a\tb\nc\\d\'e"f']]))
    assert.are.equal("AAA\0", value_of([["\x41\101\u0041\0"]]))
    assert.are.equal("\u{e9}\u{20ac}\u{1f600}", value_of([['\xe9\u20ac\U0001F600']]))
    assert.are.equal("\a\b\f\v\r", value_of([['\a\b\f\v\r']]))
    assert.are.equal("\\d\\q", value_of([['\d\q']]))  -- unknown escapes keep the backslash
    assert.are.equal("\\n\\t", value_of([[r'\n\t']]))
    assert.are.equal("\\'", value_of([[R'\'']]))
    assert.are.equal("line1\n  line2\n", value_of('"""line1\n  line2\n"""'))
    assert.are.equal("it's", value_of([["it's"]]))
    assert.are.equal("ab", value_of("'a\\\nb'"))  -- backslash-newline joins
    assert.are.equal("héllo", value_of("u'héllo'"))
    assert.are.equal("", value_of("''"))
  end)

  it("joins adjacent string literals into one constant", function()
    local e = lumba.parse("x = ('a' \"b\"\n     '''c''')\n").body[1].value
    assert.are.same({"Constant", "abc", 1, 5}, {e.tag, e.value, e.lineno, e.col_offset})
  end)

  it("joins lines inside brackets and after a backslash", function()
    local m = lumba.parse("x = f(1,\n\n      2) + \\\n    [3,\n# comment\n 4][0]\ny = 1\n")
    assert.are.equal(2, #m.body)
    assert.are.same({"y", 7}, {m.body[2].targets[1].id, m.body[2].lineno})
  end)

  it("ignores comments, blank lines and whitespace-only lines", function()
    local m = lumba.parse("# head\n\ndef f():  # trailing\n\n    # inside\n    \n\t\n    return 1\n# end")
    assert.are.equal(1, #m.body)
    assert.are.equal(1, #m.body[1].body)
    assert.are.equal(8, m.body[1].body[1].lineno)
  end)

  it("accepts CRLF line ends, a byte order mark and a missing final newline", function()
    local m = lumba.parse("\xEF\xBB\xBFif a:\r\n    x = 1\r\nelse:\r\n    x = '''p\r\nq'''")
    assert.are.equal(1, #m.body)
    assert.are.equal("p\nq", m.body[1].orelse[1].value.value)
    assert.are.same({4, 4}, {m.body[1].orelse[1].lineno, m.body[1].orelse[1].col_offset})
  end)

  it("measures indentation with tabs to multiples of 8, columns in bytes", function()
    local m = lumba.parse("if a:\n\tif b:\n\t\tx = 1\n\ty = 2\nz = 3\n")
    local outer = m.body[1]
    assert.are.equal("x", outer.body[1].body[1].targets[1].id)
    assert.are.same({3, 2}, {outer.body[1].body[1].lineno, outer.body[1].body[1].col_offset})
    assert.are.equal("y", outer.body[2].targets[1].id)
    assert.are.equal("z", m.body[2].targets[1].id)
  end)

  it("reads identifiers with digits, underscores and UTF-8 letters", function()
    local m = lumba.parse("_x1 = énergie + a_B2\n")
    assert.are.equal("_x1", m.body[1].targets[1].id)
    assert.are.equal("énergie", m.body[1].value.left.id)
    assert.are.equal("a_B2", m.body[1].value.right.id)
  end)

  it("tells operators apart by the longest match", function()
    local m = lumba.parse("a **= b ** c // d\ne //= f << g <= h\ndef f() -> int: pass\n")
    assert.are.same({"AugAssign", "Pow"}, {m.body[1].tag, m.body[1].op})
    assert.are.same({"BinOp", "FloorDiv"}, {m.body[1].value.tag, m.body[1].value.op})
    assert.are.same({"AugAssign", "FloorDiv"}, {m.body[2].tag, m.body[2].op})
    assert.are.same({"LtE"}, m.body[2].value.ops)
    assert.are.equal("int", m.body[3].returns.id)
  end)
end)
