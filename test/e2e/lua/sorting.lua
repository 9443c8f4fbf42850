-- Sorting by hand and with comparators: insertion sort, merge sort,
-- table.sort on records, binary search.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function lcg(seed) return function() seed = (seed * 1103515245 + 12345) % 2147483648; return seed end end
  local rnd = lcg(42)
  local xs = {}
  for i = 1, 3000 do xs[i] = rnd() % 100000 end
  local function insertion(t)
    for i = 2, #t do
      local v, j = t[i], i - 1
      while j >= 1 and t[j] > v do t[j + 1] = t[j]; j = j - 1 end
      t[j + 1] = v
    end
  end
  local function merge_sort(t, lo, hi, tmp)
    if hi - lo < 1 then return end
    local mid = (lo + hi) // 2
    merge_sort(t, lo, mid, tmp); merge_sort(t, mid + 1, hi, tmp)
    local i, j, k = lo, mid + 1, lo
    while i <= mid and j <= hi do
      if t[i] <= t[j] then tmp[k] = t[i]; i = i + 1 else tmp[k] = t[j]; j = j + 1 end
      k = k + 1
    end
    while i <= mid do tmp[k] = t[i]; i = i + 1; k = k + 1 end
    while j <= hi do tmp[k] = t[j]; j = j + 1; k = k + 1 end
    for m = lo, hi do t[m] = tmp[m] end
  end
  local a = table.move(xs, 1, 800, 1, {})
  insertion(a)
  local b = table.move(xs, 1, #xs, 1, {})
  merge_sort(b, 1, #b, {})
  local people = {}
  for i = 1, 2000 do people[i] = { age = rnd() % 90, name = "p" .. (rnd() % 5000) } end
  table.sort(people, function(p, q) if p.age ~= q.age then return p.age < q.age end return p.name < q.name end)
  local function bsearch(t, v)
    local lo, hi = 1, #t
    while lo <= hi do
      local mid = (lo + hi) // 2
      if t[mid] == v then return mid elseif t[mid] < v then lo = mid + 1 else hi = mid - 1 end
    end
    return nil
  end
  local found = 0
  for i = 1, 5000 do if bsearch(b, i * 17) then found = found + 1 end end
  print(a[1], a[#a], b[1], b[#b], people[1].age, people[#people].name, found)
end
