"""What a configuration reload changes, and the one line that tells a person.

A reload is split on purpose (specification, "Human browser"; invariant I14): the browser switches
at once, agent sessions that are already running keep the memory setting they were created with,
and sessions started or restored afterwards get the new one. :attr:`ReloadEvent.notice` says so in
one line. This module has no file-watching dependency, so a runtime can describe a reload it was
handed without importing the watcher (:mod:`tact_memory.config.watcher`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from .loading import Config, ConfigSource, read_config

__all__ = ["ReloadEvent", "reload"]

_SESSIONS = "running agent sessions keep their current memory setting; new and restored sessions get the new one."


def _state(config: Config) -> str:
    return "enabled" if config.memory.enabled else "disabled"


@dataclass(frozen=True)
class ReloadEvent:
    """The outcome of re-reading the configuration file."""

    config: Config
    """The configuration now in force: the new one, or the last good one when :attr:`error` is set."""
    previous: Config
    """The configuration that was in force before this reload."""
    error: ConfigError | None = None
    """Why the file could not be used, naming the file and the line or key; ``None`` on success."""

    @property
    def memory_changed(self) -> bool:
        """Whether the memory setting switched (never true for a failed reload)."""
        return self.config.memory != self.previous.memory

    @property
    def notice(self) -> str:
        """The one line a person is shown about this reload."""
        name = self.config.path.name
        if self.error is not None:
            return (
                f"{name} not reloaded: {self.error.message.rstrip('.')}. The last good configuration stays in force "
                f"(memory {_state(self.config)})."
            )
        where = f"in {name}" if self.config.exists else f"({name} is missing: defaults in force)"
        before, after = self.previous.memory, self.config.memory
        if self.memory_changed and before.enabled == after.enabled and before.team != after.team:
            change = "added to" if before.team is None else "removed from" if after.team is None else "changed in"
            return (
                f"[memory.team] {change} {name}: the browser switches to the store it gives its workspace now "
                f"(the team store inside a workspace root, local memory elsewhere); {_SESSIONS}"
            )
        if self.memory_changed:
            shows = "shows" if self.config.memory.enabled else "hides"
            return f"memory {_state(self.config)} {where}: the browser {shows} it now; {_SESSIONS}"
        return f"{name} reloaded: memory is still {_state(self.config)}; nothing changes for the browser or sessions."


def reload(previous: Config, source: ConfigSource) -> ReloadEvent:
    """Re-read and validate the file ``source`` names; keep ``previous`` if it cannot be used.

    Never raises for a bad file: the error is part of the returned event.

    Args:
        previous: The configuration in force now.
        source: The selected file; the same one ``previous`` was read from.
    """
    try:
        config = read_config(source)
    except ConfigError as exc:
        return ReloadEvent(config=previous, previous=previous, error=exc)
    return ReloadEvent(config=config, previous=previous)
