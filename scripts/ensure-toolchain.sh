#!/usr/bin/env bash
# What the build needs beyond the Rust toolchain: a C compiler and linker (the bundled SQLite and
# ring compile C). Installs it through apt when running as root, else prints the exact command.
set -euo pipefail
missing=()
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
command -v cc >/dev/null || missing+=(build-essential)
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing ${missing[*]} with apt-get" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "missing build tools; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
