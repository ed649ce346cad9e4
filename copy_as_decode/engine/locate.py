"""Where an edit would land, without decoding it: the worker's `locate` (docs/worker-protocol.md), the CLI's
place line and the language server's pick.

The windows are core/windows.py's; where it has candidates (the search's hits, or several definitions of a
named name) the model chooses among them as a windowed edit does (engine/selectors/windowed.py
`model_choice`), with the probability it gave its choice. The answer says whether the place is decided:
it is when the selection, the cursor, a name or the search alone decides it, or the model is sure of the
search's first hit (`decisive`); else an editor offers the candidates for the user to pick, the search's first
hit first and the model's choice, when it differs, second.
The thresholds were set on the development cases of the locate corpora (docs/locate.md).
"""
from dataclasses import dataclass, field

from copy_as_decode.core import windows
from copy_as_decode.core.contract import Hooks
from copy_as_decode.core.document import split_lines
from copy_as_decode.engine.selectors.windowed import model_choice

# Where the search alone does not decide the place (core/search.py: no one symbol holds the code the instruction
# quotes, and no words match MARGIN times better than the next), the model's choice among its hits decides it
# only when it is the search's first hit and the model gives it at least SURE. A choice of another hit decides
# nothing: the search's first leads the pick, the model's choice comes second.
SURE = 0.9
NAMED = 0.5   # several definitions of a named name: the model's choice decides it at this probability


@dataclass
class Candidate:
    start: int
    end: int
    symbol: str
    first: str
    p: float | None = None

    def as_dict(self) -> dict:
        return {"lines": [self.start, self.end], "symbol": self.symbol, "first": self.first, "p": self.p}


@dataclass
class Place:
    windows: list[windows.Window]
    reason: str
    decisive: bool
    candidates: list[Candidate] = field(default_factory=list)
    lines: int = 0   # the document's
    chose: bool = False  # the model chose among candidates (an edit of this place then takes the first's lines)

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
        return Place(plan.windows, plan.reason, True, lines=len(text))
    pool = plan.candidates
    choice = model_choice(front, pool, text, instruction, hooks)
    symbol, p = choice if choice is not None else (pool[0], None)
    agrees = symbol is pool[0]
    # the first candidate: the model's choice of a definition, or among search hits the search's first, with
    # the model's choice second when it differs
    first = symbol if plan.named else pool[0]
    order = list(dict.fromkeys([first, symbol, *pool]))
    candidates = [_candidate(s, text, p if s is symbol else None) for s in order]
    if p is None:
        decisive, why = False, f"the search's first: {first.qualname} (the engine cannot choose)"
    elif plan.named:
        decisive, why = p >= NAMED, f"the model's choice: {symbol.qualname} (p={p:.2f})"
    else:
        decisive = agrees and p >= SURE
        why = (f"the search's first and the model's choice: {first.qualname} (p={p:.2f})" if agrees else
               f"the search's first: {first.qualname} (the model chose {symbol.qualname}, p={p:.2f})")
    window = windows.Window(candidates[0].start, candidates[0].end, (first.qualname,))
    if not decisive:
        why = f"not decided: {why}"
    return Place([window], why, decisive, candidates, len(text), chose=True)


def _candidate(symbol, lines: list[str], p: float | None) -> Candidate:
    end = symbol.end
    while end < len(lines) and not lines[end].strip():  # the window runs on through the blank lines after it
        end += 1
    first = next((line.strip() for line in lines[symbol.start - 1:symbol.end] if line.strip()), "")
    return Candidate(symbol.start, end, symbol.qualname, first[:120], None if p is None else round(p, 4))
