-- png.lua: a small PNG writer in pure Lua 5.4 (no C, no network), for the
-- examples. 8-bit grey or RGB images; the pixel data is a zlib stream of
-- fixed-Huffman deflate blocks with LZ77 matches (RFC 1950/1951), or of
-- stored blocks when compression is off. Chunks carry their CRC-32.
--
--   local png = dofile "examples/lib/png.lua"
--   png.write("out.png", w, h, rows, { color = "rgb" })
--
-- rows is a table of h strings of w (grey) or 3*w (RGB) bytes, or a
-- function(y) returning row y (1-based); png.rows_of(a) makes one from a
-- uint8 lumba array of shape {h, w} or {h, w, 3}.
local png = {}

-- ---- checksums ----

local crc_table = {}
for n = 0, 255 do
  local c = n
  for _ = 1, 8 do
    if c & 1 == 1 then c = 0xEDB88320 ~ (c >> 1) else c = c >> 1 end
  end
  crc_table[n] = c
end

-- CRC-32 of s (ISO 3309, as PNG chunks use it), continuing from crc
function png.crc32(s, crc)
  local c = (crc or 0) ~ 0xFFFFFFFF
  for i = 1, #s do
    c = crc_table[(c ~ s:byte(i)) & 0xFF] ~ (c >> 8)
  end
  return c ~ 0xFFFFFFFF
end

-- Adler-32 of s (the zlib trailer), continuing from adler
function png.adler32(s, adler)
  adler = adler or 1
  local a, b = adler & 0xFFFF, adler >> 16
  local i, n = 1, #s
  while i <= n do
    local j = math.min(n, i + 3799)  -- 3800 bytes keep b below 2^63 between reductions
    for k = i, j do
      a = a + s:byte(k)
      b = b + a
    end
    a, b = a % 65521, b % 65521
    i = j + 1
  end
  return (b << 16) | a
end

-- ---- a bit writer: LSB first, as deflate packs its bits ----

local function bitwriter()
  local out, buf, bytes = {}, {}, 0
  local acc, nacc = 0, 0
  local w = {}
  local function flush_buf()
    out[#out + 1] = string.char(table.unpack(buf, 1, bytes))
    bytes = 0
  end
  function w.bits(v, n)
    acc = acc | (v << nacc)
    nacc = nacc + n
    while nacc >= 8 do
      bytes = bytes + 1
      buf[bytes] = acc & 0xFF
      if bytes == 4096 then flush_buf() end
      acc = acc >> 8
      nacc = nacc - 8
    end
  end
  function w.align()  -- pad to a byte boundary with zero bits
    if nacc > 0 then w.bits(0, 8 - nacc) end
  end
  function w.bytes(s)  -- whole bytes, after align()
    if bytes > 0 then flush_buf() end
    out[#out + 1] = s
  end
  function w.result()
    w.align()
    if bytes > 0 then flush_buf() end
    return table.concat(out)
  end
  return w
end

-- ---- deflate ----

-- the fixed Huffman code (RFC 1951 3.2.6), each code bit-reversed so that
-- it can be written LSB first
local function reverse(v, n)
  local r = 0
  for _ = 1, n do
    r = (r << 1) | (v & 1)
    v = v >> 1
  end
  return r
end

local lit_code, lit_len = {}, {}
for v = 0, 287 do
  local code, n
  if v <= 143 then code, n = 0x30 + v, 8
  elseif v <= 255 then code, n = 0x190 + (v - 144), 9
  elseif v <= 279 then code, n = v - 256, 7
  else code, n = 0xC0 + (v - 280), 8 end
  lit_code[v], lit_len[v] = reverse(code, n), n
end
local dist_code = {}
for d = 0, 29 do dist_code[d] = reverse(d, 5) end

-- length 3..258 → symbol, extra bits, extra value; distance 1..32768 likewise
local len_sym, len_extra, len_base = {}, {}, {}
do
  local bases = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                  67, 83, 99, 115, 131, 163, 195, 227, 258 }
  local extras = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                   4, 4, 4, 4, 5, 5, 5, 5, 0 }
  for k = 1, 29 do
    local top = k < 29 and bases[k + 1] - 1 or 258
    if k == 28 then top = 257 end
    for len = bases[k], top do
      len_sym[len], len_extra[len], len_base[len] = 256 + k, extras[k], bases[k]
    end
  end
