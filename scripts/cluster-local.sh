#!/usr/bin/env bash
# A ddz cluster on this machine, to try cluster mode and failover: its own PostgreSQL and NATS, three
# nodes (`ddz serve --nats`, n1..n3) and HAProxy (deploy/haproxy.cfg) in front, all under one temporary
# directory that is deleted, with everything stopped, on exit or Ctrl-C.
#
# Usage: scripts/cluster-local.sh           run until Ctrl-C; prints the address and how to kill a node
#        scripts/cluster-local.sh --check   (or CHECK=1) start, test failover through HAProxy, print
#                                           PASS or FAIL, exit 0 or 1
# Environment (defaults in brackets):
#   DDZ          the ddz binary [target/release/ddz, built with cargo if missing]
#   LB_ADDR      HAProxy's public address [127.0.0.1:8080]
#   STATS_ADDR   HAProxy's stats page, /stats [127.0.0.1:8404]
#   NODE_PORTS   the three nodes' ports [8081 8082 8083]
#   PG_PORT, NATS_PORT   [15432, 14222]: off the standard ports, so a system server can keep them
#   LEASE_MS     the nodes' --lease-ms [3000]
#   KEEP=1       keep the temporary directory (logs, database) on exit
# The nodes also read ddz's own DDZ_* settings; they trust HAProxy's X-Forwarded-For
# (--trusted-proxies 127.0.0.1), so per-client limits count players, not the balancer.
# Needs: PostgreSQL server binaries, nats-server, haproxy, curl, util-linux (setsid, runuser). It
# installs nothing; it names what is missing. Run as root, it starts PostgreSQL as the `postgres` user
# (PostgreSQL refuses to run as root).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
check="${CHECK:-0}"
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    -h | --help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

