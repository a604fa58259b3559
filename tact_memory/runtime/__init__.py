"""The runtime: sessions and agents, the middleware around a model call, the prompt, the
reference loop, and the role context that decides who may write.

May import: ``config``, ``tool``, ``records``, ``errors``, ``limits``, ``screening`` (for the
checkpoint text). Never a framework, the store's SQLite module, or a face.
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
