"""Framework-neutral messages, model requests and responses.

A :class:`Message` is made of parts. The user's own text and the runtime's control text are
separate parts of one model-visible message, so the model sees both while the display transcript
keeps only what the user typed. Everything here is a plain frozen dataclass with a JSON form, so a
session can be saved, restored and snapshot-tested without any agent framework.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Message",
    "MessageKind",
    "ModelRequest",
    "ModelResponse",
    "Part",
    "ToolCall",
    "TranscriptEntry",
]

MessageKind = Literal["user", "steer", "assistant", "tool_call", "tool_result"]
"""What a message is: a user submission, a steer, model text, a tool call, or a tool's result."""


@dataclass(frozen=True)
class Part:
    """One piece of a message's text."""

    text: str
    """The text the model reads."""
    control: bool = False
    """True for runtime control text (the checkpoint): model-visible, never displayed."""


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model asked for."""

    id: str
    """The call id, echoed by the result."""
    name: str
    """The tool's name."""
    arguments: dict[str, Any] | str
    """The arguments as the model produced them: parsed JSON, or raw text."""


@dataclass(frozen=True)
class Message:
    """One model-visible message."""

    role: Literal["user", "assistant", "tool"]
    """Who the model should think said it."""
    kind: MessageKind
    """What it is; ``steer`` marks a user message that arrived as a steer."""
    parts: tuple[Part, ...] = ()
    """The text parts, in order; the checkpoint, when present, is the last one."""
    tool_call: ToolCall | None = None
    """For ``tool_call`` messages: the call."""
    tool_call_id: str | None = None
    """For ``tool_result`` messages: the call this answers."""

    @property
    def text(self) -> str:
        """All parts joined by blank lines: what a plain-text model API would receive."""
        return "\n\n".join(part.text for part in self.parts)

    @property
    def display_text(self) -> str:
        """The parts a person sees: everything but runtime control text."""
        return "\n\n".join(part.text for part in self.parts if not part.control)

    def to_json(self) -> dict[str, Any]:
        """A JSON object that :meth:`from_json` turns back into an equal message."""
        data: dict[str, Any] = {
            "role": self.role,
            "kind": self.kind,
            "parts": [{"text": p.text, "control": p.control} for p in self.parts],
        }
        if self.tool_call is not None:
            call = self.tool_call
            data["tool_call"] = {"id": call.id, "name": call.name, "arguments": call.arguments}
        if self.tool_call_id is not None:
            data["tool_call_id"] = self.tool_call_id
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Message:
        """Rebuild a message saved with :meth:`to_json`."""
        call = data.get("tool_call")
        return cls(
            role=data["role"],
            kind=data["kind"],
            parts=tuple(Part(p["text"], bool(p.get("control", False))) for p in data.get("parts", ())),
            tool_call=None if call is None else ToolCall(call["id"], call["name"], call["arguments"]),
            tool_call_id=data.get("tool_call_id"),
        )


@dataclass(frozen=True)
class TranscriptEntry:
    """One line of the display transcript: what a person typed or read."""

    role: Literal["user", "assistant"]
    """Who said it."""
    text: str
    """Exactly what they typed or read; never runtime control text."""
    kind: Literal["user", "steer", "assistant"] = "user"
    """A user message, a steer, or a model answer."""


@dataclass(frozen=True)
class ModelRequest:
    """Everything one model call receives."""

    system: str
    """The system prompt, with the memory paragraph when memory is enabled for the session."""
    tools: tuple[dict[str, Any], ...]
    """Tool definitions (``name``, ``description``, ``input_schema``)."""
    messages: tuple[Message, ...]
    """The model-visible conversation."""

    @property
    def tool_names(self) -> list[str]:
        """The names of the offered tools, in order."""
        return [str(tool["name"]) for tool in self.tools]


@dataclass(frozen=True)
class ModelResponse:
    """What one model call returned: text, tool calls, or both."""

    text: str | None = None
    """Text for the user; the final answer when there are no tool calls."""
    tool_calls: tuple[ToolCall, ...] = field(default=())
    """Tool calls to run before the next model call."""
