#!/usr/bin/env bash
# Load you can reproduce from a clone: throughput and p99 at 16, 256 and 1,000 connections, start-up time and
# peak RSS of `stub-server serve --file`, side by side with peers in the same run: nginx (when installed), a C
# floor (bench/floor.c: one epoll thread, one fixed answer; built with cc) and, on request, Hummingbird and
# FlyingFox (bench/peers, a package of their own). With --soak N: N minutes at 64 connections while another
# client flips variants and reloads, RSS sampled every 10 s; the soak fails (exit 1) on any wrk error or non-2xx
# answer, a failed admin call, or RSS more than 10% apart after warm-up.
#
#   bench/load.sh                  # needs wrk (Debian: apt-get install wrk); nginx optional
#   bench/load.sh --soak 10        # add a 10-minute soak
#   DURATION=10 RUNS=3 bench/load.sh
#   LEAN=0 bench/load.sh           # skip the static binary's row (on Linux it is built and measured too)
#   PEERS="nginx floor hummingbird flyingfox" bench/load.sh
#                                  # default "nginx floor"; the Swift peers build bench/peers in release first
#                                  # (a few minutes; its packages come from GitHub)
#   CONNECTIONS="16 1000" bench/load.sh
#
# Prints a markdown table. Medians of RUNS wrk runs (default 3) of DURATION seconds (default 5), after a 2 s
# warm-up. On a 2-CPU machine wrk and the server share the CPUs: compare rows of one run, not across runs; the
# last column is each row's throughput at the first connection count over stub-server's.
set -euo pipefail
cd "$(dirname "$0")/.."

soak_minutes=0
if [ "${1:-}" = "--soak" ]; then soak_minutes="${2:?--soak needs minutes}"; fi
duration="${DURATION:-5}"
peers="${PEERS:-nginx floor}"
read -r -a connection_counts <<<"${CONNECTIONS:-16 256 1000}"
runs="${RUNS:-3}"
fixture="${FIXTURE:-MockData/albums/top-albums.good.json}"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

command -v wrk >/dev/null || { echo "bench/load.sh: needs wrk (apt-get install wrk)" >&2; exit 1; }
swift build -c release --product stub-server >&2
server=.build/release/stub-server
# The lean build (the CommandLine article, "One static binary"): Linux only, where the toolchain links a static executable.
lean=""
if [ "$(uname)" = Linux ] && [ "${LEAN:-1}" = 1 ]; then
  swift build -c release --product stub-server -Xswiftc -static-executable --scratch-path .build/lean >&2
  lean=.build/lean/release/stub-server
fi

now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# Summed over the process and its children (nginx's master and worker), as the peer rig sums the tree.
peak_rss_mb() {
  local total=0 child
  for child in "$1" $(pgrep -P "$1" || true); do
    total=$((total + $(awk '/VmHWM/ {print $2}' "/proc/$child/status" 2>/dev/null || echo 0)))
  done
  awk -v kb="$total" 'BEGIN {printf "%.1f", kb / 1024}'
}

