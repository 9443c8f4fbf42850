-- Numbers: integer and float arithmetic, a sieve, matrices, the math library.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function sieve(n)
    local composite, count = {}, 0
    for i = 2, n do
      if not composite[i] then
        count = count + 1
        for j = i * i, n, i do composite[j] = true end
      end
    end
    return count
  end
  local function matmul(a, b, n)
    local c = {}
    for i = 1, n do
      local row = {}
      for j = 1, n do
        local s = 0.0
        for k = 1, n do s = s + a[i][k] * b[k][j] end
        row[j] = s
      end
      c[i] = row
    end
    return c
  end
  local n, a, b = 60, {}, {}
  for i = 1, n do
    a[i], b[i] = {}, {}
    for j = 1, n do a[i][j] = math.sin(i + j); b[i][j] = math.cos(i - j) end
  end
  local c = matmul(a, b, n)
  local acc, bits = 0.0, 0
  for i = 1, 200000 do
    acc = acc + math.sqrt(i) / (i % 13 + 1)
    bits = bits ~ (i << (i % 7)) & 0xffff
  end
  print(sieve(200000), string.format("%.4f %.4f", c[n][n], acc), bits, math.floor(acc) // 7)
end
