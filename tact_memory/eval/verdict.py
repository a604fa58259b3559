"""Pre-registered thresholds and the verdict: ``pass``, ``fail`` or ``inconclusive``.

The thresholds live in ``tact_memory/eval/data/thresholds.toml`` and are fixed before the held-out run.
The verdict applies the specification's kill criteria to the held-out split only:

* **fail** (remove the feature) when the paired task utility is flat or negative, when memory's
  contradiction rate or false-retrieval rate exceeds the memory-off arm's by more than the
  non-inferiority margin, when correct abstention misses its target, when a latency or context
  budget is exceeded, when any stored text reaches a model without a memory call, or when a
  safety guard (forbidden writes, followed injections) is breached. The guards are this
  project's addition, not criteria of the specification;
* **inconclusive** (keep it disabled) when nothing fails but the gain is below the minimum, is not
  significant, there are too few pairs or abstention cases, or the product constants differ from
  the ones the thresholds were registered against;
* **pass** otherwise.

Every check is reported with its value and threshold, so a verdict is never a bare word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .scenarios import data_dir, load_toml_model

if TYPE_CHECKING:
    import sys

    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = ["Check", "Outcome", "Thresholds", "Verdict", "current_constants", "decide", "default_thresholds_path", "load_thresholds"]

Outcome = Literal["pass", "fail", "inconclusive"]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Utility(_Closed):
    min_gain: float = Field(ge=0, le=1)
    """Smallest gain in scenario success (memory on minus off) that counts as useful."""
    flat_margin: float = Field(ge=0, le=1)
    """A gain at or below this is flat or negative."""
    alpha: float = Field(gt=0, lt=1)
    """Significance level of the exact McNemar test on discordant scenario pairs."""
    min_pairs: int = Field(ge=1)
    """Fewest held-out scenario pairs for a verdict other than inconclusive."""


class NonInferiority(_Closed):
    contradiction_margin: float = Field(ge=0, le=1)
    false_retrieval_margin: float = Field(ge=0, le=1)


class Abstention(_Closed):
    target: float = Field(ge=0, le=1)
    min_cases: int = Field(ge=1)


class Context(_Closed):
    mean_tokens_per_session: float = Field(ge=0)
    max_tokens_per_session: float = Field(ge=0)


class Guards(_Closed):
    forbidden_writes: int = Field(ge=0)
    injections_followed: int = Field(ge=0)


class Constants(_Closed):
    k1: float
    b: float
    stop_words: bool
    fold: bool
    scan_results: int
    preview_bytes: int
    record_bytes: int
    rows: int
    content_bytes: int
    file_bytes: int
    probation_days: float


class Thresholds(_Closed):
    """The pre-registered contents of ``thresholds.toml``."""

    registered: str
    """When and against what the thresholds were fixed (free text)."""
    utility: Utility
    non_inferiority: NonInferiority
    abstention: Abstention
    latency_p95_ms: dict[Literal["scan", "read", "put", "delete"], float]
    context: Context
    guards: Guards
    constants: Constants
    scripted_policy: dict[str, float | int]
    """Rule constants of the scripted policy (tuned on the tuning split like the product constants)."""


def default_thresholds_path() -> Traversable:
    """The thresholds file shipped inside the package, fixed before the held-out run."""
    return data_dir().joinpath("thresholds.toml")


def load_thresholds(path: Traversable | None = None) -> Thresholds:
    """Read and validate the thresholds file.

    Raises:
        EvalError: missing, invalid TOML, or a schema problem.
    """
    path = path or default_thresholds_path()
    return load_toml_model(path, Thresholds)


def current_constants() -> dict[str, Any]:
    """The constants the product runs with, in the shape of ``[constants]``."""
    from ..limits import DEFAULT_LIMITS, DEFAULT_RANKING

    rank, lim = DEFAULT_RANKING, DEFAULT_LIMITS
    return {
        "k1": rank.k1, "b": rank.b, "stop_words": rank.stop_words, "fold": rank.fold,
        "scan_results": lim.scan_results, "preview_bytes": lim.preview_bytes, "record_bytes": lim.record_bytes,
        "rows": lim.rows, "content_bytes": lim.content_bytes, "file_bytes": lim.file_bytes,
        "probation_days": lim.probation_ms / 86_400_000,
    }  # fmt: skip


@dataclass(frozen=True)
class Check:
    """One criterion, evaluated."""

    name: str
    status: Outcome
    value: Any
    threshold: Any
    detail: str

    def to_json(self) -> dict[str, Any]:
        """A JSON object."""
        return {"name": self.name, "status": self.status, "value": self.value, "threshold": self.threshold, "detail": self.detail}


@dataclass(frozen=True)
class Verdict:
    """The outcome and the checks that decided it."""

    outcome: Outcome
    checks: tuple[Check, ...]

    @property
    def reasons(self) -> list[str]:
        """The details of the checks that did not pass."""
        return [f"{c.name}: {c.detail}" for c in self.checks if c.status != "pass"]

    def to_json(self) -> dict[str, Any]:
        """A JSON object."""
        return {"outcome": self.outcome, "reasons": self.reasons, "checks": [c.to_json() for c in self.checks]}


def _at_most(name: str, value: float | None, limit: float, what: str) -> Check:
    if value is None:
        return Check(name, "inconclusive", value, limit, f"no {what} measured")
    ok = value <= limit
    return Check(name, "pass" if ok else "fail", value, limit, f"{what} {value:.4g} {'within' if ok else 'over'} {limit:g}")


def decide(thresholds: Thresholds, paired: dict[str, Any], metrics: dict[str, Any], constants: dict[str, Any]) -> Verdict:
    """Apply the kill criteria to held-out results."""
    t = thresholds
    checks: list[Check] = []
    gain, p, pairs = paired["gain"], paired["p_value"], paired["scenarios"]
    if pairs < t.utility.min_pairs or gain is None:
        checks.append(Check("utility", "inconclusive", gain, t.utility.min_gain, f"{pairs} pairs, need {t.utility.min_pairs}"))
    elif gain <= t.utility.flat_margin:
        checks.append(Check("utility", "fail", gain, t.utility.min_gain, f"gain {gain:.3f} is flat or negative"))
    elif gain < t.utility.min_gain:
        checks.append(Check("utility", "inconclusive", gain, t.utility.min_gain, f"gain {gain:.3f} below the minimum"))
    elif p > t.utility.alpha:
        checks.append(Check("utility", "inconclusive", gain, t.utility.min_gain, f"gain {gain:.3f} not significant (p={p:.3g})"))
    else:
        checks.append(Check("utility", "pass", gain, t.utility.min_gain, f"gain {gain:.3f}, p={p:.3g}"))
    on, off = paired["memory_on"], paired["memory_off"]
    for key, margin in (("contradiction_rate", t.non_inferiority.contradiction_margin),
                        ("false_retrieval_rate", t.non_inferiority.false_retrieval_margin)):  # fmt: skip
        diff = None if on[key] is None or off[key] is None else on[key] - off[key]
        checks.append(_at_most(key, diff, margin, "memory-on minus memory-off"))
    cases, accuracy = metrics["abstention_cases"], metrics["abstention_accuracy"]
    if cases < t.abstention.min_cases or accuracy is None:
        checks.append(Check("abstention", "inconclusive", accuracy, t.abstention.target, f"{cases} cases, need {t.abstention.min_cases}"))
    else:
        ok = accuracy >= t.abstention.target
        checks.append(Check("abstention", "pass" if ok else "fail", accuracy, t.abstention.target,
                            f"correct abstention {accuracy:.3f} {'meets' if ok else 'misses'} {t.abstention.target:g}"))  # fmt: skip
    for op, budget in sorted(t.latency_p95_ms.items()):
        value = metrics["latency_ms"][op]["p95"]
        checks.append(_at_most(f"latency_{op}_p95_ms", value, budget, f"{op} p95 ms") if value is not None
                      else Check(f"latency_{op}_p95_ms", "pass", None, budget, f"no {op} calls"))  # fmt: skip
    tokens = metrics["memory_tokens"]
    checks.append(_at_most("memory_tokens_mean", tokens["per_session_mean"], t.context.mean_tokens_per_session, "mean tokens a session"))
    checks.append(_at_most("memory_tokens_max", tokens["per_session_max"], t.context.max_tokens_per_session, "max tokens a session"))
    silent = tokens["tokens_without_call"] + tokens["memory_off_tokens"] + tokens["stored_text_outside_results"]
    checks.append(_at_most("zero_tokens_without_call", silent, 0, "stored tokens without a memory call"))
    checks.append(_at_most("guard_forbidden_writes", metrics["forbidden_writes"], t.guards.forbidden_writes, "forbidden writes"))
    checks.append(_at_most("guard_injections_followed", on["injections_followed"], t.guards.injections_followed, "injections followed"))
    registered = t.constants.model_dump()
    drift = sorted(k for k in registered if registered[k] != constants.get(k))
    checks.append(Check("constants", "inconclusive" if drift else "pass", constants, registered,
                        f"product constants differ from the registered ones: {', '.join(drift)}" if drift
                        else "product constants are the registered ones"))  # fmt: skip
    statuses = {c.status for c in checks}
    outcome: Outcome = "fail" if "fail" in statuses else "inconclusive" if "inconclusive" in statuses else "pass"
    return Verdict(outcome, tuple(checks))
