-- The compiler: generated source compiled with load (lexer, parser, code
-- generator), binary chunks through string.dump and load again, and the
-- compiled functions run.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local total, sizes = 0, 0
  for i = 1, 300 do
    local src = string.format([[
      local n, acc = %d, {}
      local function f(a, b) if a > b then return a - b else return b - a end end
      for k = 1, n do acc[#acc + 1] = f(k, %d) * 2 end
      local t = {x = 1, y = "s%d", [3] = true, nested = {1, 2, {3}}}
      while n > 0 do n = n - 3 end
      return #acc + t.x + (t[3] and 1 or 0) + #t.nested
    ]], i % 50 + 1, i % 17, i)
    local chunk = assert(load(src, "=gen" .. i))
    total = total + chunk()
    local bin = string.dump(chunk)
    sizes = sizes + #bin
    local again = assert(load(bin, "=bin" .. i, "b"))
    total = total + again()
  end
  local expr, ok = 0, 0
  for i = 1, 200 do
    local f = load("return " .. i .. " * (" .. (i % 9) .. " + 2) // 3")
    expr = expr + f()
    if not load("return " .. i .. " +") then ok = ok + 1 end
  end
  print(total, sizes > 0, expr, ok)
end
