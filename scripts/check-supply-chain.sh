#!/usr/bin/env bash
# Supply chain, checked in CI (issue 58): cargo-deny (deny.toml) against
# 1. the RustSec advisories of the snapshot in ../shared/advisory-db (CI cannot fetch it): a new
#    vulnerability, unsound or unmaintained crate fails, the accepted ones are listed in deny.toml
#    and docs/decisions.md;
# 2. the licence of every dependency, against deny.toml's allow-list that fits EUPL-1.2;
# 3. the crates' sources (crates.io only).
# Then a dependency with a disallowed licence is planted in a scratch copy of the workspace and
# must fail the licence check, so a check that cannot fail is noticed.
# Installs the pinned cargo-deny when missing (its own target dir, into ~/.cargo/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
DENY_VERSION=0.20.2
DB_SNAPSHOT="${ADVISORY_DB:-../shared/advisory-db}"

if [ "$(cargo deny --version 2>/dev/null)" != "cargo-deny $DENY_VERSION" ]; then
  echo "installing cargo-deny $DENY_VERSION" >&2
  CARGO_TARGET_DIR="${TMPDIR:-/tmp}/cargo-deny-build" \
    cargo install --locked --quiet --version "$DENY_VERSION" cargo-deny
fi

# cargo-deny opens a database as a git checkout below db-path, in a folder named after its URL
# (deny.toml), and judges its age by the checkout; the snapshot is plain files. Lay it out so,
# in one commit (dated now: the snapshot's age is in its SNAPSHOT.md).
[ -d "$DB_SNAPSHOT/crates" ] || { echo "no advisory database at $DB_SNAPSHOT" >&2; exit 1; }
db_root=target/advisory-dbs
db="$db_root/advisory-db-3157b0e258782691"
rm -rf "$db_root"
mkdir -p "$db"
cp -R "$DB_SNAPSHOT"/. "$db"/
git -C "$db" init -q
git -C "$db" add -A
git -C "$db" -c user.name=snapshot -c user.email=snapshot@localhost commit -qm "$DB_SNAPSHOT"

# cargo-deny reads `cargo metadata` of every platform, offline: fetch the crates of all of them.
cargo fetch --locked --quiet
cargo deny --locked --offline check --show-stats advisories licenses sources

# The planted violation: a path dependency under GPL-3.0-only (strong copyleft, not allowed).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tar --exclude=./target --exclude=./.git -cf - . | tar -xf - -C "$scratch"
mkdir -p "$scratch/crates/planted-gpl/src"
cat >"$scratch/crates/planted-gpl/Cargo.toml" <<'TOML'
[package]
name = "planted-gpl"
version = "0.1.0"
edition = "2021"
license = "GPL-3.0-only"
publish = false
TOML
: >"$scratch/crates/planted-gpl/src/lib.rs"
sed -i 's/^\[dependencies\]$/[dependencies]\nplanted-gpl = { path = "..\/planted-gpl" }/' \
  "$scratch/crates/domain/Cargo.toml"
if (cd "$scratch" && cargo deny --offline check licenses) >"$scratch/planted.log" 2>&1; then
  echo "the licence check passed a planted GPL-3.0-only dependency:" >&2
  tail -20 "$scratch/planted.log" >&2
  exit 1
fi
grep -q "GPL-3.0-only" "$scratch/planted.log" || {
  echo "the licence check failed on the planted dependency, but not for its licence:" >&2
  tail -20 "$scratch/planted.log" >&2
  exit 1
}
echo "supply chain: advisories, licences and sources pass; a planted GPL-3.0-only dependency fails"
