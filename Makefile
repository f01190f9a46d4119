# Sposure: `make demo` plays what the package can do, `make test` checks it.
# Both install the C libraries they need first (`make deps`).

PREFIX ?= /usr/local
FUZZ_TIME ?= 300
SWIFT ?= swift
TOOLS := giphy-pages fetch-images gif-play score sposure
# `make install` replaces no file in PREFIX that is not sposure's (scripts/install
# says which); FORCE=1 replaces them.
FORCE ?=
# A make value as one single-quoted shell word: PREFIX, DESTDIR and the
# folders may hold spaces.
quote = '$(subst ','\'',$(1))'
# The folder of the built tools install-built copies (make install: the release build).
BIN ?= .build/release
# The man pages: swift-argument-parser's generate-manual, one page per tool and
# per subcommand, from the same help the tools print (--experimental-dump-help).
MANUAL_TOOL ?= .build/release/generate-manual
MAN_BUILD = .build/man
MAN_DATE ?= 2026-01-01
DEV_PACKAGES := libcurl4-openssl-dev libgif-dev libjansson-dev libssl-dev zlib1g-dev libturbojpeg0-dev libpng-dev libwebp-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Release builds link the Swift runtime and FoundationEssentials (the tools
# use no more of Foundation) into each tool: score starts in about 4 ms instead
# of 6 with them shared (no dynamic linking of ~12 libraries' symbols at every
# run; bench/startup), for 15-20 MB a tool once stripped.
# The toolchain's lld links where it is there (Swift's toolchains for Linux
# carry it): the test binary in 1.8 s where gold takes 4.5, each tool faster too.
LINK := $(shell command -v ld.lld >/dev/null 2>&1 && echo -Xswiftc -use-ld=lld)
RELEASE := -c release --static-swift-stdlib $(LINK)
# The debug builds of make test, the same flags for each, so none rebuilds
# what another built. (The index store stays: test discovery on Linux reads it.)
DEBUG := $(LINK)
# FoundationEssentials' static archive calls mktemp(3), and glibc has the
# linker warn about it at every link of every tool: noise about code that is
# not ours, dropped from the release build's output (nothing else is).
SHELL := /bin/bash
RELEASE_BUILD := echo "$(SWIFT) build $(RELEASE)"; set -o pipefail; $(SWIFT) build $(RELEASE) 2>&1 | { grep -av "use of .mktemp. is dangerous" || true; }

.PHONY: all deps build debug test test-future demo bench fuzz install install-built man uninstall clean

all: build

# Installs the -dev packages when pkg-config cannot find the libraries.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl libgif jansson libcrypto zlib libturbojpeg libpng libwebpdemux; then \
	  echo "deps: libcurl, giflib, jansson, libcrypto, zlib, libturbojpeg, libpng and libwebp found"; \
	else \
	  echo "deps: installing $(DEV_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEV_PACKAGES); \
	fi

build: deps
	@$(RELEASE_BUILD)

debug: deps
	$(SWIFT) build $(DEBUG)

test: deps
	@# The time-zone tests name zones (Asia/Tokyo…): the C library reads tzdata.
	@[ -e /usr/share/zoneinfo/Asia/Tokyo ] || { echo "test: installing tzdata"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tzdata; }
	$(SWIFT) build $(DEBUG) --build-tests
	@# The install test renders the man pages (generate-manual) with man -l.
	$(SWIFT) build $(DEBUG) --product generate-manual
	@command -v man >/dev/null && command -v groff >/dev/null || { echo "test: installing man-db groff-base"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq man-db groff-base; }
	$(SWIFT) test --skip-build
	@# Every benchmark's smoke on the debug build (seconds; installs and builds
	@# nothing, a missing anchor is skipped): a benchmark cannot break silently.
	BIN=.build/debug bench/run --smoke
	@# gif-play in real terminals (kitty, xterm -ti vt340, tmux) under Xvfb;
	@# without those packages it says what to install and passes.
	Tests/terminals/run .build/debug

# The whole suite again with the clock a year ahead (libfaketime on the test
# binary and every tool it starts): a test that reads the wall clock where it
# should give --now fails here (issue 28). Every clock moves together (with
# the monotonic one left behind, libfaketime's timed waits end at once).
FUTURE ?= +365d
test-future: deps
	@command -v faketime >/dev/null || { echo "test-future: installing faketime"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime; }
	$(SWIFT) build $(DEBUG) --build-tests
	$(SWIFT) build $(DEBUG) --product generate-manual
	faketime -f '$(FUTURE)' $(SWIFT) test --skip-build

demo: deps
	@$(RELEASE_BUILD)
	.build/release/sposure demo

# Every benchmark (bench/run: fetch, ndjson, decode, render, pixels, startup) on the
# release build; BENCH_ARGS=--quick for a short run, --enforce to fail on a bar
# (make test runs bench/run --smoke on the debug build).
BENCH_ARGS ?=
bench: build
	bench/run $(BENCH_ARGS)

# Fuzzes the GIF engine (libFuzzer + AddressSanitizer) for FUZZ_TIME seconds.
fuzz: deps
	fuzz/run --time $(FUZZ_TIME)

install: build
	@$(MAKE) --no-print-directory install-built BIN=.build/release

# The man pages of the tools in BIN, into $(MAN_BUILD) (remade whole each time).
man: $(MANUAL_TOOL)
	rm -rf $(call quote,$(MAN_BUILD)) && mkdir -p $(call quote,$(MAN_BUILD))
	for tool in $(TOOLS); do \
	  $(call quote,$(MANUAL_TOOL)) $(call quote,$(BIN))/$$tool --multi-page --date $(MAN_DATE) \
	    --output-directory $(call quote,$(MAN_BUILD)) || exit 1; \
	done

.build/release/generate-manual:
	@$(SWIFT) build $(RELEASE) --product generate-manual 2>&1 | { grep -av "use of .mktemp. is dangerous" || true; }

.build/debug/generate-manual:
	$(SWIFT) build $(DEBUG) --product generate-manual

# Installs the tools already built in BIN (stripped), their man pages and
# completions: what `make install` does after the release build, and what the
# install test runs on the debug build. It lists what it put where in
# PREFIX/share/sposure/installed.txt, and refuses, before writing anything, to
# replace a file that is not sposure's unless FORCE=1 (scripts/install).
install-built: man
	scripts/install install --prefix $(call quote,$(PREFIX)) --destdir $(call quote,$(DESTDIR)) \
	  --bin $(call quote,$(BIN)) --man $(call quote,$(MAN_BUILD)) $(if $(filter-out 0,$(FORCE)),--force) $(TOOLS)

# Removes exactly the files the manifest lists, the manifest, and the folders
# install made when they are left empty; nothing without a manifest.
uninstall:
	scripts/install uninstall --prefix $(call quote,$(PREFIX)) --destdir $(call quote,$(DESTDIR))

clean:
	rm -rf .build
