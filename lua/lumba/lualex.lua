-- lumba.lualex — the lexer of lumba.luafront (Lua 5.4's tokens, as llex.c
-- reads them) and its error messages in the form of src/diag.c:
-- "chunk:line:col: Kind: message", the source line and a caret.
local X = {}

local KEYWORDS = {}
for w in ([[and break do else elseif end false for function goto if in local
            nil not or repeat return then true until while]]):gmatch("%a+") do
  KEYWORDS[w] = true
end

-- ---------------------------------------------------------------- errors

-- the text of line n of the source (for the caret line of messages)
function X.source_line(S, n)
  if not S.starts then
    local starts, p = { 1 }, 1
    while true do
      local e = S.text:find("\n", p, true)
      if not e then break end
      p = e + 1
      starts[#starts + 1] = p
    end
    S.starts = starts
  end
  local s = S.starts[n]
  if not s then return nil end
  local e = S.text:find("[\r\n]", s) or (#S.text + 1)
  return S.text:sub(s, e - 1)
end

-- "chunk:line:col: Kind: message", the line and a caret (src/diag.c's form)
function X.fail(S, line, col, kind, fmt, ...)
  local msg = select("#", ...) > 0 and fmt:format(...) or fmt
  local out = ("%s:%d:%d: %s: %s"):format(S.chunk, line, col + 1, kind, msg)
  local lt = X.source_line(S, line)
  if lt then
    out = out .. "\n    " .. lt .. "\n    " .. lt:sub(1, col):gsub("[^\t]", " ") .. "^"
  end
  error(out, 0)
end

-- ---------------------------------------------------------------- lexer

local SYMBOLS3 = { ["..."] = true }
local SYMBOLS2 = {
  ["=="] = true, ["~="] = true, ["<="] = true, [">="] = true, ["//"] = true,
  ["::"] = true, ["<<"] = true, [">>"] = true, [".."] = true,
}
local SYMBOLS1 = {}
for c in ("+-*/%^#&~|<>=(){}[];:,."):gmatch(".") do SYMBOLS1[c] = true end

local ESCAPES = { a = "\a", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", v = "\v",
                  ["\\"] = "\\", ['"'] = '"', ["'"] = "'" }

-- Tokens of S.text from byte pos (the start of line `line`), scanned on
-- demand: get(i) is the i-th token {t = kind, v = value, line, col, pos,
-- epos}; kind is "name", "number", "string", "<eof>", a keyword or a symbol.
function X.lexer(S, pos, line)
  local text = S.text
  local linestart = pos
  local toks = {}

  local function err(msg, l, c) X.fail(S, l, c, "SyntaxError", "%s", msg) end

  -- newlines between p and q (inclusive) move the line count
  local function count_lines(p, q)
    local s = p
    while true do
      local e = text:find("\n", s, true)
      if not e or e > q then break end
      line = line + 1
      linestart = e + 1
      s = e + 1
    end
  end

  -- a long bracket [==[ ... ]==] at p: its contents and the position after it
  local function long_bracket(p, what, l, c)
    local eqs = text:match("^%[(=*)%[", p)
    local sp = p + #eqs + 2
    local close = "]" .. eqs .. "]"
    local e = text:find(close, sp, true)
    if not e then err("unfinished long " .. what, l, c) end
    local body = text:sub(sp, e - 1):gsub("^\r?\n", "", 1)
    count_lines(p, e)
    return body, e + #close
  end

  local function short_string(q, l, c)
    local buf, p = {}, pos + 1
    while true do
      local ch = text:sub(p, p)
      if ch == q then
        p = p + 1
        break
      elseif ch == "" or ch == "\n" or ch == "\r" then
        err("unfinished string", l, c)
      elseif ch == "\\" then
        local e = text:sub(p + 1, p + 1)
        if ESCAPES[e] then
          buf[#buf + 1] = ESCAPES[e]
          p = p + 2
        elseif e == "\n" or e == "\r" then
          buf[#buf + 1] = "\n"
          count_lines(p, p + 1)
          p = p + 2
          local e2 = text:sub(p, p)
          if (e2 == "\n" or e2 == "\r") and e2 ~= e then
            if e2 == "\n" then count_lines(p, p) end
            p = p + 1
          end
        elseif e == "x" then
          local h = text:match("^%x%x", p + 2)
          if not h then err("hexadecimal digit expected", line, p - linestart) end
          buf[#buf + 1] = string.char(tonumber(h, 16))
          p = p + 4
        elseif e == "z" then
          local ws = text:match("^%s*", p + 2)
          count_lines(p, p + 1 + #ws)
          p = p + 2 + #ws
        elseif e == "u" then
          local h = text:match("^{(%x+)}", p + 2)
          if not h then err("missing '{' or '}' in \\u{xxxx}", line, p - linestart) end
          buf[#buf + 1] = utf8.char(tonumber(h, 16))
          p = p + 4 + #h
        elseif e:match("%d") then
          local d = text:match("^%d%d?%d?", p + 1)
          local v = tonumber(d)
          if v > 255 then err("decimal escape too large", line, p - linestart) end
          buf[#buf + 1] = string.char(v)
          p = p + 1 + #d
        else
          err("invalid escape sequence '\\" .. e .. "'", line, p - linestart)
        end
      else
        buf[#buf + 1] = ch
        p = p + 1
      end
    end
    return table.concat(buf), p
  end

  local function scan()
    -- white space and comments
    while true do
      local c = text:sub(pos, pos)
      if c == "\n" then
        pos = pos + 1
        line = line + 1
        linestart = pos
      elseif c == " " or c == "\t" or c == "\r" or c == "\f" or c == "\v" then
        pos = pos + 1
      elseif c == "-" and text:sub(pos + 1, pos + 1) == "-" then
        if text:match("^%[=*%[", pos + 2) then
          local _, np = long_bracket(pos + 2, "comment", line, pos - linestart)
          pos = np
        else
          pos = text:find("\n", pos, true) or (#text + 1)
        end
      else
        break
      end
    end
    local tok = { line = line, col = pos - linestart, pos = pos }
    local c = text:sub(pos, pos)
    if c == "" then
      tok.t, tok.epos = "<eof>", pos
      return tok
    end
    local name = text:match("^[%a_][%w_]*", pos)
    if name then
      tok.t = KEYWORDS[name] and name or "name"
      tok.v = name
      pos = pos + #name
    elseif c:match("%d") or (c == "." and text:match("^%.%d", pos)) then
      -- llex.c read_numeral: digits, letters and dots, signs after an exponent mark
      local p, expo = pos, "[Ee]"
      if text:match("^0[xX]", p) then
        expo, p = "[Pp]", p + 2
      end
      while true do
        local ch = text:sub(p, p)
        if ch ~= "" and ch:match(expo) and text:sub(p + 1, p + 1):match("[%+%-]") then
          p = p + 2
        elseif ch ~= "" and ch:match("[%w%.]") then
          p = p + 1
        else
          break
        end
      end
      local s = text:sub(pos, p - 1)
      local v = tonumber(s)
      if v == nil then err(("malformed number near '%s'"):format(s), tok.line, tok.col) end
      tok.t, tok.v = "number", v
      pos = p
    elseif c == '"' or c == "'" then
      tok.t = "string"
      tok.v, pos = short_string(c, tok.line, tok.col)
    elseif c == "[" and text:match("^%[=*%[", pos) then
      tok.t = "string"
      tok.v, pos = long_bracket(pos, "string", tok.line, tok.col)
    elseif SYMBOLS3[text:sub(pos, pos + 2)] then
      tok.t = text:sub(pos, pos + 2)
      pos = pos + 3
    elseif SYMBOLS2[text:sub(pos, pos + 1)] then
      tok.t = text:sub(pos, pos + 1)
      pos = pos + 2
    elseif SYMBOLS1[c] then
      tok.t = c
      pos = pos + 1
    else
      err(("unexpected symbol near '%s'"):format(c), tok.line, tok.col)
    end
    tok.epos = pos - 1
    return tok
  end

  return function(i)
    while #toks < i do
      local last = toks[#toks]
      if last and last.t == "<eof>" then return last end
      toks[#toks + 1] = scan()
    end
    return toks[i]
  end
end

return X
