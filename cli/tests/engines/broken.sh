#!/bin/sh
# A deliberately broken OTEP engine for tests/cli/tafl_match.rs. It says hello and follows the
# protocol until it is asked to play; then it misbehaves as its first argument says:
#   dies      exits with status 3
#   junk      writes bytes that are not UTF-8, lines that mean nothing, then `move zz-99`
#   illegal   answers a move that is not legal (`move a1-a2`: a1 is empty in every start)
#   offboard  answers `move s19-s18`, squares of the 19x19 grid off any smaller board
#   silent    never answers
#   gives-up  answers `error -1 I give up`
#   no-hello  never says hello at all
#   flood     prints `status thinking` without end (through `yes`, a process of its own)
#   endless   prints one line without end and without a line break
#   orphan    starts a `sleep` in the background, writes its process id and its own to the
#             file named by the second argument, one a line, then never answers
mode="$1"
if [ "$mode" = "orphan" ]; then
    sleep 300 &
    echo "$!" >> "$2"
    echo "$$" >> "$2"
fi
if [ "$mode" != "no-hello" ]; then
    echo "log line before hello, as OpenTafl prints"
    echo hello
fi
while IFS= read -r line; do
    case "$line" in
        play*)
            case "$mode" in
                dies) exit 3 ;;
                junk)
                    printf '\377\376 not text\n'
                    echo "status thinking very hard"
                    echo "nonsense"
                    echo "move zz-99"
                    ;;
                illegal) echo "move a1-a2" ;;
                offboard) echo "move s19-s18" ;;
                gives-up) echo "error -1 I give up" ;;
                flood) yes "status thinking" ;;
                endless) yes "status" | tr -d '\n' ;;
                *) ;;
            esac
            ;;
        goodbye) exit 0 ;;
    esac
done
