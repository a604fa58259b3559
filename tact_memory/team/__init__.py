"""Team memory: one shared corpus on PostgreSQL behind an authenticated HTTP service.

``migrations`` makes and checks the schema, ``tokens`` issues and checks credentials, ``app`` is
the ASGI application and ``server`` runs it. The storage itself is
:class:`tact_memory.store.postgres.PostgresStore`. Everything here needs the ``team`` extra
(psycopg 3, psycopg-pool, Starlette, uvicorn); nothing is imported by ``import tact_memory``.
"""
