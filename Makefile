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
#   make clean      remove build products

CC      ?= cc
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1

# -std=c11 plus POSIX 2008 for clock_nanosleep, sigaction and friends.
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# Strict warnings; the tree builds with none left.
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wundef
# -O3 (vectorised kernels: 10-40 % faster steps than -O2 here) and no errno from math
# calls (lets sqrtf inline). No -ffast-math: it implies
# -ffinite-math-only, which would delete the NaN/Inf guards the solvers rely on.
OPT     ?= -O3 -g -fno-math-errno
CFLAGS  ?= $(OPT)
ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) -Iinclude

# ncursesw: ask pkg-config, fall back to the usual names.
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
LDLIBS   = $(CURSES_LIBS) -lm -pthread

SRC      = $(wildcard src/*/*.c)
OBJ      = $(SRC:src/%.c=build/%.o)
MAIN_OBJ = build/main.o
TEST_SRC = $(wildcard tests/*.c)
# Every object depends on every header (public and the solvers' private ones):
# a small tree, so a full rebuild on a header change costs seconds.
HDRS     = $(wildcard include/*.h src/*/*.h)
TEST_OBJ = $(TEST_SRC:tests/%.c=build/tests/%.o)

.PHONY: all run test unit sanitize mutants bench fuzz demo shots install clean

all: swirl

swirl: $(OBJ) $(MAIN_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The bench finds its seed runner in the tree that built it, never in the
# current directory.
build/bench/bench.o build-san/bench/bench.o: ALL_CFLAGS += -DSWIRL_SRCDIR='"$(CURDIR)"'

build/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CURSES_CFLAGS) -c -o $@ $<

build/tests/%.o: tests/%.c $(HDRS) $(wildcard tests/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c -o $@ $<

build/swirl-test: $(OBJ) $(TEST_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# A slow link for the tests and the bench (tests/slowpty/slowpty.c).
build/slowpty: tests/slowpty/slowpty.c Makefile
	@mkdir -p build
	$(CC) $(STD) $(WARN) $(CFLAGS) -o $@ $< -lutil

run: swirl
	./swirl

# One harness runs the unit tests and the end-to-end tests (which drive ./swirl in
# tmux): each test in a process of its own, JOBS at once (default: the online
# CPUs), each with a timeout; its last line is "N passed, N failed". TESTS picks
# tests by a part of their name: make test TESTS="pbf_ cloth_".
JOBS  ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
TESTS ?=
test: swirl build/swirl-test build/slowpty
	./build/swirl-test -j $(JOBS) $(TESTS)

# Unit tests only (no tmux).
unit: build/swirl-test
	./build/swirl-test --unit -j $(JOBS) $(TESTS)

# Mutation testing (tests/mutants.sh): each break of tests/mutants.txt alone, in a
# copy of the tree under build/mutants/ (the objects already built come along, so
# a break compiles one file and links); the unit tests run there with --fail-fast
# and a timeout of MUTANT_TIMEOUT seconds a test. The objects are built first so
# the copy starts up to date.
MUTANTS        ?=
MUTANT_TIMEOUT ?= 60
mutants: build/swirl-test
	JOBS=$(JOBS) TIMEOUT=$(MUTANT_TIMEOUT) MAKE="$(MAKE)" ./tests/mutants.sh $(MUTANTS)

# Sanitizer build in its own tree so it never mixes with the normal objects.
sanitize:
	$(MAKE) BUILD_SAN=1 OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all" \
	    build-san/swirl build-san/swirl-test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 SWIRL_TEST_TIMEOUT=600 \
	    ./build-san/swirl-test --unit -j $(JOBS)
	for s in dye pbf cloth; do \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --steps 40 --every 20 --size 60x20 >/dev/null || exit 1; \
	    ASAN_OPTIONS=detect_leaks=1 ./build-san/swirl --headless --scene $$s --auto --size 60x20 --seconds 1 --record build-san/$$s.cast --overwrite >/dev/null || exit 1; \
	done
	@echo "sanitize: unit tests and headless runs clean"

ifdef BUILD_SAN
SAN_OBJ      = $(SRC:src/%.c=build-san/%.o) build-san/main.o
SAN_TEST_OBJ = $(TEST_SRC:tests/%.c=build-san/tests/%.o)
build-san/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CURSES_CFLAGS) -c -o $@ $<
build-san/tests/%.o: tests/%.c $(HDRS) $(wildcard tests/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c -o $@ $<
build-san/swirl: $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
build-san/swirl-test: $(filter-out build-san/main.o,$(SAN_OBJ)) $(SAN_TEST_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
endif

# ThreadSanitizer build in build-tsan/ (TSAN_CC, default cc; clang works too): the
# unit tests that start threads (TEST_THREADS), then a headless run of each scene on
# two solver threads. Any data race halts the run with status 66, which fails the
# target. `make tsan TSAN_ALL=1` runs every unit test under it.
TSAN_CC ?= $(CC)
TSAN_RUN = TSAN_OPTIONS="halt_on_error=1 exitcode=66"
.PHONY: tsan
tsan:
	$(MAKE) BUILD_TSAN=1 CC=$(TSAN_CC) OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" \
	    build-tsan/swirl build-tsan/swirl-test
	$(TSAN_RUN) SWIRL_TEST_TIMEOUT=600 ./build-tsan/swirl-test --unit -j $(JOBS) $(if $(TSAN_ALL),,--threads-only)
	for s in dye pbf cloth; do \
	    $(TSAN_RUN) ./build-tsan/swirl --headless --scene $$s --threads 2 --steps 40 --size 60x20 >/dev/null || exit 1; \
	done
	@echo "tsan: unit tests and headless runs on 2 threads free of races"

ifdef BUILD_TSAN
TSAN_OBJ      = $(SRC:src/%.c=build-tsan/%.o) build-tsan/main.o
TSAN_TEST_OBJ = $(TEST_SRC:tests/%.c=build-tsan/tests/%.o)
build-tsan/bench/bench.o: ALL_CFLAGS += -DSWIRL_SRCDIR='"$(CURDIR)"'
build-tsan/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CURSES_CFLAGS) -c -o $@ $<
build-tsan/tests/%.o: tests/%.c $(HDRS) $(wildcard tests/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c -o $@ $<
build-tsan/swirl: $(TSAN_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
build-tsan/swirl-test: $(filter-out build-tsan/main.o,$(TSAN_OBJ)) $(TSAN_TEST_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
endif

bench: swirl build/slowpty
	./swirl --bench
	@echo "slow link (a pty drained at 20 and 100 KB/s, answering CSI 5 n as it drains):"
	@for r in 20000 100000; do ./build/slowpty $$r 3 ./swirl --auto; done

# libFuzzer over the input parser (tests/fuzz/fuzz_input.c) with ASan+UBSan, built
# with clang into build-fuzz/. It runs for FUZZ_SECONDS on a copy of the seed corpus
# (new inputs it finds stay in build-fuzz/corpus, crashes in build-fuzz/) and fails
# on any finding; the last line gives the number of inputs run.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude
build-fuzz/fuzz_input: tests/fuzz/fuzz_input.c src/ui/input.c include/input.h Makefile
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

clean:
	rm -rf build build-san build-tsan build-fuzz swirl
