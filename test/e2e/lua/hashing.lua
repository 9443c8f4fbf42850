-- Checksums over bytes with integer and bitwise arithmetic: FNV-1a, a
-- CRC-32 table, Adler-32 and a xorshift generator.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local data = {}
  for i = 1, 2000 do data[i] = string.format("%d:%s", i, string.rep("ab", i % 5)) end
  local s = table.concat(data, "|")
  local fnv = 2166136261
  for i = 1, #s do fnv = ((fnv ~ s:byte(i)) * 16777619) & 0xffffffff end
  local crc_table = {}
  for i = 0, 255 do
    local c = i
    for _ = 1, 8 do if c & 1 == 1 then c = 0xedb88320 ~ (c >> 1) else c = c >> 1 end end
    crc_table[i] = c
  end
  local crc = 0xffffffff
  for i = 1, #s do crc = crc_table[(crc ~ s:byte(i)) & 0xff] ~ (crc >> 8) end
  crc = crc ~ 0xffffffff
  local a, b = 1, 0
  for i = 1, #s do a = (a + s:byte(i)) % 65521; b = (b + a) % 65521 end
  local x = 88172645463325252
  for _ = 1, 50000 do x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17) end
  print(#s, string.format("%08x %08x %08x", fnv, crc, (b << 16) | a), x & 0xffff)
end
