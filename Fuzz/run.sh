#!/usr/bin/env bash
# Builds the package's libFuzzer targets (swiftc -sanitize=fuzzer,address, outside `swift build`) and runs each
# for SECONDS. Fails when a target crashes, trips a property, times out on one input, or reaches fewer than
# MIN_EXECS executions (default: 250 per second), which would mean the run proved little: a harness stuck or slowed
# many times over. The slowest target, openapi, runs 1,000-2,500 inputs a second on a 2-core CI machine, so the
# floor sits four times under it; at 1,000 a second it failed a CI run that had found nothing wrong.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]      default: 60 seconds, every target
#   FRESH=1 Fuzz/run.sh 100                 each target from its seeds alone, as CI's fresh clone starts
#
# Targets: request-decoder (Sources/Stubs/HTTPEngine's RequestDecoder, dictionary Fuzz/http.dict), xml-path
# (Sources/Shared/XMLPath's XMLPathParser with the top-songs registrations, dictionary Fuzz/xml.dict) and stub-server
# (Sources/Stubs/StubCore's templates and body matchers, dictionary Fuzz/stub.dict) and stub-catalog (the stubs.json
# reader, then matching, decisions and templates on what loads; dictionary Fuzz/stub.dict) and feature-decoders (the
# albums, desserts, meal, track-search and movie-search JSON decoders; same dictionary) and har-importer (the HAR
# reader of Sources/Stubs/StubServerRecording; dictionary Fuzz/har.dict) and yaml-reader (Sources/Stubs/YAMLParsing,
# against Foundation's JSON reader on what it accepts; dictionary Fuzz/yaml.dict) and openapi (Sources/Stubs/StubContracts:
# documents, the importer and the schema validator; dictionary Fuzz/openapi.dict) and websocket-frame
# (Sources/Stubs/HTTPEngine's WebSocketDecoder, split-equivalence; dictionary Fuzz/websocket.dict) and event-stream
# (Sources/Stubs/StubCore's events files and the streams made of them; dictionary Fuzz/event-stream.dict) and mutations
# (Sources/Stubs/StubMutations: every answer's mutants, JSON mutants still JSON; dictionary Fuzz/stub.dict) and
# stream-mutations (an event stream's and a WebSocket conversation's mutants: counts, endings, splits, line ends, closes; Fuzz/event-stream.dict) and resource
# (Sources/Stubs/StubCore's resource collections: request bodies on every method; dictionary Fuzz/stub.dict) and coverage
# (Sources/Stubs/StubCoverage: records, xUnit results, exceptions and rules into every report format; Fuzz/stub.dict) and
# turns (Sources/Stubs/StubCore/Turns: random turns rendered in the four model API formats and read back, and their
# grammar's mutants; Fuzz/stub.dict) and tls-session (Sources/Stubs/HTTPEngine/TLS's OpenSSLSession: what a client
# sends to the TLS port, whole and in two pieces, over a socket pair; Fuzz/http.dict) and certificate-files (the local
# authority's files read back: PEMText's blocks and a certificate's subject; Fuzz/pem.dict). Seeds live
# in Fuzz/seeds/TARGET and stay untouched; the growing corpus and any crash input go to .build/fuzz/.
# Replay a crash with `.build/fuzz/TARGET .build/fuzz/crashes/TARGET-crash-...` and make it a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(request-decoder xml-path stub-server stub-catalog feature-decoders har-importer yaml-reader openapi websocket-frame event-stream mutations stream-mutations resource coverage turns tls-session certificate-files)
fi
min_execs="${MIN_EXECS:-$((seconds * 250))}"
out=.build/fuzz
mkdir -p "$out/crashes"

# Static archives are searched once, in order: a module's -l comes before those of the modules it uses (StubCore,
# StubMutations, JSONModel, HTTPMessages, Locking), or a symbol first needed late stays undefined.
# One module of the target's sources and its harness, so `package` and internal API are reachable.
compile() {
  # The package's settings (Package.swift) as flags: imports internal unless marked, `any` spelled out; with
  # internal imports, Locking's Synchronization is not linked through the modules that use it, so it is named.
  if ! swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name fuzz \
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature ExistentialAny -I Sources/Shared/CLinux "$@" \
    -lswiftSynchronization \
    >"$out/build.log" 2>&1; then
    grep -v "ld.gold: warning" "$out/build.log" >&2
    exit 1
  fi
}

# A target's Swift files, in every folder under it.
sources() {
  find "$@" -name '*.swift' | sort
}

