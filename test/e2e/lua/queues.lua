-- Arrays that grow and shrink: table.insert and table.remove, a binary-heap
-- priority queue driving an event simulation, and a stack machine.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local heap = {}
  local function push(item)
    table.insert(heap, item)
    local i = #heap
    while i > 1 do
      local p = i // 2
      if heap[p].time <= heap[i].time then break end
      heap[p], heap[i] = heap[i], heap[p]
      i = p
    end
  end
  local function pop()
    local top = heap[1]
    local last = table.remove(heap)
    if #heap > 0 then
      heap[1] = last
      local i = 1
      while true do
        local l, r, m = 2 * i, 2 * i + 1, i
        if l <= #heap and heap[l].time < heap[m].time then m = l end
        if r <= #heap and heap[r].time < heap[m].time then m = r end
        if m == i then break end
        heap[m], heap[i] = heap[i], heap[m]
        i = m
      end
    end
    return top
  end
  for i = 1, 200 do push({time = (i * 37) % 101, kind = i % 3}) end
  local served, clock = {0, 0, 0}, 0
  for _ = 1, 6000 do
    local e = pop()
    clock = e.time
    served[e.kind + 1] = served[e.kind + 1] + 1
    push({time = clock + (clock * 7 + e.kind) % 23 + 1, kind = (e.kind + 1) % 3})
  end
  local stack, out = {}, 0
  for i = 1, 20000 do
    if i % 3 == 0 and #stack >= 2 then
      local b, a = table.remove(stack), table.remove(stack)
      table.insert(stack, (a * b) % 1009)
    elseif i % 7 == 0 and #stack > 0 then
      out = out + table.remove(stack, 1)
    else
      table.insert(stack, 1 + #stack // 2, i)
    end
  end
  print(clock, served[1], served[2], served[3], #stack, out)
end
