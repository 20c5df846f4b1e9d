-- wrk script for the officers' list: like wrk_requests.lua (a random target per request from the
-- file named by WRK_TARGETS), each request with the bearer token in WRK_TOKEN.
local paths = {}
local file = os.getenv("WRK_TARGETS")
for line in io.lines(file) do paths[#paths + 1] = line end
local auth = "Bearer " .. os.getenv("WRK_TOKEN")
math.randomseed(20261121)
request = function()
  return wrk.format("GET", paths[math.random(1, #paths)], { ["Authorization"] = auth })
end
