#!/usr/bin/env bash
# Load test of tafl-web as several machines run it, on this one (docs/web-machines.md, "Load"):
# a PostgreSQL of its own (initdb in a temporary directory, a free port, as the `postgres` user
# when run as root), 3 `tafl-web` servers on it behind HAProxy (web/deploy/haproxy.cfg with a
# third `server` line), and 1, then 2, then 4 `tafl-web worker` processes (one search each);
# PLAYERS simulated players (web/examples/load.rs --at) play the engine at 0.1 s a move through
# the balancer for SECONDS. A third of the way in one server is killed (kill -9) and started
# again, two thirds in one worker; at the end every move a player had acknowledged must be in
# the database, and none twice. Then the same run on SQLite with one server (the one-command
# start, which searches itself), killed and restarted alike.
# Not part of .ci/run: it takes all the cores for several minutes.
#   bash scripts/web-load-machines.sh [PLAYERS] [SECONDS] [WORKER COUNTS] [sqlite|nosqlite]
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-1000}
seconds=${2:-60}
counts=${3:-1 2 4}
sqlite=${4:-sqlite}
# 1 000 players: a connection each to the balancer, and the balancer's to the servers.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
cargo build --release -p tafl-web --bin tafl-web --example load
bin=$PWD/target/release/tafl-web
load=$PWD/target/release/examples/load

initdb=$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)
pgbin=$(dirname "$(readlink -f "$initdb")")
dir=$(mktemp -d /tmp/tafl-web-machines.XXXXXX)
as=()
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    as=(runuser -u postgres --)
fi
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    "${as[@]}" "$pgbin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT

pgport=$(free_port)
"${as[@]}" "$pgbin/initdb" -U postgres --auth=trust -E UTF8 -D "$dir/data" >/dev/null
"${as[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
    -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null
