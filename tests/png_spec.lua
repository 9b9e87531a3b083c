-- examples/lib/png.lua: checksums against their published check values,
-- and PNG files read back by an independent inflate (tests/inflate.lua)
-- and, where Python is installed, by zlib.
local png = dofile "examples/lib/png.lua"
local inflate = require "inflate"

-- the chunks of a PNG file: {type=, data=, crc=}
local function chunks(file)
  assert.are.equal("\137PNG\r\n\26\n", file:sub(1, 8))
  local t, pos = {}, 9
  while pos <= #file do
    local len, kind = string.unpack(">I4c4", file, pos)
    local data = file:sub(pos + 8, pos + 7 + len)
    t[#t + 1] = { type = kind, data = data, crc = string.unpack(">I4", file, pos + 8 + len) }
    pos = pos + 12 + len
  end
  return t
end

-- a w x h RGB test image with runs, repeats and noise
local function image(w, h)
  local rows = {}
  local x = 12345
  for y = 1, h do
    local t = {}
    for i = 1, w do
      local r, g, b = (i * y) % 256, y < h // 2 and 200 or i % 7, 0
      if y % 5 == 0 then
        x = (x * 1103515245 + 12345) % 2147483648
        b = x % 256
      end
      t[i] = string.char(r, g, b)
    end
    rows[y] = table.concat(t)
  end
  return rows
end

describe("png.lua", function()
  it("computes CRC-32 and Adler-32 as published", function()
    assert.are.equal(0xCBF43926, png.crc32("123456789"))             -- the CRC-32 check value
    assert.are.equal(0x11E60398, png.adler32("Wikipedia"))           -- RFC 1950's example, as commonly quoted
    assert.are.equal(0, png.crc32(""))
    assert.are.equal(1, png.adler32(""))
    assert.are.equal(png.crc32("123456789"), png.crc32("6789", png.crc32("12345")))
    -- Adler-32 of 100000 bytes of 0xFF, by its definition in plain arithmetic
    local s = string.rep("\255", 100000)
    local a, b = 1, 0
    for _ = 1, 100000 do a = (a + 255) % 65521; b = (b + a) % 65521 end
    assert.are.equal((b << 16) | a, png.adler32(s))
  end)

  for _, compress in ipairs { true, false } do
    it("writes a PNG that decodes to its pixels (compress=" .. tostring(compress) .. ")", function()
      local w, h = 37, 23
      local rows = image(w, h)
      local file = png.encode(w, h, rows, { color = "rgb", compress = compress })
      local c = chunks(file)
      assert.are.same({ "IHDR", "IDAT", "IEND" }, { c[1].type, c[2].type, c[3].type })
      for _, ch in ipairs(c) do assert.are.equal(png.crc32(ch.type .. ch.data), ch.crc) end
      local ihdr = { string.unpack(">I4I4BBBBB", c[1].data) }
      assert.are.same({ w, h, 8, 2, 0, 0, 0, 14 }, ihdr)  -- width, height, depth, RGB, ..., next position
      local raw, adler = inflate.unzlib(c[2].data)
      assert.are.equal(png.adler32(raw), adler)
      assert.are.equal(h * (1 + 3 * w), #raw)
      for y = 1, h do
        local line = raw:sub((y - 1) * (1 + 3 * w) + 1, y * (1 + 3 * w))
        assert.are.equal("\0" .. rows[y], line)
      end
      if compress then assert.is_true(#c[2].data < #raw) end
    end)
  end

  it("writes grey images from a uint8 lumba array, and longer than one stored block", function()
    local lumba = require "lumba"
    local a = lumba.zeros({ 300, 250 }, "uint8")
    for i = 1, 300 do a:set(i, (i % 250) + 1, i % 256) end
    local rows, w, h, color = png.rows_of(a)
    assert.are.same({ 250, 300, "gray" }, { w, h, color })
    local file = png.encode(w, h, rows, { compress = false })  -- 75300 bytes: two stored blocks
    local raw = inflate.unzlib(chunks(file)[2].data)
    for i = 1, 300 do
      local line = raw:sub((i - 1) * 251 + 2, i * 251)
      assert.are.equal(string.char(i % 256), line:sub((i % 250) + 1, (i % 250) + 1))
      assert.are.equal(i % 256 == 0 and 250 or 249, select(2, line:gsub("\0", "")))
    end
  end)

  it("refuses rows of the wrong length", function()
    local ok, err = pcall(png.encode, 4, 2, { "abcdefghijkl", "abc" }, { color = "rgb" })
    assert.is_false(ok)
    assert.truthy(err:find("row 2 has 3 bytes, expected 12", 1, true), err)
  end)

  local has_python = os.execute("python3 -c 'import zlib' >/dev/null 2>&1")
  if has_python then
    it("is read by Python's zlib too", function()
      local w, h = 61, 40
      local rows = image(w, h)
      local path = os.tmpname()
      png.write(path, w, h, rows, { color = "rgb" })
      local p = io.popen("python3 -c \"import sys, zlib, struct\n"
        .. "d = open(sys.argv[1], 'rb').read(); p = 8; out = b''\n"
        .. "while p < len(d):\n"
        .. "    n, = struct.unpack('>I', d[p:p+4]); k = d[p+4:p+8]; body = d[p+8:p+8+n]\n"
        .. "    assert zlib.crc32(k + body) == struct.unpack('>I', d[p+8+n:p+12+n])[0]\n"
        .. "    if k == b'IDAT': out = zlib.decompress(body)\n"
        .. "    p += 12 + n\n"
        .. "sys.stdout.buffer.write(out)\" " .. path)
      local raw = p:read("a")
      p:close()
      os.remove(path)
      local want = {}
      for y = 1, h do want[y] = "\0" .. rows[y] end
      assert.are.equal(table.concat(want), raw)
    end)
  else
    pending("python3 with zlib is not installed")
  end
end)
