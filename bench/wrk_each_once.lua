-- wrk warm-up script: requests the targets of the file named by WRK_TARGETS in order, each once,
-- then stops sending (run with -t1; wrk itself still waits out -d). The ceiling and the detail
-- are measured after it, each with every id it will be asked for read once: the database's
-- buffers hold the rows for both, and the detail's kept JSON holds the details it keeps. At the
-- end it says how many of the targets were answered (a short -d leaves some cold).
local paths = {}
local file = os.getenv("WRK_TARGETS")
for line in io.lines(file) do paths[#paths + 1] = line end
local threads = {}
sent, answered = 0, 0
setup = function(thread) table.insert(threads, thread) end
request = function()
  sent = sent + 1
  return wrk.format("GET", paths[((sent - 1) % #paths) + 1])
end
response = function(status, headers, body)
  answered = answered + 1
  if answered >= #paths then wrk.thread:stop() end
end
done = function(summary, latency, requests)
  local n = 0
  for _, thread in ipairs(threads) do n = n + thread:get("answered") end
  io.stderr:write(string.format("warm-up: %d of %d targets answered\n", math.min(n, #paths), #paths))
end
