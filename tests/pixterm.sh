#!/usr/bin/env bash
# tests/pixterm.sh — swirl in a real terminal's pixels: kitty (the graphics
# protocol; Debian's kitty on software OpenGL) or xterm -ti vt340 (sixel),
# each under its own Xvfb, read back with screenshots (xwd | convert) and
# the bytes swirl wrote (script(1) between the terminal and swirl).
#
#   tests/pixterm.sh DIR kitty|sixel [GLYPHS]  (run from the top of the tree;
#                                              SWIRL=path picks the binary)
#
# It runs `swirl --scene dye --auto --glyphs kitty|sixel` (or --glyphs GLYPHS:
# half, quad, sextant, in the same terminal) in DIR for two seconds, pauses
# it (Space: DIR/paused.png), has it save its picture (P: DIR/swirl-SCENE-1.png,
# the scene drawn at the window's pixels), presses Ctrl-L (DIR/repainted.png),
# quits (q) and takes the screen swirl left (DIR/after.png). One "name value"
# line a result, for tests/test_pixterm.c to judge:
#   frames N           pictures swirl sent (kitty a=T commands, sixel strings)
#   canvas_pixels N    canvas pixels that differ (fuzz 10%) between paused and repainted
#   after_colours N    colours on the screen swirl left (its pictures gone: a few)
#   deleted_at_exit N  kitty: both ids deleted after the last picture (1), or not (0)
#   glyph_frames N     block and sextant glyphs swirl wrote (0: pixels throughout)
#   picture_error E    the paused screen's canvas against the saved picture
#                      stretched over it, in blocks of 4x4 pixels: the mean
#                      difference of a channel, 0-255 (ImageMagick's MAE)
# Where a tool is missing it prints "skipped: ..." and exits 77; on a failure
# to drive the programs, "error: ..." and exits 1. Every wait polls against a
# deadline but the two seconds of --auto. It ends only what it started, by id.
set -u
dir=${1:?usage: tests/pixterm.sh DIR kitty|sixel}
proto=${2:-}
glyphs=${3:-$proto}
scene=${SCENE:-dye}
swirl=$(realpath "${SWIRL:-./swirl}")
cols=100 rows=30
case $proto in
    kitty) term=kitty ;;
    sixel) term=xterm ;;
    *) echo "error: usage: tests/pixterm.sh DIR kitty|sixel"; exit 1 ;;
esac
mkdir -p "$dir" || exit 1
. "$(dirname "$0")/xserver.sh"
need_tools "$term xvfb xdotool x11-apps imagemagick fonts-dejavu-core" Xvfb $term xdotool xwd convert compare script

