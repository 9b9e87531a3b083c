-- Reading the Lua-table AST (njit(ast_table)'s input) back into the C tree,
-- through the test hook lumba._ast_roundtrip(table) -> table.
local lumba = require "lumba"
local H = require "helpers"
local roundtrip = lumba._ast_roundtrip

local function Name(id) return {tag = "Name", id = id} end
local function module(stmt) return {tag = "Module", body = {stmt}} end
-- an expression statement at line 3, column 4 holding e
local function expr(e)
  return module({tag = "Expr", value = e, lineno = 3, col_offset = 4})
end

describe("Lua-table AST input", function()
  it("accepts hand-written tables, filling in empty lists and inherited positions", function()
    local t = roundtrip({tag = "FunctionDef", name = "f", lineno = 2, col_offset = 0,
                         args = {args = {{tag = "arg", arg = "x"}}},
                         body = {{tag = "Return", value = {tag = "BinOp", op = "Mult",
                                 left = Name "x", right = {tag = "Constant", value = 2.0}}}}})
    assert.are.same({tag = "Module", body = {{
      tag = "FunctionDef", name = "f", lineno = 2, col_offset = 0, decorator_list = {},
      args = {tag = "arguments", args = {{tag = "arg", arg = "x", lineno = 2, col_offset = 0}},
              defaults = {}},
      body = {{tag = "Return", lineno = 2, col_offset = 0,
               value = {tag = "BinOp", op = "Mult", lineno = 2, col_offset = 0,
                        left = {tag = "Name", id = "x", lineno = 2, col_offset = 0},
                        right = {tag = "Constant", value = 2.0, lineno = 2, col_offset = 0}}}},
    }}}, t)
    assert.are.equal("float", math.type(t.body[1].body[1].value.right.value))
  end)

  it("ignores fields it does not know (Python's ctx, end_lineno) and metatables", function()
    local name = setmetatable({tag = "Name", id = "a", ctx = "Load", end_lineno = 1},
                              {__index = function() error("metamethod ran") end})
    local t = roundtrip(module({tag = "Expr", value = name}))
    assert.are.same({tag = "Name", id = "a"}, t.body[1].value)
  end)

  it("keeps every constant type: None, integer, float, boolean, string with NULs", function()
    local t = roundtrip(expr({tag = "Tuple", elts = {
      {tag = "Constant"}, {tag = "Constant", value = math.mininteger},
      {tag = "Constant", value = -0.5}, {tag = "Constant", value = false},
      {tag = "Constant", value = "a\0b"}}}))
    local e = t.body[1].value.elts
    assert.is_nil(e[1].value)
    assert.are.equal(math.mininteger, e[2].value)
    assert.are.equal(-0.5, e[3].value)
    assert.are.equal(false, e[4].value)
    assert.are.equal("a\0b", e[5].value)
  end)

  local function check(what, tbl, msg)
    it(what, function()
      assert.are.equal(msg, H.error_of(roundtrip, tbl))
      assert.are.equal("Pass", roundtrip(module({tag = "Pass"})).body[1].tag)
    end)
  end

  describe("rejects malformed tables, naming the node and field", function()
    check("not a table", 42, "ast: expected a Module or FunctionDef table, got number")
    check("a table without a tag", {}, "ast: expected a Module or FunctionDef table, got a table without a tag")
    check("an unknown tag at the top", {tag = "Foo"}, "ast: unknown node tag 'Foo'")
    check("an expression at the top", {tag = "BinOp"}, "ast: expected a Module or FunctionDef table, got BinOp")
    check("a number for a node", expr({tag = "BinOp", left = 1, op = "Add", right = Name "b"}),
          "ast: BinOp.left at line 3, col_offset 4: expected a node table, got number")
    check("a missing field", expr({tag = "BinOp", op = "Add", right = Name "b", lineno = 7, col_offset = 1}),
          "ast: BinOp.left at line 7, col_offset 1: expected a node table, got nil")
    check("an unknown tag", module({tag = "Foo"}), "ast: Module.body[1]: unknown node tag 'Foo'")
    check("a tag that is not a string", module({tag = 5}), "ast: Module.body[1]: tag must be a string, got number")
    check("an unknown operator", expr({tag = "BinOp", left = Name "a", op = "Addd", right = Name "b"}),
          "ast: BinOp.op at line 3, col_offset 4: unknown operator 'Addd'")
    check("an operator of the wrong family", expr({tag = "BinOp", left = Name "a", op = "Not", right = Name "b"}),
          "ast: BinOp.op at line 3, col_offset 4: 'Not' is not a binary operator")
    check("a number for an operator", expr({tag = "UnaryOp", op = 1, operand = Name "b"}),
          "ast: UnaryOp.op at line 3, col_offset 4: expected an operator name, got number")
    check("an expression where a statement belongs", module(Name "x"),
          "ast: Module.body[1]: expected a statement, got Name")
    check("a statement where an expression belongs", expr({tag = "UnaryOp", op = "USub", operand = {tag = "Pass"}}),
          "ast: UnaryOp.operand at line 3, col_offset 4: expected an expression, got Pass")
    check("a number for a name", expr({tag = "Name", id = 5}),
          "ast: Name.id at line 3, col_offset 4: expected a string, got number")
    check("a name that is no identifier", expr({tag = "Name", id = "a b"}),
          "ast: Name.id at line 3, col_offset 4: 'a b' is not a valid identifier")
    check("a table as a constant", expr({tag = "Constant", value = {}}),
          "ast: Constant.value at line 3, col_offset 4: expected nil, a number, a boolean or a string, got table")
    check("a body that is not a list", {tag = "Module", body = 5}, "ast: Module.body: expected a list, got number")
    check("a hole in a list", {tag = "Module", body = {{tag = "Pass"}, false}},
          "ast: Module.body[2]: expected a node table, got boolean")
    check("an empty block", module({tag = "If", test = Name "a", body = {}, lineno = 1, col_offset = 0}),
          "ast: If.body at line 1, col_offset 0: expected a non-empty list")
    check("an assignment to a call", module({tag = "Assign", targets = {{tag = "Call", func = Name "f"}}, value = Name "x"}),
          "ast: Assign.targets[1]: cannot assign to Call")
    check("an assignment to a constant in a tuple",
          module({tag = "Assign", targets = {{tag = "Tuple", elts = {Name "a", {tag = "Constant", value = 1}}}}, value = Name "x"}),
          "ast: Tuple.elts[2]: cannot assign to Constant")
    check("an augmented assignment to a tuple",
          module({tag = "AugAssign", target = {tag = "Tuple", elts = {Name "a"}}, op = "Add", value = Name "x"}),
          "ast: AugAssign.target: expected a Name, Attribute or Subscript, got Tuple")
    check("a Slice outside a subscript", expr({tag = "BinOp", left = {tag = "Slice"}, op = "Add", right = Name "b"}),
          "ast: BinOp.left at line 3, col_offset 4: a Slice is only allowed in Subscript.slice")
    check("comparators that do not match the operators",
          expr({tag = "Compare", left = Name "a", ops = {"Lt", "Gt"}, comparators = {Name "b"}}),
          "ast: Compare.comparators at line 3, col_offset 4: expected 2 comparators (one per operator), got 1")
    check("a BoolOp with one value", expr({tag = "BoolOp", op = "And", values = {Name "a"}}),
          "ast: BoolOp.values at line 3, col_offset 4: expected at least 2 items")
    check("a lineno that is not a number", expr({tag = "Name", id = "x", lineno = "3"}),
          "ast: Name.lineno: expected a non-negative integer, got string")
    check("a negative col_offset", expr({tag = "Name", id = "x", col_offset = -1}),
          "ast: Name.col_offset: expected a non-negative integer, got -1")
    check("a parameter that is not an arg node",
          {tag = "FunctionDef", name = "f", args = {args = {Name "x"}}, body = {{tag = "Pass"}}},
          "ast: arguments.args[1]: expected an arg node, got Name")
    check("more defaults than parameters",
          {tag = "FunctionDef", name = "f", args = {args = {{tag = "arg", arg = "x"}}, defaults = {Name "a", Name "b"}},
           body = {{tag = "Pass"}}},
          "ast: arguments.defaults: more defaults (2) than arguments (1)")
    check("a parameter named twice",
          {tag = "FunctionDef", name = "f", args = {args = {{tag = "arg", arg = "x"}, {tag = "arg", arg = "x"}}},
           body = {{tag = "Pass"}}},
          "ast: arguments.args[2]: duplicate argument 'x'")
    check("a keyword given twice",
          expr({tag = "Call", func = Name "f", keywords = {{tag = "keyword", arg = "a", value = Name "x"},
                                                          {tag = "keyword", arg = "a", value = Name "y"}}}),
          "ast: Call.keywords[2] at line 3, col_offset 4: keyword argument repeated: a")
    check("a relative import", module({tag = "ImportFrom", module = "a", names = {{tag = "alias", name = "b"}}, level = 1}),
          "ast: ImportFrom.level: relative imports are not supported (level must be 0)")
    check("a nested function",
          {tag = "FunctionDef", name = "f", body = {{tag = "FunctionDef", name = "g", body = {{tag = "Pass"}}}}},
          "ast: FunctionDef.body[1]: nested functions are not supported in compiled code")
    check("a return outside a function", module({tag = "Return"}),
          "ast: Module.body[1]: 'return' outside function")
    check("a break in a loop's else",
          module({tag = "While", test = Name "x", body = {{tag = "Continue"}}, orelse = {{tag = "Break"}}}),
          "ast: While.orelse[1]: 'break' outside loop")
    check("a bad module name", module({tag = "Import", names = {{tag = "alias", name = "a..b"}}}),
          "ast: alias.name: 'a..b' is not a valid module name")
  end)

  it("stops at a cycle", function()
    local b = {tag = "BinOp", op = "Add", right = Name "x"}
    b.left = b
    assert.are.equal("ast: BinOp.left at line 3, col_offset 4: too deeply nested (a cycle?)",
                     H.error_of(roundtrip, expr(b)))
  end)

  it("stops a subtree shared so often that it would not fit in memory", function()
    local n = Name "x"
    for _ = 1, 40 do n = {tag = "BinOp", op = "Add", left = n, right = n} end
    assert.are.equal("ast: BinOp.right: too many nodes (more than 1048576)",
                     H.error_of(roundtrip, module({tag = "Expr", value = n})))
  end)

  it("reads lists by their raw length, never through __len", function()
    local body = setmetatable({{tag = "Pass"}}, {__len = function() return 1e9 end})
    assert.are.equal(1, #roundtrip({tag = "Module", body = body}).body)
  end)
end)
