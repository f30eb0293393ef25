"""``python -m backend.search``: compile the search core into numba's cache (or load it) and say how long."""

from __future__ import annotations

from . import COMPILED, warm

if __name__ == "__main__":
    seconds = warm()
    print(f"backend.search: core {'compiled' if COMPILED else 'in plain Python'}, ready in {seconds:.2f} s")
