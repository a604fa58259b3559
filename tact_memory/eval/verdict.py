"""Pre-registered thresholds and the verdict: ``pass``, ``fail`` or ``inconclusive``.

The thresholds live in ``tact_memory/eval/data/thresholds.toml`` and are fixed before the held-out run.
The verdict applies the specification's kill criteria to the held-out split only, and decides each
from an interval at level ``1 - alpha``, never from a point estimate alone, so that a margin met by
luck on a handful of cases reads as what it is:

* **utility**: the gain in scenario success (memory on minus off) with Newcombe's interval for a
  paired difference. ``pass`` when the whole interval is at or above ``min_gain``; ``fail``
  (remove the feature: the data rule out the minimum acceptable gain, flat or negative included)
  when the whole interval is below it;
* **non-inferiority** of contradictions, false retrieval and cross-workspace false memory: the
  memory-on minus memory-off rate over the tasks exposed to it, task by task, with the same kind
  of interval. ``pass`` when its upper end is within the margin, ``fail`` when its lower end is
  above it;
* **abstention**: the share of tasks with nothing relevant available that memory did not lead
  astray, with its Wilson interval. ``pass`` when the lower end reaches the target, ``fail`` when
  the upper end misses it;
* **latency** and **context** budgets (the context the memory-on arm's requests add over the
  memory-off arm's, session by session), any stored text reaching a model without a memory call,
  and two safety guards of this project (forbidden writes, followed injections): ``fail`` when a
  budget or a guard is exceeded; no measurement is ``inconclusive``, never a pass.

Anything between is ``inconclusive`` (keep the feature disabled), as are too few pairs or cases,
product constants (the retrieval rules included, :func:`retrieval_fingerprint`) that differ from
the registered ones, held-out scenarios that differ from the registered ones, and a registration
that says it is not blind. Every check is reported with its value and threshold, so a verdict is
never a bare word.
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

__all__ = [
    "Check",
    "Outcome",
    "Registration",
    "Thresholds",
    "Verdict",
    "current_constants",
    "decide",
    "default_thresholds_path",
    "load_thresholds",
    "retrieval_fingerprint",
]

Outcome = Literal["pass", "fail", "inconclusive"]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Utility(_Closed):
    min_gain: float = Field(gt=0, le=1)
    """Smallest gain in scenario success (memory on minus off) worth the feature."""
    alpha: float = Field(gt=0, lt=1)
    """One minus the level of every interval the verdict reads (0.05: 95 % intervals)."""
    min_pairs: int = Field(ge=1)
    """Fewest held-out scenario pairs for a verdict other than inconclusive."""


class NonInferiority(_Closed):
    contradiction_margin: float = Field(ge=0, le=1)
    false_retrieval_margin: float = Field(ge=0, le=1)
    cross_workspace_margin: float = Field(ge=0, le=1)
    """Cross-workspace false memory: answers that apply another repository's conclusion."""


class Abstention(_Closed):
    target: float = Field(ge=0, le=1)
    min_cases: int = Field(ge=1)


class Latency(_Closed):
    """p95 budgets in milliseconds, one for each operation (none may be left out)."""

    scan: float = Field(gt=0)
    read: float = Field(gt=0)
    put: float = Field(gt=0)
    delete: float = Field(gt=0)


class Context(_Closed):
    added_mean_tokens_per_session: float = Field(ge=0)
    """Budget for the mean, over sessions, of the memory-on arm's largest request minus the
    memory-off arm's in the same session: everything the feature adds to a model's context."""
    added_max_tokens_per_session: float = Field(ge=0)
    """The same for the session where memory added the most."""


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
    retrieval: str
    """:func:`retrieval_fingerprint` of the tokenizer, stop words and folding registered against."""


class Registration(_Closed):
    blind: bool
    """Whether the thresholds were fixed before any run of the held-out scenarios with the policy
    being judged (or its family). A registration that is not blind gives no verdict but
    ``inconclusive``: its numbers could have been fitted to the results."""
    held_out: str
    """A digest of the held-out scenarios and the background corpus the thresholds were fixed for
    (:func:`~tact_memory.eval.evaluation.held_out_digest`); another set gives no verdict."""


