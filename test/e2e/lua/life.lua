-- Conway's game of life on a torus: 2-D arrays, integer arithmetic,
-- neighbour counting in nested loops.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local w, h = 64, 48
  local grid = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = ((x * 7 + y * 13) % 5 == 0 or (x + y) % 11 == 0) and 1 or 0 end
    grid[y] = row
  end
  local function step(g)
    local new = {}
    for y = 1, h do
      local up, row, down = g[(y - 2) % h + 1], g[y], g[y % h + 1]
      local out = {}
      for x = 1, w do
        local l, r = (x - 2) % w + 1, x % w + 1
        local n = up[l] + up[x] + up[r] + row[l] + row[r] + down[l] + down[x] + down[r]
        if n == 3 or (n == 2 and row[x] == 1) then out[x] = 1 else out[x] = 0 end
      end
      new[y] = out
    end
    return new
  end
  for _ = 1, 60 do grid = step(grid) end
  local alive = 0
  for y = 1, h do for x = 1, w do alive = alive + grid[y][x] end end
  print(alive)
end
