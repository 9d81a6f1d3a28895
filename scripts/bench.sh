#!/usr/bin/env bash
# Latency of the two hottest routes under a loopback load, with wrk: prints p50/p90/p99 and throughput of
# POST /api/v1/memories (unique content per request, so dedup never short-cuts) and GET /api/v1/memories/{id}
# (random ids among 1,000 seeded memories; each GET also counts an access, i.e. one UPDATE).
#
# Uses a scratch database (dropped afterwards) and a release build. Traffic goes to 127.0.0.1 only.
# Knobs: CAIRN_BENCH_PORT (4546), CAIRN_BENCH_DURATION (20s), CAIRN_BENCH_CONNECTIONS (16), CAIRN_BENCH_THREADS (2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CAIRN_SKIP_MODEL=1
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
command -v wrk >/dev/null || { echo "[bench] wrk is missing: apt-get install wrk" >&2; exit 1; }

port="${CAIRN_BENCH_PORT:-4546}"
duration="${CAIRN_BENCH_DURATION:-20s}"
connections="${CAIRN_BENCH_CONNECTIONS:-16}"
threads="${CAIRN_BENCH_THREADS:-2}"

cargo build --release --locked --bin cairn >&2
bin="$CARGO_TARGET_DIR/release/cairn"

db="cairn_bench_$$"
base_url="$DATABASE_URL"
bench_url="${base_url%/*}/$db"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  psql -q "$base_url" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
psql -q "$base_url" -c "CREATE DATABASE $db" >/dev/null

export DATABASE_URL="$bench_url"
RUST_LOG=warn "$bin" serve --listen "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.1
done
key="$("$bin" tenant create bench --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["api_key"])')"

# Seed 1,000 memories for the GETs and write their ids into a Lua table.
python3 - "$port" "$key" "$work/ids.lua" <<'PY'
import json, sys, urllib.request
port, key, out = sys.argv[1], sys.argv[2], sys.argv[3]
ids = []
for batch in range(2):
    body = {"memories": [{"content": f"seeded memory {batch}-{i}: the user prefers option {i % 7}",
                          "tags": ["seed", f"group:{i % 10}"]} for i in range(500)]}
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/memories/batch", json.dumps(body).encode(),
                                 {"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    ids += json.load(urllib.request.urlopen(req))["memory_ids"]
with open(out, "w") as f:
    f.write("ids = {" + ",".join(f'"{i}"' for i in ids) + "}\n")
PY

cat >"$work/post.lua" <<LUA
local n = 0
function setup(thread) thread:set("tid", n); n = n + 1 end
function init() counter = 0 end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $key"
function request()
  counter = counter + 1
  local body = string.format('{"content":"bench memory %d-%d: decided to cache results for %d minutes","tags":["bench","t%d"],"importance":0.6}', tid, counter, counter % 60, counter % 20)
  return wrk.format(nil, "/api/v1/memories", nil, body)
end
LUA
cat "$work/ids.lua" >"$work/get.lua"
cat >>"$work/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $key"
math.randomseed(42)
function request() return wrk.format("GET", "/api/v1/memories/" .. ids[math.random(#ids)]) end
LUA

report() {
  local name=$1 script=$2 out
  out="$(wrk -t"$threads" -c"$connections" -d"$duration" --latency -s "$script" "http://127.0.0.1:$port")"
  printf "%s\n" "$out" >"$work/$(tr -c "[:alnum:]\n" _ <<<"$name").txt"
  local p50 p90 p99 rps errors
  p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
  p90="$(awk '$1 == "90%" {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  rps="$(awk '/^Requests\/sec/ {print $2}' <<<"$out")"
  errors="$(awk -F': ' '/Non-2xx/ {print $2}' <<<"$out")"
  printf '%-28s p50 %-9s p90 %-9s p99 %-9s %10s req/s  non-2xx: %s\n' "$name" "$p50" "$p90" "$p99" "$rps" "${errors:-0}"
}

echo "[bench] $threads threads, $connections connections, $duration each, release build, loopback" >&2
report "POST /api/v1/memories" "$work/post.lua"
report "GET /api/v1/memories/{id}" "$work/get.lua"
