"""tact-memory: opt-in, explicit, bounded memory across sessions for LLM coding agents.

Memory is off unless ``config.toml`` says ``[memory] enabled = true``. One SQLite corpus lives
beside the selected config file; agents reach it only through the one ``memory`` tool (scan, read,
put, delete), and nothing stored reaches a model unless the agent calls ``scan`` or ``read``.

Importing this package is cheap: pydantic, asyncio and every framework adapter are loaded only
when they are first needed.
"""

from __future__ import annotations

from .checkpoint import CHECKPOINT_TEXT
from .config import Config, MemorySettings, load_config
from .dispatch import Dispatcher, Role
from .errors import (
    CapacityError,
    ConfigError,
    ContentCapacity,
    ContentTooLarge,
    DatabaseCapacity,
    Duplicate,
    Forbidden,
    InvalidArguments,
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
from .loop import MaxStepsExceeded, arun_agent, run_agent
from .messages import Message, ModelRequest, ModelResponse, Part, ToolCall, TranscriptEntry
from .pipeline import MemoryMiddleware, Middleware, Submission
from .prompt import MEMORY_INSTRUCTIONS
from .records import Candidate, MemoryBackend, MemoryRecord, PutResult, RecordKey, StoreStatus
from .runtime import Agent, Runtime, Session, SessionState, SubmissionRejected
from .store import MemoryStore
from .tool import MemoryTool

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
