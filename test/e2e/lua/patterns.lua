-- Pattern matching: find, match, gmatch, gsub with captures.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local words = {}
  for i = 1, 4000 do
    words[#words + 1] = string.format("item%d=%s;", i, (i % 5 == 0) and "five" or "other")
  end
  local text = table.concat(words, " ")
  local n5 = 0
  for k, v in text:gmatch("(item%d+)=(%a+);") do if v == "five" then n5 = n5 + 1 end end
  local replaced, nrep = text:gsub("item(%d+)", function(d) return "#" .. (tonumber(d) * 2) end)
  local digits = 0
  for d in replaced:gmatch("%d") do digits = digits + 1 end
  local a, b = text:find("item3999=%a+")
  print(n5, nrep, digits, a, b, text:match("item(%d%d%d%d)"))
end
