"""Team memory: one shared corpus on PostgreSQL behind an authenticated HTTP service.

``migrations`` makes and checks the schema, ``tokens`` issues and checks credentials, ``app`` is
the ASGI application (JSON routes under ``/v1``), ``mcp_http`` its MCP endpoint at ``/mcp``,
``server`` runs it, and ``bench`` times it beside the local store (``tact-memory bench --team``).
The storage itself is :class:`tact_memory.store.postgres.PostgresStore`. Everything here needs the
``team`` extra (psycopg 3, psycopg-pool, Starlette, uvicorn, the MCP SDK, httpx); nothing is
imported by ``import tact_memory``.
"""
