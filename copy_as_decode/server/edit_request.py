"""What the edit command is asked (EditCommand), read from the editor's JSON and said to the worker, what came
of it (Outcome), and the names of the commands and code actions the editor sees."""
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from lsprotocol import types

from copy_as_decode.core import languages

from . import positions

EDIT_COMMAND = "copyAsDecode.edit"
APPLY_COMMAND = "copyAsDecode.apply"
CANCEL_COMMAND = "copyAsDecode.cancel"
PREPARE_COMMAND = "copyAsDecode.prepare"
INTERACTIVE_COMMAND = "copyAsDecode.editInteractive"  # implemented by the editor plugins, not here
EDIT_TITLE = "Edit with Copy-as-Decode…"
APPLY_TITLE = "Apply code block"
FIX_TITLE = "Fix with Copy-as-Decode: "


def shorten(text: str, limit: int = 80) -> str:
    """A title or label cut to what the editor shows on one line."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass
class EditCommand:
    """The arguments of copyAsDecode.edit (and a quickfix's data), or of copyAsDecode.apply (a `block` instead of
    an instruction): the document by its uri and version, not its text, unlike engine.request.EditRequest, what
    the engine is asked once the server has read them."""
    uri: str
    instruction: str
    version: int | None = None
    range: types.Range | None = None        # the selection: the window of the edit
    position: types.Position | None = None  # the cursor: the symbol there is the window (core/windows.py)
    block: str | None = None                # apply: the code block to merge (engine/apply.py)

    @classmethod
    def from_json(cls, obj, apply: bool = False, prepare: bool = False) -> "EditCommand":
        """`prepare`: copyAsDecode.prepare's argument, the place before its instruction is known."""
        what = "block" if apply else "instruction"
        if not isinstance(obj, dict):
            raise ValueError(f"expected one argument {{uri, version, {'' if prepare else what + ', '}range?, "
                             "position?}")
        uri, instruction, version = obj.get("uri"), "" if prepare else obj.get(what), obj.get("version")
        if not isinstance(uri, str) or not uri:
            raise ValueError("missing uri")
        if not prepare and (not isinstance(instruction, str) or not instruction.strip()):
            raise ValueError(f"missing {what}")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise ValueError("version must be an integer")
        return cls(uri, "" if apply else instruction, version, parse_range(obj.get("range")),
                   parse_position(obj.get("position")), instruction if apply else None)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"uri": self.uri, "version": self.version}
        out.update({"block": self.block} if self.block is not None else {"instruction": self.instruction})
        if self.range is not None:
            out["range"] = range_json(self.range)
        if self.position is not None:
            out["position"] = position_json(self.position)
        return out

    def worker_params(self, doc, index: positions.LineIndex) -> dict:
        """What the worker is asked of `doc` (docs/worker-protocol.md): the document, the selection's `lines`,
        the cursor's line `at` (for a block: after which definition a new one goes that the block does not place)
        and the outline's `language`; the server's settings add the rest (server/edit_run.py)."""
        params: dict = {"document": doc.source}
        if self.range is not None:
            params["lines"] = positions.selected_lines(doc.source, index, self.range)
        if self.position is not None:
            params["at"] = positions.line_of(doc.source, index, self.position)
        if (language := languages.outline_name(languages.of_language_id(doc.language_id))) is not None:
            params["language"] = language  # how a windowed edit reads the outline
        return params


def parse_range(obj) -> types.Range | None:
    if obj is None:
        return None
    try:
        s, e = obj["start"], obj["end"]
        return types.Range(start=types.Position(line=int(s["line"]), character=int(s["character"])),
                           end=types.Position(line=int(e["line"]), character=int(e["character"])))
    except (KeyError, TypeError, ValueError):
        raise ValueError("range must be {start: {line, character}, end: {line, character}}") from None


def parse_position(obj) -> types.Position | None:
    if obj is None:
        return None
    try:
        return types.Position(line=int(obj["line"]), character=int(obj["character"]))
    except (KeyError, TypeError, ValueError):
        raise ValueError("position must be {line, character}") from None


def position_json(p: types.Position) -> dict:
    return {"line": p.line, "character": p.character}


def range_json(r: types.Range) -> dict:
    return {"start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character}}


class Status(StrEnum):
    """How an edit command ended; the command's result and the tests read it as its string."""
    OK = "ok"                  # edits made, not yet applied
    APPLIED = "applied"
    REJECTED = "rejected"      # the user declined a reviewed edit
    REFUSED = "refused"        # the client did not apply it
    UNCHANGED = "unchanged"    # the result is the document as it was (core/contract.py UNCHANGED)
    STALE = "stale"            # the document changed before or while the edit ran
    CANCELLED = "cancelled"
    SUPERSEDED = "superseded"  # a newer edit of the document replaced it
    TIMEOUT = "timeout"
    ERROR = "error"


@dataclass
class Outcome:
    status: "Status"
    uri: str = ""
    version: int | None = None
    edits: list[types.TextEdit] = field(default_factory=list)
    stats: dict | None = None
    message: str = ""
    hunks: list[positions.Hunk] = field(default_factory=list)  # one per edit
    reviewed: bool = False  # the edit goes to the client as hunks that need confirmation
    asks: bool = False  # the user is asked Apply / Discard before its plain edits go (a client without annotations)
    warning: str | None = None  # why the edit may only be reviewed (it deletes lines unasked, it does not parse)

    def result(self) -> dict:
        out = {"applied": self.status == Status.APPLIED, "status": self.status, "reviewed": self.reviewed or self.asks,
               "edits": len(self.edits)}
        if self.stats is not None:
            out["stats"] = self.stats
        if self.message:
            out["message"] = self.message
        if self.warning:
            out["warning"] = self.warning
        return out
