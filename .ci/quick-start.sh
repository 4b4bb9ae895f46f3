#!/usr/bin/env bash
# The README's quick start as a newcomer meets it: a fresh clone of this commit, then the three `sh` blocks of the
# README's "## Quick start" section, read from the README, in its order: the first starts the server (in the
# background, as a user would in a terminal), the second is run line by line against it (the first line must
# answer 200), the server is stopped with SIGINT (Ctrl-C), and the third (the test command) runs. Every wait has a
# deadline; the clone is removed at the end.
#
#   .ci/quick-start.sh       (from anywhere in the package; commit first: the clone holds committed work only)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

# The sh blocks of the section, one line each, as "BLOCK<TAB>LINE".
blocks="$(awk '
  /^## / { inside = ($0 == "## Quick start") }
  inside && /^```sh$/ { block++; code = 1; next }
  inside && code && /^```$/ { code = 0; next }
  inside && code && NF { print block "\t" $0 }' README.md)"
block() { printf '%s\n' "$blocks" | awk -F '\t' -v n="$1" '$1 == n { print $2 }'; }
server="$(block 1)"
requests="$(block 2)"
tests="$(block 3)"
if [ "$(printf '%s\n' "$server" | wc -l)" -ne 1 ] || [ -z "$server" ] || [ -z "$requests" ] || [ -z "$tests" ]; then
  echo "quick-start: README.md's \"## Quick start\" must hold three sh blocks: one line starting the server," \
    "the requests, the test command" >&2
  exit 1
fi
first_url="$(printf '%s\n' "$requests" | head -n 1 | grep -o 'http://[^ ]*' | head -n 1)"
origin="$(printf '%s\n' "$first_url" | grep -o '^http://[^/]*')"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL -- "-$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if curl -s -o /dev/null --max-time 2 "$origin/"; then
  echo "quick-start: something already answers at $origin; stop it first" >&2
  exit 1
fi

git clone -q "$root" "$work/clone"
cd "$work/clone"
echo "quick-start: fresh clone of $(git rev-parse --short HEAD) in $work/clone"

began=$(date +%s)
echo "\$ $server"
set -m # the server gets a process group of its own, which SIGINT reaches as Ctrl-C would
bash -c "$server" > "$work/server.log" 2>&1 &
server_pid=$!
set +m
deadline=$((began + 1200)) # a first debug build of the server on 2 cores takes a few minutes
until curl -s -o /dev/null --max-time 2 "$origin/__stub/health"; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "quick-start: the server exited before answering:" >&2
    tail -n 40 "$work/server.log" >&2
    exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "quick-start: nothing answered at $origin within $((deadline - began)) s:" >&2
    tail -n 40 "$work/server.log" >&2
    exit 1
  fi
  sleep 1
done
echo "quick-start: the server answered after $(($(date +%s) - began)) s"

line_number=0
while IFS= read -r request; do
  line_number=$((line_number + 1))
  echo "\$ $request"
  # Each curl of the README gets a deadline without editing its line (which may end in a comment).
  bash -c "curl() { command curl --max-time 10 \"\$@\"; }; $request" > "$work/answer" 2> "$work/answer.err" || {
    echo "quick-start: README quick-start request $line_number failed:" >&2
    cat "$work/answer" "$work/answer.err" >&2
    exit 1
  }
  head -c 400 "$work/answer"
  echo
  if [ "$line_number" -eq 1 ] && ! head -n 1 "$work/answer" | grep -q ' 200'; then
    echo "quick-start: the first request did not answer 200" >&2
    exit 1
  fi
done <<< "$requests"

kill -INT -- "-$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server_pid" 2>/dev/null; then
  echo "quick-start: the server did not stop within 10 s of SIGINT" >&2
  exit 1
fi
wait "$server_pid" || true
server_pid=""
echo "quick-start: the server stopped on SIGINT"

echo "\$ $tests"
bash -c "$tests"
echo "quick-start: passed in $(($(date +%s) - began)) s"
