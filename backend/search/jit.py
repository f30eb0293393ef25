"""One source, two ways to run it: compiled by numba (``njit(cache=True)``) or as plain Python.

Every function of ``backend.search``'s core is written once, in the subset of Python that numba
compiles, and decorated with ``jit``. By default ``jit`` is ``numba.njit(cache=True)``: compiled on
first use (or, with a signature, when its module is imported) and kept in numba's cache on disk, so a
process that finds the cache filled loads the machine code instead of compiling it. With the
environment variable ``THOUSAND_NO_JIT=1`` (read once, at import) ``jit`` returns the function
unchanged: the same code runs as plain Python, which ``tests/search/test_core.py`` proves gives the
same values, moves and node counts.

Two pitfalls of numba 0.68 shape the core (found by crashes, see docs/bots.md):

* a recursive function gets an explicit signature (compiled eagerly): a cached caller of a lazily
  compiled recursive function crashes when it is loaded from the cache;
* a recursive call passes typed variables, never a literal (``-1``): a literal argument makes numba
  compile a second, uncached version of the function.

``jit`` is typed as returning the function it is given (numba's dispatcher cast to it), so mypy
checks the core as ordinary Python.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["COMPILED", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

COMPILED = os.environ.get("THOUSAND_NO_JIT", "") not in ("1", "true", "yes")


def jit(signature: str | None = None) -> Callable[[F], F]:
    """``numba.njit(signature, cache=True)``, or nothing at all under ``THOUSAND_NO_JIT=1``."""
    if not COMPILED:
        return lambda f: f
    import numba

    def compile_(f: F) -> F:
        if signature is None:
            return cast(F, numba.njit(cache=True, nogil=True)(f))
        return cast(F, numba.njit(signature, cache=True, nogil=True)(f))

    return compile_
