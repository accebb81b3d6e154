#!/usr/bin/env bash
# tests/xterm.sh — swirl as a person sees it: in a real xterm with an outline
# font (DejaVu Sans Mono 10, the common X setup) under its own Xvfb, read back
# with screenshots (xwd | convert) and compared with ImageMagick.
#
#   tests/xterm.sh DIR [tmux]  (run from the top of the tree; SWIRL=path picks the binary)
#
# It runs `swirl --scene cloth --auto --color truecolor` for ten seconds, pauses it (Space), takes
# a screenshot (DIR/paused.png), writes text over the screen from another
# process (straight into swirl's tty; DIR/scribbled.png), presses Ctrl-L and
# takes another (DIR/repainted.png). With `tmux` it runs `swirl --scene pbf
# --auto --color truecolor` in tmux (a server of its own, status line off) in the xterm, and
# after the pause has tmux redraw its copy of the screen (refresh-client;
# DIR/redrawn.png) before the scribble. It prints one "name value" line a
# result, for tests/test_xterm.c to judge:
#   canvas_pixels N    canvas pixels that differ (fuzz 10%) between paused and repainted
#   canvas_pixels_unfuzzed N   the same with no fuzz (the tolerance's shades count)
#   mux_pixels N       (tmux) canvas pixels that differ (fuzz 10%) between paused and
#                      tmux's redraw: the hairlines a multiplexer's runs leave
#   mux_pixels_unfuzzed N      the same with no fuzz
#   scribble_pixels N  pixels the scribble changed before Ctrl-L
#   cell WxH           the cell size in pixels
# Where a tool is missing it prints "skipped: ..." and exits 77; on a failure to
# drive the programs, "error: ..." and exits 1. Every wait polls against a
# deadline except the ten seconds of --auto the test asks for. It ends only the
# processes it started, by their ids.
set -u
dir=${1:?usage: tests/xterm.sh DIR [tmux]}
mux=${2:-}
swirl=${SWIRL:-./swirl}
case $mux in
    '') scene=cloth ;;
    tmux) scene=pbf ;;
    *) echo "error: usage: tests/xterm.sh DIR [tmux]"; exit 1 ;;
esac
cols=100 rows=30
mkdir -p "$dir" || exit 1

. "$(dirname "$0")/xserver.sh"
need_tools "xterm xvfb xdotool x11-apps imagemagick fonts-dejavu-core" Xvfb xterm xdotool xwd convert compare fc-list pgrep $mux

xvfb= xt=
sock=$dir/tmux.sock
cleanup() {
    [ -n "$mux" ] && tmux -S "$sock" kill-server 2>/dev/null
    [ -n "$xt" ] && kill "$xt" 2>/dev/null
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
start_x

# --color truecolor: what xterm answers it shows, and kept so on a busy
# machine, where xterm takes the bytes slowly and swirl's flow control would
# otherwise give colours as over a slow link (the repaint in 256 colours).
run=("$swirl" --scene "$scene" --auto --color truecolor)
if [ -n "$mux" ]; then
    swirl=$(realpath "$swirl")
    printf 'set -g status off\nset -g escape-time 10\n' >"$dir/tmux.conf"
    run=(tmux -S "$sock" -f "$dir/tmux.conf" new-session
         "exec '$swirl' --scene $scene --auto --color truecolor")
fi
LC_ALL=C.UTF-8 xterm -u8 -geometry ${cols}x${rows}+0+0 -fa 'DejaVu Sans Mono' -fs 10 \
    -bg black -fg white -e env TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 \
    LC_ALL=C.UTF-8 "${run[@]}" 2>"$dir/xterm.log" &
xt=$!
# Ours is the only window on this server: by its pid, else by its class.
window() {
    wid=$(xdotool search --pid "$xt" 2>/dev/null | head -n 1)
    [ -n "$wid" ] || wid=$(xdotool search --class XTerm 2>/dev/null | head -n 1)
    [ -n "$wid" ]
}
until_ok 10 window || fail "no xterm window (xterm $(kill -0 "$xt" 2>/dev/null && echo running ||
    echo gone); see $dir/xterm.log)"

shot() { xwd -id "$wid" -silent 2>/dev/null | convert xwd:- "$1" 2>/dev/null; }
differ() { compare -metric AE -fuzz 10% "$@" null: 2>&1 >/dev/null | awk '{ print int($1) }'; }
# still OUT [SECONDS]: screenshots a third of a second (or SECONDS) apart agree
# (the picture stands, and xterm has drawn all it read).
still() {
    shot "$dir/still.png"
    sleep "${2:-0.3}"
    shot "$1"
    [ "$(differ "$dir/still.png" "$1")" = 0 ]
}
# On a busy machine the terminal takes swirl's bytes slowly, and swirl's flow
# control gives as over a slow link (details later) until it has been clear a
# while (about a second and a half): a picture judged must stand for two
# seconds, so that it is the whole one.
SETTLE=2
# drawing: swirl's picture is up (hundreds of colours, not xterm's two).
drawing() { shot "$dir/first.png" && [ "$(convert "$dir/first.png" -format %k info:)" -gt 100 ]; }
until_ok 10 drawing || fail "swirl drew nothing in xterm (see $dir/xterm.log)"
if [ -n "$mux" ]; then
    tty=$(tmux -S "$sock" display-message -p '#{pane_tty}')
    [ -n "$tty" ] || fail "no tmux pane"
