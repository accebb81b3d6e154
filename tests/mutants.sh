#!/usr/bin/env bash
# tests/mutants.sh — does every break in tests/mutants.txt make a unit test fail?
#
# Usage: tests/mutants.sh [NAME...]        (make mutants [MUTANTS="NAME..."])
#
# The tree as it is (the files git knows, uncommitted changes included) is
# copied to build/mutants/tree, with the objects already built beside it so
# only what a break touches is compiled again. The copy must build and pass
# the unit tests as it is; then, for each line of the list (or each NAME
# given), that one break is applied to the copy, the unit test binary is built
# there (make -j JOBS build/swirl-test) and the unit tests run
# (swirl-test --unit -j JOBS --fail-fast, with a timeout: a hang is a failure
# once the runner's timeout kills it), and the file is put back. The tests
# run in two rounds, so that a break is caught soon: first those the unbroken
# run passed in under a second (with a timeout of FAST_TIMEOUT, ample for
# them), then, if none failed, the rest (TIMEOUT).
#
# A break is "caught" when a test fails, "SURVIVED" when every test passes,
# "ERROR" when the copy does not build with it (a break that does not compile
# tests nothing: fix the line), and "STALE" when its text is not found exactly
# once in its file (the code moved on: bring the line in step). The last line
# sums them up; the exit status is 0 only when every break was caught.
# Logs: build/mutants/logs/NAME.log.
#
# The list: one break a line, four fields separated by " |> ":
#   FILE |> TEXT TO FIND |> ITS REPLACEMENT |> NAME
# TEXT is a fixed string (no patterns, no escapes) within one line of FILE;
# NAME is a short word for the report. Blank lines and lines starting with #
# are ignored.
#
# Environment: JOBS (default 2), TIMEOUT (seconds a test, default 60),
# FAST_TIMEOUT (the first round's, default 20), MUTANTS_LIST (default
# tests/mutants.txt), MAKE (default make).

set -u
cd "$(dirname "$0")/.." || exit 2

JOBS=${JOBS:-2}
TIMEOUT=${TIMEOUT:-60}
FAST_TIMEOUT=${FAST_TIMEOUT:-20}
LIST=${MUTANTS_LIST:-tests/mutants.txt}
MAKE=${MAKE:-make}
WORK=build/mutants
TREE=$WORK/tree
LOGS=$WORK/logs
SEP=' |> '

# Our own -j, not the jobserver of a make that ran us.
unset MAKEFLAGS MFLAGS MAKELEVEL

[ -r "$LIST" ] || { echo "mutants: no list $LIST" >&2; exit 2; }
t_start=$(date +%s)

# ---- the copy ------------------------------------------------------------------
rm -rf "$WORK"
mkdir -p "$TREE" "$LOGS"
# Sources as they are in the work tree, their times kept (tar), so the objects
# copied next stay up to date where nothing changed.
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$TREE" -xf - ||
    { echo "mutants: could not copy the tree" >&2; exit 2; }
mkdir -p "$TREE/build"
if [ -d build ]; then
    tar -C build --exclude=./mutants -cf - . | tar -C "$TREE/build" -xf -
fi

build() { "$MAKE" -C "$TREE" -j "$JOBS" build/swirl-test; }
# The unit tests in the copy: a timeout, then names (substrings) to run.
run_tests() {
    local timeout=$1
    shift
    (cd "$TREE" && ./build/swirl-test --unit -j "$JOBS" --timeout "$timeout" --fail-fast "$@")
}

echo "mutants: building and testing the unbroken copy in $TREE"
if ! build >"$LOGS/unbroken.build.log" 2>&1; then
    tail -n 20 "$LOGS/unbroken.build.log"
    echo "mutants: the tree does not build as it is"
    exit 2
fi
if ! run_tests "$TIMEOUT" >"$LOGS/unbroken.log" 2>&1; then
    grep -E '^(FAIL|  FAIL)' "$LOGS/unbroken.log" | head -n 10
    echo "mutants: the unit tests fail without any break; fix that first"
    exit 2
fi
# The two rounds, from the unbroken run's times ("ok   NAME   0.12 s").
fast=() slow=()
while read -r status name secs _; do
    [ "$status" = ok ] || [ "$status" = skip ] || continue
    if [ "$status" = ok ] && awk -v t="$secs" 'BEGIN { exit !(t < 1.0) }'; then
        fast+=("$name")
    else
        slow+=("$name")
    fi
