"""Running the server for real: metrics, logs, graceful restarts and housekeeping (docs/operating.md)."""
