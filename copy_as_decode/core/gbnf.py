"""The program grammar in GBNF, for inference engines that take llama.cpp grammars (llama.cpp; vLLM and
SGLang read the same notation through xgrammar), written afresh for each completion request.

A remote edit is a chain of completions: each one decodes until a copy tag closes, the copied lines are
appended to the prompt, and the next completion continues from there. So each request's grammar starts where
the program stands (`State`) and ends right after the next copy tag's `"/>`: after it only the end of the
sequence is allowed, which a stop string on `"/>` cuts short. Because every request knows how many lines are
already spent, the line numbers are exact, as in core/grammar.py: a copy starts after the last copied line,
ends at or after its start, and stays within 1..n; numbers have no leading zeros; a copy is offered only while
a line remains. Gen bodies cannot contain "</gen>", nor (unless `tags_in_gen`) "<copy" or "<gen": an untrained
model types copy tags into a gen and goes on rewriting the file there. The gen rules are core/gen_grammar.py's,
which the local grammar (core/grammar.py) reads too, so both allow the same gens.

The end number depends on the start number, so the start is spelled through a decimal trie (one rule per
prefix) whose leaves lead to the end range of that start: about 2 rules per remaining line. Above
ORDERED_MAX_LINES remaining lines the copy is split over two requests instead: the first grammar ends after
`<copy lines="I-` (the engine then samples the end of sequence: one extra forward per copy), the next one
knows I and allows ends I..n. The resolver checks the order again either way.

With `moves`, a request also allows a moved copy `<copy lines="I-J" indent="S"/>` (core/program.py) wherever
a copy may start, even once every line is spent: any 1 <= I <= J <= n through a second trie over all n lines,
S one of 0, +1..+16, -1..-16. It does not advance the order (`State.last` counts in-order copies only). Moved
copies are offered only up to ORDERED_MAX_LINES (`ordered_max`) lines, so they never meet a split copy.

Gens are bounded so that a model that starts rewriting the file inside a gen has to stop: a body holds at
most `gen_lines` newlines (after the last one it can only close), and a gen is never followed by another
gen (two gens in a row say what one says). Between two copies a program therefore writes at most
`gen_lines` lines. None lifts the bound, as every named rule of the local grammar does (core/grammar.py takes
a bound through the same GenRule).
"""
from dataclasses import dataclass

from copy_as_decode.core import gen_grammar
from copy_as_decode.core.gen_grammar import TAGS, GenRule
from copy_as_decode.core.program import (
    COPY_CLOSE,  # noqa: F401 (the stop string of engine/remote/client.py)
    GEN_CLOSE,
    GEN_OPEN,
    Copy,
    CopySpan,
    Gen,
    Item,
    copy_start,
)

ORDERED_MAX_LINES = 2000  # ~100 KB of grammar at this size; llama.cpp parses it per request in a few ms
SHIFT_MAX = 16  # a moved copy's indent: 0, +1..+16 or -1..-16 (core/grammar.py's too)


@dataclass(frozen=True)
class State:
    """Where a program stands between two requests.

    kind "between": after a complete item (or at the start); "gen": inside a gen body holding `lines` newlines
    whose text ends with `partial`, the longest end that begins "</gen>" (or a tag); "copy_end": after
    `<copy lines="START-`.
    """
    kind: str = "between"
    last: int = 0           # lines 1..last are spent
    first: bool = True      # nothing written yet (no "\n" may lead)
    newline: bool = False   # between items, the one separating "\n" is already written
    partial: str = ""
    start: int = 0
    lines: int = 0
    after_gen: bool = False  # between items, the last one is a gen


class ProgramStateError(ValueError):
    """The program text is not a prefix of any program the grammar allows."""


def state_after(items: list[Item], pending: str, tags_in_gen: bool = False) -> State:
    """The state after complete `items` and the unfinished text `pending` that follows them. Moved copies
    leave `last` alone; a request never ends inside one (the stop string `"/>` closes it), so a pending
    moved tag is a ProgramStateError like any other text no request ends with."""
    last = max((it.end for it in items if isinstance(it, Copy) and not it.moved), default=0)
    if any(isinstance(it, CopySpan) for it in items):
        raise ProgramStateError("span copies are not part of the generated program grammar")
    first = not items
    body = pending.lstrip("\n")
    lead = pending[: len(pending) - len(body)]
    if len(lead) > (0 if first else 1):
        raise ProgramStateError(f"unexpected {lead!r} between items")
    if not body:
        return State("between", last, first, newline=bool(lead), after_gen=bool(items) and isinstance(items[-1], Gen))
    if body.startswith(GEN_OPEN):
        text, gens = body[len(GEN_OPEN):], _gens(tags_in_gen)
        if GEN_CLOSE in text:
            raise ProgramStateError("a closed gen was not reported as complete")
        if tag := next((t for t in gens.forbidden if t in text), None):
            raise ProgramStateError(f"{tag!r} inside a gen body")
        return State("gen", last, partial=gen_grammar.open_word(gens, text), lines=text.count("\n"))
    if (start := copy_start(body)) is not None:
        return State("copy_end", last, start=start)
    raise ProgramStateError(f"cannot continue a program from {body[:40]!r}")


