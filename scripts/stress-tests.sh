#!/usr/bin/env bash
# Runs the whole suite N times in each of three modes and prints how many runs passed in each, the tests that failed
# and the longest test-case clocks (scripts/case-clocks.py): a suite that passes once proves little on a shared 2-core
# machine.
#
#   scripts/stress-tests.sh N [MODE...]     MODE: plain (default all three), pinned (taskset -c 0), loaded (2 x yes)
#
# Builds the tests once (`swift build --build-tests`), then runs `swift test --skip-build` each time. Logs are in
# .build/stress/MODE-RUN.log, emptied each time; a failed run's log and event stream are also copied to
# .build/stress-failures/, which no run empties, so a once-in-N failure is never lost to the next run. Exits 1 when
# any run failed.
set -euo pipefail  # every pipeline below reads its input to the end (awk, not head): no SIGPIPE
cd "$(dirname "$0")/.."

runs="${1:?usage: scripts/stress-tests.sh N [plain|pinned|loaded]...}"
shift
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(plain pinned loaded)
for mode in "${modes[@]}"; do
  case "$mode" in
  plain | loaded) ;;
  pinned) command -v taskset >/dev/null || { echo "stress: pinned needs taskset (util-linux)" >&2; exit 64; } ;;
  *) echo "stress: unknown mode '$mode' (plain, pinned, loaded)" >&2; exit 64 ;;
  esac
done

logs=.build/stress
rm -rf "$logs"
mkdir -p "$logs"
swift build --build-tests >/dev/null

hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  hogs=()
}
trap stop_hogs EXIT

failed=0
summary=()
for mode in "${modes[@]}"; do
  passes=0
  if [ "$mode" = loaded ]; then
    # Two CPU-bound processes beside the suite: every test competes for both cores.
    yes >/dev/null &
    hogs+=($!)
    yes >/dev/null &
    hogs+=($!)
  fi
  for run in $(seq 1 "$runs"); do
    log="$logs/$mode-$run.log"
    command=(swift test --skip-build --event-stream-output-path "$logs/$mode-$run.jsonl" --event-stream-version 0)
    [ "$mode" = pinned ] && command=(taskset -c 0 "${command[@]}")
    started=$(date +%s)
    if "${command[@]}" >"$log" 2>&1; then
      passes=$((passes + 1))
      verdict=passed
    else
      verdict=FAILED
      failed=1
    fi
    echo "stress: $mode run $run: $verdict in $(($(date +%s) - started)) s ($(grep -E -o 'Test run with [0-9]+ tests' "$log" | tail -1 || true))"
    if [ "$verdict" = FAILED ]; then
      grep -E '^✘ Test .* (failed|recorded an issue)' "$log" | sed 's/^/    /' | sort -u | awk 'NR <= 20' || true
      kept=".build/stress-failures/$(date +%Y%m%d-%H%M%S)-$mode-$run"
      mkdir -p .build/stress-failures
      cp "$log" "$kept.log"
      cp "$logs/$mode-$run.jsonl" "$kept.jsonl" 2>/dev/null || true
      echo "    kept in $kept.log"
    fi
  done
  stop_hogs
  summary+=("$mode: $passes of $runs passed")
done

# A case's clock (its start to its end, what `.timeLimit` counts), not a test's "passed after", which counts its
# wait for a turn too.
echo "stress: longest test-case clocks over every run:"
scripts/case-clocks.py --top 15 "$logs"/*.jsonl
for line in "${summary[@]}"; do echo "stress: $line"; done
exit "$failed"
