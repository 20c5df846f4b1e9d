#!/usr/bin/env bash
# Layering, checked in CI:
# 1. The domain crate holds pure rules: it must not depend on any crate that does I/O, directly
#    or transitively (checked with cargo tree), and its source must not reach for std's I/O.
# 2. citizen-api: routes -> app -> store -> domain. `app` knows no HTTP (no actix, no routes);
#    `store` knows neither its callers nor HTTP; routes never name a backend or sqlx; nothing
#    but startup imports routes. The rules are checked on the tree, then each is shown to catch
#    a violation planted in a copy (so a rule that cannot fail is noticed).
set -euo pipefail
forbidden='^(tokio|sqlx|sqlx-core|axum|hyper|reqwest|rumqttc|rumqttd|paho-mqtt|actix-web|actix-rt|mio|object_store|lettre|tower|socket2) '
deps=$(cargo tree -p domain -e normal --prefix none --format '{p}' --locked | sort -u)
if bad=$(grep -E "$forbidden" <<<"$deps"); then
  echo "domain depends on I/O crates:" >&2
  echo "$bad" >&2
  exit 1
fi
# And the inverse view, as Lemmy does: no I/O crate's reverse tree reaches domain.
for crate in tokio sqlx axum reqwest paho-mqtt; do
  if cargo tree -e normal -i "$crate" --prefix none --locked 2>/dev/null | grep -qE '^domain v'; then
    echo "cargo tree -i $crate reaches domain" >&2
    exit 1
  fi
done
if grep -rnE 'std::(fs|net|process)|tokio::|std::io::(stdin|stdout)' crates/domain/src; then
  echo "domain source performs I/O" >&2
  exit 1
fi
echo "layering: domain is free of I/O ($(wc -l <<<"$deps") crates in its tree)"

# citizen_api_layers <src dir>: prints every violation, fails when there is one.
citizen_api_layers() {
  local src=$1 bad=0
  rule() { # rule <description> <pattern> <paths...>
    local what=$1 pattern=$2; shift 2
    local found
    if found=$(cd "$src" && grep -rnE --include='*.rs' "$pattern" "$@" 2>/dev/null); then
      echo "citizen-api layering: $what:" >&2
      echo "$found" >&2
      bad=1
    fi
  }
  rule "app imports HTTP" 'actix|crate::routes|super::routes' app app.rs
  rule "store imports its callers or HTTP" 'actix|crate::(routes|app)\b' store store.rs
  rule "a route names a storage backend or sqlx" 'store::(postgres|sqlite)|\bsqlx::' routes routes.rs
  rule "a module below the routes imports them" 'crate::routes' \
    $(cd "$src" && ls -d -- * | grep -vE '^(routes|routes\.rs|startup\.rs|lib\.rs|main\.rs)$')
  return $bad
}

src=crates/citizen-api/src
citizen_api_layers "$src"
# Each rule catches a planted violation.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for plant in "app/workflow.rs:use actix_web::web;" "store/votes.rs:use crate::app::workflow;" \
  "routes/votes.rs:use crate::store::postgres::PgStore;" "news_import.rs:use crate::routes::AppState;" \
  "app.rs:use actix_web::web;" "store.rs:use crate::routes::AppState;" "routes.rs:use sqlx::Row;"; do
  rm -rf "$tmp/src" && cp -r "$src" "$tmp/src"
  echo "${plant#*:}" >>"$tmp/src/${plant%%:*}"
  if citizen_api_layers "$tmp/src" 2>/dev/null; then
    echo "layering check missed a planted violation: ${plant#*:} in ${plant%%:*}" >&2
    exit 1
  fi
done
echo "layering: citizen-api routes -> app -> store -> domain (7 planted violations caught, module roots included)"
