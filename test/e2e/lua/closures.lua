-- Closures, upvalues, higher-order functions and recursion.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function counter()
    local n = 0
    return function(k) n = n + (k or 1); return n end
  end
  local cs = {}
  for i = 1, 500 do cs[i] = counter() end
  local total = 0
  for r = 1, 200 do
    for i = 1, #cs do total = total + cs[i](i % 3) end
  end
  local function map(f, t) local out = {} for i, v in ipairs(t) do out[i] = f(v) end return out end
  local function fold(f, acc, t) for _, v in ipairs(t) do acc = f(acc, v) end return acc end
  local xs = {}
  for i = 1, 5000 do xs[i] = i end
  local ys = map(function(x) return x * x end, xs)
  local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
  print(total, fold(function(a, b) return a + b end, 0, ys), fib(22))
end
