# swirl — real-time physics in a terminal.
#
#   make            build ./swirl
#   make run        build and start swirl in this terminal
#   make test       build and run every test (unit + end-to-end in tmux)
#   make sanitize   ASan+UBSan build running the unit tests and a headless run of each scene,
#                   then the end-to-end tests on a UBSan ./swirl (make sanitize-e2e)
#   make mutants    break the code on purpose, one break at a time (tests/mutants.txt), in a
#                   copy under build/mutants/, and check that a unit test catches each
#                   (a hang counts, once the runner's timeout ends it); fails if one
#                   survives or a break's text is no longer found once in its file.
#                   MUTANTS="name ..." picks breaks; logs in build/mutants/logs/
#   make bench      print the benchmark figures (ratios measured in one run)
#   make fuzz       libFuzzer run over the input parser for FUZZ_SECONDS (default 60)
#   make demo       regenerate demo.cast with the headless recorder
#   make shots      pictures of the scenes in a real xterm (tests/shots/, for the README)
#   make install    install swirl, swirl.1 and the shell completions under $(DESTDIR)$(PREFIX)
#   make uninstall  remove them again
#   make dist       swirl-VERSION.tar.gz from the tracked files (git archive of HEAD)
#   make distcheck  make dist, then build it and run its unit tests unpacked in a
#                   temporary folder, and install and uninstall it there
#   make clean      remove build products
#   WERROR=1        with any target: every warning an error (as CI builds)

CC      ?= cc
PKG_CONFIG ?= pkg-config
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
DATADIR ?= $(PREFIX)/share
# Where each shell looks for the completions of a command.
BASH_COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETIONDIR  ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d

# The version is written once, in VERSION: -V, the help, the man page's footer
# and the tarball's name take it from there. NEWS has a heading
# "swirl VERSION (YYYY-MM-DD)" for it, and the man page takes its date.
VERSION := $(shell cat VERSION 2>/dev/null)
ifeq ($(VERSION),)
$(error no VERSION file)
endif
NEWS_DATE = $(shell sed -n 's/^swirl $(subst .,\.,$(VERSION)) (\([0-9-]*\))$$/\1/p' NEWS)
DIST     = swirl-$(VERSION)
# The build tree: build/ (the product, ./swirl), build-san/, build-ubsan/ and
# build-tsan/ (the sanitizer builds run the same rules with B set).
B       ?= build

# -std=c11 plus POSIX 2008 for clock_nanosleep, sigaction and friends.
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# Strict warnings; the tree builds with none left.
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wundef
# CFLAGS, CPPFLAGS and LDFLAGS are the builder's (a distribution's dpkg-buildflags).
CFLAGS  ?= -O3 -g
# What the code needs whatever CFLAGS says, so it comes after it:
#  - no errno from math calls (sqrtf inlines; without it pbf runs at 0.4x);
#  - the build directory left out of the debug information (the same bits
#    from any directory);
#  - -O3 for the solvers and the drawing, src/sim and src/gfx (vectorised
#    loops: the dye step takes 1.5x as long at -O2). HOT_OPT= leaves them at
#    CFLAGS' level, as the sanitizer builds do.
# No -ffast-math: it implies -ffinite-math-only, which would delete the NaN/Inf
# guards the solvers rely on.
MUST     = -fno-math-errno -ffile-prefix-map=$(CURDIR)=.
HOT_OPT ?= -O3
# WERROR=1: every warning fails the build (CI builds so; off by default, as a
# packager's newer compiler may warn where ours does not).
WERROR  ?=
ALL_CFLAGS = $(STD) $(WARN) $(if $(WERROR),-Werror) $(CPPFLAGS) $(CFLAGS) $(MUST) \
             -DSWIRL_VERSION='"$(VERSION)"' $(ZLIB_CFLAGS)

