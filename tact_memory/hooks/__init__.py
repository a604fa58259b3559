"""Commands that coding-agent clients run on their own events (standard library only).

:mod:`.prompt_hook` adds the review checkpoint to prompts in clients with a prompt hook. Nothing
here imports the rest of the package at import time, so a client can run it by path cheaply.
"""
