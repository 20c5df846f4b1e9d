-- wrk script: each request picks a random target from the list in the file named by the env var
-- WRK_TARGETS (one path per line), so every request is a different lookup.
local paths = {}
local file = os.getenv("WRK_TARGETS")
for line in io.lines(file) do paths[#paths + 1] = line end
math.randomseed(20261121)
request = function()
  return wrk.format("GET", paths[math.random(1, #paths)])
end
