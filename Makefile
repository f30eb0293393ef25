# `make run` and `make test` create their own virtual environment in .venv.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers; each takes a run of consecutive tests (a file's module fixtures mostly start once) and steals more when done.
TEST_WORKERS ?= 2

.PHONY: run test lint codegen bench migrate lock clean

$(BIN)/activate: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "need $(PYTHON) (set PYTHON=python3 to use another)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/activate

migrate: $(BIN)/activate
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/python -m backend.serve --host $(HOST) --port $(PORT)

test: $(BIN)/activate
	$(BIN)/ruff check backend tests bench migrations
	$(BIN)/ruff format --check backend tests bench migrations
	$(BIN)/mypy --strict backend
	# the search core compiled into numba's cache once, so that no pytest worker compiles it again
	$(BIN)/python -m backend.search
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: $(BIN)/activate
	$(BIN)/ruff check backend tests bench migrations
	$(BIN)/ruff format --check backend tests bench migrations
	$(BIN)/mypy --strict backend
	$(BIN)/python -m backend.api.codegen --check

# The client's frontend/js/generated/protocol.js, from the server's codes and RoomCreate.
codegen: $(BIN)/activate
	$(BIN)/python -m backend.api.codegen

# deploy/requirements.lock, installed by the Dockerfile: the runtime dependencies of pyproject.toml
# resolved afresh (newest versions allowed by pyproject.toml) at exact versions. Review the diff, rebuild.
lock: $(BIN)/activate
	$(BIN)/pip install --quiet --dry-run --ignore-installed --report - . | $(BIN)/python deploy/lock.py > deploy/requirements.lock.new
	mv deploy/requirements.lock.new deploy/requirements.lock

bench: $(BIN)/activate
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
