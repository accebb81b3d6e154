#!/bin/bash
# make shots: a picture of each scene (each one ./swirl --list-scenes names) as a
# person sees it, for the README: swirl in a real xterm (DejaVu Sans Mono 10,
# truecolor) under its own Xvfb, 100x30, with a real X mouse drag where the
# scene is about dragging, saved as PNG in tests/shots/ (SHOTS_DIR: elsewhere),
# and each scene in each glyph set. Needs xvfb, xterm, xdotool,
# x11-apps, imagemagick and fonts-dejavu-core, xfonts-base for the quadrants (a
# bitmap font, whose block glyphs fill the cell) and sakura for the sextants
# (apt-get install ...).
set -eu
cd "$(dirname "$0")/.."
out=${SHOTS_DIR:-tests/shots}
mkdir -p "$out"
for tool in Xvfb xterm xdotool xwd convert; do
    command -v "$tool" >/dev/null || { echo "make shots: $tool is not installed" >&2; exit 1; }
done
disp=
for n in $(seq 150 199); do [ -e /tmp/.X11-unix/X$n ] || { disp=:$n; break; }; done
Xvfb "$disp" -screen 0 1200x800x24 >/dev/null 2>&1 & xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
export DISPLAY=$disp
for i in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done

# shot NAME SECONDS 'SWIRL ARGS' [x0 y0 x1 y1 (cells, a drag during the wait)]
# in xterm with DejaVu Sans Mono 10, with SHOT_TERM=bitmap in xterm with the
# 9x18 bitmap font, or with SHOT_TERM=sakura in sakura (a VTE terminal: sextants).
shot() {
    local name=$1 wait=$2 args=$3 font=(-fa 'DejaVu Sans Mono' -fs 10)
    [ "${SHOT_TERM:-}" = bitmap ] && font=(-fn -misc-fixed-medium-r-normal--18-120-100-100-c-90-iso10646-1)
    if [ "${SHOT_TERM:-xterm}" = sakura ]; then
        sakura -c 100 -r 30 -f 'DejaVu Sans Mono 10' \
            -x "env LANG=C.UTF-8 LC_ALL=C.UTF-8 ./swirl --no-config $args" & local xt=$!
    else
        xterm -geometry 100x30+0+0 "${font[@]}" -bg black -fg white \
            -e env COLORTERM=truecolor LANG=C.UTF-8 LC_ALL=C.UTF-8 ./swirl --no-config $args & local xt=$!
    fi
    local wid=
    for i in $(seq 100); do
        wid=$(xdotool search --onlyvisible --pid $xt 2>/dev/null | head -1) && [ -n "$wid" ] && break
        sleep 0.1
    done
    sleep 1
    if [ $# -ge 7 ]; then
        read -r W H < <(xdotool getwindowgeometry "$wid" | awk '/Geometry/{split($2,a,"x"); print a[1], a[2]}')
        local cw=$((W / 100)) ch=$((H / 30)) x0=$4 y0=$5 x1=$6 y1=$7
        xdotool mousemove --window "$wid" $((x0 * cw)) $((y0 * ch)) mousedown 1
        for i in $(seq 1 25); do
            xdotool mousemove --window "$wid" $(((x0 + (x1 - x0) * i / 25) * cw)) \
                $(((y0 + (y1 - y0) * i / 25) * ch))
            sleep 0.03
        done
        xdotool mouseup 1
    fi
    sleep "$wait"
    xwd -silent -id "$wid" | convert xwd:- -strip -define png:compression-level=9 "$out/$name.png"
    kill $xt 2>/dev/null || true
    wait $xt 2>/dev/null || true
}
# How a scene is shot: the seconds to wait after the drag, and the drag (cells
# x0 y0 x1 y1). The scenes that a drag shows best have theirs; any other scene
# swirl lists gets a drag across the middle.
how() {
    case $1 in
    dye) echo 0.5 8 20 92 8 ;;
    pbf) echo 4.5 30 26 70 8 ;;
    cloth) echo 1 50 17 75 24 ;;
    *) echo 1 20 15 80 15 ;;
    esac
}
# Every scene, as swirl lists them (its scene table).
scenes=$(./swirl --list-scenes | cut -d' ' -f1)
[ -n "$scenes" ] || { echo "make shots: ./swirl --list-scenes lists no scene" >&2; exit 1; }
sextant=true
command -v sakura >/dev/null || { sextant=false; echo "make shots: no sakura, so no sextant pictures" >&2; }
for s in $scenes; do
    read -r wait drag < <(how "$s")
    # shellcheck disable=SC2086 # the drag is four words
    shot "$s" "$wait" "--scene $s" $drag
    # The same in each glyph set (docs/glyphs.md): half-blocks in xterm,
    # quadrants in xterm with a bitmap font, sextants in sakura (xterm draws
    # them as blanks).
    shot "$s-half" "$wait" "--scene $s --glyphs half" $drag
    SHOT_TERM=bitmap shot "$s-quad" "$wait" "--scene $s --glyphs quad" $drag
    if $sextant; then
        SHOT_TERM=sakura shot "$s-sextant" "$wait" "--scene $s --glyphs sextant" $drag
    fi
done
# Quadrants with DejaVu, whose block glyphs leave seams: one picture of them.
read -r wait drag < <(how pbf)
shot pbf-quad-dejavu "$wait" "--scene pbf --glyphs quad" $drag
ls -l "$out"
