-- Operator overloading: complex numbers and 3-vectors as tables with
-- arithmetic metamethods (__add, __sub, __mul, __div, __unm, __eq, __lt,
-- __len, __index), an escape-time fractal and an n-body step.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local C = {}
  C.__index = C
  local function complex(re, im) return setmetatable({re = re, im = im}, C) end
  C.__add = function(a, b) return complex(a.re + b.re, a.im + b.im) end
  C.__sub = function(a, b) return complex(a.re - b.re, a.im - b.im) end
  C.__mul = function(a, b) return complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) end
  C.__unm = function(a) return complex(-a.re, -a.im) end
  function C:abs2() return self.re * self.re + self.im * self.im end
  local escaped = 0
  for y = -20, 20 do
    for x = -40, 20 do
      local c, z, n = complex(x / 20, y / 20), complex(0, 0), 0
      while n < 50 and z:abs2() <= 4 do z = z * z + c; n = n + 1 end
      if n < 50 then escaped = escaped + n end
    end
  end
  local V = {}
  V.__index = V
  local function vec(x, y, z) return setmetatable({x, y, z}, V) end
  V.__add = function(a, b) return vec(a[1] + b[1], a[2] + b[2], a[3] + b[3]) end
  V.__sub = function(a, b) return vec(a[1] - b[1], a[2] - b[2], a[3] - b[3]) end
  V.__mul = function(a, k) return vec(a[1] * k, a[2] * k, a[3] * k) end
  V.__div = function(a, k) return vec(a[1] / k, a[2] / k, a[3] / k) end
  V.__unm = function(a) return vec(-a[1], -a[2], -a[3]) end
  V.__eq = function(a, b) return a[1] == b[1] and a[2] == b[2] and a[3] == b[3] end
  V.__lt = function(a, b) return a:dot(a) < b:dot(b) end
  V.__len = function() return 3 end
  function V:dot(b) return self[1] * b[1] + self[2] * b[2] + self[3] * b[3] end
  local bodies = {}
  for i = 1, 24 do bodies[i] = {p = vec(i, i % 5, -i % 7), v = vec(0, 0, 0)} end
  for _ = 1, 30 do
    for i = 1, #bodies do
      local acc = vec(0, 0, 0)
      for j = 1, #bodies do
        if i ~= j then
          local d = bodies[j].p - bodies[i].p
          acc = acc + d / (d:dot(d) + 0.01)
        end
      end
      bodies[i].v = bodies[i].v + acc * 0.01
    end
    for _, b in ipairs(bodies) do b.p = b.p + b.v end
  end
  local far, equal = 0, 0
  for i = 2, #bodies do
    if bodies[i - 1].p < bodies[i].p then far = far + 1 end
    if -bodies[i].v == bodies[i].v * -1 then equal = equal + #bodies[i].v end
  end
  print(escaped, far, equal, string.format("%.4f", bodies[1].p:dot(bodies[2].p)))
end
