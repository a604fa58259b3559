"""The one ``memory`` tool: its wire format, its models and published schema, and the role guard.

May import: ``records``, ``errors``, ``limits`` and (for the secret screen of field names)
``screening``. Never SQLite, the runtime or a face. Pydantic is loaded only by :mod:`.models`,
on the first call that needs it.
"""

from __future__ import annotations

from .guard import Dispatcher, Role
from .memory_tool import MemoryTool

__all__ = ["Dispatcher", "MemoryTool", "Role"]
