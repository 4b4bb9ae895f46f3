#!/usr/bin/env bash
# Builds the documentation, Sources/StubServer/StubServer.docc (the guides, and the public API's symbol docs),
# with the toolchain's own swift-symbolgraph-extract and docc (no plugin package), warnings as errors: a broken
# ``Symbol`` link, an undocumented parameter or a missing image fails it.
#
#   scripts/docs.sh [OUTPUT]          default output: .build/docs (open OUTPUT/index.html through a web server,
#                                     or `docc preview` the catalog)
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs}"
graphs=.build/docs-symbol-graphs
swift build --target StubServer >&2
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$graphs" "$output"
mkdir -p "$graphs"
swift-symbolgraph-extract -module-name StubServer -target "$triple" -I "$(swift build --show-bin-path)/Modules" \
  -I Sources/CLinux -minimum-access-level public -output-dir "$graphs"
docc convert Sources/StubServer/StubServer.docc --additional-symbol-graph-dir "$graphs" --output-path "$output" \
  --fallback-display-name StubServer --fallback-bundle-identifier StubServer --warnings-as-errors
echo "docs: $output"
