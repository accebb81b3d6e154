# swirl — real-time physics in a terminal.
#
#   make            build ./swirl
#   make run        build and start swirl in this terminal
#   make test       build and run every test (unit + end-to-end in tmux)
#   make sanitize   ASan+UBSan build running the unit tests and a headless run of each scene
#   make mutants    break the code on purpose, one break at a time (tests/mutants.txt), in a
#                   copy under build/mutants/, and check that a unit test catches each
#                   (a hang counts, once the runner's timeout ends it); fails if one
#                   survives or a break's text is no longer found once in its file.
#                   MUTANTS="name ..." picks breaks; logs in build/mutants/logs/
#   make bench      print the benchmark figures (ratios measured in one run)
#   make fuzz       libFuzzer run over the input parser for FUZZ_SECONDS (default 60)
#   make demo       regenerate demo.cast with the headless recorder
#   make shots      pictures of the scenes in a real xterm (tests/shots/, for the README)
#   make install    install swirl and swirl.1 under $(DESTDIR)$(PREFIX)
#   make uninstall  remove them again
#   make clean      remove build products

CC      ?= cc
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
# The build tree: build/ (the product, ./swirl), build-san/ and build-tsan/ (the
# sanitizer builds run the same rules with B set).
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
ALL_CFLAGS = $(STD) $(WARN) $(CPPFLAGS) $(CFLAGS) $(MUST)

# The layers, lowest first: a layer's code sees its own headers and those of the
# layers it may use, and no others, so an include the wrong way fails the build.
#   core    conventions and the byte buffer              include/core
#   sim     the solvers: pure C, no I/O                  include/sim
#   gfx     pixels -> cells -> bytes                     include/gfx
#   scenes  a solver + its drawing + its parameters      include/scenes
#   ui      terminal, input, app, recording, headless    include/ui
USES_core   = core
USES_sim    = core sim
USES_gfx    = core gfx
USES_scenes = core sim gfx scenes
USES_ui     = core sim gfx scenes ui
USES_bench  = $(USES_ui)
USES_main   = $(USES_ui)
USES_tests  = $(USES_ui)
layer_inc   = $(addprefix -Iinclude/,$(USES_$(1)))

# ncursesw: ask pkg-config, fall back to the usual names.
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
LDLIBS   = $(CURSES_LIBS) -lm -pthread

