"""The runtime: sessions and agents, the middleware around a model call (one order, memory
innermost), the prompt, the reference loop, the one checkpoint rule, the role context that decides
who may write, and which store a configuration gives.

May import: ``config``, ``tool``, ``records``, ``errors``, ``limits``, ``screening`` (for the
checkpoint text), and ``store`` only lazily, in :mod:`.stores`, when a store is made. Never a
framework or a face.

The names below are imported from :mod:`.session` when first used (PEP 562), so a command that
needs only :mod:`.stores` (``tact-memory tool``) does not load sessions and middleware.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
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


def __getattr__(name: str) -> object:
    """Each name of ``__all__``, from :mod:`.session` on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import session

    value = getattr(session, name)
    globals()[name] = value
    return value
