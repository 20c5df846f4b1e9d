#!/usr/bin/env bash
# `make browser` (and the end of `make test`): the browser suite of tests/browser (docs/web-app.md,
# "Browser suite") — Playwright for Python driving Debian's Chromium against the three services,
# which the suite starts itself (free ports, SQLite in a temporary directory, the demo data,
# a Mosquitto of its own with a WebSocket listener). Arguments go to pytest (e.g. -k filing).
#
# Needs /usr/bin/chromium (BROWSER_CHROMIUM; `apt-get install chromium`) and a Python with
# tests/browser/requirements.txt (BROWSER_PYTHON, else the venv BROWSER_VENV,
# ~/.cache/citizen-browser-venv). Without them the suite is skipped and the skip recorded in
# target/test-skips.txt (scripts/report-skips.sh shows it); REQUIRE_BROWSER=1 (CI) fails instead.
# Nothing here downloads a browser: never `playwright install`.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${BROWSER_CHROMIUM:-/usr/bin/chromium}"
VENV="${BROWSER_VENV:-$HOME/.cache/citizen-browser-venv}"
PYTHON="${BROWSER_PYTHON:-$VENV/bin/python}"
WANT_MAJOR=156   # the Chromium major of playwright==1.64.1 (tests/browser/requirements.txt)

skip() {
  if [ "${REQUIRE_BROWSER:-}" = 1 ]; then
    echo "browser suite: $1 (REQUIRE_BROWSER=1)" >&2
    exit 1
  fi
  mkdir -p target
  echo "browser-suite: browser unavailable ($1)" >> target/test-skips.txt
  echo "browser suite SKIPPED: $1" >&2
  exit 0
}

command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] ||
  skip "no mosquitto (the suite runs its own broker): apt-get install mosquitto"
[ -x "$CHROMIUM" ] || skip "no Chromium at $CHROMIUM: apt-get install chromium"
"$PYTHON" -c "import playwright, pytest, georeport, jsonschema, rfc3339_validator, rfc3986_validator" 2>/dev/null ||
  skip "no Playwright, pytest, georeport or jsonschema at $PYTHON: python3 -m venv $VENV && $VENV/bin/pip install -r tests/browser/requirements.txt"
major="$("$CHROMIUM" --version 2>/dev/null | grep -oE '[0-9]+' | head -n1 || true)"
if [ "$major" != "$WANT_MAJOR" ]; then
  echo "browser suite: $CHROMIUM is Chromium $major, Playwright 1.64.1 is made for $WANT_MAJOR" >&2
fi

# The binaries as the api suites build them (`cargo test` unifies the dev-dependencies' features
# in): after `make test` nothing is compiled again, where `cargo build --bins` would rebuild a
# third of the tree with the other feature set.
cargo test --workspace --test api --locked --no-run -q
target_dir="$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
export BROWSER_BIN_DIR="$target_dir/${CARGO_BUILD_TARGET:+$CARGO_BUILD_TARGET/}debug"
export BROWSER_CHROMIUM="$CHROMIUM"
# Screenshots (target/browser-screenshots/) and axe counts (target/browser-axe.jsonl) are the
# run's files.
exec "$PYTHON" -m pytest tests/browser -p no:cacheprovider -q "$@"
