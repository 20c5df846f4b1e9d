#!/usr/bin/env bash
# What the build needs beyond the Rust toolchain: a C compiler and linker (the bundled SQLite, ring
# and the Paho MQTT C library compile C), cmake (paho-mqtt builds its bundled C library with it),
# and OpenSSL headers found through pkg-config (paho-mqtt's TLS for mqtts://). Installs what is
# missing through apt when running as root, else prints the exact command.
set -euo pipefail
missing=()
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
command -v cc >/dev/null || missing+=(build-essential)
command -v cmake >/dev/null || missing+=(cmake)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if ! { pkg-config --exists openssl 2>/dev/null || [ -e /usr/include/openssl/ssl.h ]; }; then
  missing+=(libssl-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing ${missing[*]} with apt-get" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "missing build tools; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
