#!/bin/sh
# Soak test of tafl-match against broken engines (issue 31); not run by CI.
#
#   scripts/soak-tafl-match.sh [SECONDS]     (default 3600)
#
# Runs one tafl-match for SECONDS, pinned to one core at the lowest priority, with --log and
# two workers: A is a "chaos" engine that, each time it is started, picks one way to behave
# (a real tafl-engine that is killed after a few seconds to a minute, or one of: floods its
# output, writes an endless line, floods stderr, never answers, never reads its input, dies,
# answers junk, an illegal move, gives up, floods instead of saying hello, leaves a background
# process behind); B is the real tafl-engine. Every 5 s it samples tafl-match's memory (VmRSS,
# VmHWM), threads and open files, and deletes game logs older than a minute (keeping the size
# of the largest). At the end it sends SIGTERM, and reports: the exit status, the summary,
# peak memory (and memory after the first 5 minutes, to show any growth), the most threads and
# open files seen, the largest log, and every process tafl-match or an engine started that is
# still alive (found by a mark in their environment: process ids are reused over an hour).
# Linux only (it reads /proc). Needs `cargo build --release` first.
set -eu

seconds="${1:-3600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tafl-soak.XXXXXX")"
mkdir -p "$work/logs"
# Copies, so that a rebuild during the soak changes nothing.
cp "$root/target/release/tafl-match" "$root/target/release/tafl-engine" "$work/"
pids="$work/pids"
: > "$pids"

cat > "$work/chaos.sh" <<'EOF'
#!/bin/sh
# One start of the chaos engine: $1 is the soak's folder.
work="$1"
pids="$work/pids"
echo "$$" >> "$pids"
roll=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
# The first start must say hello (a match whose engine never starts stops).
if [ -e "$work/started" ]; then modes=14; else modes=13; fi
touch "$work/started"
mode=$((roll % modes))
life=$((roll % 60 + 3))
case "$mode" in
    0|1|2)
        # A real engine for a while, then killed (a crash in the middle of a game).
        # An asynchronous command's input is /dev/null unless redirected: hand it ours.
        exec 3<&0
        "$work/tafl-engine" --hash 4 <&3 3<&- &
        engine=$!
        echo "$engine" >> "$pids"
        (sleep "$life"; kill -9 "$engine" 2>/dev/null) &
        echo "$!" >> "$pids"
        wait "$engine"
        exit 0
        ;;
    13) yes junk ;;
esac
echo hello
while IFS= read -r line; do
    case "$line" in
        play*)
            case "$mode" in
                3) yes "status thinking" & echo "$!" >> "$pids"; wait ;;
                4) yes status | tr -d '\n' ;;
                5) yes "stderr noise" >&2 & echo "$!" >> "$pids"; wait ;;
                6) ;;
                7) exec sleep 100000 ;;
                8) exit 3 ;;
                9) printf '\377\376 junk\n'; echo "move zz-99" ;;
                10) echo "move a1-a2" ;;
                11) echo "error -1 giving up" ;;
                12) sleep 100000 & echo "$!" >> "$pids" ;;
            esac
            ;;
        goodbye) exit 0 ;;
    esac
done
EOF

echo "soak: $seconds s in $work"
# Every process tafl-match starts inherits this mark: at the end, any live process that has it
# was left behind (process ids alone are reused by the system over an hour).
TAFL_SOAK="$work" nice -n 19 taskset -c 0 "$work/tafl-match" \
    --a "otep:sh $work/chaos.sh $work" --a-name chaos \
    --b "otep:$work/tafl-engine --hash 4" --b-name tafl-engine \
    --variant tablut,tawlbwrdd --games 10000 --movetime 100 --margin 200 \
    --hello-timeout 2000 --concurrency 2 --quiet --log "$work/logs" \
    > "$work/stdout" 2> "$work/stderr" &
match=$!

peak_rss=0; peak_hwm=0; peak_threads=0; peak_fds=0; largest_log=0; hwm_at_5min=""
started=$(date +%s)
while :; do
    now=$(date +%s)
    elapsed=$((now - started))
    [ "$elapsed" -ge "$seconds" ] && break
    [ -d "/proc/$match" ] || break
    status="/proc/$match/status"
    rss=$(awk '/^VmRSS:/ {print $2}' "$status" 2>/dev/null || echo 0)
    hwm=$(awk '/^VmHWM:/ {print $2}' "$status" 2>/dev/null || echo 0)
    threads=$(awk '/^Threads:/ {print $2}' "$status" 2>/dev/null || echo 0)
    fds=$(ls "/proc/$match/fd" 2>/dev/null | wc -l)
    [ "${rss:-0}" -gt "$peak_rss" ] && peak_rss=$rss
    [ "${hwm:-0}" -gt "$peak_hwm" ] && peak_hwm=$hwm
    [ "${threads:-0}" -gt "$peak_threads" ] && peak_threads=$threads
    [ "$fds" -gt "$peak_fds" ] && peak_fds=$fds
    if [ -z "$hwm_at_5min" ] && [ "$elapsed" -ge 300 ]; then hwm_at_5min=$hwm; fi
    biggest=$(find "$work/logs" -type f -printf '%s\n' 2>/dev/null | sort -n | tail -1)
    [ "${biggest:-0}" -gt "$largest_log" ] && largest_log=$biggest
    find "$work/logs" -name 'game-*.log' -mmin +1 -delete 2>/dev/null || true
    sleep 5
done

kill -TERM "$match" 2>/dev/null || true
code=0
wait "$match" || code=$?
sleep 1

alive=""
for dir in /proc/[0-9]*; do
    { tr '\0' '\n' < "$dir/environ"; } 2>/dev/null | grep -qx "TAFL_SOAK=$work" || continue
    state=$(awk '{sub(/.*\) /, ""); print $1}' "$dir/stat" 2>/dev/null || true)
    case "$state" in
        ""|Z|X) ;;
        *) alive="$alive ${dir#/proc/}($(tr '\0' ' ' < "$dir/cmdline" | cut -c1-60))" ;;
    esac
done

echo "soak: ran $elapsed s; tafl-match exited with $code after SIGTERM"
echo "soak: engine processes started (recorded): $(sort -u "$pids" | wc -l)"
echo "soak: peak memory (VmHWM) $peak_hwm KiB; after 5 min ${hwm_at_5min:-n/a} KiB; largest RSS sample $peak_rss KiB"
echo "soak: most threads $peak_threads; most open files $peak_fds; largest log file $largest_log bytes"
echo "soak: processes left alive:${alive:- none}"
echo "soak: tafl-match's stderr (last lines):"
tail -3 "$work/stderr"
echo "soak: tafl-match's summary:"
tail -4 "$work/stdout"
