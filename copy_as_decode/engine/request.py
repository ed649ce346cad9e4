"""What an edit is asked (EditRequest), and what one decode of it is handed (DecodePlan).

The request is the one spelling of an edit's fields, and of an apply's (a `block` to merge instead of an
instruction): each door reads it once (the worker's JSON: `from_wire`; the command line, the HTTP apply
endpoint and Python callers: its fields), and everything behind the door takes it (EditFront.run for an edit,
engine/apply.py `apply` for an apply). The document's line endings are read here and nowhere else: `lf` is the
document as every prompt, window, search, merge and rewrite sees it, with "\n" endings, and `restore` gives a
result the document's endings back (core/document.py with_line_endings); a block's own endings are never
written, so it is read with "\n" at once. Selectors (engine/selectors/) turn a request into decodes, each with
its own plan.
"""
from dataclasses import dataclass, field, replace
from functools import cached_property

from copy_as_decode.core import contract, windows
from copy_as_decode.core.budget import Budget, parse_budget
from copy_as_decode.core.contract import Hooks
from copy_as_decode.core.document import with_line_endings
from copy_as_decode.core.program import Item


@dataclass(frozen=True)
class EditRequest:
    document: str                       # as the door got it, its line endings too (`lf`: with "\n")
    instruction: str = ""               # an apply's: what an endpoint's `<instruction>` says, or none
    selector: str = contract.DEFAULT_SELECTOR  # resolved by the front (EditFront.resolve) before it runs
    program: str | None = None          # `forced`: the program to feed
    max_new_tokens: int | None = None   # an explicit budget (None: from the document); "auto" or a str of digits read
    temperature: float = 0.0
    hooks: Hooks = field(default_factory=Hooks)
    lines: tuple[int, int] | None = None  # the editor's selection (1-based, inclusive): a windowed edit's window
    language: str | None = None         # python, javascript or markdown; None: read from the document
    at: int | None = None               # the editor's cursor line (1-based): a windowed edit's symbol there
    drafts: str = ""                    # more lines a verified rewrite may draft from (an applied block's part)
    block: str | None = None            # an apply's: a chat's answer or one code block (engine/apply.py); None: an edit
    path: str | None = None             # the document's file path, when known: an answer's blocks for others tell apart
    place: windows.Plan | None = None   # the place found before the edit (engine/locate.py Place.plan): a windowed
                                        # edit takes its windows instead of finding them again

    def __post_init__(self):
        object.__setattr__(self, "max_new_tokens", parse_budget(self.max_new_tokens))
        if self.block is not None:
            object.__setattr__(self, "block", self.block.replace("\r\n", "\n"))

    @classmethod
    def from_wire(cls, p: dict, hooks: Hooks = Hooks(), apply: bool = False) -> "EditRequest":
        """An `edit`'s params as docs/worker-protocol.md spells them, or an `apply`'s (a `block` and the file's
        `path` instead of an instruction); TypeError or ValueError for a bad one."""
        what = "block" if apply else "instruction"
        if not isinstance(p.get("document"), str) or not isinstance(p.get(what, None if apply else ""), str):
            raise TypeError(f"`document` and `{what}` must be strings")
        selector = p.get("selector", contract.DEFAULT_SELECTOR)
        if not isinstance(selector, str):
            raise TypeError("`selector` must be a string")
        if selector == "forced" and not isinstance(p.get("program"), str):
            raise ValueError("selector `forced` needs a `program` string")
        language = p.get("language")
        if language is not None and not isinstance(language, str):
            raise TypeError("`language` must be a string")
        at = p.get("at")
        if at is not None and (type(at) is not int or at < 1):
            raise TypeError("`at` must be a 1-based line number")
        path = p.get("path")
        if path is not None and not isinstance(path, str):
            raise TypeError("`path` must be a string")
        return cls(p["document"], "" if apply else p.get("instruction", ""), selector, p.get("program"),
                   p.get("max_new_tokens"), float(p.get("temperature", 0.0)), hooks, wire_lines(p), language, at,
                   block=p["block"] if apply else None, path=path, place=wire_place(p))

    @cached_property
    def lf(self) -> str:
        return self.document.replace("\r\n", "\n")

    def restore(self, text: str) -> str:
        """`text`, written with "\\n", in the document's line endings."""
        return with_line_endings(self.document, text)

    def part(self, document: str, max_new_tokens: int | None, hooks: Hooks, note: str = "") -> "EditRequest":
        """The same instruction on a part of the document (a window), with what is left of the budget, and what
        that part is for when it is one step of a larger edit (`note`)."""
        instruction = f"{self.instruction}\n\n{note}" if note else self.instruction
        return replace(self, document=document, instruction=instruction, max_new_tokens=max_new_tokens,
                       hooks=hooks, lines=None, at=None, place=None)


def wire_lines(p: dict) -> tuple[int, int] | None:
    """The selection `lines` of a worker request: [first, last], 1-based."""
    lines = p.get("lines")
    if lines is not None and not (isinstance(lines, list) and len(lines) == 2 and all(type(n) is int for n in lines)):
        raise TypeError("`lines` must be [first, last], 1-based line numbers")
    return tuple(lines) if lines else None


def wire_place(p: dict) -> windows.Plan | None:
    """The `place` of a worker request, as a `locate` answer gives it: {"windows": [{"lines": [first, last],
    "symbols": [...]}], "reason": ...}, the place chosen among candidates."""
    place = p.get("place")
    if place is None:
        return None
    found = place.get("windows") if isinstance(place, dict) else None
    if not (isinstance(found, list) and found and isinstance(place.get("reason"), str)):
        raise TypeError("`place` must be {windows: [{lines, symbols}], reason}")
    document, out = p["document"], []
    count = document.count("\n") + (bool(document) and not document.endswith("\n"))
    for w in found:
        lines = wire_lines(w) if isinstance(w, dict) else None
        symbols = w.get("symbols", []) if isinstance(w, dict) else None
        if lines is None or not 1 <= lines[0] <= lines[1] or not isinstance(symbols, list) or \
                not all(isinstance(s, str) for s in symbols):
            raise TypeError("each window of `place` must be {lines: [first, last], symbols: [names]}")
        if lines[1] > count:
            raise ValueError(f"window {lines[0]}-{lines[1]} is outside the document's lines 1-{count}")
        out.append(windows.Window(*lines, tuple(symbols)))
    return windows.Plan(out, place["reason"], p.get("language"))


@dataclass(frozen=True)
class DecodePlan:
    """One decode: the prompt, its budget and the request it serves; a rewrite's fence and whether it drafts
    from the document, or a program's input lines and the items to feed instead of choosing."""
    request: EditRequest
    ids: list[int]
    budget: Budget
    fence: str | None = None
    draft: bool = False
    lines: list[str] | None = None
    forced: list[Item] | None = None
    splice: bool = True  # False: a program's copied lines are not fed, the model read them in its prompt

    @property
    def hooks(self) -> Hooks:
        return self.request.hooks
