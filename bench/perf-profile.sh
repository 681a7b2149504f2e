#!/usr/bin/env bash
# On-CPU profile of the service under load, every thread (main, signing worker, V8's GC helpers):
#   bench/perf-profile.sh content|warm|cold|bare|floor [seconds] [out-prefix]
# Starts bench/profile.ts with perf map output, attaches `perf record` to that process only (not autocannon's),
# then splits the samples by phase with bench/perf-phases.ts. Needs Linux perf.
set -euo pipefail
cd "$(dirname "$0")/.."
CASE=${1:-content}
SECS=${2:-10}
OUT=${3:-${TMPDIR:-/tmp}/preflight-perf-$CASE}
PROFILE_MODE=perf node --perf-basic-prof --interpreted-frames-native-stack --import tsx --import reflect-metadata \
  bench/profile.ts "$CASE" "$SECS" >"$OUT.json" 2>"$OUT.err" &
HARNESS=$!
until grep -q "LOAD START" "$OUT.err" 2>/dev/null; do
  sleep 0.2
  kill -0 "$HARNESS" 2>/dev/null || { cat "$OUT.err"; exit 1; }
done
PID=$(awk '/LOAD START/ {print $3}' "$OUT.err")
perf record --no-inherit -F 1999 -g -p "$PID" -o "$OUT.data" -- sleep $((SECS - 1)) 2>"$OUT.perf.err"
wait "$HARNESS"
cat "$OUT.json"
perf script -i "$OUT.data" -F tid,ip,sym 2>/dev/null >"$OUT.script"
CPU=$(node -e "console.log(JSON.parse(require('fs').readFileSync('$OUT.json','utf8').trim().split('\n').pop()).cpuUsPerReq)")
node --import tsx bench/perf-phases.ts "$PID" "$CPU" <"$OUT.script"
