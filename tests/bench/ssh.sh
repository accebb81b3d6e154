#!/usr/bin/env bash
# tests/bench/ssh.sh — swirl through a real ssh, as a remote user runs it: an
# sshd of our own on 127.0.0.1 (a key made for the run, in a temporary
# directory), reached through build/delayproxy, which delays each way by half
# the round trip; the terminal is build/linkpty (a terminal with bandwidth to
# spare that answers like one). For each round trip and each scene (those
# swirl --list-scenes names), one JSON line from linkpty with the fps seen and
# how long q took.
#
#   tests/bench/ssh.sh [ROUND_TRIPS_MS...]     (default 0 100 300)
#   SWIRL=/path/to/another/swirl tests/bench/ssh.sh ...   (to compare builds)
#
# Says "skipped" and exits 0 where ssh or sshd is not installed.
set -u
cd "$(dirname "$0")/../.."
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if ! command -v ssh >/dev/null 2>&1 || [ ! -x "$SSHD" ] || ! command -v ssh-keygen >/dev/null 2>&1; then
    echo "ssh: skipped (ssh, sshd or ssh-keygen not installed)"
    exit 0
fi
swirl=${SWIRL:-$(pwd)/swirl}
[ -x build/linkpty ] && [ -x build/delayproxy ] && [ -x "$swirl" ] || { echo "ssh: build swirl, build/linkpty and build/delayproxy first"; exit 1; }
dir=$(mktemp -d)
port=$((20000 + $$ % 20000))
cleanup() {
    [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
ssh-keygen -q -t ed25519 -N '' -f "$dir/host" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$dir/user" >/dev/null
cp "$dir/user.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
cat >"$dir/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $dir/host
AuthorizedKeysFile $dir/authorized_keys
PidFile $dir/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
AcceptEnv LANG LC_* COLORTERM
EOF
mkdir -p /run/sshd 2>/dev/null
"$SSHD" -f "$dir/sshd_config" -E "$dir/sshd.log" || { echo "ssh: skipped (sshd would not start: $(tail -n 1 "$dir/sshd.log"))"; exit 0; }
for _ in $(seq 50); do [ -f "$dir/sshd.pid" ] && break; sleep 0.1; done
rtts=("$@")
[ ${#rtts[@]} -gt 0 ] || rtts=(0 100 300)
here=$(pwd)
field() { sed -n "s/.*\"$1\":\([-0-9.]*\).*/\1/p"; }
# Every scene, as swirl lists them (its scene table).
scenes=$("$swirl" --list-scenes | cut -d' ' -f1)
[ -n "$scenes" ] || { echo "ssh: $swirl --list-scenes lists no scene"; exit 1; }
echo "ssh, a real ssh to a loopback sshd through a delaying proxy, 120x40 (fps seen / q seen after), $swirl:"
for rtt in "${rtts[@]}"; do
    delay=$(awk -v r="$rtt" 'BEGIN { printf "%.4f", r / 2000 }')
    printf "  rtt %3d ms:" "$rtt"
    for scene in $scenes; do
        line=$(build/linkpty -w 120x40 0 12 ssh -tt -q -F /dev/null -i "$dir/user" -p "$port" \
            -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
            -o "ProxyCommand=$here/build/delayproxy $delay %h %p" \
            -o SendEnv=COLORTERM root@127.0.0.1 \
            "cd '$here' && LANG=C.UTF-8 TERM=xterm-256color '$swirl' --auto --no-config --scene $scene")
        printf "  %s %4.1f fps q %.2f s" "$scene" "$(echo "$line" | field fps)" \
            "$(echo "$line" | field quit_latency)"
    done
    echo
done
# The terminal's own pixels through the same ssh at 1 MB/s (linkpty's rate;
# cells of 8x17 pixels, as DejaVu Sans Mono 10 has them), 100x30: the frames
# seen a second in the kitty graphics protocol and in sixel (issue 42: at
# least 20).
printf "  pixels, 1 MB/s, rtt 20 ms, 100x30:"
for glyphs in kitty sixel; do
    for scene in $scenes; do
        line=$(build/linkpty -w 100x30+8x17 1000000 8 ssh -tt -q -F /dev/null -i "$dir/user" \
            -p "$port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
            -o "ProxyCommand=$here/build/delayproxy 0.01 %h %p" \
            -o SendEnv=COLORTERM root@127.0.0.1 \
            "cd '$here' && LANG=C.UTF-8 TERM=xterm-256color '$swirl' --glyphs $glyphs --no-config --scene $scene")
        printf "  %s %s %4.1f fps" "$glyphs" "$scene" "$(echo "$line" | field fps)"
    done
done
echo