# Starts ours (the binary $1); sets pid and url. Start-up = spawn to the ready file (written once it accepts).
start_ours() {
  rm -f "$tmp/ready"
  local began
  began=$(now_ms)
  "$1" serve --file "$fixture" --port 0 --ready-file "$tmp/ready" >"$tmp/ours.log" 2>&1 &
  pid=$!
  while [ ! -s "$tmp/ready" ]; do sleep 0.001; done
  started_ms=$(($(now_ms) - began))
  url="$(cat "$tmp/ready")/x"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Polls until $1 answers; sets started_ms from $2 (the spawn time).
wait_answering() {
  until curl -s -o /dev/null "$1"; do
    kill -0 "$pid" 2>/dev/null || { echo "bench/load.sh: the server exited before answering" >&2; exit 1; }
    sleep 0.001
  done
  started_ms=$(($(now_ms) - $2))
  url="$1"
}

# The C floor: one epoll thread and one fixed answer (bench/floor.c).
start_floor() {
  rm -f "$tmp/ready-floor"
  local began
  began=$(now_ms)
  .build/bench-floor "$fixture" "$tmp/ready-floor" &
  pid=$!
  while [ ! -s "$tmp/ready-floor" ]; do sleep 0.001; done
  started_ms=$(($(now_ms) - began))
  url="$(cat "$tmp/ready-floor")/x"
}

# A Swift peer of bench/peers: peer-$1 PORT FILE.
start_swift_peer() {
  local port began
  port=$(free_port)
  began=$(now_ms)
  "bench/peers/.build/release/peer-$1" "$port" "$fixture" >"$tmp/$1.log" 2>&1 &
  pid=$!
  wait_answering "http://127.0.0.1:$port/x" "$began"
}

start_nginx() {
  local port began
  port=$(free_port)
  cat >"$tmp/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $tmp/nginx.pid; error_log $tmp/nginx.error.log warn;
events { worker_connections 4096; }
http { access_log off; sendfile on; tcp_nopush on; tcp_nodelay on; keepalive_requests 1000000;
  client_body_temp_path $tmp/cb; proxy_temp_path $tmp/px; fastcgi_temp_path $tmp/fc; uwsgi_temp_path $tmp/uw; scgi_temp_path $tmp/sc;
  server { listen 127.0.0.1:$port; root $(dirname "$(realpath "$fixture")");
    location / { default_type application/json; try_files /$(basename "$fixture") =404; } } }
CONF
  began=$(now_ms)
  nginx -e "$tmp/nginx.error.log" -p "$tmp" -c "$tmp/nginx.conf" &
  pid=$!
  wait_answering "http://127.0.0.1:$port/x" "$began"
}

# One wrk run: "req/s p99ms errors".
measure() {
  local out
  out=$(wrk -t2 -c"$1" -d"${duration}s" --latency "$url" 2>&1)
  local rps p99 errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; print v}' <<<"$out")
  errors=$(awk '/Socket errors|Non-2xx/ {gsub(/[^0-9 ]/," "); s=0; for (i=1;i<=NF;i++) s+=$i; t+=s} END {print t+0}' <<<"$out")
  echo "$rps $p99 $errors"
}

# One row; the last column is req/s at the first connection count over stub-server's (the first row).
report() {
  local name="$1"
  wrk -t2 -c16 -d2s "$url" >/dev/null 2>&1 || true
  local row="| $name | $started_ms" first=""
  for connections in "${connection_counts[@]}"; do
    local results=()
    for _ in $(seq "$runs"); do results+=("$(measure "$connections")"); done
    local rps p99 errors
    rps=$(printf '%s\n' "${results[@]}" | awk '{print $1}' | median)
    p99=$(printf '%s\n' "${results[@]}" | awk '{print $2}' | median)
    errors=$(printf '%s\n' "${results[@]}" | awk '{s+=$3} END {print s}')
    row+=" | $rps | $p99 | $errors"
    [ -n "$first" ] || first="$rps"
  done
  [ -n "${ours_rps:-}" ] || ours_rps="$first"
  echo "$row | $(peak_rss_mb "$pid") | $(awk -v a="$first" -v b="$ours_rps" 'BEGIN {printf "%.2f", a / b}') |"
}

