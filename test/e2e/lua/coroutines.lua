-- Coroutines as generators and producer/consumer pipelines.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function gen(n)
    return coroutine.wrap(function()
      for i = 1, n do coroutine.yield(i) end
    end)
  end
  local function filter(pred, g)
    return coroutine.wrap(function()
      for v in g do if pred(v) then coroutine.yield(v) end end
    end)
  end
  local sum, count = 0, 0
  for v in filter(function(x) return x % 3 == 0 end, gen(60000)) do
    sum = sum + v; count = count + 1
  end
  local co = coroutine.create(function(a)
    local acc = a
    while true do acc = acc + coroutine.yield(acc) end
  end)
  local last
  for i = 1, 20000 do local _, v = coroutine.resume(co, i); last = v end
  print(sum, count, last)
end
