#!/usr/bin/env bash
# The domain crate holds pure rules: it must not depend on any crate that does I/O, directly or
# transitively (checked with cargo tree), and its source must not reach for std's I/O modules.
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
