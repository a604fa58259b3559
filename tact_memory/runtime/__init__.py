"""The runtime: sessions and agents, the middleware around a model call (one order, memory
innermost), the prompt, the reference loop, the one checkpoint rule, the role context that decides
who may write, and which store a configuration gives.

May import: ``config``, ``tool``, ``records``, ``errors``, ``limits``, ``screening`` (for the
checkpoint text), and ``store`` only lazily, in :mod:`.stores`, when a store is made. Never a
framework or a face.
"""

from __future__ import annotations

from .session import (
    Agent,
    AsyncModel,
    Model,
    Runtime,
    Session,
    SessionKind,
    SessionState,
    SubmissionRejected,
)

__all__ = ["Agent", "AsyncModel", "Model", "Runtime", "Session", "SessionKind", "SessionState", "SubmissionRejected"]
