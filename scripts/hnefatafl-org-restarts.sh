#!/usr/bin/env bash
# Two `tafl-engine hnefatafl-org` bots against the real hnefatafl.org server
# (hnefatafl-copenhagen 6.4.1's `hnefatafl-server`), across restarts (docs/hnefatafl-org.md).
# Not in CI: it needs the server program, root (for a network namespace) and minutes.
#
#   scripts/hnefatafl-org-restarts.sh clients SESSION_DIR   # kill -9 of each bot mid-game
#   scripts/hnefatafl-org-restarts.sh outage SESSION_DIR    # the server away for 5 minutes
#
# clients: ai-tafl-a offers games (attacker), ai-tafl-b joins them; a is killed with
# `kill -9` once its game is at move 10 and started again 5 s later with the same command;
# then b, once the game is 10 moves further on. Both play on to --games 2.
# outage: the same two bots; at move 10 the server is stopped (SIGINT: it saves its games) and
# started again OUTAGE seconds later (default 300: longer than the old client's 254 s limit).
#
# At the end: both bots' exit statuses, one game at a time in each log, and no game of either
# account left under way on the server (asked with `resume_games`: the server names each game
# it holds for the account before it answers `ping`). Everything runs in a network namespace
# whose only interface is the loopback (`unshare -n`), with a data folder of its own.
#
# Environment: SERVER (default: hnefatafl-server on PATH), ENGINE (default
# target/release/tafl-engine), MOVETIME (ms, default 300), OUTAGE (s, default 300).
set -euo pipefail

mode=${1:?usage: $0 clients|outage SESSION_DIR}
dir=${2:?usage: $0 clients|outage SESSION_DIR}
case $mode in clients | outage) ;; *) echo "mode: clients or outage" >&2; exit 2 ;; esac

if [[ -z ${IN_NAMESPACE:-} ]]; then
  mkdir -p "$dir"
  exec env IN_NAMESPACE=1 unshare -n "$0" "$@"
fi

ip link set lo up
dir=$(cd "$dir" && pwd)
SERVER=${SERVER:-$(command -v hnefatafl-server)}
ENGINE=$(realpath "${ENGINE:-target/release/tafl-engine}")
MOVETIME=${MOVETIME:-300}
OUTAGE=${OUTAGE:-300}
export HOME=$dir XDG_DATA_HOME=$dir/data

stamp() { date -u +%H:%M:%S.%3N; }
say() { echo "$(stamp) $*" | tee -a "$dir/run.log"; }
# Each line of a bot's stderr with the time it was written.
timed() { while IFS= read -r line; do echo "$(stamp) $line"; done; }

server_pid=
start_server() {
  "$SERVER" >> "$dir/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do ss -ltn | grep -q ':49152 ' && break; sleep 0.1; done
  say "server up (pid $server_pid): $(ip -brief addr | tr -s ' ' | tr '\n' ';') $(ss -ltn | grep 49152 | tr -s ' ')"
}

declare -A pid
start_bot() { # name, then its options
  local name=$1
  shift
  echo "=== $(stamp) started: tafl-engine hnefatafl-org --user ai-tafl-$name $*" >> "$dir/$name.log"
  "$ENGINE" hnefatafl-org --user "ai-tafl-$name" --password pw --create-account \
    --movetime "$MOVETIME" "$@" 2> >(timed >> "$dir/$name.log") &
  pid[$name]=$!
  say "bot $name started (pid ${pid[$name]})"
}
A_ARGS=(--new-game attacker --games 2)
B_ARGS=(--join-any --games 2)

# The number of the last move a bot sent (`at move N` of its log), 0 before any.
last_move() { grep -o 'at move [0-9]*' "$dir/$1.log" | tail -1 | grep -o '[0-9]*$' || echo 0; }
wait_for_move() { # bot, move number (within 10 minutes)
  local deadline=$((SECONDS + 600))
  until (( $(last_move "$1") >= $2 )); do
    (( SECONDS < deadline )) || { say "bot $1 never reached move $2"; exit 1; }
    sleep 0.2
  done
  say "bot $1 at move $(last_move "$1")"
}

start_server
start_bot a "${A_ARGS[@]}"
sleep 1
start_bot b "${B_ARGS[@]}"

wait_for_move a 10
if [[ $mode == clients ]]; then
  kill -9 "${pid[a]}"
  say "kill -9 of bot a"
  sleep 5
  start_bot a "${A_ARGS[@]}"
  at=$(last_move b)
  wait_for_move b $((at + 10))
  kill -9 "${pid[b]}"
  say "kill -9 of bot b"
  sleep 5
  start_bot b "${B_ARGS[@]}"
else
  kill -INT "$server_pid"
  wait "$server_pid" || true
  say "server stopped (SIGINT); back in $OUTAGE s"
  sleep "$OUTAGE"
  start_server
fi

status=0
for name in a b; do
  if wait "${pid[$name]}"; then say "bot $name exited 0"; else say "bot $name exited $?"; status=1; fi
done

# One game at a time: in each log, no move in a game before the game before it is over.
for name in a b; do
  awk -v name="$name" '
    /: we \(/ { split($3, g, ":"); id = g[1]
                if (current != "" && id != current) { print name ": game " id " played while game " current " was under way"; bad = 1 }
                current = id }
    /forgotten, not counted/ { current = "" }
    / over after / { for (i = 1; i <= NF; i++) if ($i == "game") { id = $(i + 1) }
                     if (id == current) current = "" }
    END { exit bad }' "$dir/$name.log" || status=1
done

# Every game finished: the server holds no game for either account.
for name in a b; do
  exec 3<>/dev/tcp/127.0.0.1/49152
  printf '32d9a140 login ai-tafl-%s pw\nresume_games\nping\n' "$name" >&3
  # (The server's own resume_games at login names each game once more.)
  declare -A held=()
  while IFS= read -r -t 10 line <&3; do
    [[ $line == *generate_move* ]] && held[$line]=1
    [[ $line == "= ping" ]] && break
  done
  exec 3>&-
  say "games held for ai-tafl-$name on the server at the end: ${#held[@]} ${!held[*]}"
  (( ${#held[@]} == 0 )) || status=1
  unset held
done

kill -INT "$server_pid"
wait "$server_pid" || true
archive=$dir/data/hnefatafl-copenhagen/archived-games.ron
# The server's archive, one game a line: its id, players, moves and result.
while IFS= read -r game; do
  say "archived: $(grep -o '^(id:[0-9]*,attacker:"[^"]*"' <<< "$game" | tr -d '(') \
defender:$(grep -o ',defender:"[^"]*"' <<< "$game" | cut -d: -f2), \
$(grep -o 'play:Some' <<< "$game" | wc -l) moves, $(grep -o 'status:[A-Za-z]*' <<< "$game")"
done < "$archive"
say "result: $([[ $status == 0 ]] && echo pass || echo FAIL)"
exit $status