# Runs one row: start with "$@", report as $name, stop.
row() {
  local name="$1"
  shift
  "$@"
  pids+=("$pid")
  report "$name"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

wants() { [[ " $peers " == *" $1 "* ]]; }
if wants floor; then
  if command -v cc >/dev/null; then
    mkdir -p .build && cc -O2 -o .build/bench-floor bench/floor.c
  else
    echo "bench/load.sh: no cc; the floor row is skipped" >&2
    peers="${peers/floor/}"
  fi
fi
if wants hummingbird || wants flyingfox; then
  swift build -c release --package-path bench/peers >&2
fi

header="| server | start ms"
rule="|---|---:"
for connections in "${connection_counts[@]}"; do
  header+=" | req/s @$connections | p99 ms @$connections | errors @$connections"
  rule+="|---:|---:|---:"
done
echo "Fixture: $fixture ($(wc -c <"$fixture") bytes); wrk -t2 -d${duration}s, median of $runs; $(nproc) CPUs shared by wrk and the server."
echo
echo "$header | peak RSS MB | req/s @${connection_counts[0]} ÷ stub-server |"
echo "$rule|---:|---:|"
row "stub-server" start_ours "$server"
if [ -n "$lean" ]; then row "stub-server (static)" start_ours "$lean"; fi
if wants nginx && command -v nginx >/dev/null; then row "nginx" start_nginx; fi
if wants floor; then row "C floor (bench/floor.c)" start_floor; fi
if wants hummingbird; then row "hummingbird 2.28.1" start_swift_peer hummingbird; fi
if wants flyingfox; then row "flyingfox 0.27.1" start_swift_peer flyingfox; fi

if [ "$soak_minutes" -gt 0 ]; then
  "$server" serve --fixtures MockData --port 0 --ready-file "$tmp/ready-soak" >"$tmp/soak.log" 2>&1 &
  pid=$!; pids+=("$pid")
  while [ ! -s "$tmp/ready-soak" ]; do sleep 0.01; done
  base=$(cat "$tmp/ready-soak")
  wrk -t2 -c64 -d"${soak_minutes}m" "$base/api/v1/us/apple-music/top-albums/all/100/explicit.json" >"$tmp/soak.wrk" 2>&1 &
  load=$!
  : >"$tmp/soak.admin-failures"
  (while kill -0 "$load" 2>/dev/null; do
    curl -sf -o /dev/null -X PUT -d bad "$base/__stub/stubs/top-albums/variant" || echo "flip to bad" >>"$tmp/soak.admin-failures"
    curl -sf -o /dev/null -X DELETE "$base/__stub/stubs/top-albums/variant" || echo "flip back" >>"$tmp/soak.admin-failures"
    curl -sf -o /dev/null -X POST "$base/__stub/reload" || echo "reload" >>"$tmp/soak.admin-failures"
    sleep 1
  done) &
  flipper=$!; pids+=("$flipper")
  samples=()
  while kill -0 "$load" 2>/dev/null; do
    samples+=("$(awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$pid/status")")
    sleep 10
  done
  wait "$load" || true
  echo
  echo "Soak: ${soak_minutes} min at 64 connections with variant flips and reloads every second:"
  echo "- $(awk '/Requests\/sec/ {print $2}' "$tmp/soak.wrk") req/s; $(grep -E 'Socket errors|Non-2xx' "$tmp/soak.wrk" || echo 'no errors')"
  echo "- RSS every 10 s (MB): ${samples[*]}"
  # Pass: no wrk socket error or non-2xx answer, every admin call answered 2xx, and RSS after the first 30 s
  # (the warm-up) within 10% of its lowest sample.
  failures=()
  if grep -qE 'Socket errors|Non-2xx' "$tmp/soak.wrk"; then failures+=("wrk saw errors"); fi
  if [ -s "$tmp/soak.admin-failures" ]; then
    failures+=("$(wc -l <"$tmp/soak.admin-failures") admin calls failed ($(sort -u "$tmp/soak.admin-failures" | paste -sd, -))")
  fi
  if ! kill -0 "$pid" 2>/dev/null; then failures+=("the server exited"); fi
  after=("${samples[@]:3}")
  if [ ${#after[@]} -gt 0 ]; then
    spread=$(printf '%s\n' "${after[@]}" | awk '{if (min=="" || $1<min) min=$1; if ($1>max) max=$1} END {printf "%.1f %.1f %.1f", min, max, (max-min)*100/min}')
    read -r low high apart <<<"$spread"
    echo "- after warm-up: min $low, max $high MB ($apart% apart)"
    if awk -v apart="$apart" 'BEGIN {exit !(apart > 10)}'; then failures+=("RSS grew $apart% after warm-up"); fi
  else
    failures+=("too short to judge RSS: soak at least 1 minute")
  fi
  if [ ${#failures[@]} -gt 0 ]; then
    printf 'soak: FAILED: %s\n' "${failures[@]}" >&2
    exit 1
  fi
  echo "soak: passed (no errors, RSS flat within 10% after warm-up)"
fi
