"""The targets of ``tact-memory bench`` and the verdict on one set of measured figures.

A verdict is computed from the figures alone, so it can be checked without timing anything:
each target is a ratio measured in one run, or an absolute bound where no baseline makes sense
(the package's own import time). A target whose figure was not measured is neither met nor
missed; ``--check`` fails only on a missed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Verdict", "verdicts"]


@dataclass(frozen=True)
class Verdict:
    """One target: its measured value against its bound (``value`` is None when not measured)."""

    name: str
    what: str
    value: float | None
    bound: float
    unit: str
    at_least: bool = False
    """The bound is a floor (throughput) rather than a ceiling (time)."""

    @property
    def met(self) -> bool | None:
        """True or False; None when the figure was not measured."""
        if self.value is None:
            return None
        return self.value >= self.bound if self.at_least else self.value <= self.bound

    def line(self) -> str:
        """``target <name>: <value> (bound) met|missed|not measured``."""
        if self.value is None:
            return f"target {self.name:<18} not measured  ({self.what}; bound {self.bound:g}{self.unit})"
        state = "met" if self.met else "MISSED"
        sign = ">=" if self.at_least else "<="
        return f"target {self.name:<18} {self.value:.2f}{self.unit} {sign} {self.bound:g}{self.unit}  {state}  ({self.what})"

    def to_json(self) -> dict[str, object]:
        """The ``--json`` form."""
        return {
            "name": self.name, "what": self.what, "value": self.value, "bound": self.bound, "unit": self.unit,
            "at_least": self.at_least, "met": self.met,
        }  # fmt: skip


def _ratio(figures: Mapping[str, float | None], top: str, bottom: str) -> float | None:
    a, b = figures.get(top), figures.get(bottom)
    if a is None or b is None or b <= 0:
        return None
    return round(a / b, 3)


def verdicts(figures: Mapping[str, float | None]) -> list[Verdict]:
    """The verdict on every target from measured figures (milliseconds unless named otherwise).

    Keys read: ``scan_p50_ms``, ``rank_p50_ms``, ``fts5_wal_scan_p50_ms``, ``own_write_scan_p50_ms``,
    ``own_write_warm_scan_p50_ms``,
    ``put_p95_ms``, ``replace_p95_ms``, ``delete_p95_ms``, ``fdatasync_ms``, ``index_update_ms``,
    ``import_own_ms``, ``tool_cold_ratio``, ``hook_cold_ratio``, ``scans_per_s_4``,
    ``locked_scans_per_s_4``. A missing or None key is "not measured".
    """
    out = [
        Verdict("scan/rank", "scan p50 at capacity over the ranking alone", _ratio(figures, "scan_p50_ms", "rank_p50_ms"), 1.2, "x"),
        Verdict(
            "scan/fts5-wal",
            "scan p50 over FTS5 in WAL/NORMAL doing the same work",
            _ratio(figures, "scan_p50_ms", "fts5_wal_scan_p50_ms"),
            1.0,
            "x",
        ),
        Verdict(
            "own-write/warm",
            "first scan after the process's own write over the same scan after a write elsewhere (p50)",
            _ratio(figures, "own_write_scan_p50_ms", "own_write_warm_scan_p50_ms"),
            1.1,
            "x",
        ),
    ]
    out.append(
        Verdict(
            "4-process scans/s",
            "scans/s of 4 processes over the lock-holding design (FTS5 scanning inside BEGIN IMMEDIATE at DELETE/EXTRA)",
            _ratio(figures, "scans_per_s_4", "locked_scans_per_s_4"),
            3.0,
            "x",
            at_least=True,
        )
    )
    sync, index = figures.get("fdatasync_ms"), figures.get("index_update_ms")
    budget = None if sync is None or sync <= 0 else 3 * sync + (index or 0.0)
    for op in ("put", "replace", "delete"):
        p95 = figures.get(f"{op}_p95_ms")
        value = None if p95 is None or budget is None else round(p95 / budget, 3)
        out.append(Verdict(f"{op} p95", "p95 over 3 fdatasyncs of this disk plus the index update", value, 1.0, "x"))
    out.append(Verdict("import (own)", "self time of tact_memory modules under -X importtime", figures.get("import_own_ms"), 30.0, " ms"))
    out.append(Verdict("tool cold", "cold `tact-memory tool` scan over `python -c pass`", figures.get("tool_cold_ratio"), 6.0, "x"))
    out.append(Verdict("hook cold", "cold prompt hook over `python -c pass`", figures.get("hook_cold_ratio"), 3.0, "x"))
    return out
