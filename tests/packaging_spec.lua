-- `luarocks make` installs the module into a tree from which a script can
-- require lumba and run a compiled function; `make install` does the same
-- with DESTDIR.
local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and code == 0, out
end

local has_luarocks = sh("command -v luarocks")

describe("packaging", function()
  local script = [[lua5.4 -e 'package.path = "%s/share/lua/5.4/?.lua;%s/share/lua/5.4/?/init.lua"
    package.cpath = "%s/lib/lua/5.4/?.so"
    local l = require "lumba"
    print(l.njit("def f(x):\n    return x * 2 + 1\n")(20))']]

  if has_luarocks then
    it("luarocks make installs a working module", function()
      local tree = os.tmpname()
      os.remove(tree)
      local ok, out = sh("luarocks --lua-version=5.4 --tree " .. tree .. " make rockspec/lumba-scm-1.rockspec")
      assert(ok, out)
      assert.falsy(out:find("Warning", 1, true), out)  -- e.g. "variable CFLAGS was not passed"
      local ok2, out2 = sh(script:format(tree, tree, tree))
      assert(ok2, out2)
      assert.are.equal("41\n", out2)
      sh("rm -rf " .. tree)
    end)

    it("the rockspec passes luarocks lint and declares what the build needs", function()
      local ok, out = sh("luarocks --lua-version=5.4 lint rockspec/lumba-scm-1.rockspec")
      assert(ok, out)
      local spec = {}
      assert(loadfile("rockspec/lumba-scm-1.rockspec", "t", spec))()
      assert.are.same({ "linux" }, spec.supported_platforms)
      assert.truthy(spec.external_dependencies.LLVM and spec.external_dependencies.OMP)
      assert.are.equal("make test", spec.test.command)
      -- the license named is the one LICENSE holds
      local f = assert(io.open("LICENSE"))
      local text = f:read("a")
      f:close()
      assert.truthy(text:find("^" .. spec.description.license .. " License"), text:sub(1, 40))
    end)
  else
    pending("luarocks is not installed")
  end

  it("make names the LLVM it needs when llvm-config is missing or another version", function()
    local ok, out = sh("make -n LLVM_CONFIG=/nonexistent/llvm-config")
    assert.falsy(ok)
    assert.truthy(out:find("LLVM not found", 1, true), out)
    local fake = os.tmpname()
    local f = assert(io.open(fake, "w"))
    f:write("#!/bin/sh\necho 16.0.6\n")
    f:close()
    sh("chmod +x " .. fake)
    ok, out = sh("make -n LLVM_CONFIG=" .. fake)
    os.remove(fake)
    assert.falsy(ok)
    assert.truthy(out:find("lumba needs LLVM 14, found 16.0.6", 1, true), out)
  end)

  it("make install with DESTDIR installs the module, the Lua files and lumba.h", function()
    local dest = os.tmpname()
    os.remove(dest)
    local ok, out = sh("make -s install DESTDIR=" .. dest .. " PREFIX=/usr")
    assert(ok, out)
    local root = dest .. "/usr"
    assert(io.open(root .. "/include/lumba.h"), "lumba.h not installed")
    for _, so in ipairs { "core.so", "backend.so", "nvptx.so" } do
      assert(io.open(root .. "/lib/lua/5.4/lumba/" .. so), so .. " not installed")
    end
    local ok2, out2 = sh(script:format(root, root, root))
    assert(ok2, out2)
    assert.are.equal("41\n", out2)
    sh("rm -rf " .. dest)
  end)
end)

-- issue 24 item 6: another Lua than 5.4 is told what lumba needs
describe("require 'lumba' from another Lua", function()
  for _, lua in ipairs({ "luajit", "lua5.1", "lua5.2", "lua5.3" }) do
    if sh("command -v " .. lua) then
      it("says lumba needs Lua 5.4 (" .. lua .. ")", function()
        local ok, out = sh(lua .. [[ -e 'package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
          package.cpath = "build/?.so;" .. package.cpath
          local ok, err = pcall(require, "lumba")
          print(ok, err)']])
        assert(ok, out)
        assert.truthy(out:find("^false\tlumba needs Lua 5%.4 %(this is [^)]+%)"), out)
      end)
    end
  end
end)
