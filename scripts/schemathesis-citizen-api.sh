# Sourced by scripts/schemathesis.sh: citizen-api against its own description, on the demo data,
# with a dev token of a super admin holding every officer's scope and editor of news, news
# categories and projects (so /me/*, /admin/* and the editors' writes answer too; the fuzzer's
# DELETEs only touch the throwaway demo database).
CA_SECRET="schemathesis-dev-secret"
export CITIZEN_API__AUTH__DEV_SECRET="$CA_SECRET"
CITIZEN_API__HTTP__HOST=127.0.0.1 CITIZEN_API__HTTP__PORT=18180 \
CITIZEN_API__TELEMETRY__FILTER=error \
CITIZEN_API__DATABASE__URL="sqlite://$work/citizen.db" CITIZEN_API__DEMO__LOAD_WHEN_EMPTY=true \
  "$BIN/citizen-api" serve &
pids+=($!)
wait_ready http://127.0.0.1:18180/readyz
token=$("$BIN/citizen-api" dev-token --sub demo-citizen \
  --scope cityuser:report-categories:access-all --scope cityuser:news:manage \
  --scope cityuser:news-categories:manage --scope cityuser:projects:manage \
  --scope cityuser:reports:read --scope cityuser:reports:manage \
  --scope cityuser:report-categories:manage --ttl-minutes 30)
run_st citizen-api 18180 -H "Authorization: Bearer $token"
unset CITIZEN_API__AUTH__DEV_SECRET
