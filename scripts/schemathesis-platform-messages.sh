# Sourced by scripts/schemathesis.sh: platform-messages against its own description, with a dev
# token that has the operator scope and names a client application (so /me/messages works too).
PM_SECRET="schemathesis-dev-secret"
export PLATFORM_MESSAGES__AUTH__DEV_SECRET="$PM_SECRET"
PLATFORM_MESSAGES__HTTP__HOST=127.0.0.1 PLATFORM_MESSAGES__HTTP__PORT=18181 \
PLATFORM_MESSAGES__TELEMETRY__FILTER=error \
PLATFORM_MESSAGES__DATABASE__URL="sqlite://$work/messages.db" \
PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER=true PLATFORM_MESSAGES__MQTT__EMBEDDED_LISTEN=127.0.0.1:18184 \
  "$BIN/platform-messages" serve &
pids+=($!)
wait_ready http://127.0.0.1:18181/readyz
token=$("$BIN/platform-messages" dev-token --sub schemathesis --scope platform:messages:manage \
  --role staff --client-id web --ttl-minutes 30)
run_st platform-messages 18181 -H "Authorization: Bearer $token"
unset PLATFORM_MESSAGES__AUTH__DEV_SECRET
