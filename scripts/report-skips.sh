#!/usr/bin/env bash
# Prints the tests that skipped because PostgreSQL or the MQTT broker was unreachable (the test
# harness hides the output of passing tests, so the skips are collected in a file).
set -euo pipefail
file="target/test-skips.txt"
if [ -s "$file" ]; then
  echo
  echo "==== SKIPPED: $(wc -l < "$file") tests needed a service that was unreachable ===="
  sed -E 's/^.*: ([^:(]+) unavailable \((.*)\)$/\1: \2/' "$file" | sort | uniq -c
  echo "Start PostgreSQL 15 with PostGIS on 127.0.0.1:5432 and Mosquitto on 127.0.0.1:1883 to run them"
  echo "(or set TEST_DATABASE_URL / TEST_MQTT_HOST / TEST_MQTT_PORT). Full list: $file"
else
  echo "All tests ran: none skipped."
fi
