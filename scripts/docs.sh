#!/usr/bin/env bash
# Builds the documentation of every library product of the stub side, each from its own catalog
# (Sources/Stubs/MODULE/MODULE.docc: the guides live in StubServer's) and its public symbols, then merges them into one
# site; with the toolchain's own swift-symbolgraph-extract and docc (no plugin package), warnings as errors: a
# broken ``Symbol`` link, an undocumented parameter or a missing image fails it.
#
#   scripts/docs.sh [OUTPUT]          default output: .build/docs (open OUTPUT/index.html through a web server,
#                                     or `docc preview` a catalog)
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs}"
work=.build/docs-work
modules=(StubServer StubServerInProcess StubServerRemote StubServerTesting StubServerXCTest StubServerRecording)
for module in "${modules[@]}"; do swift build --target "$module" >&2; done
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
bin=$(swift build --show-bin-path)
rm -rf "$work" "$output"
archives=()
for module in "${modules[@]}"; do
  graphs="$work/graphs/$module"
  mkdir -p "$graphs"
  # StubServer's reference includes what it re-exports from the core (Exports.swift); StubServerInProcess
  # re-exports the same types, documented once, there.
  reexported=()
  if [ "$module" = StubServer ]; then reexported=(-experimental-allowed-reexported-modules=StubCore); fi
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$bin/Modules" -I Sources/Shared/CLinux \
    -minimum-access-level public "${reexported[@]}" -output-dir "$graphs"
  docc convert "Sources/Stubs/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
    --output-path "$work/$module.doccarchive" --fallback-display-name "$module" \
    --fallback-bundle-identifier "$module" --warnings-as-errors >&2
  archives+=("$work/$module.doccarchive")
done
docc merge "${archives[@]}" --synthesized-landing-page-name CatalogKit --output-path "$output" >&2
echo "docs: $output (${modules[*]})"
