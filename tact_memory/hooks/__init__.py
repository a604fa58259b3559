"""Commands that coding-agent clients run on their own events (standard library only).

:mod:`.prompt_hook` adds the review checkpoint to prompts in clients with a prompt hook;
``python PATH/tact_memory/hooks/__main__.py EVENT`` (what ``tact-memory setup`` installs) and
``python -m tact_memory.hooks EVENT`` run it. Nothing here imports the rest of the package, so a
client can run it cheaply.
"""
