-- chart.lua — bench/chart.svg: each tool's speed relative to the fastest C
-- of its row (log scale, higher is faster), one group per kernel (the size
-- its targets are judged on), one bar per tool. Plain SVG text, drawn here, nothing fetched.
local M = {}

local function esc(s)
  return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end

local function log10(x) return math.log(x, 10) end

function M.svg(ctx)
  local groups, lo, hi = {}, 0, 0 -- decades of the axis
  local legend, in_legend = {}, {}
  -- one group per kernel: its target size (the parallel rows have one size);
  -- the parallel section's titles lose their "parallel "
  local shown = {}
  for _, d in ipairs(ctx.rows) do
    if d.row.group == "parallel" or d.row.target then shown[#shown + 1] = d end
  end
  for _, d in ipairs(shown) do
    local par = d.row.group == "parallel"
    local g = { label = par and d.row.title:gsub("^parallel ", "") or d.row.title, size = d.row.size,
      par = par, bars = {} }
    for _, t in ipairs(d.order) do
      local r = d.results[t]
      local v = r.status == "ok" and r.ratio and 1 / r.ratio or nil
      g.bars[#g.bars + 1] = { tool = t, value = v, status = r.status }
      if v then
        lo = math.min(lo, math.floor(log10(v)))
        hi = math.max(hi, math.ceil(log10(v)))
      end
      if not in_legend[t] then in_legend[t] = true; legend[#legend + 1] = t end
    end
    groups[#groups + 1] = g
  end
  if hi <= lo then hi = lo + 1 end
  if hi < 1 then hi = 1 end
  local bw, gap, left, top, plot_h = 13, 22, 78, 92, 300
  local width = left + 20
  for _, g in ipairs(groups) do width = width + #g.bars * bw + gap end
  width = math.max(width, 900)
  local height = top + plot_h + 80
  local function y(v) return top + plot_h * (hi - log10(v)) / (hi - lo) end
  local b = {}
  local function w(s) b[#b + 1] = s end
  w(string.format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" ' ..
    'font-family="Helvetica, Arial, sans-serif" font-size="11">', width, height, width, height))
  w(string.format('<rect width="%d" height="%d" fill="white"/>', width, height))
  local m = ctx.machine
  w(string.format('<text x="%d" y="20" font-size="15" font-weight="bold">%s</text>', left,
    esc("Speed relative to the fastest C (higher is faster, log scale)" ..
      (ctx.quick and " — QUICK MODE, not meaningful" or ""))))
  w(string.format('<text x="%d" y="37" fill="#555">%s</text>', left,
    esc(string.format("%s, %d cores, %s — %s; parallel rows relative to the fastest C+OpenMP",
      m.cpu, m.cores, m.os, m.date))))
  -- legend
  local lx, ly = left, 56
  for _, t in ipairs(legend) do
    local info = ctx.tools[t]
    local label = info.short
    if lx + 22 + #label * 6.5 > width - 10 then lx, ly = left, ly + 16 end
    w(string.format('<rect x="%d" y="%d" width="11" height="11" fill="%s"/>', lx, ly - 9, info.color))
    w(string.format('<text x="%d" y="%d">%s</text>', lx + 15, ly, esc(label)))
    lx = lx + 26 + math.floor(#label * 6.5)
  end
  -- axis: a line per decade, 2x and 5x ticks
  for dec = lo, hi do
    local v = 10 ^ dec
    local yy = y(v)
    w(string.format('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="%s"/>', left, width - 10,
      yy, yy, dec == 0 and "#000" or "#ccc", dec == 0 and "1.5" or "1"))
    local lab = dec >= 0 and string.format("%d×", math.tointeger(10 ^ dec)) or string.format("%g×", v)
    if dec == 0 then lab = "C = 1×" end
    w(string.format('<text x="%d" y="%.1f" text-anchor="end">%s</text>', left - 6, yy + 4, esc(lab)))
    if dec < hi then
      for _, f in ipairs { 2, 5 } do
        local ym = y(v * f)
        w(string.format('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>', left, width - 10, ym, ym))
      end
    end
  end
  -- bars
  local x = left + gap / 2
  local base = y(10 ^ lo)
  local prev_par = false
  for _, g in ipairs(groups) do
    if g.par and not prev_par and x > left + gap then
      -- the parallel rows compare with C+OpenMP: a dashed line apart
      local sx = x - gap / 2
      w(string.format('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#888" stroke-dasharray="4 3"/>', sx, sx,
        top - 6, top + plot_h + 34))
      w(string.format('<text x="%.1f" y="%d" fill="#555" font-size="10">parallel: vs fastest C+OpenMP</text>',
        sx + 4, top - 2))
    end
    prev_par = g.par
    local gx = x
    for _, bar in ipairs(g.bars) do
      local info = ctx.tools[bar.tool]
      if bar.value then
        local yy = y(bar.value)
        w(string.format('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s</title></rect>',
          x, yy, bw - 2, base - yy, info.color,
          esc(string.format("%s, %s: %s %.3g× fastest C", g.label, g.size, info.label, bar.value))))
      else
        w(string.format('<text x="%.1f" y="%.1f" font-size="9" fill="%s" text-anchor="middle">%s</text>',
          x + (bw - 2) / 2, base - 3, bar.status == "failed" and "#d00" or "#999",
          bar.status == "failed" and "!" or "–"))
      end
      x = x + bw
    end
    local cx = (gx + x - 2) / 2
    w(string.format('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>', cx, top + plot_h + 16,
      esc(g.label)))
    w(string.format('<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%s</text>', cx, top + plot_h + 30,
      esc(g.size)))
    x = x + gap
  end
  w(string.format('<text x="%d" y="%d" fill="#555" font-size="10">%s</text>', left, height - 12,
    esc("–: not run or not available here; !: result disagreed with C. Written by make bench (bench/run.lua).")))
  w("</svg>")
  return table.concat(b, "\n") .. "\n"
end

return M
