"""The exceptions of tact-memory, and the stable codes a tool result carries.

```
TactMemoryError                      every error the library raises on purpose
├── ConfigError                      invalid_config: a config.toml that cannot be used
├── MaxStepsExceeded                 max_steps_exceeded: the agent loop got no final answer in time
│                                    (also a RuntimeError, as in earlier releases)
└── MemoryOperationError             an operation refused; its code goes into the tool result
    ├── InvalidArguments             invalid_arguments
    ├── Forbidden                    forbidden: a child agent asked to put or delete
    ├── ScanRequired                 scan_required: put without a scan since the last put
    ├── NotFound                     not_found
    ├── VersionConflict              version_conflict (+ current_version)
    ├── Duplicate                    duplicate (+ key)
    ├── ContentTooLarge              content_too_large
    ├── SecretRejected               secret_rejected (never carries the value)
    ├── CapacityError
    │   ├── RecordCapacity           record_capacity: the row bound
    │   ├── ContentCapacity          content_capacity: the total-bytes bound
    │   └── DatabaseCapacity         database_capacity: the main-file bound (SQLITE_FULL)
    ├── MemoryDisabled               disabled
    └── StoreUnavailable             unavailable: corrupt, newer, unreadable or locked database

Elsewhere, under the same base: SubmissionRejected (tact_memory.runtime.session, submission_rejected),
EvalError (tact_memory.eval, eval_error) and PullRefused (tact_memory.cli.transfer, pull_refused), each
beside the only code that raises it.
```

Foreign errors (``sqlite3``, ``pydantic``, ``tomllib``) are caught where they happen and raised again
as one of these with ``from exc``, so callers only ever need to catch :class:`TactMemoryError`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any, ClassVar

__all__ = [
    "CapacityError",
    "ConfigError",
    "ContentCapacity",
    "ContentTooLarge",
    "DatabaseCapacity",
    "Duplicate",
    "Forbidden",
    "InvalidArguments",
    "MaxStepsExceeded",
    "MemoryDisabled",
    "MemoryOperationError",
    "NotFound",
    "RecordCapacity",
    "ScanRequired",
    "SecretRejected",
    "StoreUnavailable",
    "TactMemoryError",
    "VersionConflict",
]


class TactMemoryError(Exception):
    """Base class of every error raised on purpose by tact-memory."""

    code: ClassVar[str] = "error"
    """Stable, machine-readable name of the error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def details(self) -> dict[str, Any]:
        """Extra fields a tool result carries beside ``code`` and ``message``."""
        return {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses take keyword-only fields, which pickle's default (``cls(*args)``) cannot
        # pass; an error raised in a worker process or thread pool must still reach its caller
        # intact instead of breaking the pool.
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _restore(cls: type[TactMemoryError], args: tuple[Any, ...], state: dict[str, Any]) -> TactMemoryError:
    """Rebuild a pickled error without calling its ``__init__``."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class ConfigError(TactMemoryError):
    """A configuration file that cannot be used: syntax, unknown key, wrong type, missing file."""

    code = "invalid_config"

    def __init__(
        self, message: str, *, path: str | None = None, key: str | None = None, line: int | None = None
    ) -> None:
        where = path or "<config>"
        if line is not None:
            where = f"{where}:{line}"
        if key is not None:
            where = f"{where} [{key}]"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.key = key
        self.line = line


class MaxStepsExceeded(TactMemoryError, RuntimeError):
    """The model kept calling tools for more steps than the agent loop allows.

    Raised by :func:`tact_memory.runtime.loop.run_agent` and :func:`~tact_memory.runtime.loop.arun_agent`;
    it stays a :class:`RuntimeError` so that code catching that keeps working.
    """

    code = "max_steps_exceeded"


class MemoryOperationError(TactMemoryError):
    """A memory operation was refused. Nothing was changed."""

    code = "error"


class InvalidArguments(MemoryOperationError):
    """The call does not match the tool's input schema or a value is out of range."""

    code = "invalid_arguments"


class Forbidden(MemoryOperationError):
    """The caller's role does not allow this operation (children may only scan and read)."""

    code = "forbidden"


class ScanRequired(MemoryOperationError):
    """A put must follow a scan made by the same agent since its previous put."""

    code = "scan_required"


class NotFound(MemoryOperationError):
    """No live record has this id."""

    code = "not_found"

    def __init__(self, message: str, *, id: int) -> None:
        super().__init__(message)
        self.id = id

    def details(self) -> dict[str, Any]:
        return {"id": self.id}


class VersionConflict(MemoryOperationError):
    """The expected version is not the record's current version; someone changed it."""

    code = "version_conflict"

    def __init__(self, message: str, *, id: int, current_version: int) -> None:
        super().__init__(message)
        self.id = id
        self.current_version = current_version

    def details(self) -> dict[str, Any]:
        return {"id": self.id, "current_version": self.current_version}


class Duplicate(MemoryOperationError):
    """The same content (ignoring case and white space) is already stored."""

    code = "duplicate"

    def __init__(self, message: str, *, id: int, version: int) -> None:
        super().__init__(message)
        self.id = id
        self.version = version

    def details(self) -> dict[str, Any]:
        return {"key": {"id": self.id, "version": self.version}}


class ContentTooLarge(MemoryOperationError):
    """One record's content is over the per-record byte bound."""

    code = "content_too_large"

    def __init__(self, message: str, *, size: int, limit: int) -> None:
        super().__init__(message)
        self.size = size
        self.limit = limit

    def details(self) -> dict[str, Any]:
        return {"bytes": self.size, "limit": self.limit}


class SecretRejected(MemoryOperationError):
    """The content looks like a credential. The message names the kind, never the value."""

    code = "secret_rejected"

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind

    def details(self) -> dict[str, Any]:
        return {"kind": self.kind}


class CapacityError(MemoryOperationError):
    """A corpus-wide bound would be exceeded even after pruning expired probation rows."""

    def __init__(self, message: str, *, limit: int) -> None:
        super().__init__(message)
        self.limit = limit

    def details(self) -> dict[str, Any]:
        return {"limit": self.limit}


class RecordCapacity(CapacityError):
    """The store already holds the maximum number of live rows."""

    code = "record_capacity"


class ContentCapacity(CapacityError):
    """The total content bytes would exceed the corpus bound."""

    code = "content_capacity"


class DatabaseCapacity(CapacityError):
    """The main database file would grow past its page limit (SQLITE_FULL)."""

    code = "database_capacity"


class MemoryDisabled(MemoryOperationError):
    """Memory is not enabled for this session's configuration."""

    code = "disabled"


class StoreUnavailable(MemoryOperationError):
    """The database cannot be used: not a database, a newer or altered schema, a malformed row, a
    symbolic link or another user's file, unreadable, or locked too long. ``reason`` names which."""

    code = "unavailable"

    def __init__(self, message: str, *, path: str, reason: str) -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason

    def details(self) -> dict[str, Any]:
        return {"reason": self.reason}
