"""The store and the tool without a runtime: one dispatcher per agent, its role set by you."""

import sys
import tempfile
from pathlib import Path

from tact_memory import Dispatcher, MemoryStore, Role

folder = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
store = MemoryStore(folder / "memory" / "v1.sqlite3")  # opens nothing yet
root = Dispatcher(store, role=Role.ROOT)  # one per agent
print(root.call({"operation": "scan", "query": "billing migrations"}))
print(root.call({"operation": "put", "content": "In the `billing` repo, migrations need Postgres 15."}))
child = Dispatcher(store, role=Role.CHILD)
print(child.call({"operation": "delete", "id": 1, "version": 1}))  # forbidden: children only scan and read
print([r.content for r in store.list_records(order="most_useful")])  # for people: no telemetry