# The layers, lowest first: a layer's code sees its own headers and those of the
# layers it may use, and no others, so an include the wrong way fails the build.
#   core    conventions, the byte buffer, the thread pool     include/core
#   sim     the solvers: pure C, no I/O                         include/sim
#   gfx     pixels -> cells -> bytes                            include/gfx
#   scenes  a solver + its drawing + its parameters             include/scenes
#   app     the app and its frames: keys in, bytes out, no      include/app
#           terminal (compose, encode, pace, record, headless)
#   tty     swirl in a terminal: the screen and its modes, the  include/tty
#           one reader and parser of its bytes, the link, the loop
#   cli     the command line and the config file                include/cli
USES_core   = core
USES_sim    = core sim
USES_gfx    = core gfx
USES_scenes = core sim gfx scenes
USES_app    = core sim gfx scenes app
USES_tty    = $(USES_app) tty
USES_cli    = $(USES_app) cli
USES_bench  = $(USES_app) tty
USES_tools  = $(USES_app) cli
USES_main   = $(USES_app) tty cli
USES_tests  = $(USES_app) tty cli
layer_inc   = $(addprefix -Iinclude/,$(USES_$(1)))

# ncursesw: ask pkg-config (PKG_CONFIG: a cross build's), fall back to the usual names.
CURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
CURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
# zlib where pkg-config finds it: kitty's frames compressed (src/gfx/kitty.c);
# without it (or with ZLIB_CFLAGS= ZLIB_LIBS=) they go uncompressed.
ZLIB_CFLAGS := $(shell $(PKG_CONFIG) --exists zlib 2>/dev/null && echo -DSWIRL_ZLIB \
                   $$($(PKG_CONFIG) --cflags zlib))
ZLIB_LIBS   := $(shell $(PKG_CONFIG) --exists zlib 2>/dev/null && $(PKG_CONFIG) --libs zlib)
LDLIBS   = $(CURSES_LIBS) $(ZLIB_LIBS) -lm -pthread

# What the tree is built with, in $(B)/flags, rewritten only when it changes:
# every object and program depends on it, so a change of CC, CFLAGS, CPPFLAGS,
# LDFLAGS or the version rebuilds without a make clean. The tree's own path is
# left out (a copy of the tree, make mutants', keeps its objects).
BUILD_FLAGS = $(subst $(CURDIR),.,$(CC) $(ALL_CFLAGS) hot: $(HOT_OPT) curses: $(CURSES_CFLAGS) \
                  link: $(LDFLAGS) $(LDLIBS))
ifneq ($(BUILD_FLAGS),$(file <$(B)/flags))
$(shell mkdir -p $(B))
$(file >$(B)/flags,$(BUILD_FLAGS))
endif

