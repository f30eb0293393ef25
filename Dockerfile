# 1001 online: one app process (uvicorn) per container. docker-compose.yml runs two of them behind Caddy.
#
# Two stages. `build` installs the runtime dependencies (the exact versions of the lock file; `make lock`
# refreshes it) into a virtual environment and trims it: llvmlite's LLVM library loses its symbol table
# (179 -> 160 MB; not numpy's bundled libraries, which a strip breaks) and numpy, numba and llvmlite
# their own test suites. The image takes
# only that environment, so binutils and pip's work stay behind.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY deploy/requirements.lock /tmp/requirements.lock
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends binutils >/dev/null \
 && python -m venv /opt/venv \
 && /opt/venv/bin/pip install -r /tmp/requirements.lock && /opt/venv/bin/pip check \
 && cd /opt/venv/lib/python3.11/site-packages \
 && strip --strip-unneeded llvmlite/binding/libllvmlite.so \
 && rm -rf numba/tests llvmlite/tests \
 && find numpy -depth -type d -name tests -exec rm -rf {} +

FROM python:3.11-slim
# The code runs from /app and only from there: `backend` is not installed into site-packages, so
# backend/settings.py finds /app/frontend and /app/data from any working directory.
# FRONTEND_RELOAD=0: the client in the image never changes, so it is built once at start.
# numba's cache of the search core (backend/search) is filled below, as the user that runs the app, in
# NUMBA_CACHE_DIR (the in-tree __pycache__ is not that user's to write, and numba uses only a cache
# directory it can write). numba keys a cached function to its source file (path, time, size) and to
# the CPU it was compiled for: compiled for x86-64-v2 (every x86-64 server since about 2009) with no
# further features, the cache made where the image is built serves every machine it runs on.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PYTHONPATH=/app PATH=/opt/venv/bin:$PATH \
    MIGRATE=1 FRONTEND_RELOAD=0 \
    NUMBA_CACHE_DIR=/app/numba-cache NUMBA_CPU_NAME=x86-64-v2 NUMBA_CPU_FEATURES=""
WORKDIR /app

COPY --from=build /opt/venv /opt/venv
RUN useradd --create-home --uid 1001 app && mkdir -p /app/data /app/numba-cache \
 && chown app /app/data /app/numba-cache

COPY alembic.ini ./
COPY migrations ./migrations
COPY frontend ./frontend
COPY backend ./backend
# The app's bytecode compiled once here (PYTHONDONTWRITEBYTECODE: a running process writes none, so
# without it every start, worker and health check would compile the sources again).
RUN python -m compileall -q backend migrations

USER app
# The search core compiled into numba's cache, so that a container's first computer move loads it
# (about a second) instead of compiling it (about 20 s of CPU).
RUN python -m backend.search
# SQLite's default database (DATABASE_URL unset) lives here; a volume keeps it across containers.
VOLUME ["/app/data"]
EXPOSE 8000
# GET /api/health (200 once the database answers); the image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "backend.serve", "--health-check", "--port", "8000"]
# MIGRATE=1 (the default): `alembic upgrade head`, then serve; MIGRATE=0 serves only. The uvicorn
# options (WebSocket ping, frame size, no deflate) live in backend/serve.py, shared with `make run`.
CMD ["python", "-m", "backend.serve", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