def request_grammar(n_lines: int, state: State = State(), ordered_max: int | None = None,
                    gen_lines: int | None = None, tags_in_gen: bool = False, moves: bool = False) -> str:
    """GBNF for the next request: from `state` up to and including the next copy's `"/>`, or the program's end;
    gen bodies of at most `gen_lines` newlines, none after another gen (None: unbounded), without "<copy" and
    "<gen" unless `tags_in_gen`; with `moves`, moved copies too while n_lines <= ordered_max."""
    gens = _gens(tags_in_gen, gen_lines)
    n, last = n_lines, state.last
    lo = last + 1
    limit = ORDERED_MAX_LINES if ordered_max is None else ordered_max
    two_phase = n - last > limit
    moving = moves and n <= limit  # so a moved copy never meets a split copy
    copies = last < n or moving  # some copy may follow
    bounded = gen_lines is not None
    tail = "aftergen" if bounded else "after"  # what may follow a gen
    if state.kind == "copy_end":
        if not lo <= state.start <= n:
            raise ProgramStateError(f"copy start {state.start} outside {lo}-{n}")
        root = f"{_range_expr(state.start, n)} close"
    elif state.kind == "gen":
        if (rest := gen_grammar.rest(gens, state.partial, state.lines)) is None:
            raise ProgramStateError(f"a gen body of more than {gen_lines} lines")
        root = f"genrest {tail}"
    elif state.first:
        root = "item?"
    elif state.after_gen and bounded:
        if state.newline and not copies:
            raise ProgramStateError("nothing may follow a gen once every line is spent")
        root = "copy" if state.newline else "aftergen"
    else:
        root = "item" if state.newline else "after"
    rules = [
        "root ::= " + root,
        'after ::= ("\\n"? item)?',
        f"item ::= gen {tail}" + (" | copy" if copies else ""),
        'close ::= "\\"/>"',
    ]
    if bounded:
        rules.append('aftergen ::= ("\\n"? copy)?' if copies else 'aftergen ::= ""')
    rules += gen_grammar.rules(gens) + ([f"genrest ::= {rest}"] if state.kind == "gen" else [])
    starts = []  # what may follow `<copy lines="`
    if last < n:
        if two_phase:
            starts.append(f'{_range_expr(lo, n)} "-"')
        else:
            starts.append("s")
            rules += _ordered(lo, n)
    if moving:
        starts.append("ms")
        rules += _ordered(1, n, "m", "mclose")
        rules += [f'mclose ::= "\\" indent=\\"" ("0" | [-+] {_range_expr(1, SHIFT_MAX)}) close']
    if starts:
        rules.append('copy ::= "<copy lines=\\"" ' + (starts[0] if len(starts) == 1 else f"({' | '.join(starts)})"))
    return "\n".join(rules) + "\n"


def _gens(tags_in_gen: bool, gen_lines: int | None = None) -> GenRule:
    return GenRule(() if tags_in_gen else TAGS, gen_lines)


def _ordered(lo: int, n: int, prefix: str = "", close: str = "close") -> list[str]:
    """Trie rules {prefix}s<digits> spelling a start I in lo..n, each complete start going on to {prefix}e<I>
    (ends I..n, then `close`)."""
    rules = []
    s, e = prefix + "s", prefix + "e"

    def child(c: int) -> str:
        return f"{s}{c}" if _viable_longer(c, lo, n) else f'"-" {e}{c}'

    def node(p: int) -> None:
        alts = [f'"-" {e}{p}'] if p and lo <= p <= n else []
        for d in range(0 if p else 1, 10):
            c = p * 10 + d
            if _viable(c, lo, n):
                alts.append(f'"{d}" {child(c)}')
                if _viable_longer(c, lo, n):
                    node(c)
        rules.append(f"{s}{p or ''} ::= " + " | ".join(alts))

    node(0)
    rules += [f"{e}{q} ::= {_range_expr(q, n)} {close}" for q in range(lo, n + 1)]
    return rules


def _viable(p: int, lo: int, hi: int) -> bool:
    """Some number in lo..hi is spelled with p's digits first (p itself included)."""
    return lo <= p <= hi or _viable_longer(p, lo, hi)


def _viable_longer(p: int, lo: int, hi: int) -> bool:
    """Some number in lo..hi is spelled as p's digits followed by at least one more digit."""
    a, b = p * 10, p * 10 + 9
    while a <= hi:
        if b >= lo:
            return True
        a, b = a * 10, b * 10 + 9
    return False


def _range_expr(lo: int, hi: int) -> str:
    """A GBNF expression for the decimal numbers lo..hi (1 <= lo <= hi), without leading zeros."""
    alts = []
    for width in range(len(str(lo)), len(str(hi)) + 1):
        a, b = max(lo, 10 ** (width - 1)), min(hi, 10 ** width - 1)
        if a <= b:
            alts += _fixed(str(a), str(b))
    return alts[0] if len(alts) == 1 else "(" + " | ".join(alts) + ")"


def _fixed(a: str, b: str) -> list[str]:
    """Digit strings of equal width from a to b, as GBNF sequences."""
    if not a:
        return [""]
    if a[0] == b[0]:
        return [_seq(f'"{a[0]}"', rest) for rest in _fixed(a[1:], b[1:])]
    out, lo_d, hi_d = [], int(a[0]), int(b[0])
    low_full, high_full = set(a[1:]) <= {"0"}, set(b[1:]) <= {"9"}
    first_mid = lo_d if low_full else lo_d + 1
    last_mid = hi_d if high_full else hi_d - 1
    if not low_full:
        out += [_seq(f'"{lo_d}"', rest) for rest in _fixed(a[1:], "9" * (len(a) - 1))]
    if first_mid <= last_mid:
        out.append(_seq(_cls(first_mid, last_mid), " ".join(["[0-9]"] * (len(a) - 1))))
    if not high_full:
        out += [_seq(f'"{hi_d}"', rest) for rest in _fixed("0" * (len(b) - 1), b[1:])]
    return out


def _cls(a: int, b: int) -> str:
    return f'"{a}"' if a == b else f"[{a}-{b}]"


def _seq(head: str, rest: str) -> str:
    return f"{head} {rest}".strip()

