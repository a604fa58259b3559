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
from .records import Candidate, MemoryBackend, MemoryRecord, PutResult, RecordKey, StoreStatus
from .store import MemoryStore
from .tool import MemoryTool

__all__ = [
    "CHECKPOINT_TEXT",
    "DEFAULT_LIMITS",
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
    "MemoryBackend",
    "MemoryDisabled",
    "MemoryOperationError",
    "MemoryRecord",
    "MemorySettings",
    "MemoryStore",
    "MemoryTool",
    "NotFound",
    "PutResult",
    "RecordCapacity",
    "RecordKey",
    "Role",
    "ScanRequired",
    "SecretRejected",
    "StoreStatus",
    "StoreUnavailable",
    "TactMemoryError",
    "VersionConflict",
    "load_config",
]
