#!/usr/bin/env bash
# What the cluster costs: server CPU per acknowledged action for six setups, run paired (round by round,
# the setups alternated) on this machine, each against the same PostgreSQL with a fresh database:
#   single   one node, PostgreSQL, no NATS
#   cluster1 one node in cluster mode (PostgreSQL + NATS: every message through NATS)
#   spread   three nodes, each room's players spread over them (an unrouted balancer)
#   routed   three nodes, every player of a room on the node that created (and owns) it: routing by room at
#            its best, no room ever moves
#   hashed   three nodes behind HAProxy running deploy/haproxy.cfg: rooms created through it (least
#            connections), their players' sockets hashed by room code to one node, which the room is then
#            handed to (what a real deployment does)
#   single3  three independent single nodes (no NATS, a database each on the same PostgreSQL), every player
#            of a room on its node: what three processes on this machine cost with no cluster at all, the
#            floor for `routed`
# Server CPU is the user + system time of the ddz nodes, nats-server and PostgreSQL's processes, read from
# /proc before and after each load run; the load generator (`ddz load`, saturation: think 0, rooms of
# three players) is not counted, nor is HAProxy (another machine's in a deployment: its own CPU per action
# is printed beside). Prints one line per run and the medians per setup.
#
# Usage: scripts/cluster-cpu.sh [ROUNDS=3] [PLAYERS=600] [DEALS=2]
# Needs: the release binary (target/release/ddz), PostgreSQL server binaries, nats-server, haproxy, curl; as root it
# runs PostgreSQL as the `postgres` user.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-3}" players="${2:-600}" deals="${3:-2}"
ddz="${DDZ:-$root/target/release/ddz}"
pg_bin="$(find /usr/lib/postgresql/*/bin -maxdepth 0 2>/dev/null | sort -V | tail -n 1)"
[[ -x "$ddz" && -x "$pg_bin/initdb" ]] && command -v nats-server >/dev/null && command -v haproxy >/dev/null || {
    echo "needs $ddz (cargo build --release), PostgreSQL, nats-server and haproxy" >&2
    exit 1
}
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ddz-cpu.XXXXXX")"
chmod 755 "$tmp"
as_pg() { if [[ $EUID -eq 0 ]]; then (cd "$tmp" && runuser -u postgres -- "$@"); else "$@"; fi; }
pg_port=15499 nats_port=14299 ports=(18191 18192 18193) lb_port=18190
node_pids=() nats_pid="" lb_pid=""
cleanup() {
    kill "${node_pids[@]}" "$nats_pid" "$lb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    as_pg "$pg_bin/pg_ctl" -D "$tmp/pg" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
[[ $EUID -eq 0 ]] && chown postgres: "$tmp"
as_pg "$pg_bin/initdb" -D "$tmp/pg" -U postgres --auth=trust --no-sync >/dev/null
as_pg "$pg_bin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg.log" -w \
    -o "-p $pg_port -k $tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
db="postgres://postgres@127.0.0.1:$pg_port/ddz"

# Clock ticks (user + system) of one process: fields 14 and 15 (utime, stime), counted after the
# command's closing parenthesis.
own_ticks() {
    sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'
}

# Clock ticks (user + system) of the given processes and of every PostgreSQL process.
ticks() {
    local pids=("$@") total=0 pid
    mapfile -t -O "${#pids[@]}" pids < <(pgrep -f "$tmp/pg" || true; pgrep -P "$(head -n 1 "$tmp/pg/postmaster.pid")" || true)
    for pid in "${pids[@]}"; do
        [[ -r /proc/$pid/stat ]] || continue
        total=$((total + $(own_ticks "$pid")))
    done
    echo "$total"
}

run() { # setup
    local setup=$1 nodes=1 cluster=() servers
    for name in ddz ddz2 ddz3; do
        as_pg "$pg_bin/dropdb" -h 127.0.0.1 -p "$pg_port" --if-exists "$name" 2>/dev/null
        as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" "$name"
    done
    node_pids=() nats_pid=""
    if [[ $setup != single && $setup != single3 ]]; then
        nats-server -a 127.0.0.1 -p "$nats_port" >/dev/null 2>&1 &
        nats_pid=$!
        cluster=(--nats "nats://127.0.0.1:$nats_port")
        sleep 0.3
    fi
    [[ $setup == spread || $setup == routed || $setup == hashed || $setup == single3 ]] && nodes=3
    servers=""
    for i in $(seq 0 $((nodes - 1))); do
        local name=n$((i + 1)) node=()
        [[ ${#cluster[@]} -gt 0 ]] && node=(--node "$name")
        local database=$db
        [[ $setup == single3 && $i -gt 0 ]] && database="${db}$((i + 1))"
        "$ddz" serve --addr "127.0.0.1:${ports[$i]}" --database "$database" "${cluster[@]}" "${node[@]}" \
            --max-connections 20000 --ws-rate 100000 --ws-burst 100000 --api-rate 100000 --api-burst 100000 \
            >"$tmp/$setup-$name.log" 2>&1 &
        node_pids+=($!)
        for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:${ports[$i]}/readyz" >/dev/null && break; sleep 0.1; done
        servers+="${servers:+,}127.0.0.1:${ports[$i]}"
    done
    local routed=()
    [[ $setup == routed || $setup == single3 ]] && routed=(--routed)
    if [[ $setup == hashed ]]; then
        DDZ_LB_BIND="127.0.0.1:$lb_port" DDZ_LB_STATS="127.0.0.1:$((lb_port - 1))" DDZ_NODE1="127.0.0.1:${ports[0]}" \
            DDZ_NODE2="127.0.0.1:${ports[1]}" DDZ_NODE3="127.0.0.1:${ports[2]}" \
            haproxy -db -f "$root/deploy/haproxy.cfg" >/dev/null 2>&1 &
        lb_pid=$!
        for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$lb_port/readyz" >/dev/null && break; sleep 0.1; done
        servers="127.0.0.1:$lb_port"
    fi
    local before after out actions lb_before=0 lb_after=0
    before=$(ticks "${node_pids[@]}" $nats_pid)
    [[ -n $lb_pid ]] && lb_before=$(own_ticks "$lb_pid")
    out=$("$ddz" load --server "$servers" --players "$players" --deals "$deals" --ramp-s 2 --think-ms 0 --no-bots "${routed[@]}" 2>&1)
    after=$(ticks "${node_pids[@]}" $nats_pid)
    [[ -n $lb_pid ]] && lb_after=$(own_ticks "$lb_pid")
    actions=$(grep -oE '[0-9]+ actions acknowledged' <<<"$out" | grep -oE '^[0-9]+')
    local rate failed
    rate=$(grep -oE '\([0-9]+/s\)' <<<"$out" | head -n 1)
    failed=$(grep -oE '[0-9]+ rooms failed' <<<"$out")
    kill "${node_pids[@]}" $nats_pid $lb_pid 2>/dev/null || true
    wait "${node_pids[@]}" $nats_pid $lb_pid 2>/dev/null || true
    node_pids=() nats_pid="" lb_pid=""
    # Microseconds of server CPU per acknowledged action (clock ticks are 1/100 s).
    local us=$(((after - before) * 10000 / actions)) lb=""
    [[ $setup == hashed ]] && lb="(HAProxy: $(((lb_after - lb_before) * 10000 / actions)) us/action)"
    echo "$setup $us $actions $rate $failed" >>"$tmp/results"
    printf '%-9s %6d us CPU/action  %6d actions %s %s %s\n' "$setup" "$us" "$actions" "$rate" "$failed" "$lb"
}

for round in $(seq 1 "$rounds"); do
    echo "round $round"
    for setup in single cluster1 spread routed hashed single3; do run "$setup"; done
done
echo "medians (microseconds of server CPU per acknowledged action):"
for setup in single cluster1 spread routed hashed single3; do
    printf '  %-9s %s\n' "$setup" "$(awk -v s="$setup" '$1 == s {print $2}' "$tmp/results" | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')"
done
