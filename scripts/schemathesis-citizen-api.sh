# Sourced by scripts/schemathesis.sh: citizen-api against its own description, on the demo data,
# with a dev token of a super admin (so /me/* answers too).
CA_SECRET="schemathesis-dev-secret"
export CITIZEN_API__AUTH__DEV_SECRET="$CA_SECRET"
CITIZEN_API__HTTP__HOST=127.0.0.1 CITIZEN_API__HTTP__PORT=18180 \
CITIZEN_API__TELEMETRY__FILTER=error \
CITIZEN_API__DATABASE__URL="sqlite://$work/citizen.db" CITIZEN_API__DEMO__LOAD_WHEN_EMPTY=true \
  "$BIN/citizen-api" serve &
pids+=($!)
wait_ready http://127.0.0.1:18180/readyz
token=$("$BIN/citizen-api" dev-token --sub demo-citizen \
  --scope cityuser:report-categories:access-all --ttl-minutes 30)
run_st citizen-api 18180 -H "Authorization: Bearer $token"
unset CITIZEN_API__AUTH__DEV_SECRET
