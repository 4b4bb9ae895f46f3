#!/usr/bin/env bash
# Runs the whole test suite with coverage, prints line coverage per file of Sources/ with a total,
# writes coverage/lcov.info, an HTML report in coverage/html and JUnit XML in coverage/xunit*.xml,
# and exits 1 when a threshold below is missed. The coverage of failure modes too: every stub server the tests
# start records what it answered in coverage/served (STUB_COVERAGE_DIR), and `stub-server coverage` writes
# coverage/failure-modes.{html,md,json} and fails unless MockData meets FAILURE_MODES below. In a GitHub Actions
# job ($GITHUB_STEP_SUMMARY set), the line total and the failure modes' Markdown go to the job's summary.
#
#   ./coverage.sh            build, test, report, check
#
# Uses the llvm-cov beside the swift in use: an older one earlier on PATH cannot read its profiles.
set -euo pipefail

# Thresholds: percent of lines.
VIEW_MODEL_MIN=95   # each *ViewModel.swift
TOTAL_MIN=85        # all of Sources/
ENGINE_MIN=90       # each file of Sources/Stubs/HTTPEngine (the platform file of the other OS is not compiled)
# Every MockData stub requested and every variant served by a passing test, or excepted with a reason in
# MockData/coverage-exceptions.json. ServeTwiceTests serves every variant by construction (it compares the two
# transports' bytes), so it proves nothing about the apps: what it alone was served does not count.
FAILURE_MODES=(--require stubs --require variants)
IGNORED_TESTS=(--ignore-tests EndToEndTests.ServeTwiceTests/)

cd "$(dirname "$0")"
swift_dir="$(dirname "$(readlink -f "$(command -v swift)")")"
llvm_cov="$swift_dir/llvm-cov"
if [ ! -x "$llvm_cov" ] && command -v xcrun >/dev/null; then llvm_cov="$(xcrun --find llvm-cov)"; fi
[ -x "$llvm_cov" ] || { echo "coverage.sh: no llvm-cov beside $(command -v swift)" >&2; exit 1; }

rm -rf coverage
mkdir -p coverage
swift build --build-tests --enable-code-coverage
# Swift Testing captures a backtrace at every Swift `throw` while tests run; the suite throws thousands on purpose
# (decoders, refusals), and once, in the coverage-instrumented build, libgcc's unwinder crashed inside that capture:
# the crash reporter then held a CPU for a minute and every timed wait expired. Failures still carry their source
# location; only backtraces of thrown errors are left out.
STUB_COVERAGE_DIR="$PWD/coverage/served" SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 \
  swift test --skip-build --enable-code-coverage --parallel --xunit-output coverage/xunit.xml

bin="$(swift build --show-bin-path --enable-code-coverage)"
profdata="$bin/codecov/default.profdata"
[ -f "$profdata" ] || { echo "coverage.sh: no profile at $profdata" >&2; exit 1; }
tests="$(find "$bin" -maxdepth 1 -name '*PackageTests.xctest' | head -n 1)"
if [ -d "$tests" ]; then tests="$tests/Contents/MacOS/$(basename "$tests" .xctest)"; fi
objects=("$tests")
# The CLI tests run the built stub-server; its own profiles are merged into the same profdata.
[ -x "$bin/stub-server" ] && objects+=(-object "$bin/stub-server")

ignore='(\.build|/Tests/|/checkouts/|/Sources/Tools/CatalogBenchmarks/)'  # benchmarks are measured, not tested
"$llvm_cov" export -format=lcov -instr-profile "$profdata" -ignore-filename-regex "$ignore" "${objects[@]}" > coverage/lcov.info
"$llvm_cov" show -format=html -output-dir coverage/html -instr-profile "$profdata" -ignore-filename-regex "$ignore" \
  "${objects[@]}" > /dev/null

root="$PWD/"
# Lines and covered lines per source file (a line counts once even when several functions claim it).
awk -v root="$root" '
  /^SF:/ { file = substr($0, 4); sub(root, "", file); next }
  /^DA:/ {
    split(substr($0, 4), fields, ",")
    key = file SUBSEP fields[1]
    if (!(key in seen)) { seen[key] = 1; lines[file]++ }
    if (fields[2] > 0 && !(key in hit)) { hit[key] = 1; covered[file]++ }
  }
  END { for (f in lines) print f, lines[f], covered[f] + 0 }' coverage/lcov.info | sort > coverage/files.txt

awk -v vm_min="$VIEW_MODEL_MIN" -v total_min="$TOTAL_MIN" -v engine_min="$ENGINE_MIN" '
  BEGIN { printf "%-60s %7s %7s %7s\n", "FILE", "LINES", "COVERED", "%" }
  {
    pct = 100 * $3 / $2
    mark = ""
    if ($1 ~ /ViewModel\.swift$/ && pct < vm_min) { mark = sprintf("  under %d%% (view model)", vm_min); failed = 1 }
    if ($1 ~ /^Sources\/Stubs\/HTTPEngine\// && pct < engine_min) { mark = sprintf("  under %d%% (engine)", engine_min); failed = 1 }
    printf "%-60s %7d %7d %6.1f%s\n", $1, $2, $3, pct, mark
    all += $2; allCovered += $3
  }
  END {
    total = all ? 100 * allCovered / all : 0
    printf "%-60s %7d %7d %6.1f\n", "TOTAL", all, allCovered, total
    if (total < total_min) { printf "coverage.sh: total %.1f%% is under %d%%\n", total, total_min > "/dev/stderr"; failed = 1 }
    if (failed) { print "coverage.sh: thresholds missed" > "/dev/stderr"; exit 1 }
  }' coverage/files.txt | tee coverage/lines.txt
echo "coverage.sh: wrote coverage/lcov.info, coverage/lines.txt, coverage/html/index.html, coverage/xunit*.xml"

# The coverage of failure modes: which variants and mutants of MockData the passing tests were served.
results=()
for file in coverage/xunit.xml coverage/xunit-swift-testing.xml; do
  if [ -f "$file" ]; then results+=(--xunit "$file"); fi
done
for format in html markdown json; do
  extension=$format; [ "$format" = markdown ] && extension=md
  "$bin/stub-server" coverage MockData --from coverage/served ${results[@]+"${results[@]}"} "${IGNORED_TESTS[@]}" --format "$format" \
    --output "coverage/failure-modes.$extension" > /dev/null
done
# In a GitHub Actions job, both reports go to the job's summary page (before the gate, which may fail the step).
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "## Code coverage"
    echo
    awk '$1 == "TOTAL" { printf "%d of %d lines, %.1f%%\n", $3, $2, $4 }' coverage/lines.txt
    echo
    cat coverage/failure-modes.md
  } >> "$GITHUB_STEP_SUMMARY"
fi
"$bin/stub-server" coverage MockData --from coverage/served ${results[@]+"${results[@]}"} "${IGNORED_TESTS[@]}" "${FAILURE_MODES[@]}" \
  > coverage/failure-modes.txt
cat coverage/failure-modes.txt
echo "coverage.sh: wrote coverage/failure-modes.html, .md, .json and .txt"
