#!/usr/bin/env bash
# HTTPS you can reproduce from a clone: requests per second over kept-alive TLS connections and new TLS
# connections (one handshake per request, `Connection: close`) per second, of `stub-server serve --https --file`
# and of nginx with TLS in the same run, both on this machine's OpenSSL with a P-256 certificate, TLS 1.3, no
# session resumption (the stub server keeps no sessions; nginx is told not to either).
#
#   bench/tls.sh                   # needs wrk and nginx (Debian: apt-get install wrk nginx) and openssl
#   DURATION=10 RUNS=5 CONNECTIONS=64 bench/tls.sh
#
# Prints a markdown table: medians of RUNS wrk runs (default 3) of DURATION seconds (default 5) after a 2 s
# warm-up, at CONNECTIONS connections (default 16). On a 2-CPU machine wrk and the server share the CPUs: compare
# rows of one run; the last columns are each row's figures over nginx's.
set -euo pipefail
cd "$(dirname "$0")/.."

duration="${DURATION:-5}"
runs="${RUNS:-3}"
connections="${CONNECTIONS:-16}"
fixture="${FIXTURE:-MockData/albums/top-albums.good.json}"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

for tool in wrk nginx openssl curl; do
  command -v "$tool" >/dev/null || { echo "bench/tls.sh: needs $tool" >&2; exit 1; }
done
swift build -c release --product stub-server >&2
server=.build/release/stub-server

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

start_ours() {
  "$server" serve --file "$fixture" --port 0 --https --authority "$tmp/authority" --ready-file "$tmp/ready" \
    >"$tmp/ours.log" 2>&1 &
  pid=$!
  while [ ! -s "$tmp/ready" ]; do sleep 0.01; done
  url="$(cat "$tmp/ready")/x"
}

start_nginx() {
  local port
  port=$(free_port)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost -days 1 \
    -keyout "$tmp/nginx-key.pem" -out "$tmp/nginx-cert.pem" 2>/dev/null
  cat >"$tmp/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $tmp/nginx.pid; error_log $tmp/nginx.error.log warn;
events { worker_connections 4096; }
http { access_log off; sendfile on; tcp_nopush on; tcp_nodelay on; keepalive_requests 1000000;
  client_body_temp_path $tmp/cb; proxy_temp_path $tmp/px; fastcgi_temp_path $tmp/fc; uwsgi_temp_path $tmp/uw; scgi_temp_path $tmp/sc;
  server { listen 127.0.0.1:$port ssl; root $(dirname "$(realpath "$fixture")");
    ssl_certificate $tmp/nginx-cert.pem; ssl_certificate_key $tmp/nginx-key.pem; ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache off; ssl_session_tickets off;
    location / { default_type application/json; try_files /$(basename "$fixture") =404; } } }
CONF
  nginx -e "$tmp/nginx.error.log" -p "$tmp" -c "$tmp/nginx.conf" &
  pid=$!
  url="https://127.0.0.1:$port/x"
  until curl -sk -o /dev/null "$url"; do sleep 0.01; done
}

# One wrk run: "req/s errors"; extra arguments go to wrk.
measure() {
  local out rps errors
  out=$(wrk -t2 -c"$connections" -d"${duration}s" "$@" "$url" 2>&1)
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  errors=$(awk '/Socket errors|Non-2xx/ {gsub(/[^0-9 ]/," "); s=0; for (i=1;i<=NF;i++) s+=$i; t+=s} END {print t+0}' <<<"$out")
  echo "$rps $errors"
}

# Sets kept and fresh to the medians, errors to their sum.
measure_both() {
  wrk -t2 -c"$connections" -d2s "$url" >/dev/null 2>&1 || true
  local kept_runs=() fresh_runs=()
  for _ in $(seq "$runs"); do
    kept_runs+=("$(measure)")
    fresh_runs+=("$(measure -H 'Connection: close')")
  done
  kept=$(printf '%s\n' "${kept_runs[@]}" | awk '{print $1}' | median)
  fresh=$(printf '%s\n' "${fresh_runs[@]}" | awk '{print $1}' | median)
  errors=$(printf '%s\n' "${kept_runs[@]}" "${fresh_runs[@]}" | awk '{s+=$2} END {print s}')
}

start_nginx
pids+=("$pid")
measure_both
nginx_kept=$kept nginx_fresh=$fresh nginx_errors=$errors
kill "$pid"; wait "$pid" 2>/dev/null || true

start_ours
pids+=("$pid")
measure_both
kill "$pid"; wait "$pid" 2>/dev/null || true

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "Fixture: $fixture ($(wc -c <"$fixture") bytes); wrk -t2 -c$connections -d${duration}s, median of $runs; $(nproc) CPUs shared by wrk and the server; $(openssl version)."
echo
echo "| server | req/s, kept-alive TLS | new TLS connections/s | errors | kept-alive ÷ nginx | new ÷ nginx |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| stub-server | $kept | $fresh | $errors | $(ratio "$kept" "$nginx_kept") | $(ratio "$fresh" "$nginx_fresh") |"
echo "| nginx (1 worker) | $nginx_kept | $nginx_fresh | $nginx_errors | 1.00 | 1.00 |"
