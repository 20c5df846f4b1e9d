#!/usr/bin/env bash
# `make run`: builds the services and starts each on its embedded defaults — SQLite files under
# ./data, the in-process MQTT broker, demo data loaded into an empty database — on
# 8080 (citizen-api), 8081 (platform-messages) and 8082 (streets-api). Ctrl-C stops them all.
#
# The binaries are taken from cargo's target directory as `cargo metadata` reports it, so
# CARGO_TARGET_DIR / build.target-dir are honoured. A service whose binary was not built (a
# library-only crate) is skipped with a notice. When a service cannot start (port taken, early
# exit, port not answering within RUN_LOCAL_START_TIMEOUT seconds) the script names it, shows
# the tail of its log (data/log/<service>.log) and stops the others.
set -euo pipefail
cd "$(dirname "$0")/.."

# The services, in start order, as name:port. Adding one is adding a word here; each gets
# <PREFIX>__HTTP__HOST/PORT, __TELEMETRY__FORMAT=pretty and __DATABASE__URL=sqlite://data/<name>.db
# (PREFIX = the name in upper case, - -> _), plus what extra_env below adds.
SERVICES=(streets-api:8082 platform-messages:8081 citizen-api:8080)
START_TIMEOUT="${RUN_LOCAL_START_TIMEOUT:-60}"   # seconds until a port must answer
STOP_TIMEOUT="${RUN_LOCAL_STOP_TIMEOUT:-30}"     # seconds before a stopping service is killed
DEV_SECRET_DEFAULT=local-dev-secret-change-me
# The web app (citizen-api's page on 8080) calls platform-messages from the browser: its CORS
# lets the page's origins in (streets-api allows any origin by default; docs/web-app.md).
WEB_APP_ORIGINS=http://localhost:8080,http://127.0.0.1:8080

extra_env() { # name -> further NAME=value words, one per line
  case "$1" in
    streets-api)
      echo STREETS_API__DEMO__LOAD_WHEN_EMPTY=true ;;
    platform-messages)
      echo PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER=true
      # MQTT over WebSocket for the web app's live announcements (docs/web-app.md).
      echo PLATFORM_MESSAGES__MQTT__EMBEDDED_WEBSOCKET_LISTEN=127.0.0.1:1885
      echo "PLATFORM_MESSAGES__HTTP__CORS_ALLOWED_ORIGINS=$WEB_APP_ORIGINS"
      echo "PLATFORM_MESSAGES__AUTH__DEV_SECRET=${PLATFORM_MESSAGES__AUTH__DEV_SECRET:-$DEV_SECRET_DEFAULT}" ;;
    citizen-api)
      echo CITIZEN_API__DEMO__LOAD_WHEN_EMPTY=true
      # The address notifications link to (the report's page, docs/notifications.md).
      echo CITIZEN_API__HTTP__PUBLIC_URL=http://localhost:8080/api/v1
      echo CITIZEN_API__WEB__MQTT_WEBSOCKET_URL=ws://localhost:1885/mqtt
      # An Open311 integrator's key, to try filing through the facade (docs/open311.md).
      echo "CITIZEN_API__OPEN311__API_KEYS__LOCAL=${CITIZEN_API__OPEN311__API_KEYS__LOCAL:-local-open311-key-for-make-run}"
      echo "CITIZEN_API__AUTH__DEV_SECRET=${CITIZEN_API__AUTH__DEV_SECRET:-$DEV_SECRET_DEFAULT}" ;;
  esac
}

hint() { # name port -> the line printed once everything answers
  local base="http://127.0.0.1:$2"
  case "$1" in
    streets-api)       echo "$base/api/v1/streets?q=nam   docs: $base/api/v1/docs/" ;;
    platform-messages) echo "$base/api/v1/docs/           MQTT: mqtt://127.0.0.1:1884, ws://127.0.0.1:1885/mqtt (in-process)" ;;
    citizen-api)       echo "http://localhost:$2/   API: $base/api/v1/reports   docs: $base/api/v1/docs/" ;;
    *)                 echo "$base/api/v1/docs/" ;;
  esac
}

say() { printf 'run-local: %s\n' "$*" >&2; }

cargo build --bins --locked

target_dir="$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
bin_dir="$target_dir/${CARGO_BUILD_TARGET:+$CARGO_BUILD_TARGET/}debug"

mkdir -p data data/log
export RUST_LOG="${RUST_LOG:-info,sqlx=warn}"

names=() pids=() ports=() logs=()

port_answers() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