lb_addr="${LB_ADDR:-127.0.0.1:8080}"
stats_addr="${STATS_ADDR:-127.0.0.1:8404}"
read -r -a node_ports <<<"${NODE_PORTS:-8081 8082 8083}"
pg_port="${PG_PORT:-15432}"
nats_port="${NATS_PORT:-14222}"
lease_ms="${LEASE_MS:-3000}"
ddz="${DDZ:-$root/target/release/ddz}"
[[ ${#node_ports[@]} -eq 3 ]] || { echo "NODE_PORTS must name three ports" >&2; exit 2; }
# A browser on this machine reaches 0.0.0.0 (every interface) through 127.0.0.1.
lb_url="http://${lb_addr/#0.0.0.0:/127.0.0.1:}"
lb_url="${lb_url/#http:\/\/:/http://127.0.0.1:}"

say() { printf '%s\n' "$*"; }
die() { say "error: $*" >&2; exit 1; }

# --- What is needed, all reported at once -------------------------------------------------------------
pg_bin="$(find /usr/lib/postgresql/*/bin -maxdepth 0 2>/dev/null | sort -V | tail -n 1 || true)"
missing=()
[[ -n "$pg_bin" && -x "$pg_bin/initdb" ]] || missing+=("PostgreSQL server (Debian: postgresql; /usr/lib/postgresql/*/bin)")
command -v nats-server >/dev/null || missing+=("nats-server (Debian: nats-server)")
command -v haproxy >/dev/null || missing+=("haproxy (Debian: haproxy)")
command -v curl >/dev/null || missing+=("curl (Debian: curl)")
command -v setsid >/dev/null || missing+=("setsid (Debian: util-linux)")
if [[ $EUID -eq 0 ]]; then
    command -v runuser >/dev/null || missing+=("runuser (Debian: util-linux)")
    id postgres >/dev/null 2>&1 || missing+=("a 'postgres' user to run PostgreSQL as (the postgresql package creates it)")
fi
build=0
if [[ ! -x "$ddz" ]]; then
    if [[ -z "${DDZ:-}" ]] && command -v cargo >/dev/null; then build=1; else
        missing+=("the ddz binary at $ddz (set DDZ=path, or build it: cargo build --release)")
    fi
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    say "missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi
if [[ $build == 1 ]]; then
    say "building $ddz (cargo build --release)..."
    (cd "$root" && cargo build --release -p ddz)
fi

# Refuse ports in use up front, rather than failing halfway with a confusing log.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "${lb_addr##*:}" "${stats_addr##*:}" "${node_ports[@]}" "$pg_port" "$nats_port"; do
    ! port_busy "$port" || die "port $port is in use (see the environment variables in $0 --help)"
done

# --- Temporary directory and cleanup -------------------------------------------------------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ddz-cluster.XXXXXX")"
chmod 755 "$tmp" # the postgres user must reach its data directory inside
pgdata="$tmp/pgdata"
declare -A pids=() # name -> pid, for cleanup and the failover hint

as_pg() { if [[ $EUID -eq 0 ]]; then (cd "$tmp" && runuser -u postgres -- "$@"); else "$@"; fi; }

# SIGTERM to the named processes; SIGKILL to any still running after 15 s (a node gives its own
# shutdown 10 s).
stop() {
    local name list=() deadline=$((SECONDS + 15))
    for name; do [[ -z "${pids[$name]:-}" ]] || list+=("${pids[$name]}"); done
    [[ ${#list[@]} -gt 0 ]] || return 0
    kill "${list[@]}" 2>/dev/null || true
    while ((SECONDS < deadline)) && kill -0 "${list[@]}" 2>/dev/null; do sleep 0.1; done
    kill -9 "${list[@]}" 2>/dev/null || true
    wait "${list[@]}" 2>/dev/null || true
}

# In order: the nodes shut down quickly while NATS and the database are still there to finish with
# (without NATS a node waits its full 10 s). Every child runs under setsid, so Ctrl-C reaches only this
# script and the order holds.
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop haproxy
    stop n1 n2 n3
    stop nats
    if [[ -f "$pgdata/postmaster.pid" ]]; then
        as_pg "$pg_bin/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null 2>&1 || true
    fi
    if [[ "${KEEP:-0}" == 1 ]]; then say "kept $tmp"; else rm -rf "$tmp"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $3 seconds for URL $2 to answer 200; $1 names the process whose log to show if not.
wait_ready() {
    local name=$1 url=$2 deadline=$((SECONDS + $3))
    until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
        if [[ -n "${pids[$name]:-}" ]] && ! kill -0 "${pids[$name]}" 2>/dev/null; then
            tail -n 20 "$tmp/$name.log" >&2; die "$name exited (log: $tmp/$name.log)"
        fi
        ((SECONDS < deadline)) || { tail -n 20 "$tmp/$name.log" >&2; die "$name not ready at $url"; }
        sleep 0.2
    done
}

# --- PostgreSQL ----------------------------------------------------------------------------------------
say "temporary directory: $tmp"
mkdir "$pgdata"
touch "$tmp/postgres.log"
[[ $EUID -ne 0 ]] || chown postgres: "$pgdata" "$tmp/postgres.log"
as_pg "$pg_bin/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --locale=C >"$tmp/initdb.log" 2>&1 ||
    { cat "$tmp/initdb.log" >&2; die "initdb failed"; }
# The socket goes into the data directory, not /var/run/postgresql (absent or not ours).
as_pg "$pg_bin/pg_ctl" -D "$pgdata" -l "$tmp/postgres.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pgdata" start >/dev/null ||
    { tail -n 20 "$tmp/postgres.log" >&2; die "PostgreSQL did not start"; }
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres ddz
database="postgres://postgres@127.0.0.1:$pg_port/ddz"

# --- NATS ----------------------------------------------------------------------------------------------
setsid nats-server -a 127.0.0.1 -p "$nats_port" >"$tmp/nats.log" 2>&1 &
pids[nats]=$!
deadline=$((SECONDS + 10))
until port_busy "$nats_port"; do
    kill -0 "${pids[nats]}" 2>/dev/null || { cat "$tmp/nats.log" >&2; die "nats-server exited"; }
    ((SECONDS < deadline)) || die "nats-server did not listen on $nats_port"
    sleep 0.2
done

# --- The nodes: n1 alone first, so that one node runs the database migrations ---------------------------
start_node() { # $1: 1..3
    local name="n$1" port="${node_ports[$1 - 1]}"
    setsid "$ddz" serve --addr "127.0.0.1:$port" --database "$database" --nats "nats://127.0.0.1:$nats_port" \
        --node "$name" --lease-ms "$lease_ms" --trusted-proxies 127.0.0.1 >"$tmp/$name.log" 2>&1 &
    pids[$name]=$!
}
start_node 1
wait_ready n1 "http://127.0.0.1:${node_ports[0]}/readyz" 60
start_node 2
start_node 3
wait_ready n2 "http://127.0.0.1:${node_ports[1]}/readyz" 30
wait_ready n3 "http://127.0.0.1:${node_ports[2]}/readyz" 30

# --- HAProxy (-W -db: master-worker in the foreground, so its pid is ours to stop) ---------------------
DDZ_LB_BIND="$lb_addr" DDZ_LB_STATS="$stats_addr" DDZ_NODE1="127.0.0.1:${node_ports[0]}" \
    DDZ_NODE2="127.0.0.1:${node_ports[1]}" DDZ_NODE3="127.0.0.1:${node_ports[2]}" \
    setsid haproxy -W -db -f "$root/deploy/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
pids[haproxy]=$!
wait_ready haproxy "$lb_url/readyz" 15

say "logs: $tmp/{postgres,nats,n1,n2,n3,haproxy}.log"
say "nodes: n1 pid ${pids[n1]} :${node_ports[0]}, n2 pid ${pids[n2]} :${node_ports[1]}, n3 pid ${pids[n3]} :${node_ports[2]}"

# State of server $1 in HAProxy's stats (UP, DOWN, "UP 1/2", ...): field 18 of its CSV row.
lb_state() { curl -fsS --max-time 2 "http://$stats_addr/stats;csv" | awk -F, -v s="$1" '$1 == "ddz_nodes" && $2 == s { print $18 }'; }

if [[ "$check" != 1 ]]; then
    say ""
    say "open $lb_url   (HAProxy stats: http://$stats_addr/stats)"
    say "failover: kill -9 ${pids[n2]}   (n2; its players reconnect to n1/n3, its rooms move within ${lease_ms} ms)"
    say "Ctrl-C stops everything and deletes $tmp"
    while sleep 1; do :; done
fi

# --- The check ------------------------------------------------------------------------------------------
fail() { say "FAIL: $*"; for f in haproxy n1 n2 n3; do say "--- $f.log"; tail -n 8 "$tmp/$f.log"; done; exit 1; }

ready="$(curl -sS --max-time 5 "$lb_url/readyz")" || fail "GET /readyz through HAProxy"
[[ "$ready" == *'"ready"'* ]] || fail "GET /readyz through HAProxy answered $ready"
say "ok: GET /readyz through HAProxy: $ready"

answer="$(curl -sS --max-time 10 -w '\n%{http_code}' -H 'Content-Type: application/json' \
    -d '{"name":"Tester"}' "$lb_url/api/play-vs-bots")" || fail "POST /api/play-vs-bots through HAProxy"
status="${answer##*$'\n'}"
body="${answer%$'\n'*}"
code="$(sed -n 's/.*"code" *: *"\([^"]*\)".*/\1/p' <<<"$body")"
[[ "$status" == 2?? && -n "$code" ]] || fail "POST /api/play-vs-bots answered $status $body"
say "ok: POST /api/play-vs-bots through HAProxy: $status $body"

# Kill the node that made the room (HAProxy's log names it), so the room must move to survive.
victim="$(sed -n 's|.* ddz_nodes/\(n[123]\) .*"POST /api/play-vs-bots.*|\1|p' "$tmp/haproxy.log" | tail -n 1)"
victim="${victim:-n2}"
# Let HAProxy's health counters fill up first: just after start, one failed check marks a node down.
sleep 3
kill -9 "${pids[$victim]}"
wait "${pids[$victim]}" 2>/dev/null || true
unset "pids[$victim]"
killed_at=$EPOCHREALTIME
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
say "killed $victim (it made room $code) with kill -9"

# Until HAProxy's checks mark it DOWN (inter 1s fall 2: about 2 s); meanwhile redispatch keeps answering.
deadline=$((SECONDS + 10))
until [[ "$(lb_state "$victim")" == DOWN* ]]; do
    ((SECONDS < deadline)) || fail "HAProxy did not mark $victim DOWN within 10 s"
    sleep 0.1
done
say "ok: HAProxy marked $victim DOWN $(since "$killed_at") s after the kill"

for i in 1 2 3 4 5 6; do
    s="$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 "$lb_url/readyz")" || s=none
    [[ "$s" == 200 ]] || fail "GET /readyz through HAProxy after the kill, try $i: $s"
done
say "ok: GET /readyz through HAProxy after the kill: 200 six times"

# The room made above is still there, whichever node it lived on (a dead node's rooms move within the lease).
deadline=$((SECONDS + lease_ms / 1000 + 10))
until s="$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 "$lb_url/api/rooms/$code")" && [[ "$s" == 200 ]]; do
    ((SECONDS < deadline)) || fail "GET /api/rooms/$code through HAProxy after the kill: ${s:-none}"
    sleep 0.2
done
say "ok: GET /api/rooms/$code through HAProxy: 200, $(since "$killed_at") s after the kill"
say "PASS"
