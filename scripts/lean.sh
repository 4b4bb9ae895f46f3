#!/usr/bin/env bash
# Keeps `stub-server` lean, from a clone (CI runs it):
# 1. the release binary links no Foundation, FoundationNetworking or ICU, only FoundationEssentials (a module that
#    imports `Foundation` brings back 6 MB of touched pages; use FoundationEssentials, see the CommandLine article, "One static
#    binary");
# 2. on Linux, the static executable builds, serves MockData, answers a stub and the admin API, and stops on
#    SIGTERM; its size, start-up (spawn to --ready-file) and peak RSS are printed.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product stub-server >&2
libraries=$(ldd .build/release/stub-server 2>/dev/null || otool -L .build/release/stub-server)
if grep -E 'lib(Foundation|FoundationNetworking|FoundationInternationalization|_FoundationICU)\.(so|dylib)' <<<"$libraries"; then
  echo "lean.sh: stub-server links the libraries above; StubServer, CLISupport and the CLI import FoundationEssentials only" >&2
  exit 1
fi
echo "lean.sh: the release binary links FoundationEssentials only"

[ "$(uname)" = Linux ] || exit 0
swift build -c release --product stub-server -Xswiftc -static-executable --scratch-path .build/lean >&2
binary=.build/lean/release/stub-server
if ldd "$binary" >/dev/null 2>&1; then echo "lean.sh: $binary is not a static executable" >&2; exit 1; fi
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
began=$(date +%s%3N)
"$binary" serve --fixtures MockData --port 0 --ready-file "$tmp/ready" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 1000); do [ -s "$tmp/ready" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.01; done
[ -s "$tmp/ready" ] || { echo "lean.sh: the static binary did not start:" >&2; cat "$tmp/out" >&2; exit 1; }
started=$(($(date +%s%3N) - began))
base=$(cat "$tmp/ready")
curl -sf "$base/__stub/health" | grep -q '"status" : "ok"' || { echo "lean.sh: no health from $base" >&2; exit 1; }
curl -sf -o /dev/null "$base/api/json/v1/1/filter.php?c=Dessert" || { echo "lean.sh: no desserts from $base" >&2; exit 1; }
curl -sf -o /dev/null -X PUT -d server-error "$base/__stub/stubs/desserts/variant" ||
  { echo "lean.sh: the admin call failed" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' "$base/api/json/v1/1/filter.php?c=Dessert")
[ "$status" = 500 ] || { echo "lean.sh: the server-error variant answered $status, not 500" >&2; exit 1; }
rss=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || { echo "lean.sh: the static binary did not exit cleanly on SIGTERM" >&2; exit 1; }
echo "lean.sh: $binary ($(($(stat -c %s "$binary") / 1048576)) MB) served MockData: start $started ms (with 10 ms polling), peak RSS $rss MB"
