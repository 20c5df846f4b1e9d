# Citizen-services platform: the two commands are `make run` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo

.PHONY: run test browser faults soak lint fmt bench fuzz check-layering supply-chain schemathesis deploy-check toolchain help

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

run: toolchain ## Build and start every service on its embedded defaults (SQLite, in-process broker)
	@scripts/run-local.sh

test: toolchain ## Run every test; PostgreSQL/MQTT tests skip (and say so) when those services are unreachable
	@rm -f target/test-skips.txt
	$(CARGO) test --workspace --all-targets --locked
	@scripts/browser-tests.sh
	@scripts/report-skips.sh

browser: toolchain ## The browser suite (tests/browser): Playwright with Debian's Chromium against the three services it starts; skips (and says so) without them
	@rm -f target/test-skips.txt
	@scripts/browser-tests.sh
	@scripts/report-skips.sh

faults: toolchain ## The fault suite (docs/operations.md): citizen-api under a database restart, a killed broker, SIGTERM; needs PostgreSQL's server binaries and Mosquitto, not their services
	@rm -f target/test-skips.txt
	$(CARGO) test --workspace --test faults --locked -- --nocapture
	@scripts/report-skips.sh

soak: toolchain ## citizen-api for SOAK_MINUTES (30) at half its measured capacity on PostgreSQL: RSS, open files, pool, p99 flat (docs/benchmarks.md); not in CI
	@scripts/soak-citizen.sh

lint: toolchain ## rustfmt check (the macro bodies too) and clippy with warnings as errors
	$(CARGO) fmt --all -- --check
	@scripts/fmt-macro-bodies.py --self-test
	@scripts/fmt-macro-bodies.py --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	$(CARGO) clippy --workspace --test faults --locked -- -D warnings

fmt: ## Format the workspace, the bodies of the both_backends! calls included
	$(CARGO) fmt --all
	@scripts/fmt-macro-bodies.py

check-layering: ## The domain crate does no I/O; citizen-api keeps routes -> app -> store -> domain
	@scripts/check-layering.sh

supply-chain: ## cargo-deny: advisories (the snapshot in ../shared/advisory-db), licences, sources (deny.toml)
	@scripts/check-supply-chain.sh

bench: toolchain ## Benchmarks (see docs/benchmarks.md); needs PostgreSQL with PostGIS for the PostgreSQL half
	@scripts/bench.sh

fuzz: toolchain ## Fuzz the photo metadata strippers (cargo-fuzz, FUZZ_SECONDS=60 per target); not in CI
	@scripts/fuzz.sh

schemathesis: toolchain ## Property-based API tests against each service's own OpenAPI description
	@scripts/schemathesis.sh

deploy-check: ## Lint, render and validate the Helm charts, Dockerfile and proxy config
	@bash deploy/check.sh

toolchain: ## Check for what the build needs beyond cargo (a C compiler for SQLite and ring)
	@scripts/ensure-toolchain.sh
