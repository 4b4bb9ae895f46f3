#!/usr/bin/env bash
# Crash sweeps, one child per mutant against batches, in one run: MockData's chat stream (every mutant) against
# the fragile chat client as exit tests (Tests/EndToEndTests/ChatSweepTests.swift), debug build, four children at
# a time both ways. Both tests check every mutant's outcome against the same prediction, so a passing run is also
# the proof that the two ways agree.
#
#   bench/crash-sweep.sh             # RUNS=3 for three rounds; prints each round's seconds and the ratio
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
runs="${RUNS:-1}"
timed() {
    local start end
    start=$(date +%s.%N)
    SWEEP=all SWEEP_ONE_CHILD=all swift test --skip-build --filter "$1" >/tmp/crash-sweep.$$.log 2>&1 \
        || { tail -30 /tmp/crash-sweep.$$.log; exit 1; }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
echo "| round | one child per mutant (s) | batches (s) | ratio |"
echo "| --- | --- | --- | --- |"
for round in $(seq "$runs"); do
    one=$(timed 'ChatSweepTests/theFragileClient_breaksOnExactlyTheMutantsThatBreakAnAssumption')
    batches=$(timed 'ChatSweepTests/theFragileClient_inBatches_breaksOnTheSameMutants')
    awk -v r="$round" -v a="$one" -v b="$batches" 'BEGIN { printf "| %s | %.1f | %.1f | %.1fx |\n", r, a, b, a / b }'
done
rm -f /tmp/crash-sweep.$$.log
