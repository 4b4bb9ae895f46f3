#!/usr/bin/env bash
# The files one plain GET over the socket runs code in, from a clone: serves ../shared/bench/peers' small fixture
# (or $1) from a coverage build of `stub-server`, once answering one GET and once two (each on a connection of its
# own, with serve's log line), and prints each source file whose line counts grew between the two, with how many
# of its lines ran and how many times. Start-up and shut-down run in both, so they cancel out.
set -euo pipefail
cd "$(dirname "$0")/.."
fixture="${1:-../shared/bench/peers/fixtures/small.json}"
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
swift build --enable-code-coverage --product stub-server >&2
binary="$(swift build --enable-code-coverage --show-bin-path)/stub-server"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
path=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["request"]["path"])' "$fixture" 2>/dev/null || echo /)

for gets in 1 2; do
  LLVM_PROFILE_FILE="$tmp/$gets.profraw" "$binary" serve --file "$fixture" --port 0 --ready-file "$tmp/ready$gets" \
    >"$tmp/out$gets" 2>&1 &
  pid=$!
  for _ in $(seq 1000); do [ -s "$tmp/ready$gets" ] && break; sleep 0.01; done
  url=$(cat "$tmp/ready$gets")
  for _ in $(seq "$gets"); do curl -sf -o /dev/null --max-time 5 "$url$path"; done
  kill -INT "$pid"
  wait "$pid" || true
  "$toolchain/llvm-profdata" merge -o "$tmp/$gets.profdata" "$tmp/$gets.profraw"
  "$toolchain/llvm-cov" export -format=lcov -instr-profile="$tmp/$gets.profdata" "$binary" >"$tmp/$gets.lcov"
done

python3 - "$tmp/1.lcov" "$tmp/2.lcov" "$PWD/" <<'PY'
import sys
def load(path):
    files, name = {}, None
    for line in open(path):
        if line.startswith("SF:"):
            name = line[3:].strip()
            files[name] = {}
        elif line.startswith("DA:"):
            number, count = line[3:].split(",")[:2]
            files[name][int(number)] = int(count)
    return files
one, two = load(sys.argv[1]), load(sys.argv[2])
rows = []
for name, counts in two.items():
    before = one.get(name, {})
    grew = [n for n, c in counts.items() if c > before.get(n, 0)]
    if grew:
        rows.append((name.replace(sys.argv[3], ""), len(grew), sum(counts[n] - before.get(n, 0) for n in grew)))
for name, lines, runs in sorted(rows):
    print(f"{name}  {lines} lines, {runs} runs")
print(f"{len(rows)} files")
PY
