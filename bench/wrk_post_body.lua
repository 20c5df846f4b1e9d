-- wrk script: every request POSTs the same prepared body (the file named by WRK_BODY) with the
-- Content-Type in WRK_CONTENT_TYPE (e.g. a multipart form with a 5 MB photo).
local file = assert(io.open(os.getenv("WRK_BODY"), "rb"))
wrk.body = file:read("*a")
file:close()
wrk.method = "POST"
wrk.headers["Content-Type"] = os.getenv("WRK_CONTENT_TYPE")
