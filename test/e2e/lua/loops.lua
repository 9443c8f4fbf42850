-- Every loop form: while, repeat-until, numeric for with integer and float
-- steps, generic for over ipairs and pairs, goto as continue, break.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local n, s = 0, 0
  while n < 50000 do n = n + 1; if n % 3 == 0 then s = s + n end end
  local r = 1
  repeat r = r * 3 % 1000003 until r == 1 or r == 7
  local f = 0.0
  for x = 0.0, 100.0, 0.25 do f = f + x end
  local down = 0
  for i = 10000, 1, -3 do down = down + i end
  local t = {}
  for i = 1, 5000 do t[i] = i % 17 end
  local odd = 0
  for i, v in ipairs(t) do
    if v % 2 == 0 then goto continue end
    odd = odd + i
    ::continue::
  end
  local kv = {}
  for i = 1, 2000 do kv["k" .. (i % 300)] = i end
  local keys = 0
  for _, v in pairs(kv) do keys = keys + 1 end
  local firstbig
  for i = 1, #t do if t[i] == 16 then firstbig = i; break end end
  print(s, r, f, down, odd, keys, firstbig)
end
