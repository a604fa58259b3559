"""The team store's client: :class:`RemoteStore` speaks to ``tact-memory serve`` over HTTP.

It implements :class:`~tact_memory.backend.MemoryBackend`, so the tool, the runtime, the browser,
the CLI and every adapter use a team service exactly as they use the local SQLite store. Keys it
hands out carry the author's namespace (``RecordKey(id, version, namespace)``).

What it adds, and what it never does
------------------------------------
- Every refusal the service answers (``{"error": {"code", "message", …}}``) is raised again as the
  same :mod:`tact_memory.errors` class with the same fields, so a tool result reads the same
  whichever store stands behind it.
- A failure to reach or use the service (connection refused, time-out, a server error, an answer
  that is not the protocol, a refused token, a namespace mismatch) is
  :class:`~tact_memory.errors.StoreUnavailable` whose ``reason`` names which. There is no fallback
  to local memory: a workspace configured for the team store gets ``unavailable`` results.
- Content is screened here before it is sent (the same checks as the local store: size, control
  characters, the checkpoint's wording, credentials), and again by the service.
- The token goes only into the ``Authorization`` header. It is in no message, ``repr``, status or
  log line this module writes, and a message from the service that contains it is redacted. The
  endpoint is shown without any user name, password, query or fragment.
- Nothing happens on construction (rule I13): the first operation connects. The bounds come from
  the service's session answer (``GET /v1/session``), fetched once, when first needed.
- A read sends its ids, duplicates dropped, in as few requests as the service allows: up to 64
  without asking, more once the session answer has said how many the service reads
  (``read_ids``; a service that does not say reads 64).

Why this module is longer than ~300 lines: it is one class implementing the whole storage protocol
over HTTP, with the mapping of every error code back to its exception.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit

from .. import errors
from ..backend import RecordOrder
from ..limits import DEFAULT_LIMITS, Limits
from ..records import (
    Candidate,
    MemoryRecord,
    PutResult,
    RecordKey,
    StoreStatus,
)
from ..values import fields

if TYPE_CHECKING:
    import httpx

__all__ = ["PROTOCOL_READ_IDS", "PROTOCOL_VERSION", "RemoteStore", "safe_endpoint"]

PROTOCOL_VERSION = 1
"""The service protocol this client speaks (the ``/v1`` routes)."""

T = TypeVar("T")
_MAX_ID = 2**63 - 1
PROTOCOL_READ_IDS = 64
"""The most ids every service of protocol 1 reads in one request; a later one says how many it reads
(``read_ids`` in its session answer)."""
_EXPORT_PAGE = 500
_MESSAGE_CHARS = 500
_CHANGES = frozenset({"put", "delete"})
"""The routes that change records (a scan or read changes only its telemetry)."""
_LIMIT_FIELDS = frozenset(fields(Limits))


def safe_endpoint(endpoint: str) -> str:
    """``endpoint`` as it may be shown: scheme, host, port and path; never a user, password, query or fragment."""
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<invalid endpoint>"
    if ":" in host:
        host = f"[{host}]"
    where = f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")
    return where + parts.path.rstrip("/")


def _base_url(endpoint: str) -> str:
    base = endpoint.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


class RemoteStore:
    """A team memory service as a :class:`~tact_memory.backend.MemoryBackend`.

    Thread-safe: one ``httpx.Client`` (a connection pool) serves every thread.

    Args:
        endpoint: The service's base URL, such as ``https://memory.example.com`` (a trailing
            ``/v1`` is accepted; a user name, password, query or fragment in it is dropped).
        token: The bearer token; ``None`` or empty makes every operation ``unavailable``
            (reason ``token_missing``).
        namespace: The namespace this client expects its token to write as; the service refuses
            any request whose token belongs to another (reason ``namespace_mismatch``).
        limits: The bounds assumed until the service has said its own (and reported by
            :attr:`limits` while it cannot be reached).
        timeout: Seconds to wait for the service, per request.
        transport: An ``httpx`` transport, for tests.
        token_problem: Why there is no token (said by every ``token_missing`` refusal).
    """

    def __init__(
        self,
        endpoint: str,
        token: str | None,
        *,
        namespace: str | None = None,
        limits: Limits = DEFAULT_LIMITS,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
        token_problem: str | None = None,
    ) -> None:
        self.endpoint = safe_endpoint(endpoint)
        """Where the service is, safe to show."""
        self.namespace = namespace
        """The asserted namespace, or after the first session answer the token's own."""
        self.role: str | None = None
        """``reader`` or ``writer``, once the service has said."""
        self._base = _base_url(self.endpoint)  # a user, password, query or fragment is never sent
        self._token = token or None
        self._token_problem = token_problem
        self._assumed_limits = limits
        self._limits: Limits | None = None
        self._read_ids = PROTOCOL_READ_IDS
        self._timeout = timeout
        self._transport = transport
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RemoteStore(endpoint={self.endpoint!r}, namespace={self.namespace!r})"

    # -- transport -------------------------------------------------------------------------------

    def _unavailable(self, reason: str, message: str) -> errors.StoreUnavailable:
        return errors.StoreUnavailable(f"team memory at {self.endpoint}: {message}", path=self.endpoint, reason=reason)

    def _lost(self, route: str, reason: str, message: str) -> errors.StoreUnavailable:
        """A request that was sent and got no answer of the protocol: a change it asked for may
        have been made before the answer was lost, and the message says so."""
        if route in _CHANGES:
            message += "; the change may have been made (a scan or read shows it)"
        return self._unavailable(reason, message)

    def _redact(self, text: str) -> str:
        if self._token:
            text = text.replace(self._token, "[token]")
        return text[:_MESSAGE_CHARS]

    def _http(self) -> httpx.Client:
        import httpx

        with self._lock:
            if self._client is None:
                headers = {"Accept": "application/json", "User-Agent": "tact-memory"}
                if self._token is not None:
                    headers["Authorization"] = f"Bearer {self._token}"
                if self.namespace is not None:
                    headers["X-Tact-Namespace"] = self.namespace
                self._client = httpx.Client(
                    base_url=self._base, headers=headers, timeout=self._timeout, transport=self._transport,
                    follow_redirects=False,
                )  # fmt: skip
            return self._client

    def _call(self, method: str, route: str, body: Any = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request; the answer's JSON object, or the matching error raised."""
        import httpx

        if self._token is None:
            raise self._unavailable(
                "token_missing",
                self._token_problem
                or "no token is configured (set the environment variable [memory.team] token_env names, or token_file)",
            )
        content = None
        if body is not None:
            try:
                content = json.dumps(body).encode("ascii")  # ASCII escapes: any Python str survives the trip
            except (TypeError, ValueError):
                raise errors.InvalidArguments("the call holds a value that is not plain JSON data") from None
        # httpx's timeout bounds each read, so an answer that trickles in a byte at a time would
        # never end; the whole answer must arrive within the timeout.
        deadline = time.monotonic() + self._timeout
        try:
            with self._http().stream(
                method, f"/v1/{route}", content=content, params=params,
                headers={"Content-Type": "application/json"} if content is not None else None,
            ) as response:  # fmt: skip
                chunks: list[bytes] = []
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout("the answer took longer than the timeout")
        except httpx.TimeoutException:
            raise self._lost(route, "timeout", f"no answer within {self._timeout:g} s") from None
        except (httpx.ConnectError, httpx.ProxyError, httpx.UnsupportedProtocol, httpx.LocalProtocolError, httpx.InvalidURL, UnicodeError):
            # Failed before the request left (UnicodeError: a header, the token or the namespace, not ASCII).
            raise self._unavailable("unreachable", "the service could not be reached; nothing was changed") from None
        except httpx.HTTPError:
            # Sent, then the connection broke (a server stopped, a proxy gave up).
            raise self._lost(route, "interrupted", "the connection broke before the answer came") from None
        try:
            data = json.loads(b"".join(chunks))
        except (ValueError, RecursionError):  # not JSON, or nested deeper than any answer of the protocol
            data = None
        if response.status_code == 200 and isinstance(data, dict):
            return data
        error = data.get("error") if isinstance(data, dict) else None
        if not isinstance(error, dict) or not isinstance(error.get("code"), str):
            if response.status_code >= 500:  # a proxy's 502 or 504 may come after the service took the request in
                raise self._lost(route, "server_error", f"the service failed (HTTP {response.status_code})")
            raise self._unavailable("bad_response", f"the answer is not the team memory protocol (HTTP {response.status_code})")
        self._raise(error)

    def _raise(self, error: dict[str, Any]) -> NoReturn:
        """Raise the exception a service error names, with its fields."""
        code = str(error["code"])
        message = self._redact(str(error.get("message", code)))
        try:
            simple: dict[str, type[errors.MemoryOperationError]] = {
                "invalid_arguments": errors.InvalidArguments,
                "forbidden": errors.Forbidden,
                "scan_required": errors.ScanRequired,
                "disabled": errors.MemoryDisabled,
            }
            capacity: dict[str, type[errors.CapacityError]] = {
                "record_capacity": errors.RecordCapacity,
                "content_capacity": errors.ContentCapacity,
                "database_capacity": errors.DatabaseCapacity,
            }
            if code in simple:
                raise simple[code](message)
            if code in capacity:
                raise capacity[code](message, limit=_int(error["limit"]))
            if code == "not_found":
                raise errors.NotFound(message, id=_int(error["id"]))
            if code == "version_conflict":
                raise errors.VersionConflict(message, id=_int(error["id"]), current_version=_int(error["current_version"]))
            if code == "duplicate":
                key = error["key"]
                raise errors.Duplicate(message, id=_int(key["id"]), version=_int(key["version"]))
            if code == "content_too_large":
                raise errors.ContentTooLarge(message, size=_int(error["bytes"]), limit=_int(error["limit"]))
            if code == "secret_rejected":
                raise errors.SecretRejected(message, kind=str(error["kind"]))
        except (KeyError, TypeError, ValueError):
            raise self._unavailable("bad_response", f"the service's {code} answer lacks its fields") from None
        reason = str(error.get("reason", "unavailable")) if code == "unavailable" else code
        raise self._unavailable(self._redact(reason)[:64], message)

    # -- the session -----------------------------------------------------------------------------

    def _session(self) -> Limits:
        """The service's bounds, asking once (``GET /v1/session``)."""
        if self._limits is not None:
            return self._limits
        answer = self._call("GET", "session")
        try:
            if answer["protocol"] != PROTOCOL_VERSION:
                raise self._unavailable("protocol", f"the service speaks protocol {answer['protocol']!r}, not {PROTOCOL_VERSION}")
            given = answer["limits"]
            limits = Limits(**{k: _int(v) for k, v in given.items() if k in _LIMIT_FIELDS})
            namespace, role = str(answer["namespace"]), str(answer["role"])
            read_ids = _int(answer.get("read_ids", PROTOCOL_READ_IDS))
            if read_ids < 1:
                raise ValueError("read_ids is not a count")
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._unavailable("bad_response", "the session answer is not the team memory protocol") from None
        self.namespace, self.role, self._limits, self._read_ids = namespace, role, limits, read_ids
        return limits

    @property
    def limits(self) -> Limits:
        """The service's bounds (per namespace); the assumed ones while it cannot be reached."""
        try:
            return self._session()
        except errors.StoreUnavailable:
            return self._assumed_limits

    # -- model-facing operations -----------------------------------------------------------------

    def scan(self, query: str, *, limit: int = 5) -> list[Candidate]:
        """Rank visible records against ``query`` on the service."""
        answer = self._call("POST", "scan", {"query": query, "limit": limit})
        return self._parse(lambda: [_candidate(c) for c in answer["candidates"]])

    def read(self, ids: Sequence[int]) -> list[MemoryRecord]:
        """Full visible records for the ids that exist, first-seen order, in as few requests as the
        service allows (one, unless the ids are more than it reads at once)."""
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
            raise errors.InvalidArguments("ids must be a list of positive integers")
        for id_ in ids:  # checked before they are hashed: a list as an id is refused, not a TypeError
            if isinstance(id_, bool) or not isinstance(id_, int) or not 1 <= id_ <= _MAX_ID:
                raise errors.InvalidArguments("ids must be positive integers")
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            raise errors.InvalidArguments("ids must name at least one record")
        if len(wanted) > PROTOCOL_READ_IDS:
            self._session()  # how many ids the service reads at once, asked once
        found: list[MemoryRecord] = []
        start = 0
        while start < len(wanted):
            part = wanted[start : start + self._read_ids]
            try:
                answer = self._call("POST", "read", {"ids": part})
            except errors.InvalidArguments:
                if len(part) <= PROTOCOL_READ_IDS:
                    raise
                # The ids are valid, so what refused them is a process of an earlier release behind
                # the same endpoint (an upgrade half done), which reads 64 at once: so do from now on.
                self._read_ids = PROTOCOL_READ_IDS
                continue
            found += self._parse(lambda: [_record(m) for m in answer["memories"]])
            start += len(part)
        return found

    def put(self, content: str, *, replace: RecordKey | None = None, probation: bool = True) -> PutResult:
        """Screen ``content`` here, then add it (or replace ``replace``) on the service.

        ``probation`` false marks a version a person wrote (it starts graduated), as on the
        local store.
        """
        from .policy import validate_content

        validate_content(content, self._session())
        body: dict[str, Any] = {"content": content, "probation": bool(probation)}
        if replace is not None:
            body["replace"] = _key_body(replace)
        answer = self._call("POST", "put", body)
        return self._parse(lambda: PutResult(memory=_record(answer["memory"]), replaced=bool(answer["replaced"])))

    def delete(self, key: RecordKey) -> None:
        """Remove the record on the service if it is still at ``key.version``."""
        self._call("POST", "delete", _key_body(key))

    # -- people's views ----------------------------------------------------------------------------

    def get(self, id_: int) -> MemoryRecord | None:
        """One visible record by id, hidden or not, telemetry untouched; ``None`` if there is none."""
        if isinstance(id_, bool) or not isinstance(id_, int) or not 1 <= id_ <= _MAX_ID:
            return None
        try:
            answer = self._call("GET", f"records/{id_}")
        except errors.NotFound:
            return None
        return self._parse(lambda: _record(answer["memory"]))

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        """Every visible record in ``order``, hidden ones included, telemetry untouched."""
        answer = self._call("GET", "list", params={"order": order})
        return self._parse(lambda: [_record(r) for r in answer["records"]])

    def export(self) -> Iterator[MemoryRecord]:
        """Every visible record in id order, page by page, telemetry untouched."""
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": _EXPORT_PAGE}
            if cursor is not None:
                params["cursor"] = cursor
            answer = self._call("GET", "export", params=params)
            records, cursor = self._parse(lambda: ([_record(r) for r in answer["records"]], answer["cursor"]))
            yield from records
            if cursor is None:
                return
            if not isinstance(cursor, str):
                raise self._unavailable("bad_response", "the export cursor is not the team memory protocol")

    def hidden_reason(self, record: MemoryRecord) -> str | None:
        """Why ``record`` is withheld from models: the same screen the service and the local store run."""
        from ..screening.checkpoint import IMITATION_KIND, imitates_checkpoint
        from ..screening.credentials import find_secret

        return IMITATION_KIND if imitates_checkpoint(record.content) else find_secret(record.content)

    def status(self) -> StoreStatus:
        """Usage of this client's namespace; an unreachable service is a ``problem``, not an error."""
        where = Path("team:" + self.endpoint.partition("://")[2])  # a Path would fold the "//"
        try:
            limits = self._session()
            answer = self._call("GET", "status")
            return self._parse(
                lambda: StoreStatus(
                    path=where, exists=True, rows=_int(answer["rows"]), content_bytes=_int(answer["content_bytes"]),
                    on_probation=_int(answer["on_probation"]), expired_probation=_int(answer["expired_probation"]),
                    hidden=_int(answer["hidden"]), limits=limits,
                )  # fmt: skip
            )
        except errors.StoreUnavailable as exc:
            return StoreStatus(path=where, exists=False, problem=exc.reason, detail=exc.message, limits=self.limits)

    def close(self) -> None:
        """Close the connection pool; the next operation opens a new one."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _parse(self, build: Callable[[], T]) -> T:
        """``build()``, or ``bad_response`` when the answer lacks what the protocol promises."""
        try:
            return build()
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._unavailable("bad_response", "an answer is not the team memory protocol") from None


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer")
    return value


def _optional_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _key(data: Any) -> RecordKey:
    namespace = data.get("namespace")
    if namespace is not None and not isinstance(namespace, str):
        raise TypeError("namespace is not a string")
    return RecordKey(_int(data["id"]), _int(data["version"]), namespace)


def _key_body(key: RecordKey) -> dict[str, Any]:
    if not isinstance(key, RecordKey):
        raise errors.InvalidArguments("a key must name an id and a version")
    body: dict[str, Any] = {"id": key.id, "version": key.version}
    if key.namespace is not None:
        body["namespace"] = key.namespace
    return body


def _record(data: Any) -> MemoryRecord:
    content = data["content"]
    if not isinstance(content, str):
        raise TypeError("content is not a string")
    return MemoryRecord(
        key=_key(data["key"]),
        content=content,
        created_at_ms=_int(data["created_at_ms"]),
        updated_at_ms=_int(data["updated_at_ms"]),
        scan_count=_int(data["scan_count"]),
        last_scanned_at_ms=_optional_int(data["last_scanned_at_ms"]),
        read_count=_int(data["read_count"]),
        last_read_at_ms=_optional_int(data["last_read_at_ms"]),
        probation_until_ms=_optional_int(data["probation_until_ms"]),
    )


def _candidate(data: Any) -> Candidate:
    score, preview = data["score"], data["preview"]
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not isinstance(preview, str):
        raise TypeError("not a candidate")
    return Candidate(key=_key(data["key"]), score=float(score), preview=preview)