done <"$LOGS/unbroken.log"
echo "mutants: ${#fast[@]} quick tests first, then ${#slow[@]} slower ones"

# Both rounds; fails when a test does.
run_rounds() {
    if [ ${#fast[@]} -gt 0 ]; then
        run_tests "$FAST_TIMEOUT" "${fast[@]}" || return 1
    fi
    if [ ${#slow[@]} -gt 0 ]; then
        run_tests "$TIMEOUT" "${slow[@]}"
    fi
}

# ---- one break -----------------------------------------------------------------

# How many times the fixed string FIND occurs in a file (within lines).
count_in() {
    FIND=$2 awk 'BEGIN { f = ENVIRON["FIND"]; n = 0 }
        { s = $0; while ((i = index(s, f)) > 0) { n++; s = substr(s, i + length(f)) } }
        END { print n }' "$1"
}

# Writes the file with its one FIND replaced by REPL to stdout.
replace_in() {
    FIND=$2 REPL=$3 awk 'BEGIN { f = ENVIRON["FIND"]; r = ENVIRON["REPL"] }
        { i = index($0, f)
          if (i > 0) $0 = substr($0, 1, i - 1) r substr($0, i + length(f))
          print }' "$1"
}

caught=0 survived=0 errors=0 stale=0 total=0 seen=0
declare -A wanted=()
for n in "$@"; do wanted[$n]=1; done

lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case $line in '' | '#'*) continue ;; esac
    file=${line%%"$SEP"*} rest=${line#*"$SEP"}
    find=${rest%%"$SEP"*} rest=${rest#*"$SEP"}
    repl=${rest%%"$SEP"*} name=${rest#*"$SEP"}
    if [ "$name" = "$rest" ] || [ -z "$find" ] || [ -z "$name" ]; then
        printf '%-9s %s:%d: not FILE |> FIND |> REPLACEMENT |> NAME\n' STALE "$LIST" "$lineno"
        stale=$((stale + 1)) total=$((total + 1))
        continue
    fi
    if [ $# -gt 0 ] && [ -z "${wanted[$name]:-}" ]; then
        continue
    fi
    seen=$((seen + 1)) total=$((total + 1))
    t0=$(date +%s)
    if [ ! -f "$TREE/$file" ]; then
        printf '%-9s %-28s %s: no such file\n' STALE "$name" "$file"
        stale=$((stale + 1))
        continue
    fi
    n=$(count_in "$TREE/$file" "$find")
    if [ "$n" != 1 ]; then
        printf '%-9s %-28s %s: the text to find is there %s times, not once\n' STALE "$name" \
            "$file" "$n"
        stale=$((stale + 1))
        continue
    fi
    cp "$TREE/$file" "$WORK/original"
    replace_in "$WORK/original" "$find" "$repl" >"$TREE/$file"
    log=$LOGS/$name.log
    if ! build >"$log" 2>&1; then
        printf '%-9s %-28s %s: does not build with it (%s)\n' ERROR "$name" "$file" "$log"
        errors=$((errors + 1))
    elif run_rounds >>"$log" 2>&1; then
        printf '%-9s %-28s %s: every unit test passed (%ds)\n' SURVIVED "$name" "$file" \
            $(($(date +%s) - t0))
        survived=$((survived + 1))
    else
        by=$(sed -n 's/^FAIL \([^ ]*\).*/\1/p' "$log" | head -n 1)
        printf '%-9s %-28s by %s (%ds)\n' caught "$name" "${by:-the runner}" $(($(date +%s) - t0))
        caught=$((caught + 1))
    fi
    # Put the file back, newer than the object the break built, so the next
    # build compiles it again.
    cp "$WORK/original" "$TREE/$file"
    touch "$TREE/$file"
done <"$LIST"

if [ $# -gt 0 ] && [ "$seen" -lt $# ]; then
    echo "mutants: some of the names given are not in $LIST"
    stale=$((stale + $# - seen))
fi
echo "mutants: $caught caught, $survived survived, $errors did not build, $stale stale," \
    "of $total in $(($(date +%s) - t_start)) s"
[ $((survived + errors + stale)) -eq 0 ]
