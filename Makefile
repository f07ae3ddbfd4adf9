# Tandem: the two commands a newcomer runs are `make demo` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

.PHONY: demo test bench fuzz deps test-swift test-matrix shellcheck

## demo: the whole story of an app and its widget in eleven stages, against a real server: signed out, the host's
## onboarding flow, brokered rows, stale and fresh again, direct mode and a single-flight race, a tap counted by the
## server, a data change pushed to the widget through the local APNs stand-in, a revoked session and the restore flow, an approval from the widget executed by the host (and a high-value one after step-up), and the customer's own backend per user (a Django REST Framework ERP, installed from PyPI into a virtualenv: two phones, each user's own approvals, one approved under that user's name, a refused user told "not allowed"). Ends with a table; exits non-zero naming a stage that failed.
## It builds with make test's flags (TEST_BUILD_FLAGS), so after make test it only links.
demo: deps
	cd Server && swift build --product tandem $(TEST_BUILD_FLAGS) && swift build --product tandem-widget $(TEST_BUILD_FLAGS)
	scripts/demo-story.sh Server/.build/debug/tandem Server/.build/debug/tandem-widget

## test: every test of the SDK and of the server package, the server's pytest suites (Server/Tests/HTTPConformance:
## the HTTP contract against Server/openapi.yaml, with schemathesis; Server/Tests/SecurityProbes: the security reviews'
## attacks on a running server, one module per finding; Server/Tests/Browser: the widget gallery, SSO, the cockpit and
## the account page in headless Chromium; Server/Tests/RepositoryRules: every import declared, Apple-only code in Apple/
## folders and parsing, every required-reason API call declared in its module's privacy manifest, every App Intent that
## decides an item requiring an unlocked device), `tandem generate`
## against the demo server (the generated AppCore package built and tested), shellcheck over every shell script. The
## pytest suites run beside the Swift tests; their output is in Server/.build/pytest.log, and its summary (or all of it,
## on a failure) is printed at the end. The phone day's matrix runs last, alone (test-matrix).
test: deps shellcheck
	@scripts/ensure-deps.sh --python  # now, not beside another apt-get
	swift build --product TandemPackageTests --scratch-path "$(SCRATCH)" $(TEST_BUILD_FLAGS)
	cd Server && swift build --product TandemServerPackageTests $(TEST_BUILD_FLAGS)
	swift build --package-path Fuzz --product tandem-fuzz --scratch-path "$(SCRATCH)" $(TEST_BUILD_FLAGS)
	scripts/run-beside.sh "$(SCRATCH)/pytest.log" scripts/pytest.sh Server/.build/debug/tandem -- $(MAKE) --no-print-directory test-swift
	$(MAKE) --no-print-directory test-matrix

# The SDK's tests build into the server package's scratch folder, and so do the generated AppCore and the
# fuzz package's corpus replay: the SDK's modules and their dependencies are compiled once for all four
# packages, not four times.
# Each package builds its test product (which brings the executables its tests run, tandem, tandem-widget and
# VaultRewrapLoop), not `--build-tests`: that would also build the executables and plugin tools of the dependencies
# (Hummingbird's PerformanceTest, ArgumentParser's generate-manual twice, GRDB's dynamic library), which nothing runs.
# Between them the two test products reach every target of both packages.
# The pytest suites run beside the Swift runs (which share that folder's lock, so they take turns).
SCRATCH := $(CURDIR)/Server/.build
# The test builds carry no debug information (Swift and C), and no XCTest (every test is Swift
# Testing). The index store stays: SwiftPM's test discovery reads it. Every build sharing SCRATCH
# passes the same flags, or it would rebuild the rest.
TEST_BUILD_FLAGS := -Xswiftc -gnone -Xcc -g0 --disable-xctest
export TANDEM_SWIFT_BUILD_FLAGS := $(TEST_BUILD_FLAGS)

