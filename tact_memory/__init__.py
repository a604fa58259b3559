"""tact-memory: opt-in, explicit, bounded memory across sessions for LLM coding agents.

Memory is off unless ``config.toml`` says ``[memory] enabled = true``. One SQLite corpus lives
beside the selected config file; agents reach it only through the one ``memory`` tool (scan, read,
put, delete), and nothing stored reaches a model unless the agent calls ``scan`` or ``read``.

Importing this package is cheap: pydantic, asyncio and every framework adapter are loaded only
when they are first needed.
"""

from __future__ import annotations

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
    MemoryBackend,
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
