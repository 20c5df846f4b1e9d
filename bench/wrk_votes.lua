-- wrk script for the vote pool: requests alternate between placing one token
-- (POST /api/v1/me/vote-tokens) and revoking on the same account and target
-- (PATCH /api/v1/me/vote-token-revoke, count 2, which also takes back a token whose revoke
-- overtook its place on another connection). Accounts are bearer tokens, one per line in the
-- file WRK_TOKENS; targets are report ids, one per line in WRK_TARGETS.
local tokens, targets = {}, {}
for line in io.lines(os.getenv("WRK_TOKENS")) do tokens[#tokens + 1] = line end
for line in io.lines(os.getenv("WRK_TARGETS")) do targets[#targets + 1] = line end
math.randomseed(20261123)
local pending = nil
request = function()
  local headers = { ["Content-Type"] = "application/json" }
  if pending then
    headers["Authorization"] = "Bearer " .. pending.token
    local body = '{"target":"' .. pending.target .. '","count":2}'
    pending = nil
    return wrk.format("PATCH", "/api/v1/me/vote-token-revoke", headers, body)
  end
  pending = {
    token = tokens[math.random(1, #tokens)],
    target = targets[math.random(1, #targets)],
  }
  headers["Authorization"] = "Bearer " .. pending.token
  return wrk.format("POST", "/api/v1/me/vote-tokens", headers,
    '{"target":"' .. pending.target .. '","count":1}')
end