# The product's code; src/bench/ is the bench's program (swirl-bench), src/tools/
# the build's own (swirl-completion).
SRC      = $(filter-out src/bench/% src/tools/%,$(wildcard src/*/*.c))
OBJ      = $(SRC:src/%.c=$(B)/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(B)/tests/%.o)
# Every object depends on every header (public and the solvers' private ones):
# a small tree, so a full rebuild on a header change costs seconds.
HDRS     = $(wildcard include/*/*.h src/*/*.h)
# The program of this tree: ./swirl for build/, $(B)/swirl for the others.
PROG     = $(if $(filter build,$(B)),swirl,$(B)/swirl)

.PHONY: docs all run test unit sanitize sanitize-e2e tsan mutants bench fuzz demo shots install \
        uninstall clean dist distcheck

# The shells' completion scripts, as each wants it named.
COMPLETIONS = $(B)/completion/swirl $(B)/completion/_swirl $(B)/completion/swirl.fish

all: swirl swirl.1 $(COMPLETIONS)

$(B)/flags: ;

$(PROG): $(OBJ) $(B)/main.o $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(B)/sim/%.o $(B)/gfx/%.o: ALL_CFLAGS += $(HOT_OPT)

$(B)/%.o: src/%.c $(HDRS) Makefile $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call layer_inc,$(firstword $(subst /, ,$*))) $(CURSES_CFLAGS) -c -o $@ $<

# The tests see every layer's headers, and the private ones beside the code
# (src/LAYER/*_internal.h, src/scenes/*_scene.h...) for what the product does not
# export: the pbf kernel, the divergence a projection leaves, a recording's
# JSON lines.
$(B)/tests/%.o: tests/%.c $(HDRS) $(wildcard tests/*.h) Makefile $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call layer_inc,tests) $(addprefix -Isrc/,$(USES_tests)) -Itests -c -o $@ $<

$(B)/swirl-test: $(OBJ) $(TEST_OBJ) $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

# The bench: a program of its own, on the product's objects; never installed.
# Its link part runs swirl's frames behind the tests' simulated link (tests/simlink.c,
# tests/simscreen.c).
$(B)/swirl-bench: $(OBJ) $(patsubst src/%.c,$(B)/%.o,$(wildcard src/bench/*.c)) \
                  $(B)/tests/simlink.o $(B)/tests/simscreen.o $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(B)/bench/link.o: ALL_CFLAGS += -Itests

# The program that writes the completion scripts from the option table (never
# installed): the table and its writers, on the product's objects, since the
# scenes' names come from the scene table (scene.h).
$(B)/swirl-completion: $(B)/tools/completion.o $(OBJ) $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

# ... and the one that writes each scene's keys and mouse from the scene table,
# for the man page and docs/scenes.md (src/tools/scenewords.c).
$(B)/swirl-scenewords: $(B)/tools/scenewords.o $(OBJ) $(B)/flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(B)/completion/swirl: $(B)/swirl-completion
	@mkdir -p $(dir $@)
	$< bash >$@.tmp && mv $@.tmp $@
$(B)/completion/_swirl: $(B)/swirl-completion
	@mkdir -p $(dir $@)
	$< zsh >$@.tmp && mv $@.tmp $@
$(B)/completion/swirl.fish: $(B)/swirl-completion
	@mkdir -p $(dir $@)
	$< fish >$@.tmp && mv $@.tmp $@

# A terminal at the far end of a link with a rate and a delay each way, for
# the tests and the bench (tests/link/linkpty.c).
$(B)/linkpty: tests/link/linkpty.c tests/link/fifo.h Makefile $(B)/flags
	@mkdir -p $(B)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lutil

# ... and a long link for a real ssh: a ProxyCommand that delays each way.
$(B)/delayproxy: tests/link/delayproxy.c tests/link/fifo.h Makefile $(B)/flags
	@mkdir -p $(B)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# One scene in the terminal's own pixels (kitty's protocol or sixel), for a
# look in a real terminal (tests/pixels/pixshow.c); never installed.
$(B)/pixshow: tests/pixels/pixshow.c $(OBJ) $(B)/flags
	$(CC) $(ALL_CFLAGS) $(call layer_inc,tests) $(LDFLAGS) -o $@ $< $(OBJ) $(LDLIBS)

# swirl's sixel encoder against libsixel's (tests/pixels/sixelcmp.c), where
# libsixel is installed: the figures behind the choice of our own.
$(B)/sixelcmp: tests/pixels/sixelcmp.c tests/pixdecode.c $(OBJ) $(B)/flags
	$(CC) $(ALL_CFLAGS) $(call layer_inc,tests) -Itests $$($(PKG_CONFIG) --cflags libsixel) \
	    $(LDFLAGS) -o $@ $< tests/pixdecode.c $(OBJ) $$($(PKG_CONFIG) --libs libsixel) $(LDLIBS)

run: swirl
	./swirl

# One harness runs the unit tests and the end-to-end tests (which drive ./swirl in
# tmux): each test in a process of its own, JOBS unit tests at once (default:
# the online CPUs) and as many end-to-end tests and as many that wait beside
# them, each with a timeout; its last line is "N passed, N failed". TESTS picks
# tests by a part of their name: make test TESTS="pbf_ cloth_". SLOWEST=K lists
# the K slowest tests of the run (their seconds, CPU seconds and kind).
JOBS    ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
TESTS   ?=
SLOWEST ?=
TEST_OPTS = -j $(JOBS) --times build/test-times $(if $(SLOWEST),--slowest $(SLOWEST))
test: swirl swirl.1 build/swirl-test build/linkpty
	./build/swirl-test $(TEST_OPTS) $(TESTS)

# Unit tests only (no tmux).
unit: build/swirl-test
	./build/swirl-test --unit $(TEST_OPTS) $(TESTS)

# Mutation testing (tests/mutants.sh): each break of tests/mutants.txt alone, in a
# copy of the tree under build/mutants/ (the objects already built come along, so
# a break compiles one file and links); the unit tests run there with --fail-fast
# and a timeout of MUTANT_TIMEOUT seconds a test. The objects are built first so
# the copy starts up to date.
MUTANTS        ?=
MUTANT_TIMEOUT ?= 60
mutants: build/swirl-test
	JOBS=$(JOBS) TIMEOUT=$(MUTANT_TIMEOUT) MAKE="$(MAKE)" ./tests/mutants.sh $(MUTANTS)

# The scenes' names (--scene's words) as the program $(1) lists them, for a
# shell loop over every scene: the scene table's (--list-scenes), never a list
# of the Makefile's own.
SCENES_OF = $$($(1) --list-scenes | cut -d' ' -f1)

# Sanitizer build in its own tree (build-san/) so it never mixes with the normal
# objects: ASan, UBSan and the float-to-int overflow check (GCC's "undefined" leaves
# it out), every finding fatal; the unit tests, then a headless run of each scene.
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow \
            -fno-sanitize-recover=all
sanitize:
	$(MAKE) -j$(JOBS) B=build-san CFLAGS="$(SAN_FLAGS)" HOT_OPT= build-san/swirl build-san/swirl-test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 SWIRL_TEST_TIMEOUT=600 \
	    ./build-san/swirl-test --unit -j $(JOBS) --times build-san/test-times
	names=$(call SCENES_OF,./build-san/swirl); [ -n "$$names" ] || exit 1; \
	for s in $$names; do \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --steps 40 --every 20 --size 60x20 >/dev/null || exit 1; \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --auto --size 60x20 --seconds 1 --record build-san/$$s.cast --overwrite >/dev/null || exit 1; \
	done
	@echo "sanitize: unit tests and headless runs clean"
	$(MAKE) sanitize-e2e

# UBSan over the end-to-end tests: ./swirl's terminal side (core, app, tty, cli: the
# terminal, its input, the flow control, the recording, the command line)
# built with UBSan and the float-to-int check alone (build-ubsan/; ASan would
# slow the frames the tests wait for), run by the usual test binary from
# build-ubsan/e2e/, a folder of links to the tree's top level in which ./swirl is that
# build. A finding ends swirl (and so its test) and leaves a log in
# build-ubsan/logs/, which fails the target whatever the tests said. test_link.c's
# terminal (linkpty) answers as one with synchronized output does, so the 2026
# paths run too.
UBSAN_FLAGS = -O2 -g -fno-omit-frame-pointer -fsanitize=undefined,float-cast-overflow \
              -fno-sanitize-recover=all
# The solvers, the drawing and the scenes stay as the product has them (their
# undefined behaviour is the unit tests' to find, under ASan+UBSan above):
# instrumented, they draw frames six times as slowly as the tests wait for.
build-ubsan/sim/%.o build-ubsan/gfx/%.o build-ubsan/scenes/%.o: ALL_CFLAGS += -fno-sanitize=all
sanitize-e2e: swirl.1 build/swirl-test build/linkpty
	$(MAKE) -j$(JOBS) B=build-ubsan CFLAGS="$(UBSAN_FLAGS)" build-ubsan/swirl
	rm -rf build-ubsan/e2e build-ubsan/logs
	mkdir -p build-ubsan/e2e build-ubsan/logs
	ln -s ../swirl build-ubsan/e2e/swirl
	for f in *; do case $$f in swirl|build-ubsan) ;; *) ln -s ../../$$f build-ubsan/e2e/$$f ;; esac; done
	cd build-ubsan/e2e && UBSAN_OPTIONS=print_stacktrace=1:log_path=$(CURDIR)/build-ubsan/logs/ubsan \
	    ./build/swirl-test --e2e -j $(JOBS) --times ../test-times
	@if ls build-ubsan/logs/ubsan.* >/dev/null 2>&1; then cat build-ubsan/logs/ubsan.*; \
	    echo "sanitize-e2e: UBSan found undefined behaviour (above)"; exit 1; fi
	@echo "sanitize-e2e: the end-to-end tests clean under UBSan"

# ThreadSanitizer build in build-tsan/ (TSAN_CC, default cc; clang works too): the
# unit tests that start threads (TEST_THREADS), then a headless run of each scene on
# two solver threads. Any data race halts the run with status 66, which fails the
# target. `make tsan TSAN_ALL=1` runs every unit test under it.
TSAN_CC ?= $(CC)
TSAN_RUN = TSAN_OPTIONS="halt_on_error=1 exitcode=66"
tsan:
	$(MAKE) -j$(JOBS) B=build-tsan CC=$(TSAN_CC) CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" \
	    HOT_OPT= build-tsan/swirl build-tsan/swirl-test
	$(TSAN_RUN) SWIRL_TEST_TIMEOUT=600 ./build-tsan/swirl-test --unit -j $(JOBS) --times build-tsan/test-times \
	    $(if $(TSAN_ALL),,--threads-only)
	names=$(call SCENES_OF,./build-tsan/swirl); [ -n "$$names" ] || exit 1; \
	for s in $$names; do \
	    $(TSAN_RUN) ./build-tsan/swirl --headless --scene $$s --threads 2 --steps 40 --size 60x20 >/dev/null || exit 1; \
	done
	@echo "tsan: unit tests and headless runs on 2 threads free of races"

# The seed pages' JavaScript runs under node where both are there.
SEEDS ?= $(abspath ../shared/seeds)
bench: swirl build/swirl-bench build/linkpty build/delayproxy
	./build/swirl-bench --seeds $(SEEDS) --script $(CURDIR)/tests/bench/seedrun.js
	./tests/bench/link.sh
	./tests/bench/ssh.sh

# libFuzzer over the input parser (tests/fuzz/fuzz_input.c) with ASan+UBSan, built
# with clang into build-fuzz/. It runs for FUZZ_SECONDS on a copy of the seed corpus
# (new inputs it finds stay in build-fuzz/corpus, crashes in build-fuzz/) and fails
# on any finding; the last line gives the number of inputs run.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(call layer_inc,tty)
build-fuzz/fuzz_input: tests/fuzz/fuzz_input.c src/tty/input.c src/tty/answer.c src/tty/answer.h \
                      include/tty/input.h include/app/event.h Makefile
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc/tty -o $@ tests/fuzz/fuzz_input.c src/tty/input.c src/tty/answer.c

fuzz: build-fuzz/fuzz_input
	rm -rf build-fuzz/corpus && mkdir -p build-fuzz/corpus && cp tests/fuzz/corpus/* build-fuzz/corpus/
	@echo "fuzz: running for $(FUZZ_SECONDS) s (log in build-fuzz/fuzz.log)"
	@UBSAN_OPTIONS=print_stacktrace=1 ./build-fuzz/fuzz_input -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=10 -artifact_prefix=build-fuzz/ build-fuzz/corpus >build-fuzz/fuzz.log 2>&1 || \
	    { tail -n 60 build-fuzz/fuzz.log; echo "fuzz: FOUND A FAILURE (input saved in build-fuzz/)"; exit 1; }
	@runs=$$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' build-fuzz/fuzz.log); \
	    [ -n "$$runs" ] || { tail -n 20 build-fuzz/fuzz.log; echo "fuzz: no run count in the log"; exit 1; }; \
	    echo "fuzz: $$runs runs in $(FUZZ_SECONDS) s, nothing found"

# Pictures of the scenes in a real xterm under Xvfb, for the README.
shots: swirl
	./tests/shots.sh

# The recording lasts one tour (--demo's default length): each scene its turn.
demo: swirl
	./swirl --headless --demo --size 80x24 --fps 10 --tolerance 8 --seed 1 --record demo.cast --overwrite

# The man page with the version and its date from NEWS filled in (no build
# date: the same page from any build of a release), and the scenes as the
# program lists them (--list-scenes: the scene table's names and titles):
# @SCENES@ a tagged paragraph for each, @SCENE_WORDS@ --scene's words joined
# by '|', @FIRST_SCENE@ the default, @SCENE_KEYS@ their keys ("1 2 3").
MAN_SCENES = NR == FNR { n++; name[n] = $$1; sub(/^[^ ]+ +/, ""); title[n] = $$0; next } \
    FNR == 1 { words = name[1]; keys = 1; \
               for (i = 2; i <= n; i++) { words = words "|" name[i]; keys = keys " " i } } \
    $$0 == "@SCENES@" { for (i = 1; i <= n; i++) printf ".TP\n.B %s\n\\&%s.\n", name[i], title[i]; next } \
    { gsub(/@SCENE_WORDS@/, words); gsub(/@FIRST_SCENE@/, name[1]); gsub(/@SCENE_KEYS@/, keys); print }
# @SCENE_KEYS_TP@ and @SCENE_MOUSE@: each scene's keys and mouse, from its file.
MAN_WORDS = $$0 == "@SCENE_KEYS_TP@" { while ((getline l < keys) > 0) print l; next } \
    $$0 == "@SCENE_MOUSE@" { while ((getline l < mouse) > 0) print l; next } { print }
swirl.1: swirl.1.in VERSION NEWS $(PROG) $(B)/swirl-scenewords
	@test -n "$(NEWS_DATE)" || { echo "NEWS has no heading 'swirl $(VERSION) (YYYY-MM-DD)'" >&2; exit 1; }
	./$(PROG) --list-scenes >$@.scenes && test -s $@.scenes
	$(B)/swirl-scenewords man-keys >$@.keys && $(B)/swirl-scenewords man-mouse >$@.mouse
	awk '$(MAN_SCENES)' $@.scenes swirl.1.in | \
	    awk -v keys=$@.keys -v mouse=$@.mouse '$(MAN_WORDS)' >$@.in.tmp
	sed -e 's/@VERSION@/$(VERSION)/g' -e 's/@DATE@/$(NEWS_DATE)/g' $@.in.tmp >$@.tmp
	rm -f $@.scenes $@.keys $@.mouse $@.in.tmp && mv $@.tmp $@

# docs/scenes.md's section "Keys and mouse", written anew from the scene table
# (a test fails when it is stale).
docs: $(B)/swirl-scenewords
	awk '/^## Keys and mouse/ { exit } { print }' docs/scenes.md >docs/scenes.md.tmp
	$(B)/swirl-scenewords md >>docs/scenes.md.tmp && echo >>docs/scenes.md.tmp
	awk 'k && /^## / { p = 1 } p { print } /^## Keys and mouse/ { k = 1 }' docs/scenes.md \
	    >>docs/scenes.md.tmp
	mv docs/scenes.md.tmp docs/scenes.md

# The release tarball: HEAD's tracked files under swirl-VERSION/, their times the
# commit's, compressed without a name or time (the same bytes from the same
# commit). What is not committed is not in it, and dist says so.
dist:
	@git rev-parse --verify -q HEAD >/dev/null || { echo "make dist: needs a git checkout" >&2; exit 1; }
	@git diff --quiet HEAD -- || echo "make dist: uncommitted changes are left out (the tarball is HEAD's)" >&2
	git archive --format=tar --prefix=$(DIST)/ HEAD | gzip -n -9 >$(DIST).tar.gz.tmp
	mv $(DIST).tar.gz.tmp $(DIST).tar.gz

# The tarball as a packager meets it (tests/distcheck.sh): unpacked in a
# temporary folder, built, its unit tests run, -V and the man page checked
# against VERSION, installed under a DESTDIR and uninstalled without a trace.
distcheck: dist
	MAKE="$(MAKE)" JOBS=$(JOBS) ./tests/distcheck.sh $(DIST).tar.gz $(VERSION)

install: swirl swirl.1 $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASH_COMPLETIONDIR) \
	    $(DESTDIR)$(ZSH_COMPLETIONDIR) $(DESTDIR)$(FISH_COMPLETIONDIR)
	install -m 755 swirl $(DESTDIR)$(BINDIR)/swirl
	install -m 644 swirl.1 $(DESTDIR)$(MANDIR)/swirl.1
	install -m 644 $(B)/completion/swirl $(DESTDIR)$(BASH_COMPLETIONDIR)/swirl
	install -m 644 $(B)/completion/_swirl $(DESTDIR)$(ZSH_COMPLETIONDIR)/_swirl
	install -m 644 $(B)/completion/swirl.fish $(DESTDIR)$(FISH_COMPLETIONDIR)/swirl.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/swirl $(DESTDIR)$(MANDIR)/swirl.1 \
	    $(DESTDIR)$(BASH_COMPLETIONDIR)/swirl $(DESTDIR)$(ZSH_COMPLETIONDIR)/_swirl \
	    $(DESTDIR)$(FISH_COMPLETIONDIR)/swirl.fish

clean:
	rm -rf build build-san build-ubsan build-tsan build-fuzz swirl swirl.1 swirl-*.tar.gz
