"""Import time of ``tact_memory`` as ``python -X importtime`` reports it.

Subtracting the wall time of two interpreters gives noise, sometimes below zero. ``-X importtime``
instead prints, for every module, its own time (``self``) and that of everything it imported
(``cumulative``). The package's own share is the sum of the self times of the modules named
``tact_memory`` or ``tact_memory.*``; what it pulls in from the standard library and third parties
is the ``tact_memory`` cumulative minus that share. Both are sums of non-negative figures.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from dataclasses import dataclass

__all__ = ["ImportTime", "measure_import", "parse_importtime"]

_LINE = re.compile(r"^import time:\s+(\d+)\s*\|\s*(\d+)\s*\|(\s*)(\S+)\s*$")


@dataclass(frozen=True)
class ImportTime:
    """Milliseconds: ``total`` is the cumulative of ``tact_memory``; ``own`` the package's self times."""

    total_ms: float
    own_ms: float

    @property
    def dependencies_ms(self) -> float:
        """What the package's import spends in standard-library and third-party modules."""
        return round(max(0.0, self.total_ms - self.own_ms), 3)


def parse_importtime(text: str, package: str = "tact_memory") -> ImportTime:
    """Read ``-X importtime`` output (stderr) for ``package``.

    Raises:
        ValueError: the output has no line for ``package`` itself.
    """
    own_us = 0
    total_us: int | None = None
    for line in text.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        self_us, cumulative_us, name = int(match[1]), int(match[2]), match[4]
        if name == package or name.startswith(package + "."):
            own_us += self_us
        if name == package:
            total_us = cumulative_us if total_us is None else max(total_us, cumulative_us)
    if total_us is None:
        raise ValueError(f"no `-X importtime` line for {package!r}")
    return ImportTime(total_ms=round(total_us / 1000, 3), own_ms=round(own_us / 1000, 3))


def measure_import(runs: int = 5, package: str = "tact_memory", *, env: dict[str, str] | None = None) -> ImportTime:
    """Median over ``runs`` fresh interpreters (run in ``env``, after one that is not counted) of
    :func:`parse_importtime`."""
    seen = []
    for run in range(runs + 1):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {package}"],
            check=True, capture_output=True, text=True, env=env,
        )  # fmt: skip
        if run:
            seen.append(parse_importtime(done.stderr, package))
    return ImportTime(
        total_ms=round(statistics.median(t.total_ms for t in seen), 3),
        own_ms=round(statistics.median(t.own_ms for t in seen), 3),
    )
