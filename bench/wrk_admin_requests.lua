-- wrk script for the officers' list: like wrk_requests.lua (a random target per request from the
-- file named by WRK_TARGETS), each request with the bearer token in WRK_TOKEN, and with
-- If-None-Match: WRK_ETAG when it is set (the console's conditional poll).
local paths = {}
local file = os.getenv("WRK_TARGETS")
for line in io.lines(file) do paths[#paths + 1] = line end
local headers = { ["Authorization"] = "Bearer " .. os.getenv("WRK_TOKEN") }
local etag = os.getenv("WRK_ETAG")
if etag and etag ~= "" then headers["If-None-Match"] = etag end
math.randomseed(20261121)
request = function()
  return wrk.format("GET", paths[math.random(1, #paths)], headers)
end
