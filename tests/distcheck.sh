#!/usr/bin/env bash
# tests/distcheck.sh — the release tarball as a packager meets it (make distcheck).
#
# Usage: tests/distcheck.sh swirl-VERSION.tar.gz VERSION
#
# Unpacks the tarball in a temporary folder (outside any git checkout), checks
# that it holds one folder named after the version, builds it there with the
# Makefile's defaults, runs its unit tests, checks that ./swirl -V and the man
# page name VERSION, then installs it under a DESTDIR with PREFIX=/usr, checks
# the program, the man page and the three completions are where a distribution
# wants them, uninstalls and checks that nothing is left, and that a change of
# CFLAGS or PKG_CONFIG would rebuild. The folder goes at every exit. Environment: MAKE (default make), JOBS (default 2).
set -euo pipefail

tarball=$1 version=$2
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
unset MAKEFLAGS MFLAGS MAKELEVEL # our own -j, and the tarball's defaults

fail() {
    echo "distcheck: $*" >&2
    exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/swirl-distcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$tarball"
top=$(ls "$tmp")
[ "$top" = "swirl-$version" ] || fail "the tarball unpacks to '$top', not swirl-$version"
[ "$(cat "$tmp/$top/VERSION")" = "$version" ] || fail "its VERSION is not $version"
cd "$tmp/$top"

echo "distcheck: building $top in $tmp"
"$MAKE" -j "$JOBS" >build.log 2>&1 || { tail -n 30 build.log; fail "it does not build"; }
if grep -n 'warning:' build.log; then
    fail "it builds with warnings"
fi
echo "distcheck: its unit tests"
"$MAKE" unit JOBS="$JOBS" >unit.log 2>&1 || { grep -E 'FAIL' unit.log | head -n 20; tail -n 3 unit.log; fail "its unit tests fail"; }
tail -n 1 unit.log

[ "$(./swirl -V)" = "swirl $version" ] || fail "./swirl -V says '$(./swirl -V)', not 'swirl $version'"
grep -q "^\.TH SWIRL 1 \"\([0-9-]*\|unreleased\)\" \"swirl $version\"" swirl.1 ||
    fail "swirl.1 does not name swirl $version"

dest=$tmp/dest
"$MAKE" install DESTDIR="$dest" PREFIX=/usr >install.log 2>&1 || { cat install.log; fail "make install fails"; }
for f in bin/swirl share/man/man1/swirl.1 share/bash-completion/completions/swirl \
    share/zsh/site-functions/_swirl share/fish/vendor_completions.d/swirl.fish; do
    [ -f "$dest/usr/$f" ] || fail "make install left out /usr/$f"
done
"$MAKE" uninstall DESTDIR="$dest" PREFIX=/usr >>install.log 2>&1 || { cat install.log; fail "make uninstall fails"; }
left=$(find "$dest" -type f)
[ -z "$left" ] || fail "make uninstall left $left"
# The build is up to date as it is, and not once CFLAGS changes (build/flags):
# last, since that rewrites the record.
"$MAKE" -q all || fail "make -q: the tree is not up to date after make"
if "$MAKE" -q all CFLAGS="-O1 -g"; then fail "a change of CFLAGS rebuilds nothing"; fi
# A cross build's pkg-config is the one asked.
printf '#!/bin/sh\ntouch "%s/asked"\nexec pkg-config "$@"\n' "$tmp" >"$tmp/pkg-config"
chmod +x "$tmp/pkg-config"
"$MAKE" -q all PKG_CONFIG="$tmp/pkg-config" || true
[ -e "$tmp/asked" ] || fail "the Makefile does not ask \$(PKG_CONFIG)"
echo "distcheck: $tarball builds, passes its unit tests, installs and uninstalls," \
    "and rebuilds for other flags"