stop_all() {
  local i deadline
  for i in "${!pids[@]}"; do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
  deadline=$((SECONDS + STOP_TIMEOUT))
  for i in "${!pids[@]}"; do
    while kill -0 "${pids[$i]}" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
    if kill -0 "${pids[$i]}" 2>/dev/null; then
      say "${names[$i]} did not stop within ${STOP_TIMEOUT}s; killing it"
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
}

on_signal() {
  trap - INT TERM EXIT
  say "stopping ${names[*]:-nothing}"
  stop_all
  exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'stop_all' EXIT

fail() { # index, reason: report a service that could not start or died, stop the rest
  local i=$1 reason=$2
  say "$reason"
  if [ -s "${logs[$i]}" ]; then
    # The end of the log without colour codes and without a trailing (stack) backtrace, which
    # would push the actual error out of view.
    say "last lines of ${logs[$i]}:"
    sed -e 's/\x1b\[[0-9;]*m//g' -e '/^[Ss]tack backtrace:$/,$d' "${logs[$i]}" | tail -n 25 | sed 's/^/    /' >&2
  fi
  exit 1   # the EXIT trap stops every service (this one too, if it still runs)
}

started=0
for entry in "${SERVICES[@]}"; do
  name="${entry%%:*}" port="${entry##*:}"
  bin="$bin_dir/$name"
  if [ ! -x "$bin" ]; then
    say "$name: no binary at $bin (library only, or not built); not started"
    continue
  fi
  if port_answers "$port"; then
    say "$name cannot start: port $port on 127.0.0.1 is already in use"
    ss -Hltnp "sport = :$port" 2>/dev/null | sed 's/^/    /' >&2 || true
    exit 1
  fi
  prefix="$(printf '%s' "$name" | tr 'a-z-' 'A-Z_')"
  mapfile -t extra < <(extra_env "$name")
  log="data/log/$name.log"
  : >"$log"
  # The service's output goes to the terminal, prefixed with its name, and to its log file.
  # tee and sed ignore Ctrl-C, so the service can still log while it shuts down.
  env "${prefix}__HTTP__HOST=127.0.0.1" "${prefix}__HTTP__PORT=$port" \
      "${prefix}__TELEMETRY__FORMAT=pretty" "${prefix}__DATABASE__URL=sqlite://data/$name.db" \
      ${extra[@]+"${extra[@]}"} \
      "$bin" serve > >(trap '' INT TERM; tee -a "$log" | sed -u "s/^/[$name] /") 2>&1 &
  names+=("$name") pids+=($!) ports+=("$port") logs+=("$log")
  started=$((started + 1))
done

if [ "$started" -eq 0 ]; then
  say "no service binary found under $bin_dir (cargo's target directory: $target_dir)"
  exit 1
fi

# Every started service must keep running and answer on its port within START_TIMEOUT.
deadline=$((SECONDS + START_TIMEOUT))
for i in "${!pids[@]}"; do
  until port_answers "${ports[$i]}"; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null; then
      status=0; wait "${pids[$i]}" || status=$?
      fail "$i" "${names[$i]} exited during start-up (status $status)"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail "$i" "${names[$i]} did not answer on 127.0.0.1:${ports[$i]} within ${START_TIMEOUT}s (RUN_LOCAL_START_TIMEOUT)"
    fi
    sleep 0.2
  done
done
for i in "${!pids[@]}"; do   # answered, but maybe by someone else: is it still ours and alive?
  kill -0 "${pids[$i]}" 2>/dev/null || fail "$i" "${names[$i]} exited during start-up"
done

{
  echo
  for i in "${!pids[@]}"; do printf '  %-18s %s\n' "${names[$i]}" "$(hint "${names[$i]}" "${ports[$i]}")"; done
  [ -x "$bin_dir/platform-messages" ] &&
    echo "  Operator token:    $bin_dir/platform-messages dev-token --sub operator --scope platform:messages:manage"
  echo "  Logs:              data/log/<service>.log"
  echo "  Ctrl-C stops everything."
  echo
} >&2

# Run until a service exits on its own (then stop the others) or a signal arrives.
while :; do
  done_pid=""; status=0
  wait -n -p done_pid "${pids[@]}" || status=$?
  [ -n "$done_pid" ] || continue   # interrupted by a signal without an exit: keep waiting
  for i in "${!pids[@]}"; do
    [ "${pids[$i]}" = "$done_pid" ] && fail "$i" "${names[$i]} exited (status $status); stopping the others"
  done
done
