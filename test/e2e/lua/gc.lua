-- Allocation-heavy work that keeps the garbage collector busy. Keys are
-- integers and strings only: tables keyed by tables hash addresses, which
-- would make the run depend on the binary's memory layout.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local keep = {}
  for round = 1, 40 do
    local garbage = {}
    for i = 1, 4000 do garbage[i] = { i, tostring(i), { i } } end
    keep[round % 10 + 1] = garbage
    if round % 8 == 0 then collectgarbage("collect") end
  end
  local weak = setmetatable({}, { __mode = "v" })
  local strong = {}
  for i = 1, 2000 do
    local v = { i }
    weak[i] = v
    if i % 4 == 0 then strong[#strong + 1] = v end
  end
  collectgarbage("collect")
  local left = 0
  for _ in pairs(weak) do left = left + 1 end
  print(#keep, left, #strong, collectgarbage("count") > 0)
end
