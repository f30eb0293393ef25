# 1001 online: one app process (uvicorn) per container. docker-compose.yml runs two of them behind nginx.
FROM python:3.11-slim

# The code runs from /app and only from there: `backend` is not installed into site-packages, so
# backend/settings.py finds /app/frontend and /app/data from any working directory.
# FRONTEND_RELOAD=0: the client in the image never changes, so it is built once at start.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MIGRATE=1 FRONTEND_RELOAD=0
WORKDIR /app

# Runtime dependencies only, at the exact versions of the lock file (`make lock` refreshes it).
COPY deploy/requirements.lock /tmp/requirements.lock
RUN pip install -r /tmp/requirements.lock && pip check && rm /tmp/requirements.lock \
 && useradd --create-home --uid 1001 app && mkdir -p /app/data && chown app /app/data

COPY alembic.ini ./
COPY migrations ./migrations
COPY frontend ./frontend
COPY backend ./backend

USER app
# SQLite's default database (DATABASE_URL unset) lives here; a volume keeps it across containers.
VOLUME ["/app/data"]
EXPOSE 8000
# GET /api/health (200 once the database answers); the image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "backend.serve", "--health-check", "--port", "8000"]
# MIGRATE=1 (the default): `alembic upgrade head`, then serve; MIGRATE=0 serves only. The uvicorn
# options (WebSocket ping, frame size, no deflate) live in backend/serve.py, shared with `make run`.
CMD ["python", "-m", "backend.serve", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