xvfb= xt=
cleanup() {
    # script(1), and swirl under it, outlive a killed terminal: by their typescript
    pkill -f -- "$dir/typescript" 2>/dev/null
    [ -n "$xt" ] && kill "$xt" 2>/dev/null
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
start_x

# swirl under script(1), which keeps what it wrote (-f: at once, for what is
# read of it meanwhile); then the screen it left stays.
dir=$(realpath "$dir")
inner="cd '$dir' && script -q -f -c '$swirl --scene $scene --auto --glyphs $glyphs' $dir/typescript; sleep 120"
font='DejaVu Sans Mono'
if [ "$term" = kitty ]; then
    LIBGL_ALWAYS_SOFTWARE=1 LC_ALL=C.UTF-8 kitty --config NONE -o font_family="$font" \
        -o font_size=10 -o initial_window_width=${cols}c -o initial_window_height=${rows}c \
        -o remember_window_size=no -o linux_display_server=x11 bash -c "$inner" \
        2>"$dir/term.log" &
else
    LC_ALL=C.UTF-8 xterm -ti vt340 -u8 -geometry ${cols}x${rows}+0+0 -fa "$font" -fs 10 \
        -bg black -fg white -e env TERM=xterm-256color COLORTERM=truecolor bash -c "$inner" \
        2>"$dir/term.log" &
fi
xt=$!
window() {
    wid=$(xdotool search --pid "$xt" 2>/dev/null | head -n 1)
    [ -n "$wid" ] || wid=$(xdotool search --onlyvisible --name . 2>/dev/null | tail -n 1)
    [ -n "$wid" ]
}
until_ok 30 window || fail "no $term window (see $dir/term.log)"
# The root window, cut to ours (kitty draws with OpenGL: xwd of its window is blank).
geom() {
    xdotool getwindowgeometry "$wid" 2>/dev/null |
        awk '/Position/ { split($2, p, ","); x = p[1]; y = p[2] } /Geometry/ { g = $2 }
             END { if (g) printf "%s+%d+%d", g, x, y }'
}
shot() { xwd -root -silent 2>/dev/null | convert xwd:- -crop "$(geom)" +repage "$1" 2>/dev/null; }
differ() { compare -metric AE -fuzz 10% "$@" null: 2>&1 >/dev/null | awk '{ print int($1) }'; }
colours() { convert "$1" -format %k info:; }
still() {
    shot "$dir/still.png"
    sleep 0.5
    shot "$1"
    [ "$(differ "$dir/still.png" "$1")" = 0 ]
}
# (the window looked up again: a terminal's first window may be a transient one)
drawing() { window && shot "$dir/first.png" && [ "$(colours "$dir/first.png")" -gt 100 ]; }
until_ok 40 drawing || fail "swirl drew nothing in $term (see $dir/term.log)"
xdotool mousemove 400 100
# The server's first key maps its keycode: a key can be lost meanwhile, so
# the first one is Shift, which sends swirl nothing.
xdotool key shift
sleep 2 # the two seconds of --auto the test is about (the water sloshing)
# Space pauses: swirl says so on its status line (in what it wrote: the
# typescript; on a busy machine it may take seconds to say so, while the
# terminal reads a picture slowly: one Space only, as a second one would
# resume it), and the picture stands (for a second: a busy terminal may
# hold a frame up that long). Within 20 s: where swirl gave way to glyphs on
# a busy machine, the paused picture is sent finer as the terminal takes it
# (in CI once still so after 8 s, xterm reading slowly beside the tests).
xdotool key space
says_paused() { grep -a -q paused "$dir/typescript"; }
until_ok 20 says_paused || fail "Space did not pause swirl"
stands() { still "$1" && sleep 0.5 && still "$1"; }
until_ok 20 stands "$dir/paused.png" || fail "the paused picture did not stand"
# The picture saved: the paused scene, as fine as the window's pixels.
xdotool key shift+p
# (swirl's status line says "saved" once the file is whole, its name
# swirl-SCENE-1.png, or .ppm when it was built without zlib)
saved() { grep -a -q saved "$dir/typescript"; }
until_ok 10 saved || fail "P saved no picture (see $dir)"
saved_file=$(ls "$dir"/swirl-"$scene"-1.p[np][gm])
xdotool key ctrl+l
sleep 1
until_ok 20 still "$dir/repainted.png" || fail "the picture did not stand after Ctrl-L"
read -r w h < <(convert "$dir/paused.png" -format '%w %h' info:)
ch=$((h / rows))
canvas="${w}x$((ch * (rows - 1)))+0+0"
for f in paused repainted; do
    convert "$dir/$f.png" -crop "$canvas" +repage "$dir/$f-canvas.png"
done
xdotool key q
left() { shot "$dir/after.png" && [ "$(colours "$dir/after.png")" -lt 64 ]; }
until_ok 15 left
if [ "$proto" = kitty ]; then
    frames=$(grep -a -o $'\e_Ga=T' "$dir/typescript" | wc -l)
    # After the last picture: both ids deleted (the frames delete one each).
    last=$(grep -a -b -o $'\e_Ga=T' "$dir/typescript" | tail -n 1 | cut -d: -f1)
    deleted=$(grep -a -b -o $'\e_Ga=d,d=I,i=[0-9]*' "$dir/typescript" |
        awk -F: -v l="${last:-0}" '$1 > l { sub(/.*i=/, "", $2); print $2 }' | sort -u | wc -l)
    echo "deleted_at_exit $deleted"
else
    frames=$(grep -a -o $'\eP0;1;0q' "$dir/typescript" | wc -l)
fi
echo "frames $frames"
# Cells drawn as glyphs (half-blocks, quadrants, sextants): where swirl gave
# way to them, or was asked for them.
echo "glyph_frames $(LC_ALL=C grep -a -o -P '\xe2\x96[\x80-\x9f]|\xf0\x9f\xac' "$dir/typescript" | wc -l)"
echo "canvas_pixels $(differ "$dir/paused-canvas.png" "$dir/repainted-canvas.png")"
echo "after_colours $(colours "$dir/after.png")"
# The saved picture (k pixels a canvas pixel: the scene's own shape) against
# the paused screen's canvas, stretched over the cells as the terminal
# stretches swirl's own pictures; both taken in blocks of 4x4 pixels (what the
# eye takes in of a dithered picture: sixel's is) before they are compared.
# The cells start where the terminal's first non-black pixel is on the
# diagonal (xterm's inner border: 2 or 3 pixels; kitty's none).
ch=$(($(convert "$dir/paused.png" -format %h info:) / rows))
cw=$(($(convert "$saved_file" -format %w info:) / cols))
off=0
while [ "$off" -lt 6 ] && [ "$(convert "$dir/paused.png" -format "%[hex:p{$off,$off}]" info:)" = 000000 ]; do
    off=$((off + 1))
done
area="$((cw * cols))x$((ch * (rows - 1)))"
convert "$dir/paused.png" -crop "$area+$off+$off" +repage -scale 25% "$dir/paused-blocks.png"
convert "$saved_file" -resize "$area!" -scale 25% "$dir/saved-blocks.png"
mae=$(compare -metric MAE "$dir/saved-blocks.png" "$dir/paused-blocks.png" null: 2>&1 |
    sed -n 's/.*(\(.*\)).*/\1/p')
echo "picture_error $(awk -v m="$mae" 'BEGIN { printf "%.2f", 255 * m }')"
exit 0