# A package module as a static library of its own: NAME, then compile flags; its sources are Sources/KIND/NAME.
# Each library is built once a run: the targets after the first that needs it link the same archive.
built_libraries=" "
library() {
  local module="$1"
  shift
  case "$built_libraries" in *" $module "*) return ;; esac
  built_libraries+="$module "
  mkdir -p "$out/modules"
  # shellcheck disable=SC2046
  local extra=()
  # SwiftPM embeds the control page in StubAdmin; built here, it has none (Fuzz/Support/PackageResources.swift).
  if [ "$module" = StubAdmin ]; then extra=(Fuzz/Support/PackageResources.swift); fi
  compile -module-name "$module" -I "$out/modules" -L "$out" "$@" -emit-module \
    -emit-module-path "$out/modules/$module.swiftmodule" -emit-library -static $(sources Sources/*/"$module") \
    "${extra[@]}" -o "$out/lib$module.a"
}

# The stub core and the modules under it, as libraries; the core testable, so harnesses reach its internals. One
# place, because a library's first build decides its flags for the whole run.
stub_core() {
  library Locking
  library HTTPMessages
  library JSONModel -lHTTPMessages
  library StubMutations -lHTTPMessages -lLocking
  library StubCore -enable-testing -lHTTPMessages -lJSONModel -lLocking -lStubMutations
}

build() {
  local target="$1"
  # shellcheck disable=SC2046
  case "$target" in
    tls-session)
      # The engine with the harness and the system's OpenSSL, in one module.
      library Locking
      library HTTPMessages
      compile -module-name HTTPEngine -I "$out/modules" -I Sources/Shared/COpenSSL -L "$out" -lHTTPMessages -lLocking \
        $(sources Sources/Stubs/HTTPEngine Fuzz/TLSSession) -o "$out/$target"
      ;;
    request-decoder | websocket-frame | certificate-files)
      # The engine with the harness, in one module.
      local harness=Fuzz/RequestDecoder
      if [ "$target" = websocket-frame ]; then harness=Fuzz/WebSocketFrame; fi
      if [ "$target" = certificate-files ]; then harness=Fuzz/CertificateFiles; fi
      library Locking
      library HTTPMessages
      compile -module-name HTTPEngine -I "$out/modules" -L "$out" -lHTTPMessages -lLocking \
        $(sources Sources/Stubs/HTTPEngine "$harness") -o "$out/$target"
      ;;
    xml-path)
      compile -module-name XMLPath $(sources Sources/Shared/XMLPath Fuzz/XMLPath) -o "$out/$target"
      ;;
    stub-server | stub-catalog | event-stream | resource | turns)
      # The stub core as a library (built once for the four, testable), the harness a module of its own that
      # `@testable import`s it: no engine, no sockets.
      local harness=Fuzz/StubServer
      if [ "$target" = stub-catalog ]; then harness=Fuzz/StubCatalog; fi
      if [ "$target" = event-stream ]; then harness=Fuzz/EventStream; fi
      if [ "$target" = resource ]; then harness=Fuzz/Resource; fi
      if [ "$target" = turns ]; then harness=Fuzz/Turns; fi
      stub_core
      compile -module-name StubCoreFuzzer -I "$out/modules" -L "$out" -lStubCore -lStubMutations -lJSONModel \
        -lHTTPMessages -lLocking $(sources "$harness") -o "$out/$target"
      ;;
    yaml-reader)
      # The YAML reader with the harness, in one module; JSON values as a library.
      library HTTPMessages
      library JSONModel -lHTTPMessages
      compile -module-name YAMLParsing -I "$out/modules" -L "$out" -lJSONModel -lHTTPMessages \
        $(sources Sources/Stubs/YAMLParsing Fuzz/YAMLReader) -o "$out/$target"
      ;;
    mutations | stream-mutations)
      # Mutant generation with the harness, in one module; HTTPMessages and Locking as libraries.
      library Locking
      library HTTPMessages
      harness=Fuzz/Mutations; [ "$target" = stream-mutations ] && harness=Fuzz/StreamMutations
      compile -module-name StubMutations -I "$out/modules" -L "$out" -lHTTPMessages -lLocking \
        $(sources Sources/Stubs/StubMutations "$harness") -o "$out/$target"
      ;;
    openapi)
      # The core as a library; the contracts module with the harness, in one module.
      stub_core
      library YAMLParsing -lJSONModel -lHTTPMessages
      compile -module-name StubContracts -I "$out/modules" -L "$out" -lStubCore -lStubMutations -lYAMLParsing \
        -lJSONModel -lHTTPMessages -lLocking \
        $(sources Sources/Stubs/StubContracts Fuzz/OpenAPI) -o "$out/$target"
      ;;
    coverage)
      # The core, contracts and XMLPath as libraries; the report's module with the harness, in one module.
      stub_core
      library YAMLParsing -lJSONModel -lHTTPMessages
      library StubContracts -lStubCore -lYAMLParsing -lJSONModel -lHTTPMessages -lLocking -lStubMutations
      library XMLPath
      compile -module-name StubCoverage -I "$out/modules" -L "$out" -lStubContracts -lStubCore -lStubMutations \
        -lYAMLParsing -lJSONModel -lHTTPMessages -lLocking -lXMLPath \
        $(sources Sources/Stubs/StubCoverage Fuzz/Coverage) -o "$out/$target"
      ;;
    har-importer)
      # Every module the recorder imports as a static library; the harness inside StubServerRecording.
      stub_core
      library HTTPEngine -lHTTPMessages -lLocking
      library StubAdmin -lStubCore -lHTTPEngine -lHTTPMessages -lJSONModel -lLocking -lStubMutations
      library StubServer -lStubAdmin -lStubCore -lHTTPEngine -lHTTPMessages -lJSONModel -lLocking -lStubMutations
      library XMLPath
      compile -module-name StubServerRecording -I "$out/modules" -L "$out" -lStubServer -lStubAdmin -lStubCore \
        -lStubMutations -lHTTPEngine -lJSONModel -lHTTPMessages -lXMLPath -lLocking $(sources Sources/Stubs/StubServerRecording Fuzz/HARImporter) -o "$out/$target"
      ;;
    feature-decoders)
      # Each module the decoders need as a shared library of its own (dependencies first), then the harness.
      mkdir -p "$out/modules" "$out/lib"
      local module
      local libraries=()
      for module in Locking Networking Playback ImageCache Persistence AlbumsFeature DessertsFeature \
        TrackSearchFeature MoviesFeature; do
        compile -module-name "$module" -enable-testing -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
          -I "$out/modules" -I Sources/Apps/CSQLite -L "$out/lib" "${libraries[@]}" -emit-library $(sources Sources/*/"$module") \
          -o "$out/lib/lib$module.so"
        libraries+=("-l$module")
      done
      compile -module-name FeatureDecodersFuzzer -I "$out/modules" -I Sources/Apps/CSQLite -L "$out/lib" "${libraries[@]}" \
        -Xlinker -rpath -Xlinker "$PWD/$out/lib" $(sources Fuzz/FeatureDecoders) -o "$out/$target"
      ;;
    *) echo "run.sh: unknown target $target" >&2; exit 64 ;;
  esac
}

