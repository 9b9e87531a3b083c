-- Errors of lumba.parse: every kind with its whole message, position and
-- caret line; after each, the same Lua state still parses.
local lumba = require "lumba"
local H = require "helpers"

-- it(): parsing src raises exactly msg, then the state still works
local function check(src, msg)
  it((src:gsub("\n", "\\n"):sub(1, 60)), function()
    assert.are.equal(msg, H.error_of(lumba.parse, src))
    assert.are.equal("y", lumba.parse("y = 1\n").body[1].targets[1].id)
  end)
end

describe("lumba.parse errors", function()
  describe("lexical errors", function()
    check("x = $\n",
          "<string>:1:5: SyntaxError: invalid character '$'\n" ..
          "    x = $\n" ..
          "        ^")
    check("a = !b\n",
          "<string>:1:5: SyntaxError: invalid character '!' (use 'not' for negation)\n" ..
          "    a = !b\n" ..
          "        ^")
    check("x = 1\0 + 2\n",
          "<string>:1:6: SyntaxError: source code cannot contain null bytes\n" ..
          "    x = 1\n" ..
          "         ^")
    check("x = 'abc\n",
          "<string>:1:5: SyntaxError: unterminated string literal (detected at line 1)\n" ..
          "    x = 'abc\n" ..
          "        ^")
    check("x = \"\"\"ab\nc\n",
          "<string>:1:5: SyntaxError: unterminated triple-quoted string literal (detected at line 3)\n" ..
          "    x = \"\"\"ab\n" ..
          "        ^")
    check("x = '\\x4'\n",
          "<string>:1:5: SyntaxError: truncated \\xXX escape\n" ..
          "    x = '\\x4'\n" ..
          "        ^")
    check("x = '\\U00110000'\n",
          "<string>:1:5: SyntaxError: illegal Unicode character\n" ..
          "    x = '\\U00110000'\n" ..
          "        ^")
    check("007\n",
          "<string>:1:1: SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers\n" ..
          "    007\n" ..
          "    ^")
    check("x = 0b102\n",
          "<string>:1:9: SyntaxError: invalid digit '2' in binary literal\n" ..
          "    x = 0b102\n" ..
          "            ^")
    check("x = 0o8\n",
          "<string>:1:7: SyntaxError: invalid digit '8' in octal literal\n" ..
          "    x = 0o8\n" ..
          "          ^")
    check("x = 1__0\n",
          "<string>:1:5: SyntaxError: invalid decimal literal\n" ..
          "    x = 1__0\n" ..
          "        ^")
    check("x = 1_\n",
          "<string>:1:5: SyntaxError: invalid decimal literal\n" ..
          "    x = 1_\n" ..
          "        ^")
    check("x = 0x\n",
          "<string>:1:5: SyntaxError: invalid hexadecimal literal\n" ..
          "    x = 0x\n" ..
          "        ^")
    check("x = 1abc\n",
          "<string>:1:5: SyntaxError: invalid decimal literal\n" ..
          "    x = 1abc\n" ..
          "        ^")
    check("x = 9223372036854775808\n",
          "<string>:1:5: SyntaxError: integer literal too large for int64\n" ..
          "    x = 9223372036854775808\n" ..
          "        ^")
    check("x = 0x8000000000000000\n",
          "<string>:1:5: SyntaxError: integer literal too large for int64\n" ..
          "    x = 0x8000000000000000\n" ..
          "        ^")
    check("x = 1 \\ 2\n",
          "<string>:1:7: SyntaxError: unexpected character after line continuation character\n" ..
          "    x = 1 \\ 2\n" ..
          "          ^")
    check("x = \\",
          "<string>:1:5: SyntaxError: unexpected end of input after '\\'\n" ..
          "    x = \\\n" ..
          "        ^")
    check("f(a, [1,\n",
          "<string>:1:6: SyntaxError: '[' was never closed\n" ..
          "    f(a, [1,\n" ..
          "         ^")
    check("x = ]\n",
          "<string>:1:5: SyntaxError: unmatched ']'\n" ..
          "    x = ]\n" ..
          "        ^")
    check("x = (1]\n",
          "<string>:1:7: SyntaxError: closing parenthesis ']' does not match opening parenthesis '('\n" ..
          "    x = (1]\n" ..
          "          ^")
    check("x = (1,\n     2]\n",
          "<string>:2:7: SyntaxError: closing parenthesis ']' does not match opening parenthesis '(' on line 1\n" ..
          "         2]\n" ..
          "          ^")
    check("if x:\n    a = 1\n  b = 2\n",
          "<string>:3:3: SyntaxError: unindent does not match any outer indentation level\n" ..
          "      b = 2\n" ..
          "      ^")
    check("if x:\n\ty = 1\n        z = 2\n",
          "<string>:3:9: SyntaxError: inconsistent use of tabs and spaces in indentation\n" ..
          "            z = 2\n" ..
          "            ^")
  end)
  describe("syntax errors", function()
    check("def f(x)\n    return x\n",
          "<string>:1:9: SyntaxError: expected ':'\n" ..
          "    def f(x)\n" ..
          "            ^")
    check("def f(x) -> float\n    return x\n",
          "<string>:1:18: SyntaxError: expected ':'\n" ..
          "    def f(x) -> float\n" ..
          "                     ^")
    check("for i range(3):\n    pass\n",
          "<string>:1:7: SyntaxError: expected 'in', found 'range'\n" ..
          "    for i range(3):\n" ..
          "          ^")
    check("x = (1 2)\n",
          "<string>:1:8: SyntaxError: expected ')', found '2'\n" ..
          "    x = (1 2)\n" ..
          "           ^")
    check("x = 1 2\n",
          "<string>:1:7: SyntaxError: expected end of line, found '2'\n" ..
          "    x = 1 2\n" ..
          "          ^")
    check("x = 1 +\n",
          "<string>:1:8: SyntaxError: expected an expression\n" ..
          "    x = 1 +\n" ..
          "           ^")
    check("if x:\npass\n",
          "<string>:2:1: SyntaxError: expected an indented block after 'if' statement on line 1\n" ..
          "    pass\n" ..
          "    ^")
    check("def f():\nreturn 1\n",
          "<string>:2:1: SyntaxError: expected an indented block after function definition on line 1\n" ..
          "    return 1\n" ..
          "    ^")
    check("for i in x:\n    pass\nelse:\npass\n",
          "<string>:4:1: SyntaxError: expected an indented block after 'else' statement on line 3\n" ..
          "    pass\n" ..
          "    ^")
    check("x = 1\n  y = 2\n",
          "<string>:2:3: SyntaxError: unexpected indent\n" ..
          "      y = 2\n" ..
          "      ^")
    check("@njit\n    def f(): pass\n",
          "<string>:2:5: SyntaxError: unexpected indent\n" ..
          "        def f(): pass\n" ..
          "        ^")
    check("else:\n    pass\n",
          "<string>:1:1: SyntaxError: expected a statement, found 'else'\n" ..
          "    else:\n" ..
          "    ^")
    check("a not b\n",
          "<string>:1:7: SyntaxError: expected 'in' after 'not', found 'b'\n" ..
          "    a not b\n" ..
          "          ^")
    check("x = a.1\n",
          "<string>:1:6: SyntaxError: expected end of line, found '.1'\n" ..
          "    x = a.1\n" ..
          "         ^")
    check("import\n",
          "<string>:1:7: SyntaxError: expected a module name\n" ..
          "    import\n" ..
          "          ^")
    check("from numba import\n",
          "<string>:1:18: SyntaxError: expected a name to import\n" ..
          "    from numba import\n" ..
          "                     ^")
    check("from x import a,\n",
          "<string>:1:16: SyntaxError: trailing comma not allowed without surrounding parentheses\n" ..
          "    from x import a,\n" ..
          "                   ^")
    check("f(a=1, b)\n",
          "<string>:1:8: SyntaxError: positional argument follows keyword argument\n" ..
          "    f(a=1, b)\n" ..
          "           ^")
    check("f(x+1=2)\n",
          "<string>:1:3: SyntaxError: expression cannot contain assignment, perhaps you meant \"==\"?\n" ..
          "    f(x+1=2)\n" ..
          "      ^")
    check("f(a=1, a=2)\n",
          "<string>:1:8: SyntaxError: keyword argument repeated: a\n" ..
          "    f(a=1, a=2)\n" ..
          "           ^")
    check("def f(a=1, b): pass\n",
          "<string>:1:12: SyntaxError: non-default argument follows default argument\n" ..
          "    def f(a=1, b): pass\n" ..
          "               ^")
    check("def f(a, a): pass\n",
          "<string>:1:10: SyntaxError: duplicate argument 'a' in function definition\n" ..
          "    def f(a, a): pass\n" ..
          "             ^")
    check("def (x): pass\n",
          "<string>:1:5: SyntaxError: expected a function name, found '('\n" ..
          "    def (x): pass\n" ..
          "        ^")
    check("@njit def f(): pass\n",
          "<string>:1:7: SyntaxError: expected end of line after the decorator, found 'def'\n" ..
          "    @njit def f(): pass\n" ..
          "          ^")
    check("1 + 2 = 3\n",
          "<string>:1:1: SyntaxError: cannot assign to expression\n" ..
          "    1 + 2 = 3\n" ..
          "    ^")
    check("f() = 1\n",
          "<string>:1:1: SyntaxError: cannot assign to function call\n" ..
          "    f() = 1\n" ..
          "    ^")
    check("None = 1\n",
          "<string>:1:1: SyntaxError: cannot assign to None\n" ..
          "    None = 1\n" ..
          "    ^")
    check("x, 1 = a\n",
          "<string>:1:4: SyntaxError: cannot assign to literal\n" ..
          "    x, 1 = a\n" ..
          "       ^")
    check("a < b = c\n",
          "<string>:1:1: SyntaxError: cannot assign to comparison\n" ..
          "    a < b = c\n" ..
          "    ^")
    check("(a if b else c) = 1\n",
          "<string>:1:2: SyntaxError: cannot assign to conditional expression\n" ..
          "    (a if b else c) = 1\n" ..
          "     ^")
    check("for f(x) in y: pass\n",
          "<string>:1:5: SyntaxError: cannot assign to function call\n" ..
          "    for f(x) in y: pass\n" ..
          "        ^")
    check("a, b += 1\n",
          "<string>:1:1: SyntaxError: 'tuple' is an illegal expression for augmented assignment\n" ..
          "    a, b += 1\n" ..
          "    ^")
    check("f() += 1\n",
          "<string>:1:1: SyntaxError: 'function call' is an illegal expression for augmented assignment\n" ..
          "    f() += 1\n" ..
          "    ^")
    check("(a, b): int = 1\n",
          "<string>:1:1: SyntaxError: only single target (not tuple) can be annotated\n" ..
          "    (a, b): int = 1\n" ..
          "    ^")
    check("a + b: int\n",
          "<string>:1:1: SyntaxError: illegal target for annotation\n" ..
          "    a + b: int\n" ..
          "    ^")
    check("return 1\n",
          "<string>:1:1: SyntaxError: 'return' outside function\n" ..
          "    return 1\n" ..
          "    ^")
    check("break\n",
          "<string>:1:1: SyntaxError: 'break' outside loop\n" ..
          "    break\n" ..
          "    ^")
    check("def f():\n    continue\n",
          "<string>:2:5: SyntaxError: 'continue' not properly in loop\n" ..
          "        continue\n" ..
          "        ^")
    check("while x:\n    def_ = 1\nelse:\n    break\n",
          "<string>:4:5: SyntaxError: 'break' outside loop\n" ..
          "        break\n" ..
          "        ^")
  end)
  describe("unsupported Python", function()
    check("class A:\n    pass\n",
          "<string>:1:1: UnsupportedError: 'class' definitions are not supported in compiled code\n" ..
          "    class A:\n" ..
          "    ^")
    check("try:\n    pass\nexcept Exception:\n    pass\n",
          "<string>:1:1: UnsupportedError: 'try' statements are not supported in compiled code\n" ..
          "    try:\n" ..
          "    ^")
    check("def f(path):\n    with open(path) as f:\n        pass\n",
          "<string>:2:5: UnsupportedError: 'with' statements are not supported in compiled code\n" ..
          "        with open(path) as f:\n" ..
          "        ^")
    check("f = lambda x: x\n",
          "<string>:1:5: UnsupportedError: lambda expressions are not supported in compiled code\n" ..
          "    f = lambda x: x\n" ..
          "        ^")
    check("def f():\n    yield 1\n",
          "<string>:2:5: UnsupportedError: generators ('yield') are not supported in compiled code\n" ..
          "        yield 1\n" ..
          "        ^")
    check("async def f():\n    pass\n",
          "<string>:1:1: UnsupportedError: 'async' functions are not supported in compiled code\n" ..
          "    async def f():\n" ..
          "    ^")
    check("def f():\n    global x\n",
          "<string>:2:5: UnsupportedError: 'global' statements are not supported in compiled code\n" ..
          "        global x\n" ..
          "        ^")
    check("def f():\n    nonlocal x\n",
          "<string>:2:5: UnsupportedError: 'nonlocal' statements are not supported in compiled code\n" ..
          "        nonlocal x\n" ..
          "        ^")
    check("del x\n",
          "<string>:1:1: UnsupportedError: 'del' statements are not supported in compiled code\n" ..
          "    del x\n" ..
          "    ^")
    check("y = [x for x in a]\n",
          "<string>:1:5: UnsupportedError: list comprehensions are not supported in compiled code\n" ..
          "    y = [x for x in a]\n" ..
          "        ^")
    check("y = sum(x for x in a)\n",
          "<string>:1:9: UnsupportedError: generator expressions are not supported in compiled code\n" ..
          "    y = sum(x for x in a)\n" ..
          "            ^")
    check("d = {}\n",
          "<string>:1:5: UnsupportedError: dict displays are not supported in compiled code\n" ..
          "    d = {}\n" ..
          "        ^")
    check("d = {'a': 1}\n",
          "<string>:1:5: UnsupportedError: dict displays are not supported in compiled code\n" ..
          "    d = {'a': 1}\n" ..
          "        ^")
    check("s = {1, 2}\n",
          "<string>:1:5: UnsupportedError: set displays are not supported in compiled code\n" ..
          "    s = {1, 2}\n" ..
          "        ^")
    check("s = {x for x in a}\n",
          "<string>:1:5: UnsupportedError: set comprehensions are not supported in compiled code\n" ..
          "    s = {x for x in a}\n" ..
          "        ^")
    check("m = f'{x}'\n",
          "<string>:1:5: UnsupportedError: f-strings are not supported in compiled code\n" ..
          "    m = f'{x}'\n" ..
          "        ^")
    check("b = b'x'\n",
          "<string>:1:5: UnsupportedError: bytes literals are not supported in compiled code\n" ..
          "    b = b'x'\n" ..
          "        ^")
    check("if (n := len(a)) > 0:\n    pass\n",
          "<string>:1:5: UnsupportedError: assignment expressions (':=') are not supported in compiled code\n" ..
          "    if (n := len(a)) > 0:\n" ..
          "        ^")
    check("f(*args)\n",
          "<string>:1:3: UnsupportedError: starred arguments ('*args') are not supported in compiled code\n" ..
          "    f(*args)\n" ..
          "      ^")
    check("f(**kwargs)\n",
          "<string>:1:3: UnsupportedError: '**kwargs' arguments are not supported in compiled code\n" ..
          "    f(**kwargs)\n" ..
          "      ^")
    check("a, *b = c\n",
          "<string>:1:4: UnsupportedError: starred expressions ('*') are not supported in compiled code\n" ..
          "    a, *b = c\n" ..
          "       ^")
    check("def f(*args): pass\n",
          "<string>:1:7: UnsupportedError: '*args' parameters are not supported in compiled code\n" ..
          "    def f(*args): pass\n" ..
          "          ^")
    check("def f(**kwargs): pass\n",
          "<string>:1:7: UnsupportedError: '**kwargs' parameters are not supported in compiled code\n" ..
          "    def f(**kwargs): pass\n" ..
          "          ^")
    check("def f(a, *, b): pass\n",
          "<string>:1:10: UnsupportedError: keyword-only parameters are not supported in compiled code\n" ..
          "    def f(a, *, b): pass\n" ..
          "             ^")
    check("def f(a, /, b): pass\n",
          "<string>:1:10: UnsupportedError: positional-only parameters ('/') are not supported in compiled code\n" ..
          "    def f(a, /, b): pass\n" ..
          "             ^")
    check("@njit\nx = 1\n",
          "<string>:2:1: UnsupportedError: decorators on anything but 'def' are not supported in compiled code\n" ..
          "    x = 1\n" ..
          "    ^")
    check("@dataclass\nclass A:\n    pass\n",
          "<string>:2:1: UnsupportedError: 'class' definitions are not supported in compiled code\n" ..
          "    class A:\n" ..
          "    ^")
    check("def f():\n    def g():\n        pass\n",
          "<string>:2:5: UnsupportedError: nested functions are not supported in compiled code\n" ..
          "        def g():\n" ..
          "        ^")
    check("x = ...\n",
          "<string>:1:5: UnsupportedError: Ellipsis literals ('...') are not supported in compiled code\n" ..
          "    x = ...\n" ..
          "        ^")
    check("from . import x\n",
          "<string>:1:6: UnsupportedError: relative imports are not supported in compiled code\n" ..
          "    from . import x\n" ..
          "         ^")
    check("from numpy import *\n",
          "<string>:1:19: UnsupportedError: wildcard imports ('import *') are not supported in compiled code\n" ..
          "    from numpy import *\n" ..
          "                      ^")
    check("raise ValueError('x') from e\n",
          "<string>:1:23: UnsupportedError: 'raise ... from' clauses are not supported in compiled code\n" ..
          "    raise ValueError('x') from e\n" ..
          "                          ^")
    check("s = '\\N{EM DASH}'\n",
          "<string>:1:5: UnsupportedError: '\\N{...}' escapes are not supported in compiled code\n" ..
          "    s = '\\N{EM DASH}'\n" ..
          "        ^")
  end)

  describe("nesting limit", function()
    check("x = " .. ("("):rep(201) .. "1" .. (")"):rep(201) .. "\n",
          "<string>:1:205: SyntaxError: too deeply nested\n" ..
          "    x = " .. ("("):rep(201) .. "1" .. (")"):rep(201) .. "\n" ..
          "    " .. (" "):rep(204) .. "^")
    check("x = " .. ("-"):rep(300) .. "1\n",
          "<string>:1:205: SyntaxError: too deeply nested\n" ..
          "    x = " .. ("-"):rep(300) .. "1\n" ..
          "    " .. (" "):rep(204) .. "^")
    -- a sum of 202 terms is a tree 201 high
    check("x = 1" .. (" + 1"):rep(201) .. "\n",
          "<string>:1:807: SyntaxError: too deeply nested\n" ..
          "    x = 1" .. (" + 1"):rep(201) .. "\n" ..
          "    " .. (" "):rep(806) .. "^")
    local lines = {}
    for i = 0, 200 do lines[#lines + 1] = (" "):rep(i) .. "if x:\n" end
    lines[#lines + 1] = (" "):rep(201) .. "pass\n"
    check(table.concat(lines),
          "<string>:201:204: SyntaxError: too deeply nested\n" ..
          "    " .. (" "):rep(200) .. "if x:\n" ..
          "    " .. (" "):rep(203) .. "^")
  end)

  describe("chunk names", function()
    it("default to <string> and are taken from the second argument", function()
      assert.are.equal("ising.py:2:5: SyntaxError: unmatched ')'\n" ..
                       "    x = )\n" ..
                       "        ^",
                       H.error_of(lumba.parse, "y = 1\nx = )\n", "ising.py"))
      assert.are.equal("kernel:1:1: UnsupportedError: 'class' definitions are not supported in compiled code\n" ..
                       "    class K: pass\n" ..
                       "    ^",
                       H.error_of(lumba.parse, "class K: pass\n", "=kernel"))
    end)

    it("keep tabs in the caret line so the caret lines up", function()
      assert.are.equal("<string>:2:6: SyntaxError: unmatched ')'\n" ..
                       "    \tx = )\n" ..
                       "    \t    ^",
                       H.error_of(lumba.parse, "if a:\n\tx = )\n"))
    end)
  end)

  it("rejects a source that is not a string", function()
    -- Lua names the function after the first loaded module it finds it in
    local msg = H.error_of(lumba.parse, {})
    assert.is_truthy(msg:match("^bad argument #1 to 'lumba%.[%a.]*parse' %(string expected, got table%)$"), msg)
  end)

  it("raises errors many times in a row without leaking the state", function()
    for i = 1, 200 do
      local msg = H.error_of(lumba.parse, ("x = 1\n"):rep(i) .. "x = (\n")
      assert.are.equal("<string>:" .. (i + 1) .. ":5: SyntaxError: '(' was never closed", msg:match("^[^\n]*"))
    end
    assert.are.equal(1, #lumba.parse("def f(x):\n    return x\n").body)
  end)
end)

describe("a block holding only a continuation into comments (found by fuzz_parse)", function()
  it("is a SyntaxError, not an empty body", function()
    local lumba = require "lumba"
    local ok, err = pcall(lumba.parse, "def f(a, b):\n \\\n   # a comment\n   # another\n    \n")
    assert.is_false(ok)
    assert.are.equal("<string>:6:1: SyntaxError: expected an indented block after function definition on line 1", err)
    assert.are.equal("Module", lumba.parse("def f(a):\n    return a\n").tag)
  end)
end)