# The product's code; src/bench/ is the bench's program (swirl-bench).
SRC      = $(filter-out src/bench/%,$(wildcard src/*/*.c))
OBJ      = $(SRC:src/%.c=$(B)/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(B)/tests/%.o)
# Every object depends on every header (public and the solvers' private ones):
# a small tree, so a full rebuild on a header change costs seconds.
HDRS     = $(wildcard include/*/*.h src/*/*.h)
# The program of this tree: ./swirl for build/, $(B)/swirl for the others.
PROG     = $(if $(filter build,$(B)),swirl,$(B)/swirl)

.PHONY: all run test unit sanitize tsan mutants bench fuzz demo shots install uninstall clean

all: swirl

$(PROG): $(OBJ) $(B)/main.o
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/sim/%.o $(B)/gfx/%.o: ALL_CFLAGS += $(HOT_OPT)

$(B)/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call layer_inc,$(firstword $(subst /, ,$*))) $(CURSES_CFLAGS) -c -o $@ $<

# The tests see every layer's headers, and the solvers' private ones
# (src/sim/*_internal.h, fluid_impl.h) for what the product does not export:
# the pbf kernel, the divergence a projection leaves.
$(B)/tests/%.o: tests/%.c $(HDRS) $(wildcard tests/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call layer_inc,tests) -Isrc/sim -Itests -c -o $@ $<

$(B)/swirl-test: $(OBJ) $(TEST_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The bench: a program of its own, on the product's objects; never installed.
$(B)/swirl-bench: $(OBJ) $(patsubst src/%.c,$(B)/%.o,$(wildcard src/bench/*.c))
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A slow link for the tests and the bench (tests/slowpty/slowpty.c).
$(B)/slowpty: tests/slowpty/slowpty.c Makefile
	@mkdir -p $(B)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lutil

run: swirl
	./swirl

# One harness runs the unit tests and the end-to-end tests (which drive ./swirl in
# tmux): each test in a process of its own, JOBS at once (default: the online
# CPUs), each with a timeout; its last line is "N passed, N failed". TESTS picks
# tests by a part of their name: make test TESTS="pbf_ cloth_".
JOBS  ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
TESTS ?=
test: swirl build/swirl-test build/slowpty
	./build/swirl-test -j $(JOBS) --times build/test-times $(TESTS)

# Unit tests only (no tmux).
unit: build/swirl-test
	./build/swirl-test --unit -j $(JOBS) --times build/test-times $(TESTS)

# Mutation testing (tests/mutants.sh): each break of tests/mutants.txt alone, in a
# copy of the tree under build/mutants/ (the objects already built come along, so
# a break compiles one file and links); the unit tests run there with --fail-fast
# and a timeout of MUTANT_TIMEOUT seconds a test. The objects are built first so
# the copy starts up to date.
MUTANTS        ?=
MUTANT_TIMEOUT ?= 60
mutants: build/swirl-test
	JOBS=$(JOBS) TIMEOUT=$(MUTANT_TIMEOUT) MAKE="$(MAKE)" ./tests/mutants.sh $(MUTANTS)

# Sanitizer build in its own tree (build-san/) so it never mixes with the normal
# objects: ASan, UBSan and the float-to-int overflow check (GCC's "undefined" leaves
# it out), every finding fatal; the unit tests, then a headless run of each scene.
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow \
            -fno-sanitize-recover=all
sanitize:
	$(MAKE) -j$(JOBS) B=build-san CFLAGS="$(SAN_FLAGS)" HOT_OPT= build-san/swirl build-san/swirl-test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 SWIRL_TEST_TIMEOUT=600 \
	    ./build-san/swirl-test --unit -j $(JOBS) --times build-san/test-times
	for s in dye pbf cloth; do \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --steps 40 --every 20 --size 60x20 >/dev/null || exit 1; \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --auto --size 60x20 --seconds 1 --record build-san/$$s.cast --overwrite >/dev/null || exit 1; \
	done
	@echo "sanitize: unit tests and headless runs clean"

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
	for s in dye pbf cloth; do \
	    $(TSAN_RUN) ./build-tsan/swirl --headless --scene $$s --threads 2 --steps 40 --size 60x20 >/dev/null || exit 1; \
	done
	@echo "tsan: unit tests and headless runs on 2 threads free of races"

# The seed pages' JavaScript runs under node where both are there.
SEEDS ?= $(abspath ../shared/seeds)
bench: swirl build/swirl-bench build/slowpty
	./build/swirl-bench --seeds $(SEEDS) --script $(CURDIR)/tests/bench/seedrun.js
	@echo "slow link (a pty drained at 20 and 100 KB/s, answering CSI 5 n as it drains):"
	@for r in 20000 100000; do ./build/slowpty $$r 3 ./swirl --auto; done

# libFuzzer over the input parser (tests/fuzz/fuzz_input.c) with ASan+UBSan, built
# with clang into build-fuzz/. It runs for FUZZ_SECONDS on a copy of the seed corpus
# (new inputs it finds stay in build-fuzz/corpus, crashes in build-fuzz/) and fails
# on any finding; the last line gives the number of inputs run.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(call layer_inc,ui)
build-fuzz/fuzz_input: tests/fuzz/fuzz_input.c src/ui/input.c include/ui/input.h Makefile
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_input.c src/ui/input.c

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

demo: swirl
	./swirl --headless --demo --size 80x24 --fps 10 --seconds 27 --tolerance 8 --seed 1 --record demo.cast --overwrite

install: swirl
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 swirl $(DESTDIR)$(BINDIR)/swirl
	install -m 644 swirl.1 $(DESTDIR)$(MANDIR)/swirl.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/swirl $(DESTDIR)$(MANDIR)/swirl.1

clean:
	rm -rf build build-san build-tsan build-fuzz swirl
