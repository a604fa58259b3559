"""The paired evaluation: does memory help, at what cost, and should it stay?

The specification asks for memory to be judged by paired runs (same model, task and starting
state; memory on in one arm, off in the other; order counterbalanced) over scenarios covering
corrections, rebuttals, steers, scope refinements, preferences, workspace gotchas, stale
replacements, contradictions, cross-repository name collisions, irrelevant queries, secrets and
adversarial text, with thresholds fixed before the held-out run. This package is that harness:

* :mod:`~tact_memory.eval.scenarios`: scenario files (``tact_memory/eval/data/scenarios/*.toml``), validated;
* :mod:`~tact_memory.eval.policies` and :mod:`~tact_memory.eval.scripted`: who plays the agent
  (a deterministic scripted policy for CI, any pydantic-ai model for real runs);
* :mod:`~tact_memory.eval.runner`: the paired runs through the real runtime and SQLite store;
* :mod:`~tact_memory.eval.trace`, :mod:`~tact_memory.eval.metrics` and
  :mod:`~tact_memory.eval.summary`: what was recorded, and the pure functions that measure it;
* :mod:`~tact_memory.eval.bounds`: failure behaviour at each hard bound of the store, probed;
* :mod:`~tact_memory.eval.verdict`: pre-registered thresholds and the kill criteria;
* :mod:`~tact_memory.eval.tuning`: constant sweeps on the tuning split only;
* :mod:`~tact_memory.eval.report`: Markdown and charts (matplotlib, loaded only there);
* :mod:`~tact_memory.eval.formatting`: how every number of that output is written.

``import tact_memory`` never imports this package; ``tact-memory eval`` loads it on demand.

Example::

    from . import evaluate

    result = evaluate("scripted")
    print(result.verdict.outcome, result.to_json()["paired"]["gain"])
"""

from __future__ import annotations

from .evaluation import Evaluation, evaluate
from .policies import Policy, PydanticAIPolicy, resolve_policy
from .scenarios import CATEGORIES, EvalError, Scenario, load_background, load_scenarios
from .scripted import ScriptedPolicy
from .verdict import Thresholds, Verdict, decide, load_thresholds

__all__ = [
    "CATEGORIES",
    "EvalError",
    "Evaluation",
    "Policy",
    "PydanticAIPolicy",
    "Scenario",
    "ScriptedPolicy",
    "Thresholds",
    "Verdict",
    "decide",
    "evaluate",
    "load_background",
    "load_scenarios",
    "load_thresholds",
    "resolve_policy",
]
