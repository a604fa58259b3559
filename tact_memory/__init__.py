"""tact-memory: opt-in, explicit, bounded memory across sessions for LLM coding agents.

Memory is off unless ``config.toml`` says ``[memory] enabled = true``. One SQLite corpus lives
beside the selected config file; agents reach it only through the one ``memory`` tool (scan, read,
put, delete), and nothing stored reaches a model unless the agent calls ``scan`` or ``read``.

Importing this package is cheap: it loads none of its modules. Each name of ``__all__`` is imported
from its module when it is first used (``tact_memory.MemoryStore`` loads the store, nothing else);
pydantic, asyncio and every framework adapter are loaded only when they are first needed.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: importing the package stays cheap
if TYPE_CHECKING:
    from .backend import MemoryBackend
    from .config.loading import Config, MemorySettings, load_config
    from .errors import (
        CapacityError,
        ConfigError,
        ContentCapacity,
        ContentTooLarge,
        DatabaseCapacity,
        Duplicate,
        Forbidden,
        InvalidArguments,
        MaxStepsExceeded,
        MemoryDisabled,
        MemoryOperationError,
        NotFound,
        RecordCapacity,
        ScanRequired,
        SecretRejected,
        StoreUnavailable,
        TactMemoryError,
        VersionConflict,
    )
    from .limits import DEFAULT_LIMITS, Limits
    from .records import (
        Candidate,
        MemoryRecord,
        PutResult,
        RecordKey,
        StoreStatus,
    )
    from .runtime.loop import arun_agent, run_agent
    from .runtime.messages import (
        Message,
        ModelRequest,
        ModelResponse,
        Part,
        ToolCall,
        TranscriptEntry,
    )
    from .runtime.middleware import MemoryMiddleware, Middleware, Submission
    from .runtime.prompt import MEMORY_INSTRUCTIONS
    from .runtime.session import Agent, Runtime, Session, SessionState, SubmissionRejected
    from .screening.checkpoint import CHECKPOINT_TEXT
    from .store.sqlite import MemoryStore
    from .tool.guard import Dispatcher, Role
    from .tool.memory_tool import MemoryTool
del TYPE_CHECKING

__all__ = [
    "CHECKPOINT_TEXT",
    "DEFAULT_LIMITS",
    "MEMORY_INSTRUCTIONS",
    "Agent",
    "Candidate",
    "CapacityError",
    "Config",
    "ConfigError",
    "ContentCapacity",
    "ContentTooLarge",
    "DatabaseCapacity",
    "Dispatcher",
    "Duplicate",
    "Forbidden",
    "InvalidArguments",
    "Limits",
    "MaxStepsExceeded",
    "MemoryBackend",
    "MemoryDisabled",
    "MemoryMiddleware",
    "MemoryOperationError",
    "MemoryRecord",
    "MemorySettings",
    "MemoryStore",
    "MemoryTool",
    "Message",
    "Middleware",
    "ModelRequest",
    "ModelResponse",
    "NotFound",
    "Part",
    "PutResult",
    "RecordCapacity",
    "RecordKey",
    "Role",
    "Runtime",
    "ScanRequired",
    "SecretRejected",
    "Session",
    "SessionState",
    "StoreStatus",
    "StoreUnavailable",
    "Submission",
    "SubmissionRejected",
    "TactMemoryError",
    "ToolCall",
    "TranscriptEntry",
    "VersionConflict",
    "arun_agent",
    "load_config",
    "run_agent",
]

_EXPORTS: dict[str, str] = {
    "Config": "config.loading",
    "MemorySettings": "config.loading",
    "load_config": "config.loading",
    "CapacityError": "errors",
    "ConfigError": "errors",
    "ContentCapacity": "errors",
    "ContentTooLarge": "errors",
    "DatabaseCapacity": "errors",
    "Duplicate": "errors",
    "Forbidden": "errors",
    "InvalidArguments": "errors",
    "MaxStepsExceeded": "errors",
    "MemoryDisabled": "errors",
    "MemoryOperationError": "errors",
    "NotFound": "errors",
    "RecordCapacity": "errors",
    "ScanRequired": "errors",
    "SecretRejected": "errors",
    "StoreUnavailable": "errors",
    "TactMemoryError": "errors",
    "VersionConflict": "errors",
    "DEFAULT_LIMITS": "limits",
    "Limits": "limits",
    "Candidate": "records",
    "MemoryBackend": "backend",
    "MemoryRecord": "records",
    "PutResult": "records",
    "RecordKey": "records",
    "StoreStatus": "records",
    "arun_agent": "runtime.loop",
    "run_agent": "runtime.loop",
    "Message": "runtime.messages",
    "ModelRequest": "runtime.messages",
    "ModelResponse": "runtime.messages",
    "Part": "runtime.messages",
    "ToolCall": "runtime.messages",
    "TranscriptEntry": "runtime.messages",
    "MemoryMiddleware": "runtime.middleware",
    "Middleware": "runtime.middleware",
    "Submission": "runtime.middleware",
    "MEMORY_INSTRUCTIONS": "runtime.prompt",
    "Agent": "runtime.session",
    "Runtime": "runtime.session",
    "Session": "runtime.session",
    "SessionState": "runtime.session",
    "SubmissionRejected": "runtime.session",
    "CHECKPOINT_TEXT": "screening.checkpoint",
    "MemoryStore": "store.sqlite",
    "Dispatcher": "tool.guard",
    "Role": "tool.guard",
    "MemoryTool": "tool.memory_tool",
}
"""Each exported name -> the module (relative to this package) that defines it."""


def __getattr__(name: str) -> object:
    """Import an exported name from its module on first use (PEP 562) and keep it here."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's own names and every exported name, loaded or not."""
    return sorted({*globals(), *__all__})
