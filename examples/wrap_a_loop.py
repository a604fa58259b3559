"""Wrap a plain agent loop with tact-memory (offline: a scripted model stands in for your LLM)."""

import json
import sys
import tempfile
from pathlib import Path

from tact_memory import Runtime, load_config
from tact_memory.testing import ScriptedModel, answer, call

config_dir = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
config_dir.mkdir(parents=True, exist_ok=True)
(config_dir / "config.toml").write_text("[memory]\nenabled = true\n")  # memory is opt-in
runtime = Runtime(load_config(config_dir / "config.toml"))
my_model = ScriptedModel([  # your LLM client: takes a ModelRequest, returns a ModelResponse
    call("memory", {"operation": "scan", "query": "billing migrations"}),
    answer("Nothing stored yet; running `make migrate`."),
])


def run_my_tool(tool_call):  # your own tools; "memory" never reaches this function
    return {"error": f"unknown tool {tool_call.name}"}


def chat(session, text):
    session.submit(text)  # adds the review checkpoint when it is due
    agent = session.root
    while True:
        response = agent.call_model(my_model, agent.request(tools=[]))  # + the memory tool and paragraph
        if not response.tool_calls and session.end_turn():  # False: a steer came in meanwhile
            return response.text
        for tool_call in response.tool_calls:
            agent.run_tool(tool_call, run_my_tool)  # memory calls are role-checked and stored here


session = runtime.new_session(system="You are a coding agent.")
print(chat(session, "Run the billing migrations."))
print(json.dumps([m.kind for m in session.root.history]))
runtime.close()  # the store's connections; `with Runtime(...) as runtime:` does it too