dictionary() {
  case "$1" in
    request-decoder | tls-session) echo Fuzz/http.dict ;;
    websocket-frame) echo Fuzz/websocket.dict ;;
    certificate-files) echo Fuzz/pem.dict ;;
    xml-path) echo Fuzz/xml.dict ;;
    stub-server | stub-catalog | feature-decoders) echo Fuzz/stub.dict ;;
    har-importer) echo Fuzz/har.dict ;;
    yaml-reader) echo Fuzz/yaml.dict ;;
    openapi) echo Fuzz/openapi.dict ;;
    event-stream | stream-mutations) echo Fuzz/event-stream.dict ;;
    mutations | resource | coverage | turns) echo Fuzz/stub.dict ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  started=$(date +%s)
  build "$target"
  echo "fuzz: built $target in $(( $(date +%s) - started )) s"
  # FRESH=1 starts from the seeds alone, as a CI clone does: a corpus grown by earlier runs steers libFuzzer along
  # paths it has walked, and a property a fresh run trips in seconds can hide from it for minutes.
  corpus="$out/corpus/$target"
  if [ -n "${FRESH:-}" ]; then
    corpus="$out/fresh/$target"
    rm -rf "$corpus"
  fi
  mkdir -p "$corpus"
  log="$out/$target.log"
  set +e
  # Every target checks for leaks; Fuzz/lsan.supp names the few allocations LeakSanitizer cannot follow (Swift
  # Regex's lazily compiled programs, a pointer in an enum payload), each made once per run, not per input.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" \
    "$out/$target" -max_total_time="$seconds" -timeout=10 -dict="$(dictionary "$target")" -print_final_stats=1 \
    -detect_leaks=1 \
    -artifact_prefix="$out/crashes/$target-" "$corpus" "Fuzz/seeds/$target" >"$log" 2>&1
  result=$?
  set -e
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  execs="${execs:-0}"
  # Three targets do much more per input than the rest, so their floor is 50 a second: turns renders and reads a
  # whole model API answer twice per input (some thirty times more for half of them), stream-mutations checks 24
  # served mutants against the stream and each other, coverage writes every report format and gate. From fresh
  # seeds, in a quiet CI run (2026-12-08), they ran 107, 207 and 205 a second.
  floor="$min_execs"
  case "$target" in
    turns | stream-mutations | coverage) if [ -z "${MIN_EXECS:-}" ]; then floor=$((seconds * 50)); fi ;;
  esac
  if [ "$result" -ne 0 ]; then
    echo "fuzz: $target FAILED (exit $result) after $execs executions; input saved under $out/crashes:" >&2
    grep -E "ERROR|Fatal error|Precondition failed|SUMMARY|Test unit written" "$log" | head -20 >&2
    status=1
  elif [ "$execs" -lt "$floor" ]; then
    echo "fuzz: $target reached only $execs executions in $seconds s (minimum $floor)" >&2
    status=1
  else
    coverage=$(grep -E "^#[0-9]+.*(DONE|pulse)" "$log" | tail -1 | grep -oE "cov: [0-9]+" || true)
    echo "fuzz: $target ok: $execs executions in $seconds s, no crash ($coverage)"
  fi
done
exit "$status"