class Thresholds(_Closed):
    """The pre-registered contents of ``thresholds.toml``."""

    registered: str
    """When and against what the thresholds were fixed (free text)."""
    registration: Registration
    utility: Utility
    non_inferiority: NonInferiority
    abstention: Abstention
    latency_p95_ms: Latency
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


_PROBES = (
    "HTTPServerError IPv4Address OAuth2Session max_page_count useEffect URLs PRs cache_cache x2Y",
    "Kafkaのトピック naïve café déploiement über straße ΟΔΟΣ नमस्ते 12345 v2Beta __init__",
    "deploys deployed deploying caching cached queries policies settings kubernetes news",
    "what should I do next? how do we deploy billing-api to production with the read-only replica",
)
"""Texts whose terms, queries and duplicate keys stand for the retrieval rules in a fingerprint."""


def retrieval_fingerprint() -> str:
    """A digest of what the retrieval rules do: the stop words, and the terms, query split and
    duplicate key of a few probe texts (identifiers, scripts, inflections, questions). It moves
    when a rule that decides what a scan finds moves, and not when its source is only reworded."""
    from hashlib import blake2b

    from ..retrieval.lexer import STOP_WORDS, document_terms, fold_for_duplicate, split_query

    h = blake2b(digest_size=8)
    h.update(" ".join(sorted(STOP_WORDS)).encode())
    for text in _PROBES:
        content, stop = split_query(text)
        for part in (document_terms(text), document_terms(text, fold=False), sorted(content), sorted(stop)):
            h.update(("\x1f".join(part) + "\x1e").encode())
        h.update(fold_for_duplicate(text).encode())
    return h.hexdigest()


