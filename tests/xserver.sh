# tests/xserver.sh — sourced by tests/xterm.sh and tests/pixterm.sh: the tools
# they need (need_tools), waiting with a deadline (until_ok), and an X server of the script's own (start_x:
# Xvfb on a free display, DISPLAY exported, its pid in $xvfb). The sourcing
# script sets $dir (where the server's log goes) and kills $xvfb on its way out.
fail() { echo "error: $*"; exit 1; }
# need_tools "PACKAGES" TOOL...: each tool and the DejaVu Sans Mono font there,
# or "skipped: ..." (with what apt-get install would bring) and exit 77.
need_tools() {
    local hint=$1 tool missing=()
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    if [ ${#missing[@]} -eq 0 ] && ! fc-list 2>/dev/null | grep -q 'DejaVu Sans Mono'; then
        missing+=("the DejaVu Sans Mono font")
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "skipped: not installed: ${missing[*]} (apt-get install $hint)"
        exit 77
    fi
}

now() { echo "${EPOCHREALTIME/,/.}"; }
# until_ok SECONDS CMD...: runs CMD every 0.1 s until it succeeds; false when
# SECONDS pass first (CMD still gets one last try).
until_ok() {
    local end
    end=$(awk -v t="$(now)" -v s="$1" 'BEGIN { printf "%.3f", t + s }')
    shift
    while :; do
        local late
        late=$(awk -v t="$(now)" -v e="$end" 'BEGIN { print (t >= e) }')
        "$@" && return 0
        [ "$late" = 1 ] && return 1
        sleep 0.1
    done
}

# The X server picks a free display and tells us (-displayfd). Two servers
# started at once (another test's, another run's) may pick the same one: the
# one that loses says "server already running" and exits, on a busy machine
# not at once. A server is ours once it answers and it is the one listening on
# the display's socket (its inode, in /proc/net/unix, among our server's open
# files); else another try.
has_display() { [ -s "$dir/display" ]; }
ours() {
    local path=/tmp/.X11-unix/X${DISPLAY#:} inode
    [ -r /proc/net/unix ] || return 0 # (no way to tell: the moment's wait below)
    for inode in $(awk -v p="$path" '$8 == p || $8 == "@" p { print $7 }' /proc/net/unix); do
        ls -l "/proc/$xvfb/fd" 2>/dev/null | grep -q "socket:\[$inode\]" && return 0
    done
    return 1
}
x_up() { kill -0 "$xvfb" 2>/dev/null && xdotool getdisplaygeometry >/dev/null 2>&1 && ours; }
start_x() {
    local try
    for try in 1 2 3 4 5; do
        : >"$dir/display"
        Xvfb -displayfd 3 -screen 0 1024x640x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
        xvfb=$!
        until_ok 10 has_display || fail "Xvfb did not start (see $dir/xvfb.log)"
        export DISPLAY=:$(head -n 1 "$dir/display")
        if until_ok 5 x_up && sleep 0.5 && kill -0 "$xvfb" 2>/dev/null; then
            break
        fi
        kill "$xvfb" 2>/dev/null
        wait "$xvfb" 2>/dev/null
        xvfb=
        [ "$try" = 5 ] && fail "no X server of our own in five tries (see $dir/xvfb.log)"
    done
}
