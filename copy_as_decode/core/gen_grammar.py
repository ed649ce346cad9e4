"""The grammar of a gen item, `<gen>BODY</gen>`, in GBNF: the one source of it for both program grammars.

core/gbnf.py sends these rules to llama.cpp-style engines as they are; core/grammar.py reads them through
llguidance.gbnf_to_lark into the local matcher. No rule refers back to itself, so the converter turns the whole
gen into one lexeme: a mask inside a body then costs microseconds, where a character-by-character automaton of
the same language costs ~7 ms a token in llguidance 1.9.1.

A body is the text up to the first "</gen>"; it may not contain a `forbidden` word, and with `lines` it holds
at most that many lines (after the last allowed newline it can only close). Every word ("</gen>" and the
forbidden ones) starts with "<" and holds no other "<" and no newline, so each "<" of a body opens a chunk that
runs to the next "<", no word reaches past its chunk or its line, and a body is free text cut into lines and
chunks, each chunk checked alone: it may not start with a word.
"""
import functools
from dataclasses import dataclass

from .program import GEN_CLOSE, GEN_OPEN

# Forbidden in a gen body by the remote engine's default. "<gen", not "<gen>": the untrained 0.5B, kept from
# "<gen>", wrote "<gen/>" and went on repeating its line (docs/scale-out.md).
TAGS = ("<copy", "<gen")


@dataclass(frozen=True)
class GenRule:
    forbidden: tuple[str, ...] = ()  # words a body may not contain
    lines: int | None = None         # the most lines a body holds; None: any number

    def __post_init__(self):
        for word in self.words:
            if not word.startswith("<") or "<" in word[1:] or "\n" in word:
                raise ValueError(f"{word!r}: a word must start with '<' and hold no other '<' and no newline")

    @property
    def words(self) -> tuple[str, ...]:
        return (GEN_CLOSE,) + self.forbidden


def rules(rule: GenRule) -> list[str]:
    """GBNF rules defining `gen`, a whole gen item, with helper rules named g…: gt<k> is the rest of a chunk
    whose text after "<" is node k (`_nodes`)."""
    stops = "<" if rule.lines is None else "<\\n"  # what ends a chunk
    out = [f'gtext ::= [^{stops}]* ("<" gt0)*']  # a line (a whole body if unbounded) without a word
    nodes = _nodes(rule)
    for i, q in enumerate(nodes):
        nexts = sorted({w[1 + len(q)] for w in rule.words if w[1:].startswith(q) and len(w) > 1 + len(q)})
        alts = [f"[^{stops}{_class(nexts)}] [^{stops}]*"]  # a character that takes the chunk off every word
        alts += [f'"{_char(c)}" gt{nodes.index(q + c)}' for c in nexts if q + c in nodes]
        out.append(f"gt{i} ::= (" + " | ".join(alts) + ")?")
    if rule.lines is None:
        body = "gtext "
    else:
        out += [f"gb{k} ::= gtext {_after_line(k - 1)}" for k in range(1, rule.lines + 1)]
        body = f"gb{rule.lines} " if rule.lines else ""
    return out + [f'gen ::= "{_lit(GEN_OPEN)}" {body}"{_lit(GEN_CLOSE)}"']


def rest(rule: GenRule, partial: str, lines: int) -> str | None:
    """A GBNF expression over `rules(rule)` for the rest of an open gen, through its close: its body so far
    holds `lines` newlines and ends with `partial` (`open_word`). None when nothing can follow. Give it a rule
    of its own, so that llguidance's reading of the grammar makes it one lexeme, as it does `gen`."""
    close = [f'"{_lit(GEN_CLOSE[len(partial):])}"'] if partial and GEN_CLOSE.startswith(partial) else []
    left = None if rule.lines is None else rule.lines - lines  # lines the body may still start, this one included
    if left is not None and left < 0:
        return None
    if left == 0 and partial:  # after the last allowed newline only the close
        return close[0] if close else None
    if left == 0:
        body = ""
    elif partial:  # the rest of the chunk that `partial` opened, then more chunks
        body = f'gt{_nodes(rule).index(partial[1:])} ("<" gt0)* '
    else:
        body = "gtext "
    if left:
        body += _after_line(left - 1) + " "
    return "(" + " | ".join([f'{body}"{_lit(GEN_CLOSE)}"'] + close) + ")"


def open_word(rule: GenRule, body: str) -> str:
    """The end of `body` that begins a word: from its last "<" on, when that begins one; else ""."""
    tail = body[body.rfind("<"):] if "<" in body else ""
    return tail if any(w.startswith(tail) for w in rule.words) else ""


@functools.cache
def _nodes(rule: GenRule) -> list[str]:
    """What may follow a chunk's "<" while no word is complete: the proper beginnings of the words' tails (a
    word without its "<") that hold no whole tail."""
    tails = {w[1:] for w in rule.words}
    starts = {t[:k] for t in tails for k in range(len(t))}
    return sorted((q for q in starts if not any(q.startswith(t) for t in tails)), key=lambda q: (len(q), q))


def _after_line(k: int) -> str:
    """What may follow a line when `k` more lines are allowed after its newline."""
    return f'("\\n" gb{k})?' if k else '"\\n"?'


def _char(c: str) -> str:
    return {"\\": "\\\\", '"': '\\"', "\n": "\\n"}.get(c, c)


def _lit(s: str) -> str:
    return "".join(map(_char, s))


def _class(chars: list[str]) -> str:
    return "".join({"\\": "\\\\", "]": "\\]", "[": "\\[", "^": "\\x5e", "-": "\\x2d"}.get(c, c) for c in chars)
