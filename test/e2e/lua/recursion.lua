-- Deep and mutual recursion, tail calls and variable arguments.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function ack(m, n)
    if m == 0 then return n + 1 end
    if n == 0 then return ack(m - 1, 1) end
    return ack(m - 1, ack(m, n - 1))
  end
  local is_even, is_odd
  function is_even(n) if n == 0 then return true end return is_odd(n - 1) end
  function is_odd(n) if n == 0 then return false end return is_even(n - 1) end
  local function count_down(n, acc) if n == 0 then return acc end return count_down(n - 1, acc + n) end
  local function sum(...)
    local s = 0
    for i = 1, select("#", ...) do s = s + select(i, ...) end
    return s
  end
  local function spread(n) if n == 0 then return end return n, spread(n - 1) end
  local packed, total = 0, 0
  for i = 1, 3000 do
    local t = table.pack(spread(i % 12))
    packed = packed + t.n
    total = total + sum(table.unpack(t, 1, t.n))
  end
  local evens = 0
  for i = 1, 300 do if is_even(i) then evens = evens + 1 end end
  print(ack(2, 300), ack(3, 5), evens, count_down(100000, 0), packed, total)
end
