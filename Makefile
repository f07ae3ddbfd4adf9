# Tandem: the two commands a newcomer runs are `make demo` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

.PHONY: demo test bench deps test-sdk test-server

## demo: a walkthrough of the Vault from the `tandem` CLI (create, store, open via the SPAK, change passcode)
demo: deps
	cd Server && swift build --product tandem
	scripts/demo-vault.sh Server/.build/debug/tandem

## test: every test of the SDK and of the server package
test: deps test-sdk test-server

test-sdk:
	swift build --build-tests
	swift test

test-server:
	cd Server && swift build --build-tests
	cd Server && ../scripts/with-postgres.sh swift test

## bench: the Vault benchmark, release build (vault vs plain GRDB, SPAK and passcode unlock)
bench: deps
	cd Server && swift build -c release --product tandem
	cd Server && .build/release/tandem bench vault

deps:
	@scripts/ensure-deps.sh
