-- Unicode text with the utf8 library: encoding code points, iterating,
-- lengths and offsets, plus string.format of wide values.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local parts = {}
  for i = 1, 3000 do parts[i] = utf8.char(0x41 + i % 26, 0x3b1 + i % 20, 0x4e00 + i % 500) end
  local s = table.concat(parts, " ")
  local n, sum = 0, 0
  for _, c in utf8.codes(s) do n = n + 1; sum = sum + c end
  local len = utf8.len(s)
  local mid = utf8.offset(s, len // 2)
  local greek = 0
  for ch in s:gmatch(utf8.charpattern) do if #ch == 2 then greek = greek + 1 end end
  local cps = { utf8.codepoint(s, 1, 20) }
  print(#s, n, len, sum, mid, greek, #cps, string.format("%q", s:sub(1, 8)))
end