psql() { "${as[@]}" "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -X -q -t -A "$@"; }
sql() { # DB QUERY: on PostgreSQL or on a SQLite file (with the sqlite3 program)
    if [[ $1 == postgres* ]]; then psql -d "${1##*/}" -c "$2"; else sqlite3 "$1" "$2"; fi
}

# Peak resident memory (VmHWM) of a process in MiB, and the largest seen of each kind.
hwm() { awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo 0; }
declare -A peak
note_peak() { local m; m=$(hwm "$2"); [ "${m:-0}" -gt "${peak[$1]:-0}" ] && peak[$1]=$m; true; }

# Rate limits: every simulated player comes from 127.0.0.1, which the per-address limits would
# count as one client; `--rate 0` lifts them (real players come from many addresses).
server() { # PORT DB LOG
    "$bin" --listen "127.0.0.1:$1" --db "$2" --rate 0 --proxy 127.0.0.1 >"$3.out" 2>"$3.err" &
    echo $!
}
worker() { # DB LOG
    "$bin" worker --db "$1" --searches 1 >"$2.out" 2>"$2.err" &
    echo $!
}
ready() { # PORT
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:$1/readyz" >/dev/null && return 0
        sleep 0.1
    done
    echo "server on $1 not ready" >&2
    return 1
}

rows=()
run() { # NAME DB SERVERS WORKERS
    local name=$1 db=$2 nservers=$3 nworkers=$4 url lb
    local ports=() sp=() wp=()
    peak=()
    for i in $(seq "$nservers"); do
        ports+=("$(free_port)")
        sp+=("$(server "${ports[-1]}" "$db" "$dir/$name-s$i")")
        pids+=("${sp[-1]}")
    done
    for p in "${ports[@]}"; do ready "$p"; done
    if [ "$nservers" -gt 1 ]; then
        lb=$(free_port)
        sed '/^    server web2 /a\    server web3 "${TAFL_WEB_3}"' web/deploy/haproxy.cfg >"$dir/haproxy.cfg"
        cp web/deploy/haproxy-503.http "$dir/"
        TAFL_LB_LISTEN=127.0.0.1:$lb TAFL_WEB_1=127.0.0.1:${ports[0]} \
            TAFL_WEB_2=127.0.0.1:${ports[1]} TAFL_WEB_3=127.0.0.1:${ports[2]} \
            haproxy -db -f "$dir/haproxy.cfg" >/dev/null 2>"$dir/$name-haproxy.err" &
        local hp=$!
        pids+=("$hp")
        disown "$hp"
        url=http://127.0.0.1:$lb
        for _ in $(seq 50); do curl -fs "$url/readyz" >/dev/null && break; sleep 0.1; done
    else
        url=http://127.0.0.1:${ports[0]}
    fi
    for i in $(seq "$nworkers"); do
        wp+=("$(worker "$db" "$dir/$name-w$i")")
        pids+=("${wp[-1]}")
    done
    echo "== $name: $nservers server(s), $nworkers worker(s), $players players, $seconds s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    "$load" --at "$url" "$players" "$seconds" >"$dir/$name.txt" 2>"$dir/$name.err" &
    local client=$!
    # A third of the way: kill -9 of the second server (the first when alone), started again
    # on its port 1 s later.
    sleep $((seconds / 3))
    local k=$(( nservers > 1 ? 1 : 0 ))
    note_peak server "${sp[$k]}"
    kill -9 "${sp[$k]}"
    echo "   $(date +%T) kill -9 server $((k + 1)) (pid ${sp[$k]})"
    sleep 1
    sp[$k]=$(server "${ports[$k]}" "$db" "$dir/$name-s$((k + 1))b")
    pids+=("${sp[$k]}")
    # Two thirds: kill -9 of the first worker, started again at once.
    sleep $((seconds / 3 - 1))
    if [ "$nworkers" -gt 0 ]; then
        note_peak worker "${wp[0]}"
        kill -9 "${wp[0]}"
        echo "   $(date +%T) kill -9 worker 1 (pid ${wp[0]})"
        wp[0]=$(worker "$db" "$dir/$name-w1b")
        pids+=("${wp[0]}")
    fi
    sleep $((seconds - 2 * (seconds / 3)))
    local load_at_end
    load_at_end=$(cut -d' ' -f1 /proc/loadavg)
    for p in "${sp[@]}"; do note_peak server "$p"; done
    for p in "${wp[@]}"; do note_peak worker "$p"; done
    # The restarted ones too: a server that could not bind its port again would be missing.
    local alive=0
    for p in "${sp[@]}" "${wp[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
    echo "   at the end $alive of $((nservers + nworkers)) servers and workers running"
    local status=0
    wait "$client" || status=$?
    cat "$dir/$name.txt"
    local result check dup=-
    result=$(grep '^RESULT' "$dir/$name.txt" || echo "RESULT none")
    check=$(grep '^CHECK' "$dir/$name.txt" || echo "CHECK none")
    # None twice: the moves' key (game, ply) refuses a second row, and a game's `move` events
    # (one per move played) must number its moves.
    if [[ $db == postgres* ]] || command -v sqlite3 >/dev/null; then
        dup=$(sql "$db" "SELECT
            (SELECT count(*) FROM (SELECT game, ply FROM moves GROUP BY game, ply
                HAVING count(*) > 1) d)
          + (SELECT count(*) FROM games g WHERE
                (SELECT count(*) FROM events e WHERE e.game = g.id AND e.kind = 'move')
             <> (SELECT count(*) FROM moves m WHERE m.game = g.id))")
        echo "games whose moves were doubled (by key, or more move events than moves): $dup"
        echo "engine moves given up (failed events): $(sql "$db" "SELECT count(*) FROM events WHERE kind = 'failed'")"
    fi
    # What a move's 0.1 s was worth: the depth and nodes of the workers' searches (their log).
    local depth=- nodes=-
    if [ "$nworkers" -gt 0 ]; then
        local searches
        searches=$(cat "$dir/$name"-w*.err |
            sed -n 's/.* played .*depth \([0-9]*\), \([0-9]*\) nodes.*/\1 \2/p')
        median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }
        depth=$(cut -d' ' -f1 <<<"$searches" | median)
        nodes=$(cut -d' ' -f2 <<<"$searches" | median)
        echo "workers' searches: median depth $depth, median nodes $nodes"
    fi
    echo "peak memory: servers ${peak[server]:-0} MiB, workers ${peak[worker]:-0} MiB; load average at the end $load_at_end; client exit $status"
    rows+=("$name $result $check doubled=$dup depth=$depth nodes=$nodes server_mib=${peak[server]:-0} worker_mib=${peak[worker]:-0} load=$load_at_end alive=$alive/$((nservers + nworkers))")
    for p in "${sp[@]}" "${wp[@]}" ${hp:+"$hp"}; do kill -9 "$p" 2>/dev/null || true; done
    sleep 1
}

for n in $counts; do
    psql -d postgres -c "CREATE DATABASE tafl_w$n"
    run "postgres-3-servers-$n-workers" "postgres://postgres@127.0.0.1:$pgport/tafl_w$n" 3 "$n"
done
if [ "$sqlite" = sqlite ]; then
    run "sqlite-1-server" "$dir/games.sqlite" 1 0
fi
echo "== summary"
printf '%s\n' "${rows[@]}"
