-- String building, formatting, concatenation and byte-level work.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local parts = {}
  for i = 1, 20000 do
    parts[#parts + 1] = string.format("%05d:%s", i, string.rep("x", i % 7))
  end
  local s = table.concat(parts, ",")
  local upper = s:upper()
  local count = 0
  for i = 1, #upper, 97 do count = count + upper:byte(i) end
  print(#s, count, s:sub(1, 20), s:reverse():sub(1, 10))
end
