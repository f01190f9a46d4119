# Sposure: `make demo` plays what the package can do, `make test` checks it.
# Both install the C libraries they need first (`make deps`).

PREFIX ?= /usr/local
FUZZ_TIME ?= 300
SWIFT ?= swift
TOOLS := giphy-pages fetch-images gif-play score
DEV_PACKAGES := libcurl4-openssl-dev libgif-dev libjansson-dev libssl-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Release builds link the Swift runtime and FoundationEssentials (the tools
# use no more of Foundation) into each tool: score starts in about 4 ms instead
# of 6 with them shared (no dynamic linking of ~12 libraries' symbols at every
# run; bench/startup), for 15-20 MB a tool once stripped.
RELEASE := -c release --static-swift-stdlib
# FoundationEssentials' static archive calls mktemp(3), and glibc has the
# linker warn about it at every link of every tool: noise about code that is
# not ours, dropped from the release build's output (nothing else is).
SHELL := /bin/bash
RELEASE_BUILD := echo "$(SWIFT) build $(RELEASE)"; set -o pipefail; $(SWIFT) build $(RELEASE) 2>&1 | { grep -av "use of .mktemp. is dangerous" || true; }

.PHONY: all deps build debug test demo bench fuzz install uninstall clean

all: build

# Installs the -dev packages when pkg-config cannot find the libraries.
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl libgif jansson libcrypto; then \
	  echo "deps: libcurl, giflib, jansson and libcrypto found"; \
	else \
	  echo "deps: installing $(DEV_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEV_PACKAGES); \
	fi

build: deps
	@$(RELEASE_BUILD)

debug: deps
	$(SWIFT) build

test: deps
	@# The time-zone tests name zones (Asia/Tokyo…): the C library reads tzdata.
	@[ -e /usr/share/zoneinfo/Asia/Tokyo ] || { echo "test: installing tzdata"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tzdata; }
	# make build and make demo build every target in release, where the testing
	# library is absent: the test helpers must build there too.
	$(SWIFT) build -c release --target TestSupport
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: deps
	@$(RELEASE_BUILD)
	SPOSURE_BIN=$(CURDIR)/.build/release pipelines/demo

# Every benchmark (bench/run: fetch, ndjson, decode, render, startup) on the
# release build; BENCH_ARGS=--quick for a smoke test, --enforce to fail on a bar.
BENCH_ARGS ?=
bench: build
	bench/run $(BENCH_ARGS)

# Fuzzes the GIF engine (libFuzzer + AddressSanitizer) for FUZZ_TIME seconds.
fuzz: deps
	fuzz/run --time $(FUZZ_TIME)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	for tool in $(TOOLS); do \
	  install -s -m 755 .build/release/$$tool $(DESTDIR)$(PREFIX)/bin/$$tool && \
	  .build/release/$$tool --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$tool && \
	  .build/release/$$tool --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$tool && \
	  .build/release/$$tool --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$tool.fish; \
	done

uninstall:
	for tool in $(TOOLS); do \
	  rm -f $(DESTDIR)$(PREFIX)/bin/$$tool \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$tool \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$tool \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$tool.fish; \
	done

clean:
	rm -rf .build
