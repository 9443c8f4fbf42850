-- Tables whose integer keys do not form a sequence: they live in the hash
-- part (memo tables, sparse vectors and polynomials, integer sets), with
-- deletions, re-insertions and the rehashes that follow.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  -- Collatz chain lengths, memoised by the (large, scattered) start value.
  local steps = {[1] = 0}
  local function chain(x)
    local known = steps[x]
    if known then return known end
    local nextx = x % 2 == 0 and x // 2 or 3 * x + 1
    local length = chain(nextx) + 1
    steps[x] = length
    return length
  end
  local longest, start = 0, 1
  for x = 1, 30000 do
    local length = chain(x)
    if length > longest then longest, start = length, x end
  end

  -- Sparse polynomials: exponent -> coefficient, multiplied and summed.
  local function poly_mul(p, q)
    local r = {}
    for e1, c1 in pairs(p) do
      for e2, c2 in pairs(q) do
        local e = e1 + e2
        local c = (r[e] or 0) + c1 * c2
        rawset(r, e, c ~= 0 and c or nil)
      end
    end
    return r
  end
  local p, q = {}, {}
  for i = 0, 60 do p[i * i] = i % 5 - 2; q[i * 37 + 1] = (i % 3) - 1 end
  local product = poly_mul(p, q)
  local terms, degree = 0, 0
  for e, c in pairs(product) do
    terms = terms + 1
    if e > degree then degree = e end
  end

  -- An integer set fed by a linear congruential generator: membership
  -- tests, removals of every third value seen, and re-insertions.
  local seen, distinct, removed = {}, 0, 0
  local state = 12345
  for i = 1, 60000 do
    state = (state * 1103515245 + 12345) % 2147483648
    local v = state // 65536 - 16384
    if seen[v] then
      if i % 3 == 0 then rawset(seen, v, nil); removed = removed + 1 end
    else
      seen[v] = i; distinct = distinct + 1
    end
  end
  local live = 0
  for _ in pairs(seen) do live = live + 1 end

  -- A sparse vector dot product, keys spread over a wide range.
  local a, b = {}, {}
  for i = 1, 5000 do a[i * 104729 % 1000003] = i; b[i * 7 % 1000003] = i end
  local dot = 0
  for k, v in pairs(a) do local w = b[k]; if w then dot = dot + v * w end end

  print(longest, start, terms, degree, distinct, removed, live, dot)
end
