-- Table construction, hashing, sorting and iteration.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local t = {}
  for i = 1, 60000 do t[i] = (i * 7919) % 10007 end
  table.sort(t)
  local h = {}
  for i = 1, #t do h["k" .. t[i]] = (h["k" .. t[i]] or 0) + 1 end
  local keys, sum = 0, 0
  for k, v in pairs(h) do keys = keys + 1; sum = sum + v end
  local m = {}
  for i = 1, 200 do m[i] = {} for j = 1, 200 do m[i][j] = i * j end end
  local tr = 0
  for i = 1, 200 do tr = tr + m[i][i] end
  print(keys, sum, t[1], t[#t], tr)
end
