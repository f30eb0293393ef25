"""``python -m backend.admin …``: the operator's commands (docs/operating.md)."""
