-- Floating point and the math library: series, roots, trigonometry,
-- exponentials, rounding and a seeded random walk.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  math.randomseed(20261122)
  -- Taylor series of exp against the library, Newton's method for roots.
  local function exp_series(x)
    local term, sum = 1.0, 1.0
    for k = 1, 30 do term = term * x / k; sum = sum + term end
    return sum
  end
  local function newton_root(a, n)
    local x = a > 1 and a / n or 1.0
    for _ = 1, 40 do x = x - (x ^ n - a) / (n * x ^ (n - 1)) end
    return x
  end
  local err, roots = 0.0, 0.0
  for i = 1, 4000 do
    local x = (i % 200) / 50 - 2
    err = math.max(err, math.abs(exp_series(x) - math.exp(x)))
    roots = roots + newton_root(i, 3) - i ^ (1 / 3)
  end
  -- Trigonometric identities and the angle of points on a circle.
  local identity, angles = 0.0, 0.0
  for i = 1, 20000 do
    local t = i * 0.001
    identity = identity + math.sin(t) ^ 2 + math.cos(t) ^ 2 - 1
    angles = angles + math.atan(math.sin(t), math.cos(t)) - math.fmod(t + math.pi, 2 * math.pi) + math.pi
    angles = angles + math.tan(t * 0.1) - math.log(1 + t) + math.log(t, 10) * 0
  end
  -- Rounding and conversions between floats and integers.
  local floors, ints = 0, 0
  for i = 1, 30000 do
    local v = i / 7
    floors = floors + math.floor(v) - math.ceil(-v) + (math.tointeger(i * 1.0) or 0)
    local ip, fp = math.modf(v)
    if fp < 0.5 then ints = ints + 1 end
    floors = floors + (math.type(ip) == "float" and 2 or 1)
    floors = floors + (math.ult(i, 100) and 1 or 0)
  end
  -- A random walk with reflecting walls.
  local pos, hits = 0, 0
  for _ = 1, 50000 do
    pos = pos + math.random(-1, 1)
    if math.abs(pos) > 30 then pos = pos // 2; hits = hits + 1 end
  end
  local r = math.random()
  print(string.format("%.3e %.6f %.3e %.3e", err, roots, identity, angles),
        floors, ints, pos, hits, r < 1, math.min(3, 1, 2), math.huge > math.maxinteger)
end