end
local dist_bases, dist_extras = {}, {}
do
  local base = 1
  for d = 0, 29 do
    local extra = d < 4 and 0 or (d // 2) - 1
    dist_bases[d], dist_extras[d] = base, extra
    base = base + (1 << extra)
  end
end
local function dist_symbol(dist)
  local lo, hi = 0, 29  -- the last d with dist_bases[d] <= dist
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if dist_bases[mid] <= dist then lo = mid else hi = mid - 1 end
  end
  return lo
end

local WINDOW, MAXLEN, CHAIN = 32768, 258, 8

-- one fixed-Huffman block holding all of s, with greedy LZ77 matches found
-- through hash chains of 3-byte prefixes
local function deflate_fixed(w, s)
  w.bits(1, 1)  -- BFINAL
  w.bits(1, 2)  -- BTYPE 01: fixed Huffman
  local n = #s
  local head, prev = {}, {}
  local byte = string.byte
  local i = 1
  local function insert(p)
    local a, b, c = byte(s, p, p + 2)
    local h = (a << 16) | (b << 8) | c
    prev[p] = head[h]
    head[h] = p
  end
  while i <= n do
    local best, bestd = 0, 0
    if i + 2 <= n then
      local a, b, c = byte(s, i, i + 2)
      local cand = head[(a << 16) | (b << 8) | c]
      local tries, limit = 0, math.min(MAXLEN, n - i + 1)
      while cand and i - cand <= WINDOW and tries < CHAIN do
        local len = 3
        while len < limit and byte(s, cand + len) == byte(s, i + len) do len = len + 1 end
        if len > best then best, bestd = len, i - cand end
        if len == limit then break end
        cand = prev[cand]
        tries = tries + 1
      end
    end
    if best >= 3 then
      local sym = len_sym[best]
      w.bits(lit_code[sym], lit_len[sym])
      if len_extra[best] > 0 then w.bits(best - len_base[best], len_extra[best]) end
      local d = dist_symbol(bestd)
      w.bits(dist_code[d], 5)
      if dist_extras[d] > 0 then w.bits(bestd - dist_bases[d], dist_extras[d]) end
      -- index the match's first positions only: long runs stay fast
      local stop = math.min(i + best - 1, n - 2, i + 3)
      for p = i, stop do insert(p) end
      i = i + best
    else
      local v = byte(s, i)
      w.bits(lit_code[v], lit_len[v])
      if i + 2 <= n then insert(i) end
      i = i + 1
    end
  end
  w.bits(lit_code[256], lit_len[256])  -- end of block
end

-- stored blocks of at most 65535 bytes (BTYPE 00)
local function deflate_stored(w, s)
  local n = #s
  local i = 1
  repeat
    local len = math.min(65535, n - i + 1)
    w.bits(i + len > n and 1 or 0, 1)
    w.bits(0, 2)
    w.align()
    w.bytes(string.pack("<I2I2", len, len ~ 0xFFFF))
    w.bytes(s:sub(i, i + len - 1))
    i = i + len
  until i > n
end

-- s as a zlib stream (RFC 1950): header, deflate data, Adler-32
function png.zlib(s, compress)
  local w = bitwriter()
  w.bits(0x78, 8)  -- CMF: deflate, 32 KiB window
  w.bits(0x01, 8)  -- FLG: (0x78 * 256 + 0x01) % 31 == 0, no dictionary
  if compress == false then deflate_stored(w, s) else deflate_fixed(w, s) end
  return w.result() .. string.pack(">I4", png.adler32(s))
end

-- ---- PNG ----

local function chunk(kind, data)
  return string.pack(">I4", #data) .. kind .. data .. string.pack(">I4", png.crc32(kind .. data))
end

local CHANNELS = { gray = 1, rgb = 3 }

-- the PNG file as a string; opts.color "gray" (default) or "rgb",
-- opts.compress (default true)
function png.encode(width, height, rows, opts)
  opts = opts or {}
  local color = opts.color or "gray"
  local channels = assert(CHANNELS[color], "color must be 'gray' or 'rgb'")
  assert(width >= 1 and height >= 1, "an image has at least one pixel")
  local get = type(rows) == "function" and rows or function(y) return rows[y] end
  local parts = {}
  for y = 1, height do
    local row = get(y)
    if #row ~= width * channels then
      error(("row %d has %d bytes, expected %d"):format(y, #row, width * channels), 2)
    end
    parts[y] = "\0" .. row  -- filter type 0 (None)
  end
  local ihdr = string.pack(">I4I4BBBBB", width, height, 8, channels == 3 and 2 or 0, 0, 0, 0)
  return "\137PNG\r\n\26\n" .. chunk("IHDR", ihdr)
      .. chunk("IDAT", png.zlib(table.concat(parts), opts.compress))
      .. chunk("IEND", "")
end

function png.write(path, width, height, rows, opts)
  local data = png.encode(width, height, rows, opts)
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
  return #data
end

-- rows(y) of a uint8 lumba array of shape {h, w} (grey) or {h, w, 3} (RGB)
function png.rows_of(a)
  assert(a.dtype == "uint8", "png.rows_of needs a uint8 array")
  local h, w = a.shape[1], a.shape[2]
  local flat = a:copy():reshape(h, a.size // h)  -- C order: a row of bytes per line
  return function(y)
    local t = flat[y]:totable()
    local parts = {}
    for k = 1, #t, 4096 do parts[#parts + 1] = string.char(table.unpack(t, k, math.min(#t, k + 4095))) end
    return table.concat(parts)
  end, w, h, a.ndim == 3 and "rgb" or "gray"
end

-- png.write_array(path, a [, opts]): a uint8 {h, w} or {h, w, 3} array
function png.write_array(path, a, opts)
  local rows, w, h, color = png.rows_of(a)
  local o = { color = color }
  for k, v in pairs(opts or {}) do o[k] = v end
  return png.write(path, w, h, rows, o)
end

return png
