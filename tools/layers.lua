-- tools/layers.lua — which C files use each other's symbols, from nm of the
-- object files (build/obj by default), and the strongly connected
-- components of that graph (Tarjan): a component of n > 1 files is a circle
-- of files that all depend on one another. issue 17 keeps the largest at 6.
--   lua5.4 tools/layers.lua [objdir] [-v]     prints the circles (-v: every edge)
-- As a module: require("layers").graph(objdir), .components(graph).
local M = {}

local function sh(cmd)
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  p:close()
  return out
end

-- file -> sorted list of the files whose symbols it uses
function M.graph(objdir)
  local defs, undefs, owner, files = {}, {}, {}, {}
  for o in sh("ls " .. objdir .. "/*.o 2>/dev/null"):gmatch("[^\n]+") do
    local f = o:match("([^/]+)%.o$")
    files[#files + 1] = f
    defs[f], undefs[f] = {}, {}
    for line in sh("nm " .. o):gmatch("[^\n]+") do
      local kind, sym = line:match("^%s*(%a)%s+(%S+)$")
      if kind == "U" then undefs[f][sym] = true
      else
        local k, s = line:match("^%x+%s+(%a)%s+(%S+)$")
        if k and k:match("[TDBRCGSVW]") then
          defs[f][s] = true
          owner[s] = owner[s] or f
        end
      end
    end
  end
  local g = {}
  for _, f in ipairs(files) do
    local seen, list = {}, {}
    for s in pairs(undefs[f]) do
      local o = owner[s]
      if o and o ~= f and not seen[o] then seen[o] = true; list[#list + 1] = o end
    end
    table.sort(list)
    g[f] = list
  end
  return g, files
end

-- the components of more than one file, largest first
function M.components(g)
  local index, low, stack, on, out, n = {}, {}, {}, {}, {}, 0
  local function visit(v)
    index[v], low[v] = n, n
    n = n + 1
    stack[#stack + 1] = v
    on[v] = true
    for _, w in ipairs(g[v]) do
      if index[w] == nil then visit(w); low[v] = math.min(low[v], low[w])
      elseif on[w] then low[v] = math.min(low[v], index[w]) end
    end
    if low[v] == index[v] then
      local comp = {}
      repeat
        local w = table.remove(stack)
        on[w] = nil
        comp[#comp + 1] = w
      until w == v
      if #comp > 1 then table.sort(comp); out[#out + 1] = comp end
    end
  end
  local names = {}
  for f in pairs(g) do names[#names + 1] = f end
  table.sort(names)
  for _, f in ipairs(names) do if index[f] == nil then visit(f) end end
  table.sort(out, function(a, b) return #a > #b or (#a == #b and a[1] < b[1]) end)
  return out
end

if arg and arg[0] and arg[0]:match("layers%.lua$") then
  local objdir, verbose = "build/obj", false
  for _, a in ipairs(arg) do if a == "-v" then verbose = true else objdir = a end end
  local g, files = M.graph(objdir)
  for _, c in ipairs(M.components(g)) do print(#c, table.concat(c, " ")) end
  if verbose then for _, f in ipairs(files) do print(f .. " -> " .. table.concat(g[f], " ")) end end
end

return M
