"""R2 — a seeded shuffle that replays identically on every Python version.

The seed is the only secret: production seeds come from ``secrets`` (see
``new_seed``), and the cards follow from it through SHA-256 in counter mode, so a
recorded seed reproduces its deal exactly. We avoid ``random.Random`` because its
algorithms are not promised to stay the same across Python releases.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 128


def new_seed() -> int:
    """A fresh seed from the operating system's cryptographically secure source."""
    return secrets.randbits(SEED_BITS)


class _SeedStream:
    def __init__(self, seed: int, purpose: str) -> None:
        if type(seed) is not int or seed < 0:
            raise ValueError("seed must be a non-negative integer")
        self._prefix = f"1001:{purpose}:{seed}:".encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            value = int.from_bytes(self._bytes(4), "big")
            if value < limit:
                return value % n


def shuffled(items: list[int], seed: int) -> list[int]:
    """Fisher–Yates shuffle of ``items`` driven by ``seed``."""
    stream = _SeedStream(seed, "shuffle")
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def derive(seed: int, label: str) -> int:
    """A sub-seed for one purpose (a deal number, the first dealer) of a match seed."""
    digest = hashlib.sha256(f"1001:derive:{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[: SEED_BITS // 8], "big")
