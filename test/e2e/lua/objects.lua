-- Metatables: classes, inheritance, __index chains, operators, __tostring.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local Vec = {}
  Vec.__index = Vec
  function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
  Vec.__add = function(a, b) return Vec.new(a.x + b.x, a.y + b.y) end
  Vec.__mul = function(a, k) return Vec.new(a.x * k, a.y * k) end
  Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
  Vec.__tostring = function(v) return "(" .. v.x .. ", " .. v.y .. ")" end
  function Vec:len2() return self.x * self.x + self.y * self.y end
  local Shape = {}
  Shape.__index = Shape
  function Shape.new(name) return setmetatable({name = name, pos = Vec.new(0, 0)}, Shape) end
  function Shape:move(d) self.pos = self.pos + d; return self end
  function Shape:area() return 0 end
  local Circle = setmetatable({}, {__index = Shape})
  Circle.__index = Circle
  function Circle.new(r) local c = Shape.new("circle"); c.r = r; return setmetatable(c, Circle) end
  function Circle:area() return 3.14159 * self.r * self.r end
  local Rect = setmetatable({}, {__index = Shape})
  Rect.__index = Rect
  function Rect.new(w, h) local s = Shape.new("rect"); s.w, s.h = w, h; return setmetatable(s, Rect) end
  function Rect:area() return self.w * self.h end
  local shapes, total = {}, 0
  for i = 1, 3000 do shapes[i] = (i % 2 == 0) and Circle.new(i % 7) or Rect.new(i % 5, i % 3) end
  for round = 1, 40 do
    for _, s in ipairs(shapes) do
      s:move(Vec.new(1, -1) * round)
      total = total + s:area() + s.pos:len2() % 7
    end
  end
  local same = 0
  for i = 2, #shapes do if shapes[i].pos == shapes[i - 1].pos then same = same + 1 end end
  print(string.format("%.1f", total), same, tostring(shapes[1].pos))
end
