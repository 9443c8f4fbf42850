-- Integers and bytes: bitwise operators, integer division and modulo,
-- a table-driven CRC-32, and records through string.pack / string.unpack.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local crc_table = {}
  for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
      if c & 1 == 1 then c = 0xEDB88320 ~ (c >> 1) else c = c >> 1 end
    end
    crc_table[i + 1] = c
  end
  local function crc32(s)
    local c = 0xFFFFFFFF
    for i = 1, #s do c = crc_table[((c ~ s:byte(i)) & 0xFF) + 1] ~ (c >> 8) end
    return c ~ 0xFFFFFFFF
  end
  local parts = {}
  for i = 1, 400 do parts[i] = string.pack("<i4 I2 d s1", i * 7919, i % 65536, i / 3, "rec" .. i) end
  local blob = table.concat(parts)
  local pos, sum, names = 1, 0, 0
  while pos <= #blob do
    local a, b, c, name
    a, b, c, name, pos = string.unpack("<i4 I2 d s1", blob, pos)
    sum = sum + a + b + math.floor(c)
    names = names + #name
  end
  local x, mix = 0x12345678, 0
  for i = 1, 60000 do
    x = x ~ (x << 13) & 0xFFFFFFFF
    x = x ~ (x >> 17)
    x = x ~ (x << 5) & 0xFFFFFFFF
    mix = mix + (x // 1024) % 97 - (x % 13) + (~i & 0xF) + (i >> 3 | 1)
  end
  print(crc32(blob), sum, names, mix, string.packsize("<i4 I2 d"), #blob)
end