test-swift:
	"$(SCRATCH)/debug/tandem-fuzz" --replay Fuzz/Corpus
	@# The adapters' examples (AdapterExamples/, compiled against iOS by the iOS type-check) parse here.
	swiftc -parse AdapterExamples/Sources/*/*.swift
	swift test --skip-build --disable-xctest --scratch-path "$(SCRATCH)"
	cd Server && ../scripts/with-postgres.sh swift test --skip-build --disable-xctest --skip "$(MATRIX_TEST)"
	TANDEM_SCRATCH_PATH="$(SCRATCH)" scripts/check-generate.sh Server/.build/debug/tandem

# The phone day's matrix (120 real days, about 80 s of CPU on a debug build: every day is the SDK's and the
# server's own code) runs last and alone, so that its time is its own (41–46 s on 2 quiet cores) and not
# stretched by every other suite sharing the cores; its test's line says how long it took.
MATRIX_TEST := SimulateDayTests/theMatrixKeepsTheRules
test-matrix:
	cd Server && swift test --skip-build --disable-xctest --filter "$(MATRIX_TEST)"

## bench: release builds; the SDK's benchmarks (Benchmarks/, on ordo-one/benchmark: the vault
## against plain GRDB and SQLCipher on the same rows, as ratios taken within each of five runs of
## the vault's benchmarks, judged by their median; sealed
## records, the widget timeline, the brokered round trip and the refresh single flight in process,
## with time and allocations), the server under wrk on SQLite and PostgreSQL (refresh grants, bearer
## and DPoP-bound, a protected GET, /health), then the extension paths that need real processes (8-process refresh
## vs one, the widget process's memory, the long-running host), pushes through the local APNs stand-in (a data
## change to the widget's new entry; the provider's pushes per second), and widget actions (a tap on Approve to its
## result in the shared container, with the host running; the host's part of it), and a customer's backend through the
## server against the same backend directly (the Django REST Framework service: a cache miss's p50, a 304 cache hit's rate
## against /health).
## tandem-widget is built on its own, with the Swift runtime linked in statically as a shipped Linux binary is.
## With BASELINE=<commit> (make bench BASELINE=main): only the server's measurements, for this tree's release tandem
## and that commit's (built once, kept in Server/.build-baseline/<hash>/), alternately in one run (BENCH_ROUNDS rounds,
## default 2), each figure side by side with their ratio and a verdict against BENCH_TOLERANCE (percent, default 5),
## then issue 43's goal ratios for both (scripts/bench-baseline.sh).
BASELINE ?=
ifneq ($(BASELINE),)
bench: deps
	scripts/bench-baseline.sh "$(BASELINE)"
else
bench: deps
	@scripts/ensure-deps.sh --bench
	rm -rf Benchmarks/.build/bench-results
	cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --format jmh --path .build/bench-results --no-progress
	cd Benchmarks && for run in 2 3 4 5; do echo "vault benchmarks: run $$run of 5"; \
		swift package --allow-writing-to-package-directory benchmark --target VaultBenchmarks --filter '(Vault|GRDB) (set|get)( ×10)?' \
			--format jmh --path .build/bench-results/run-$$run --no-progress >/dev/null || exit 1; done
	cd Benchmarks && swift run -c release BenchmarkRatios .build/bench-results/*.jmh.json .build/bench-results/run-*/*.jmh.json
	cd Server && swift build -c release --product tandem
	cd Server && swift build -c release --product tandem-widget --static-swift-stdlib --scratch-path .build-widget
	scripts/bench-server.sh Server/.build/release/tandem
	scripts/bench-extension.sh Server/.build/release/tandem Server/.build-widget/release/tandem-widget
	scripts/bench-push.sh Server/.build/release/tandem
	scripts/bench-actions.sh Server/.build/release/tandem Server/.build-widget/release/tandem-widget
	scripts/bench-backend.sh Server/.build/release/tandem
endif

## fuzz: every fuzz target of Fuzz/ (the SDK's parsers of bytes an attacker controls: shared-container records,
## deep links, SSO links, token responses, the wire encodings) under libFuzzer with AddressSanitizer, FUZZ_SECONDS
## each (default 600; FUZZ_TARGETS="sso-link deep-link" for some), on the committed seeds and a working corpus kept in
## Fuzz/.build-fuzz, with the target's dictionary Fuzz/Dictionaries/<target>.dict (required). Prints executions, corpus
## size and crashes per target; fails if any input crashed (saved in Fuzz/.build-fuzz/crashes/<target>/, and counted
## again until removed).
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Every shell script in the repository (.shellcheckrc follows `source`).
shellcheck:
	scripts="$$(git ls-files '*.sh')" && shellcheck $$scripts .ci/run

deps:
	@scripts/ensure-deps.sh
