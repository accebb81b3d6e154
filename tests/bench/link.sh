#!/usr/bin/env bash
# tests/bench/link.sh — swirl on a pty behind a link (build/linkpty: a rate and
# a delay each way, the queue beyond swirl's reach as in sshd, a terminal that
# answers as one does), as `make bench` prints it: for each link and each
# scene (those swirl --list-scenes names) at 120x40 with --auto, the frames the
# terminal saw a second, the share of the link's bytes that carried them, the
# longest a byte waited in the queue, and how long q took to be seen (a round
# trip at least).
#
#   tests/bench/link.sh [SWIRL]      (default ./swirl; another build to compare)
set -u
cd "$(dirname "$0")/../.."
swirl=${1:-./swirl}
[ -x build/linkpty ] && [ -x "$swirl" ] || { echo "link: build swirl and build/linkpty first"; exit 1; }
field() { sed -n "s/.*\"$1\":\([-0-9.]*\).*/\1/p"; }
# Every scene, as swirl lists them (its scene table).
scenes=$("$swirl" --list-scenes | cut -d' ' -f1)
[ -n "$scenes" ] || { echo "link: $swirl --list-scenes lists no scene"; exit 1; }
echo "link, a real pty at 120x40 (fps seen / share of the link used / longest queue / q seen after), $swirl:"
# rate (B/s, 0: no limit) and one-way delay (s)
for link in "0 0" "0 0.05" "0 0.15" "1000000 0" "1000000 0.1" "100000 0" "100000 0.1" \
            "20000 0" "20000 0.1"; do
    set -- $link
    rate=$1 delay=$2
    label=$(awk -v r="$rate" -v d="$delay" 'BEGIN {
        printf "%-9s rtt %3.0f ms", (r > 0 ? sprintf("%.0f KB/s", r / 1000) : "no limit"), 2000 * d }')
    printf "  %s:" "$label"
    for scene in $scenes; do
        line=$(build/linkpty -w 120x40 -d "$delay" "$rate" 5 "$swirl" --no-config --auto --scene "$scene")
        fps=$(echo "$line" | field fps)
        util=$(echo "$line" | field util)
        qmax=$(echo "$line" | field qdelay_max)
        quit=$(echo "$line" | field quit_latency)
        used=$(awk -v u="$util" 'BEGIN { if (u < 0) print "  -"; else printf "%3.0f%%", 100 * u }')
        printf "  %s %4.1f fps %s %.2f s q %.2f s" "$scene" "$fps" "$used" "$qmax" "$quit"
    done
    echo
done
# The largest window swirl draws (1500x800, issue 45): the first frame, the
# longest wait between two frames, and q, on a pty with no limit.
printf "  1500x800, no limit (first frame / longest gap / fps / q exits after):"
for scene in $scenes; do
    line=$(build/linkpty -w 1500x800 0 4 "$swirl" --no-config --scene "$scene")
    printf "  %s %.2f s %.2f s %4.1f fps q %.2f s" "$scene" "$(echo "$line" | field first_frame)" \
        "$(echo "$line" | field gap_max)" "$(echo "$line" | field fps)" \
        "$(echo "$line" | field exit_latency)"
done
echo