else
    pid=$(pgrep -P "$xt" | head -n 1)
    [ -n "$pid" ] || fail "no swirl under xterm"
    tty=$(readlink "/proc/$pid/fd/1")
fi
# No window manager: the keyboard goes to the window under the pointer.
xdotool mousemove 400 100

sleep 10 # the ten seconds of --auto the test is about

# Space pauses: the picture stands still (a key can be lost while the server
# maps keys: once more if it keeps moving). Two shots a third of a second
# apart agree when swirl or xterm is merely starved of the processor on a
# busy machine, too: in tmux the pane must say so ("paused" on its status
# line) and stand, in xterm alone the picture must stand for four seconds.
paused() {
    if [ -n "$mux" ]; then
        tmux -S "$sock" capture-pane -p | tail -n 1 | grep -q paused && still "$1" $SETTLE
    else # (xterm's text cannot be read back: twice as long, for a frame held up)
        still "$1" $((2 * SETTLE))
    fi
}
says_paused() { [ -n "$mux" ] && tmux -S "$sock" capture-pane -p | tail -n 1 | grep -q paused; }
# A key to swirl: in tmux by tmux itself (never lost, however busy the X
# server is), in xterm alone by X (xdotool's name for it, then tmux's).
key() {
    if [ -n "$mux" ]; then tmux -S "$sock" send-keys "$2"; else xdotool key "$1"; fi
}
key space Space
if ! until_ok 8 paused "$dir/paused.png"; then
    # Space again only where it was lost (in tmux: the pane does not say
    # paused), or it would resume what a slow machine has not shown paused yet.
    says_paused || key space Space
    if ! until_ok 12 paused "$dir/paused.png"; then
        shot "$dir/unpaused.png"
        [ -n "$mux" ] && tmux -S "$sock" capture-pane -p >"$dir/pane.txt"
        fail "Space did not pause swirl (see $dir/unpaused.png${mux:+ and pane.txt})"
    fi
fi

# tmux redraws its copy of the screen: the same picture, were it not for
# what its runs left behind (it must stand still again, changed or not).
if [ -n "$mux" ]; then
    tmux -S "$sock" refresh-client || fail "tmux refresh-client failed"
    sleep 0.3
    until_ok 8 still "$dir/redrawn.png" $SETTLE || fail "the picture did not stand after refresh-client"
fi

printf '\033[0m\033[6;12H SCRIBBLED OVER BY ANOTHER PROCESS \033[14;40H#############' >"$tty"
scribbled() { still "$dir/scribbled.png" && [ "$(differ "$dir/paused.png" "$dir/scribbled.png")" -gt 0 ]; }
until_ok 5 scribbled || fail "the scribble did not show"

# Ctrl-L repaints: the screen changes from the scribbled one, then stands.
repainted() {
    still "$dir/repainted.png" $SETTLE && [ "$(differ "$dir/scribbled.png" "$dir/repainted.png")" -gt 0 ]
}
key ctrl+l C-l
until_ok 4 repainted || { key ctrl+l C-l; until_ok 10 repainted; } || fail "Ctrl-L did not repaint"

# The canvas: every row but the HUD's (the window has a 2-pixel inner border).
read -r w h < <(convert "$dir/paused.png" -format '%w %h' info:)
cw=$(((w - 4) / cols)) ch=$(((h - 4) / rows))
canvas="${w}x$((2 + ch * (rows - 1)))+0+0"
for f in paused repainted ${mux:+redrawn}; do
    convert "$dir/$f.png" -crop "$canvas" +repage "$dir/$f-canvas.png"
done
echo "cell ${cw}x${ch}"
echo "scribble_pixels $(differ "$dir/paused.png" "$dir/scribbled.png")"
echo "canvas_pixels $(differ "$dir/paused-canvas.png" "$dir/repainted-canvas.png")"
echo "canvas_pixels_unfuzzed $(compare -metric AE "$dir/paused-canvas.png" "$dir/repainted-canvas.png" null: 2>&1 | awk '{ print int($1) }')"
if [ -n "$mux" ]; then
    echo "mux_pixels $(differ "$dir/paused-canvas.png" "$dir/redrawn-canvas.png")"
    echo "mux_pixels_unfuzzed $(compare -metric AE "$dir/paused-canvas.png" "$dir/redrawn-canvas.png" null: 2>&1 | awk '{ print int($1) }')"
fi
key q q
exit 0
