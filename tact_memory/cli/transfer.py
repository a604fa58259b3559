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
    Merges records of the chosen namespaces into local memory, all or nothing: every record is
    first put into a scratch copy of the local database, which checks screening, duplicates and
    every bound (the capacity check); only if all fit are they written for real. Should a real
    write still be refused (another program changed local memory in between), the records this
    pull added are deleted again. Pulled records are written as a person's records (graduated,
    like ``import``). Local memory has no author column, and adding one would change the
    database schema that other releases check exactly; so the author stays visible in the pull's
    report, which names, for every record, the namespace and id it came from and the local id it
    got. Records the service lists as hidden (they look like secrets) are never pulled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .. import errors
from ..records import MemoryBackend, MemoryRecord

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
    """Nothing was pulled: one record cannot be stored locally (``refusal`` names its error code)."""

    code = "pull_refused"

    def __init__(self, message: str, *, refusal: str, namespace: str, team_id: int) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.namespace = namespace
        self.team_id = team_id

    def details(self) -> dict[str, object]:
        return {"refusal": self.refusal, "namespace": self.namespace, "team_id": self.team_id}


def _chosen(team: MemoryBackend, namespaces: Sequence[str] | None) -> list[MemoryRecord]:
    wanted = None if namespaces is None else set(namespaces)
    return [r for r in team.export() if wanted is None or r.key.namespace in wanted]


def pull(local: MemoryBackend, team: MemoryBackend, namespaces: Sequence[str] | None) -> PullReport:
    """Merge the records of ``namespaces`` (``None``: every readable one) into ``local``, all or nothing.

    Raises:
        PullRefused: a record would be refused (a bound, a secret); nothing was written.
        StoreUnavailable: either store cannot be used; nothing was written.
    """
    from .importing import _scratch_copy

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
    with _scratch_copy(local) as scratch:  # the capacity check: every record, against a copy
        _write(scratch, todo)
    added = _write(local, todo)  # should this fail, _write has removed what it added
    for record, local_id in zip(todo, added):
        report.items.append(PullItem(record.key.namespace or "?", record.key.id, local_id, "added"))
    return report


def _write(store: MemoryBackend, records: Iterable[MemoryRecord]) -> list[int]:
    """Put every record, or none: on a refusal, delete the ones this call added and raise."""
    written: list[MemoryRecord] = []
    try:
        for record in records:
            try:
                written.append(store.put(record.content, probation=False).memory)
            except errors.StoreUnavailable:
                raise
            except errors.TactMemoryError as exc:
                raise PullRefused(
                    f"nothing was pulled: memory {record.key.id} of namespace {record.key.namespace!r} would be "
                    f"refused locally ({exc.code}: {exc.message})",
                    refusal=exc.code, namespace=record.key.namespace or "?", team_id=record.key.id,
                ) from exc  # fmt: skip
    except BaseException:
        for done in reversed(written):
            try:
                store.delete(done.key)
            except errors.TactMemoryError:
                pass
        raise
    return [r.key.id for r in written]
