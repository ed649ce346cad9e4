"""Where an edit would land, without decoding it: the worker's `locate` (docs/worker-protocol.md), the CLI's
place line and its question, and the language server's pick.

The windows are core/windows.py's; where it has candidates (the search's hits, or several definitions of a
named name) the model chooses among them as a windowed edit does (engine/selectors/windowed.py
`model_choice`), with the probability it gave its choice, and core/windows.py `choose` weighs that against the
search's first hit. The answer says whether the place is decided: it is when the selection, the cursor, a name
or the search alone decides it, or the model is sure enough (`decisive`); else an editor, or the command line
at a terminal, offers the candidates for the user to pick, the search's first hit first and the model's choice,
when it differs, second. A place is found once: the edit takes the decided or picked one as it is (`Place.plan`,
`Place.picked`; EditRequest's `place`).
"""
from dataclasses import dataclass, field

from copy_as_decode.core import windows
from copy_as_decode.core.contract import Hooks
from copy_as_decode.core.document import split_lines
from copy_as_decode.engine.selectors.windowed import model_choice


@dataclass
class Candidate:
    start: int
    end: int
    symbol: str
    first: str
    p: float | None = None

    def as_dict(self) -> dict:
        return {"lines": [self.start, self.end], "symbol": self.symbol, "first": self.first, "p": self.p}

    def window(self) -> windows.Window:
        return windows.Window(self.start, self.end, (self.symbol,))


@dataclass
class Place:
    plan: windows.Plan  # the windows and why: what an edit of this place takes (EditRequest's `place`)
    decisive: bool
    candidates: list[Candidate] = field(default_factory=list)
    lines: int = 0   # the document's
    chose: bool = False  # the model chose among candidates

    def picked(self, k: int, why: str) -> windows.Plan:
        """What an edit of candidate `k` (0-based) takes: its lines the window, as the language server hands the
        user's pick on as the edit's `place` (server/place.py); `why` says who chose it."""
        return windows.Plan([self.candidates[k].window()], why, self.plan.language, self.plan.symbols)

    @property
    def windows(self) -> list[windows.Window]:
        return self.plan.windows

    @property
    def reason(self) -> str:
        return self.plan.reason

    def as_dict(self) -> dict:
        wins = [{"lines": [w.start, w.end], "symbols": list(w.names)} for w in self.windows] or \
            [{"lines": [1, self.lines], "symbols": []}]
        return {"windows": wins, "reason": self.reason, "decisive": self.decisive,
                "candidates": [c.as_dict() for c in self.candidates]}

    def describe(self) -> str:
        """One line: "lines 40-58 (fib)", or "the whole file (lines 1-12): <why>"."""
        if not self.windows:
            return f"the whole file (lines 1-{self.lines}): {self.reason}"
        return ", ".join(f"lines {w.start}-{w.end} ({', '.join(w.names)})" for w in self.windows)


def locate(front, document: str, instruction: str, lines: tuple[int, int] | None = None, at: int | None = None,
           language: str | None = None, hooks: Hooks = Hooks()) -> Place:
    """The place of an edit of `document` (with "\\n" line endings: an EditRequest's `lf`): its windows, why,
    whether that is decided, and the candidates a pick offers (the search's first hit, the model's choice
    second when it differs, with its probability; the others in the search's order)."""
    text = split_lines(document)
    plan = windows.find(document, instruction, lines, language, at=at)
    if not plan.candidates:  # the selection, the cursor, a name, the search alone, or the whole file
        return Place(plan, True, lines=len(text))
    picked = model_choice(front, plan.candidates, text, instruction, hooks)
    symbol, p = picked if picked is not None else (None, None)
    choice = windows.choose(plan, symbol, p)
    order = list(dict.fromkeys([choice.first, *([symbol] if symbol is not None else []), *plan.candidates]))
    candidates = [_candidate(s, text, p if s is symbol else None) for s in order]
    why = choice.offered if choice.decisive else f"not decided: {choice.offered}"
    return Place(windows.Plan([candidates[0].window()], why, plan.language, plan.symbols), choice.decisive,
                 candidates, len(text), chose=True)


def _candidate(symbol, lines: list[str], p: float | None) -> Candidate:
    end = windows.through_blanks(lines, symbol.end)
    first = next((line.strip() for line in lines[symbol.start - 1:symbol.end] if line.strip()), "")
    return Candidate(symbol.start, end, symbol.qualname, first[:120], None if p is None else round(p, 4))
