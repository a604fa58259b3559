"""Configuration: finding and reading ``config.toml``, reloading it, and watching it for changes.

May import: ``errors`` and ``limits``. The watcher (:mod:`.watcher`) imports watchfiles, so this
package does not import it; take it from its module.
"""

from __future__ import annotations

from .loading import (
    CONFIG_FILE_NAME,
    Config,
    ConfigSource,
    MemorySettings,
    database_path_for,
    load_config,
    locate_config,
    parse_config,
    read_config,
)

__all__ = [
    "CONFIG_FILE_NAME",
    "Config",
    "ConfigSource",
    "MemorySettings",
    "database_path_for",
    "load_config",
    "locate_config",
    "parse_config",
    "read_config",
]
