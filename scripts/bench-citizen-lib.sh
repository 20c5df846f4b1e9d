# Sourced by citizen-api's bench scripts (after `cd` to the repository): BIN, the release
# citizen-api (built here unless BENCH_CITIZEN_BIN_DIR names a prebuilt one, to compare two
# builds); a work folder, and `server`, the pid of the service under test; on exit the server is
# stopped, the folder removed and, when the script named one in PG_DB, its PostgreSQL database
# dropped (at PG_ADMIN).
# The allocator as the image runs it (deploy/docker/Dockerfile, docs/operations.md).
export MIMALLOC_PURGE_DELAY="${MIMALLOC_PURGE_DELAY:-10}"
if [ -n "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  BIN="$BENCH_CITIZEN_BIN_DIR/citizen-api"
else
  cargo build --release --locked -p citizen-api -q
  TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  BIN="$TARGET_DIR/release/citizen-api"
fi
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
  if [ -n "${PG_DB:-}" ]; then
    psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
mkdir -p bench-results
