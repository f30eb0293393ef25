FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY backend ./backend
RUN pip install . && useradd --create-home --uid 1001 app && mkdir -p /app/data && chown app /app/data

COPY alembic.ini ./
COPY migrations ./migrations
COPY frontend ./frontend

USER app
EXPOSE 8000
# Migrate, then serve. DATABASE_URL selects PostgreSQL; the default is SQLite in /app/data.
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn backend.api.app:create_app --factory --host 0.0.0.0 --port 8000 --ws-per-message-deflate false --ws-max-size 65536 --ws-ping-interval 10 --ws-ping-timeout 15 --proxy-headers"]
