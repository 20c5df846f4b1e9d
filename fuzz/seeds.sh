#!/usr/bin/env bash
# Regenerates fuzz/corpus/<target>/ seed files from the test suite's image builders
# (crates/citizen-api/tests/units/media/images.rs), with plain rustc: no dependency, no download.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rustc --edition 2021 -O -o "$out/seeds" fuzz/seeds.rs
"$out/seeds" fuzz/corpus
