#!/usr/bin/env bash
# One tournament of N simulated entrants on a cluster of three `ddz serve` nodes (PostgreSQL and NATS, all
# started here in a temporary directory), with the node driving the event killed (SIGKILL) a few seconds
# into the first round: the figures of docs/performance.md, "Tournaments on a cluster". Needs a release
# build (`cargo build --release`), PostgreSQL and nats-server (scripts/test.sh installs them).
#
#   scripts/load-tournament-cluster.sh [ENTRANTS] [THINK_MS]     # default: 10000 entrants, think 0
set -euo pipefail
cd "$(dirname "$0")/.."
entrants=${1:-10000}
think=${2:-0}
ddz=target/release/ddz
[ -x "$ddz" ] || { echo "build first: cargo build --release" >&2; exit 2; }
ulimit -n 20000

dir=$(mktemp -d /tmp/ddz-load-cluster.XXXXXX)
chmod 755 "$dir"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "${killer:-}" ] && kill "$killer" 2>/dev/null || true
  as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  echo "logs and data: $dir"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] && chown postgres: "$dir"
as_postgres "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
pg_port=$(free_port)
as_postgres "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
  -o "-p $pg_port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
as_postgres "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" ddz
nats_port=$(free_port)
nats-server -a 127.0.0.1 -p "$nats_port" >"$dir/nats.log" 2>&1 &
pids+=($!)

servers=()
node_pids=()
for node in a b c; do
  port=$(free_port)
  "$ddz" serve --addr "127.0.0.1:$port" --database "postgres://postgres@127.0.0.1:$pg_port/ddz" \
    --nats "nats://127.0.0.1:$nats_port" --node "$node" --no-tournaments \
    --api-rate 100000 --api-burst 100000 --ws-rate 100000 --ws-burst 100000 --max-connections 20000 \
    --tournament-pause-ms 500 >"$dir/node-$node.log" 2>&1 &
  pids+=($!)
  node_pids+=($!)
  servers+=(--server "127.0.0.1:$port")
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
done
first=${servers[1]}

# The node that drives the event (its /metrics says ddz_tournaments_driven 1) dies five seconds after
# the first round is seated: the event and the tables it owns move to the other two.
(
  while :; do
    running=$(curl -sf "http://$first/api/tournaments" | python3 -c \
      'import json,sys; r=json.load(sys.stdin)["running"]; print(r[0]["id"] if r else "")' 2>/dev/null || true)
    if [ -n "$running" ]; then
      sleep 5
      for i in 0 1 2; do
        addr=${servers[$((2 * i + 1))]}
        if curl -sf "http://$addr/metrics" | grep -Eq "^ddz_tournaments_driven 1(\.0)?$"; then
          kill -9 "${node_pids[$i]}"
          echo "the driving node ($addr, pid ${node_pids[$i]}) killed at $(date +%T), in round 1 of $running"
          exit 0
        fi
      done
    fi
    sleep 0.5
  done
) &
killer=$!

/usr/bin/time -v "$ddz" load "${servers[@]}" --tournament "$entrants" --think-ms "$think" 2> "$dir/load.time" \
  | tee "$dir/load.out"
wait "$killer" || true
grep -E "Maximum resident|Elapsed|User time|System time" "$dir/load.time" | sed 's/^/  load generator: /'

# The finished event's public record, from a node still up: every decision drawn again, each deal counted once.
id=$(sed -n 's/^tournament \([a-z0-9-]*\) .*/\1/p' "$dir/load.out")
for i in 0 1 2; do
  curl -sf "http://${servers[$((2 * i + 1))]}/api/tournaments/$id/record" -o "$dir/record.json" && break
done
"$ddz" verify-tournament "$dir/record.json" > "$dir/verify.out"
echo "  ddz verify-tournament: $(grep -c ': as drawn$' "$dir/verify.out") decisions as drawn, $(grep -vc -e ': as drawn$' -e '^seed' -e 'SHA-256' "$dir/verify.out") otherwise"
python3 - "$dir/record.json" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))["log"]
counted = [(e["entry"]["code"], e["entry"]["number"]) for e in log if e["entry"]["entry"] == "deal_counted"]
seated = sum(1 for e in log if e["entry"]["entry"] == "seated")
tables = sum(len(e["entry"]["tables"]) for e in log if e["entry"]["entry"] == "seated")
print(f"  the log: {len(log)} entries, {seated} seatings of {tables} tables, {len(counted)} deals counted, "
      f"{len(counted) - len(set(counted))} counted twice")
PY
