-- Text processing the way scripts do it: splitting lines and fields,
-- counting words, string.byte/char round trips, rep and format.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local lines = {}
  for i = 1, 2000 do
    lines[i] = table.concat({ "row" .. i, tostring(i * 3), (i % 4 == 0) and "alpha" or "beta", string.rep("z", i % 9) }, "\t")
  end
  local text = table.concat(lines, "\n")
  local fields, words = 0, {}
  for line in text:gmatch("[^\n]+") do
    for field in line:gmatch("[^\t]+") do
      fields = fields + 1
      words[field:sub(1, 3)] = (words[field:sub(1, 3)] or 0) + 1
    end
  end
  local distinct = 0
  for _ in pairs(words) do distinct = distinct + 1 end
  local bytes = {}
  for i = 1, 3000 do bytes[i] = string.char(32 + i % 90) end
  local str = table.concat(bytes)
  local sum = 0
  for i = 1, #str do sum = sum + str:byte(i) end
  local caesar = str:gsub("%a", function(c) local b = c:byte() return string.char(b + 1) end)
  print(fields, distinct, sum, #caesar, string.format("%-8s|%8.3f|%x", "end", sum / 7, sum))
end
