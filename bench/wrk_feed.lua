-- wrk script for the notification feed: GET WRK_PATH (e.g. /api/v1/me/notifications) as a
-- random account of the bearer tokens in WRK_TOKENS (one per line).
local tokens = {}
for line in io.lines(os.getenv("WRK_TOKENS")) do tokens[#tokens + 1] = line end
local path = os.getenv("WRK_PATH")
math.randomseed(20261123)
request = function()
  local headers = { ["Authorization"] = "Bearer " .. tokens[math.random(1, #tokens)] }
  return wrk.format("GET", path, headers)
end
