-- Metamethods other than arithmetic: __index and __newindex functions
-- (read-only and logging proxies), __len, __call, __concat, __lt, __le,
-- __close, rawget and rawset.
-- The optional argument repeats the work (benchmarks run longer inputs).
for _ = 1, tonumber(arg and arg[1]) or 1 do
  local function readonly(t)
    return setmetatable({}, { __index = t, __newindex = function() error("read-only", 2) end, __len = function() return #t end })
  end
  local writes = 0
  local function logged(t)
    return setmetatable({}, {
      __index = function(_, k) return rawget(t, k) end,
      __newindex = function(_, k, v) writes = writes + 1; rawset(t, k, v) end,
    })
  end
  local base = {}
  for i = 1, 500 do base[i] = i * 2 end
  local ro, lg = readonly(base), logged({})
  local sum, denied = 0, 0
  for r = 1, 20 do
    for i = 1, #ro do sum = sum + ro[i] end
    for i = 1, 200 do lg[i] = (lg[i] or 0) + r end
    if not pcall(function() ro[1] = 0 end) then denied = denied + 1 end
  end
  local Version = {}
  Version.__index = Version
  Version.__lt = function(a, b) return a.major < b.major or (a.major == b.major and a.minor < b.minor) end
  Version.__le = function(a, b) return not (b < a) end
  Version.__concat = function(a, b) return tostring(a.major) .. "." .. a.minor .. "+" .. b end
  Version.__call = function(self, bump) return setmetatable({ major = self.major, minor = self.minor + bump }, Version) end
  local vs = {}
  for i = 1, 1500 do vs[i] = setmetatable({ major = i % 13, minor = i % 29 }, Version) end
  table.sort(vs, function(a, b) return a < b end)
  local le = 0
  for i = 2, #vs do if vs[i - 1] <= vs[i] then le = le + 1 end end
  local closed = 0
  for i = 1, 300 do
    local res <close> = setmetatable({}, { __close = function() closed = closed + 1 end })
  end
  print(sum, writes, denied, le, vs[1] .. "x", vs[#vs](3).minor, closed)
end
