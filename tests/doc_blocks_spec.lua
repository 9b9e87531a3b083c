-- Every ```lua block of README.md and docs/*.md runs (CUDA ones in the
-- simulator), and what its prints say (`--> ...`) is what they print:
-- tests/doc_blocks.lua runs one page in a fresh lua5.4.
local H = require "tests.helpers"

local pages = { "README.md" }
for path in io.popen("ls docs/*.md"):lines() do pages[#pages + 1] = path end

describe("the documentation's code blocks", function()
  local total = 0
  for _, page in ipairs(pages) do
    it("run as written: " .. page, function()
      local out = H.run_lua("", "arg = {[0] = 'tests/doc_blocks.lua', " .. ("%q"):format(page) .. "}\n" ..
        "dofile('tests/doc_blocks.lua')\nprint('exit 0')\n")
      local blocks, skipped = out:match("(%d+) blocks %((%d+) skipped%)")
      assert(blocks, page .. ": " .. out:sub(-1500))
      assert.truthy(out:find("exit 0", 1, true), out:sub(-1500))
      total = total + tonumber(blocks) - tonumber(skipped)
    end)
  end
  it("cover the pages' examples", function()
    -- README's two, api's, arrays', ast's, cuda's, dispatchers', language's,
    -- lua_syntax's, parallel's, porting's: at least twenty blocks ran
    assert.is_true(total >= 20, "only " .. total .. " blocks ran")
  end)
end)
