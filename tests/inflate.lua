-- A zlib/inflate reader for the PNG spec (RFC 1950, RFC 1951: stored and
-- fixed-Huffman blocks), written from the RFCs independently of the
-- encoder in examples/lib/png.lua: codes are decoded through the canonical
-- Huffman tables built from code lengths (RFC 1951 3.2.2).
local M = {}

-- canonical Huffman: lengths[sym] → decode table {[len] = {[code] = sym}}
local function huffman(lengths, nsyms)
  local count, maxlen = {}, 0
  for s = 0, nsyms - 1 do
    local l = lengths[s]
    if l > 0 then count[l] = (count[l] or 0) + 1 end
    if l > maxlen then maxlen = l end
  end
  local next_code, code = {}, 0
  for bits = 1, maxlen do
    code = (code + (count[bits - 1] or 0)) << 1
    next_code[bits] = code
  end
  local t = {}
  for s = 0, nsyms - 1 do
    local l = lengths[s]
    if l > 0 then
      t[l] = t[l] or {}
      t[l][next_code[l]] = s
      next_code[l] = next_code[l] + 1
    end
  end
  return t, maxlen
end

local fixed_lit, fixed_dist
do
  local l = {}
  for s = 0, 143 do l[s] = 8 end
  for s = 144, 255 do l[s] = 9 end
  for s = 256, 279 do l[s] = 7 end
  for s = 280, 287 do l[s] = 8 end
  fixed_lit = { huffman(l, 288) }
  local d = {}
  for s = 0, 29 do d[s] = 5 end
  fixed_dist = { huffman(d, 30) }
end

local LBASE = { [0] = 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                131, 163, 195, 227, 258 }
local LEXTRA = { [0] = 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 }
local DBASE = { [0] = 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 }
local DEXTRA = { [0] = 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 }

-- the raw deflate stream s (from byte pos) → the decompressed string
function M.inflate(s, pos)
  pos = pos or 1
  local bitpos = 0  -- bits consumed in byte s[pos]
  local function bit()
    if pos > #s then error("inflate: unexpected end of data") end
    local b = (s:byte(pos) >> bitpos) & 1
    bitpos = bitpos + 1
    if bitpos == 8 then bitpos, pos = 0, pos + 1 end
    return b
  end
  local function bits(n)  -- LSB first
    local v = 0
    for i = 0, n - 1 do v = v | (bit() << i) end
    return v
  end
  local function decode(h)  -- Huffman codes are read MSB first
    local tbl, maxlen = h[1], h[2]
    local code = 0
    for len = 1, maxlen do
      code = (code << 1) | bit()
      local sym = tbl[len] and tbl[len][code]
      if sym then return sym end
    end
    error("inflate: bad Huffman code")
  end
  local out, n = {}, 0
  repeat
    local final = bit()
    local btype = bits(2)
    if btype == 0 then
      if bitpos > 0 then bitpos, pos = 0, pos + 1 end
      local len, nlen = string.unpack("<I2I2", s, pos)
      if len ~ 0xFFFF ~= nlen then error("inflate: stored block length check failed") end
      pos = pos + 4
      for k = 0, len - 1 do out[n + 1 + k] = s:byte(pos + k) end
      n = n + len
      pos = pos + len
    elseif btype == 1 then
      while true do
        local sym = decode(fixed_lit)
        if sym < 256 then
          n = n + 1
          out[n] = sym
        elseif sym == 256 then
          break
        else
          local li = sym - 257
          local len = LBASE[li] + bits(LEXTRA[li])
          local di = decode(fixed_dist)
          local dist = DBASE[di] + bits(DEXTRA[di])
          if dist > n then error("inflate: distance beyond the start") end
          for _ = 1, len do
            n = n + 1
            out[n] = out[n - dist]
          end
        end
      end
    else
      error("inflate: block type " .. btype .. " is not handled here")
    end
  until final == 1
  if bitpos > 0 then pos = pos + 1 end
  local parts = {}
  for k = 1, n, 4096 do parts[#parts + 1] = string.char(table.unpack(out, k, math.min(n, k + 4095))) end
  return table.concat(parts), pos
end

-- a zlib stream → data, the Adler-32 it declares
function M.unzlib(z)
  local cmf, flg = z:byte(1, 2)
  if cmf & 0x0F ~= 8 or (cmf * 256 + flg) % 31 ~= 0 or flg & 0x20 ~= 0 then error("unzlib: bad header") end
  local data, pos = M.inflate(z, 3)
  return data, string.unpack(">I4", z, pos)
end

return M
