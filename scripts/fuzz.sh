#!/usr/bin/env bash
# make fuzz: runs each cargo-fuzz target of fuzz/ (citizen-api's metadata strippers) for
# FUZZ_SECONDS seconds (default 60) and fails when one finds a crash (a panic, a refusal that is
# not a 400, a stored file the oracle still reads Exif in, an input slower than FUZZ_TIMEOUT
# seconds or one using more than FUZZ_RSS_MB MB). See docs/citizen-api/filing.md.
#
# Not part of `make test` nor CI: it needs cargo-fuzz (installed from crates.io when missing) and
# takes minutes.
#
# RUSTC_BOOTSTRAP=1: cargo-fuzz is made for nightly Rust; its default AddressSanitizer build
# passes `-Zsanitizer=address`, `--build-std` and `cargo fuzz coverage` need `-Z` options too, and
# only the nightly channel accepts them. The toolchain here is stable and no nightly can be
# fetched; RUSTC_BOOTSTRAP=1 makes stable rustc and cargo accept nightly flags. It is set for the
# fuzz build alone (its artefacts stay in fuzz/target), never for the workspace.
#
# FUZZ_FLAGS defaults to `-O -a -s none`: an optimised build with debug assertions (an
# arithmetic overflow is a crash too) and without AddressSanitizer. The code under test is safe
# Rust (`unsafe_code = "forbid"`), so an out-of-bounds access is a panic, which libFuzzer catches
# without ASan; without it the targets run several times faster. (This default uses stable `-C`
# flags only; `FUZZ_FLAGS="-O -a"` fuzzes with ASan, which needs RUSTC_BOOTSTRAP.)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-strip_jpeg strip_png strip_webp strip_heif}
timeout=${FUZZ_TIMEOUT:-5}
rss_mb=${FUZZ_RSS_MB:-1024}
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz is missing: installing it from crates.io" >&2
  cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
read -r -a flags <<< "${FUZZ_FLAGS:--O -a -s none}"
cargo fuzz build "${flags[@]}"
for target in $targets; do
  # New inputs go to fuzz/work/ (ignored by git); fuzz/corpus/ keeps the committed seeds only.
  work="fuzz/work/$target"
  mkdir -p "$work"
  echo "==== $target: ${seconds}s"
  if ! cargo fuzz run "${flags[@]}" "$target" "$work" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss_mb" \
    -print_final_stats=1; then
    echo "==== $target found a crash: the input is in fuzz/artifacts/$target/; replay it with" >&2
    echo "RUSTC_BOOTSTRAP=1 cargo fuzz run ${flags[*]} $target fuzz/artifacts/$target/<file>" >&2
    exit 1
  fi
done
