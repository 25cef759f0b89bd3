# Convenience wrapper around CMake (as cmark's top-level Makefile is).
#   make deps    install the Debian packages (scripts/install-deps.sh)
#   make         build into build/
#   make run     build and run the main job
#   make check   build and run every test of build/ (no sanitizers, no fuzz)
#   make test    every test: the browser tests and the plain-only checks
#                against build/, everything else under ASan/UBSan, a
#                libFuzzer smoke run, and the formatting check; ends with one
#                summary line per stage
#   make fuzz-long  every libFuzzer target for FUZZ_SECONDS (default 600) each,
#                with a corpus kept in FUZZ_CORPUS between runs
#   make bench   the benchmarks under bench/ (scan, crawl, build at 10,000
#                and 100,000 records)
BUILD ?= build
JOBS ?= $(shell nproc)
# Tests at once under the sanitizers: one more than the cores.  The
# end-to-end tests wait on their subprocesses, servers and locks a fifth of
# the time, so one more keeps every core busy (on two cores: 196 s -> 152 s
# for the same tests; two more was no faster).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
# Seconds per fuzz target: empty means 20 for test-fuzz, 600 for fuzz-long.
FUZZ_SECONDS ?=
# fuzz-long's corpus, kept between runs (make clean removes the default one).
FUZZ_CORPUS ?= $(BUILD)-fuzz/corpus
CMAKE_FLAGS ?=
ifeq ($(CI),true)
CMAKE_FLAGS += -DWHEELARCH_WERROR=ON
endif

.PHONY: all build deps run check test test-build san-build test-asan test-fuzz fuzz-build fuzz-long \
	format format-check bench clean

all: build

deps:
	scripts/install-deps.sh

build:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The main job: crawl the indexes in wheelarch.json into cache/, then build
# the site into site/.  Exit status 3 (an index unreachable, a wheel
# failed) still leaves a complete site built from what cache/ holds.
run: build
	$(BUILD)/wheelarch update || [ $$? -eq 3 ]
	@echo "the site is in site/: python3 -m http.server -b 127.0.0.1 -d site 8000, then open http://127.0.0.1:8000/"

# Every stage runs, then one summary says each stage's result, counts and
# time.  Each test runs once where it says the most: the browser tests and
# the checks that need an unsanitized binary (peak memory, the answer
# engine's whole grid; label `plain`) against the plain build, everything
# but the browser tests under ASan/UBSan, in the one clang build that also
# holds the libFuzzer targets.
test:
	MAKE="$(MAKE)" BUILD=$(BUILD) scripts/test-all.sh

# The quick loop while working: the plain build and all of its tests.
check: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-build: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L 'browser|plain'

# The sanitizer build: clang, ASan + UBSan at -O1 (a tenth of -O0's time
# for the same checks), with libFuzzer's coverage hooks so that the fuzz
# smoke run shares its objects.
SAN_FLAGS = -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DWHEELARCH_SANITIZE=ON \
	-DWHEELARCH_FUZZ=ON -DBUILD_TESTING=ON
san-build:
	CC=clang cmake -S . -B $(BUILD)-san $(SAN_FLAGS) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD)-san -j $(JOBS)

test-asan: san-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir $(BUILD)-san --output-on-failure -j $(TEST_JOBS) -LE browser

# The libFuzzer targets (tests/fuzz/fuzz_*.c, all of them: the CMake
# target `fuzzers`).  tests/fuzz/run.sh runs them; FUZZ_TARGETS="zip index"
# picks some, FUZZ_JOBS=N runs N at once.
fuzz-build:
	CC=clang cmake -S . -B $(BUILD)-fuzz -DWHEELARCH_FUZZ=ON -DBUILD_TESTING=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD)-fuzz -j $(JOBS) --target fuzzers

# Short run, fresh corpus, from the sanitizer build (part of make test).
test-fuzz: san-build
	cmake --build $(BUILD)-san -j $(JOBS) --target fuzzers
	FUZZ_JOBS=$(or $(FUZZ_JOBS),$(JOBS)) tests/fuzz/run.sh $(BUILD)-san $(or $(FUZZ_SECONDS),20)

# Long run; crash inputs in $(BUILD)-fuzz/fuzz-artifacts/<target>/.
fuzz-long: fuzz-build
	tests/fuzz/run.sh $(BUILD)-fuzz $(or $(FUZZ_SECONDS),600) $(FUZZ_CORPUS)

format:
	clang-format -i src/*/*.c src/*/*.h tool/*.c tool/*.h tests/unit/*.c tests/unit/*.h tests/fuzz/*.c

format-check:
	clang-format --dry-run -Werror src/*/*.c src/*/*.h tool/*.c tool/*.h tests/unit/*.c tests/unit/*.h tests/fuzz/*.c

bench: build
	bench/scan.sh $(BUILD)
	bench/crawl.sh $(BUILD)
	bench/build.sh $(BUILD)
	bench/answer.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-san $(BUILD)-asan $(BUILD)-fuzz
