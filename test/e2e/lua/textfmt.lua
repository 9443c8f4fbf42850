-- Text formatting and conversion: string.format with many specifiers,
-- tostring / tonumber round trips, gsub with function and table
-- replacements, case changes, reversal and string comparison in a sort.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local lines = {}
  for i = 1, 3000 do
    lines[i] = string.format("%5d|%-8s|%08.3f|%x|%q|%g", i, "id" .. i % 97, i / 7, i * 31, "q" .. i, i * 1e-3)
  end
  local back = 0
  for i = 1, #lines do
    local n, hex = lines[i]:match("^%s*(%d+)|[^|]*|[^|]*|(%x+)|")
    back = back + tonumber(n) + tonumber(hex, 16) + (tonumber(tostring(i / 4)) or 0)
  end
  local vars = {name = "phaedrus", kind = "tool", year = "2026"}
  local expanded = 0
  for i = 1, 4000 do
    local s = ("$name is a $kind from $year #" .. i):gsub("%$(%w+)", vars)
    s = s:gsub("%d", function(d) return d * 2 end)
    expanded = expanded + #s + #s:upper() - #s:lower() + (s:reverse():byte(1) or 0)
  end
  local words = {}
  for i = 1, 2500 do words[i] = string.char(97 + i % 26, 97 + (i * 7) % 26, 97 + (i * 13) % 26) .. i % 10 end
  table.sort(words)
  print(back, expanded, words[1], words[#words], #lines[1])
end