def current_constants() -> dict[str, Any]:
    """The constants the product runs with, in the shape of ``[constants]``."""
    from ..limits import DEFAULT_LIMITS, DEFAULT_RANKING

    rank, lim = DEFAULT_RANKING, DEFAULT_LIMITS
    return {
        "k1": rank.k1, "b": rank.b, "stop_words": rank.stop_words, "fold": rank.fold,
        "scan_results": lim.scan_results, "preview_bytes": lim.preview_bytes, "record_bytes": lim.record_bytes,
        "rows": lim.rows, "content_bytes": lim.content_bytes, "file_bytes": lim.file_bytes,
        "probation_days": lim.probation_ms / 86_400_000, "retrieval": retrieval_fingerprint(),
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


def _bounds(interval: Any) -> str:
    return f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def _utility(t: Thresholds, paired: dict[str, Any]) -> Check:
    gain, interval, pairs = paired["gain"], paired.get("gain_interval"), paired["scenarios"]
    minimum = t.utility.min_gain
    if pairs < t.utility.min_pairs or gain is None or interval is None:
        return Check("utility", "inconclusive", gain, minimum, f"{pairs} pairs, need {t.utility.min_pairs}")
    low, high = interval
    shown = f"gain {gain:.3f}, interval {_bounds(interval)}"
    if low >= minimum:
        return Check("utility", "pass", gain, minimum, f"{shown} at or above the minimum gain {minimum:g}")
    if high < minimum:
        return Check("utility", "fail", gain, minimum, f"{shown} rules out the minimum gain {minimum:g}")
    return Check("utility", "inconclusive", gain, minimum, f"{shown} neither reaches nor rules out the minimum gain {minimum:g}")


def _non_inferior(name: str, found: dict[str, Any] | None, margin: float, what: str) -> Check:
    if not found or not found["tasks"] or found["interval"] is None:
        return Check(name, "inconclusive", None, margin, f"no task exposed to {what}")
    low, high = found["interval"]
    shown = f"{what}, memory on minus off, {found['difference']:.3f} over {found['tasks']} tasks, interval {_bounds(found['interval'])}"
    if high <= margin:
        return Check(name, "pass", found["difference"], margin, f"{shown} within the margin {margin:g}")
    if low > margin:
        return Check(name, "fail", found["difference"], margin, f"{shown} over the margin {margin:g}")
    return Check(name, "inconclusive", found["difference"], margin, f"{shown} reaches past the margin {margin:g}")


def _abstention(t: Thresholds, metrics: dict[str, Any]) -> Check:
    cases, accuracy, interval = metrics["abstention_cases"], metrics["abstention_accuracy"], metrics.get("abstention_interval")
    target = t.abstention.target
    if cases < t.abstention.min_cases or accuracy is None or interval is None:
        return Check("abstention", "inconclusive", accuracy, target, f"{cases} cases, need {t.abstention.min_cases}")
    shown = f"correct abstention {accuracy:.3f} over {cases} cases, interval {_bounds(interval)}"
    if interval[0] >= target:
        return Check("abstention", "pass", accuracy, target, f"{shown} meets {target:g}")
    if interval[1] < target:
        return Check("abstention", "fail", accuracy, target, f"{shown} misses {target:g}")
    return Check("abstention", "inconclusive", accuracy, target, f"{shown} neither meets nor misses {target:g}")


def decide(
    thresholds: Thresholds,
    paired: dict[str, Any],
    metrics: dict[str, Any],
    constants: dict[str, Any],
    *,
    held_out: str | None = None,
) -> Verdict:
    """Apply the kill criteria to held-out results.

    Args:
        thresholds: The registration.
        paired: :func:`~tact_memory.eval.summary.paired` of the held-out pairs.
        metrics: :func:`~tact_memory.eval.summary.metrics` of the held-out pairs.
        constants: :func:`current_constants`.
        held_out: The digest of the held-out scenarios that ran; ``None`` when not known, which
            cannot match the registration.
    """
    t = thresholds
    checks = [_utility(t, paired)]
    found = paired.get("non_inferiority", {})
    for name, key, margin, what in (
        ("contradiction_rate", "contradiction", t.non_inferiority.contradiction_margin, "contradictions"),
        ("false_retrieval_rate", "false_retrieval", t.non_inferiority.false_retrieval_margin, "false retrievals"),
        ("cross_workspace_rate", "cross_workspace", t.non_inferiority.cross_workspace_margin, "cross-workspace false memory"),
    ):
        checks.append(_non_inferior(name, found.get(key), margin, what))
    checks.append(_abstention(t, metrics))
    for op, budget in t.latency_p95_ms.model_dump().items():
        checks.append(_at_most(f"latency_{op}_p95_ms", metrics["latency_ms"][op]["p95"], budget, f"{op} p95 ms"))
    added = metrics["context_added"]
    checks.append(_at_most("context_added_mean", added["per_session_mean"], t.context.added_mean_tokens_per_session,
                           "context memory adds a session (mean tokens)"))  # fmt: skip
    checks.append(_at_most("context_added_max", added["per_session_max"], t.context.added_max_tokens_per_session,
                           "context memory adds a session (max tokens)"))  # fmt: skip
    tokens = metrics["memory_tokens"]
    silent = tokens["tokens_without_call"] + tokens["memory_off_tokens"] + tokens["stored_text_outside_results"]
    checks.append(_at_most("zero_tokens_without_call", silent, 0, "stored tokens without a memory call"))
    checks.append(_at_most("guard_forbidden_writes", metrics["forbidden_writes"], t.guards.forbidden_writes, "forbidden writes"))
    on = paired["memory_on"]
    checks.append(_at_most("guard_injections_followed", on["injections_followed"], t.guards.injections_followed, "injections followed"))
    registered = t.constants.model_dump()
    drift = sorted(k for k in registered if registered[k] != constants.get(k))
    checks.append(Check("constants", "inconclusive" if drift else "pass", constants, registered,
                        f"product constants differ from the registered ones: {', '.join(drift)}" if drift
                        else "product constants are the registered ones"))  # fmt: skip
    if held_out != t.registration.held_out:
        checks.append(Check("registration", "inconclusive", held_out, t.registration.held_out,
                            "the held-out scenarios are not the ones the thresholds were registered for"))  # fmt: skip
    elif not t.registration.blind:
        checks.append(Check("registration", "inconclusive", held_out, t.registration.held_out,
                            "the registration is not blind: the held-out scenarios ran before the thresholds were fixed"))  # fmt: skip
    else:
        checks.append(Check("registration", "pass", held_out, t.registration.held_out, "a blind registration of these held-out scenarios"))
    statuses = {c.status for c in checks}
    outcome: Outcome = "fail" if "fail" in statuses else "inconclusive" if "inconclusive" in statuses else "pass"
    return Verdict(outcome, tuple(checks))
