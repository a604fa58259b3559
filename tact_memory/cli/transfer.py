"""Explicit transfer between local memory and a team service: ``team push`` and ``team pull``.

Nothing moves unless a person runs one of these; nothing syncs in the background. Records are
matched by content, compared as duplicates are (lower-cased, white space collapsed), because ids
are each store's own.

Push
    Makes the service's copy of your namespace match your local store: local records the
    namespace lacks are put there (an unread local record stays on probation there; a read one
    arrives graduated), and, only with ``prune``, records of your namespace that your local
    store lacks are deleted from the service. Records are sent one by one; one refused (a secret,
    a bound) is reported and the others go on.

Pull
    Merges records of the chosen namespaces into local memory, all or nothing, in one SQLite
    transaction (:meth:`~tact_memory.store.sqlite.MemoryStore.put_many`): every record is
    checked first (screening, duplicates, and every bound for the whole pull), then all are
    written and committed together. A refusal changes nothing, and a pull interrupted at any
    point (even a killed process) leaves nothing of itself in local memory. Pulled records are
    written as a person's records (graduated, like ``import``). Local memory has no author
    column, and adding one would change the database schema that other releases check exactly;
    so the author stays visible in the pull's report, which names, for every record, the
    namespace and id it came from and the local id it got. Records the service lists as hidden
    (they look like secrets) are never pulled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import errors
from ..backend import MemoryBackend
from ..records import MemoryRecord

if TYPE_CHECKING:
    from ..store.sqlite import MemoryStore

__all__ = ["PullItem", "PullRefused", "PullReport", "PushReport", "pull", "push"]


def _fold(text: str) -> str:
    from ..retrieval.lexer import fold_for_duplicate

    return fold_for_duplicate(text)


@dataclass
class PushReport:
    """What a push did (or, in a dry run, would do)."""

    namespace: str
    added: list[tuple[int, int | None]] = field(default_factory=list)
    """``(local id, team id)`` of each record put (``None`` in a dry run)."""
    deleted: list[int] = field(default_factory=list)
    """Team ids deleted (only with ``prune``)."""
    kept: list[int] = field(default_factory=list)
    """Team ids your local store lacks, left in place because ``prune`` was not asked."""
    unchanged: int = 0
    """Local records the namespace already holds."""
    refused: list[tuple[int, str, str]] = field(default_factory=list)
    """``(local id, code, message)`` of each record the client or the service refused."""


def push(local: MemoryBackend, team: MemoryBackend, namespace: str, *, prune: bool, dry_run: bool) -> PushReport:
    """Make ``namespace`` on ``team`` hold what ``local`` holds; see the module's description."""
    ours = [r for r in team.export() if r.key.namespace == namespace]
    mine = list(local.export())
    remote_folded = {_fold(r.content) for r in ours}
    local_folded = {_fold(r.content) for r in mine}
    report = PushReport(namespace)
    for record in ours:
        if _fold(record.content) not in local_folded:
            if not prune:
                report.kept.append(record.key.id)
                continue
            if not dry_run:
                try:
                    team.delete(record.key)
                except (errors.NotFound, errors.VersionConflict) as exc:
                    report.refused.append((0, exc.code, f"team memory {record.key.id}: {exc.message}"))
                    continue
            report.deleted.append(record.key.id)
    for record in mine:
        if _fold(record.content) in remote_folded:
            report.unchanged += 1
            continue
        reason = local.hidden_reason(record)
        if reason is not None:
            report.refused.append((record.key.id, "secret_rejected", f"hidden locally ({reason}); never sent"))
            continue
        if dry_run:
            report.added.append((record.key.id, None))
            continue
        try:
            result = team.put(record.content, probation=record.probation_until_ms is not None)
        except errors.StoreUnavailable:
            raise
        except errors.TactMemoryError as exc:
            report.refused.append((record.key.id, exc.code, exc.message))
            continue
        remote_folded.add(_fold(record.content))
        report.added.append((record.key.id, result.memory.key.id))
    return report


@dataclass(frozen=True)
class PullItem:
    """One team record and what became of it."""

    namespace: str
    """Who wrote it."""
    team_id: int
    local_id: int | None
    """Its id in local memory, once written."""
    outcome: str
    """``added``, ``already_local`` or ``hidden``."""


@dataclass
class PullReport:
    """What a pull wrote, by author."""

    items: list[PullItem] = field(default_factory=list)

    @property
    def added(self) -> list[PullItem]:
        return [item for item in self.items if item.outcome == "added"]


class PullRefused(errors.MemoryOperationError):
    """Nothing was pulled: local memory refused a record, or the whole pull (``refusal`` names the error code).

    ``namespace`` and ``team_id`` name the record refused, or are ``None`` when the pull as a
    whole was (a bound that the records together would pass).
    """

    code = "pull_refused"

    def __init__(self, message: str, *, refusal: str, namespace: str | None = None, team_id: int | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.namespace = namespace
        self.team_id = team_id

    def details(self) -> dict[str, object]:
        return {"refusal": self.refusal, "namespace": self.namespace, "team_id": self.team_id}


def _chosen(team: MemoryBackend, namespaces: Sequence[str] | None) -> list[MemoryRecord]:
    wanted = None if namespaces is None else set(namespaces)
    return [r for r in team.export() if wanted is None or r.key.namespace in wanted]


def pull(local: MemoryStore, team: MemoryBackend, namespaces: Sequence[str] | None) -> PullReport:
    """Merge the records of ``namespaces`` (``None``: every readable one) into ``local``, in one transaction.

    Raises:
        PullRefused: a record, or the pull as a whole, would be refused (a bound, a secret); nothing was written.
        StoreUnavailable: either store cannot be used; nothing was written.
    """
    records = _chosen(team, namespaces)
    seen = {_fold(r.content) for r in local.export()}
    report = PullReport()
    todo: list[MemoryRecord] = []
    for record in records:
        namespace = record.key.namespace or "?"
        folded = _fold(record.content)
        if team.hidden_reason(record) is not None:
            report.items.append(PullItem(namespace, record.key.id, None, "hidden"))
        elif folded in seen:
            report.items.append(PullItem(namespace, record.key.id, None, "already_local"))
        else:
            seen.add(folded)
            todo.append(record)
    for record in todo:  # a record local memory refuses on its own is named
        try:
            local.validate_content(record.content)
        except errors.TactMemoryError as exc:
            raise PullRefused(
                f"nothing was pulled: memory {record.key.id} of namespace {record.key.namespace!r} would be "
                f"refused locally ({exc.code}: {exc.message})",
                refusal=exc.code, namespace=record.key.namespace or "?", team_id=record.key.id,
            ) from exc  # fmt: skip
    try:
        written = local.put_many([record.content for record in todo], probation=False)
    except errors.StoreUnavailable:
        raise
    except errors.TactMemoryError as exc:
        raise PullRefused(
            f"nothing was pulled: local memory cannot take the {len(todo)} new record(s) ({exc.code}: {exc.message})",
            refusal=exc.code,
        ) from exc
    for record, result in zip(todo, written):
        report.items.append(PullItem(record.key.namespace or "?", record.key.id, result.memory.key.id, "added"))
    return report
