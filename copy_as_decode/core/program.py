"""The edit-program language: `<copy lines="i-j"/>`, its moving form `<copy lines="i-j" indent="s"/>`,
`<copy from="i:a" to="j:b"/>` and `<gen>...</gen>`.

    program := (item | blank)*          blank = whitespace between items, ignored
    item    := <copy lines="I-J"/>      input lines I..J (1-based, inclusive), verbatim with their endings
             | <copy lines="I-J" indent="S"/>   a moved copy: input lines I..J anywhere in the input, outside
                                        the order of the other copies, each shifted by S columns (S = 0, +K
                                        or -K): +K puts K spaces before every line that holds more than
                                        blanks, -K takes up to K leading spaces or tabs off every line. A
                                        method moved out of its class is `indent="-4"`: the same lines, not
                                        a rewrite of them
             | <copy from="I:A" to="J:B"/>   input text from line I column A to line J column B
                                        (0-based code-point columns, B exclusive; the token-level extension)
             | <gen>TEXT</gen>          TEXT verbatim; it cannot contain "</gen>", so the printer splits
                                        such text across adjacent gens ("</ge" + "n>")

Numbers have no leading zeros. The parser reports the offset, line and column of the first error and
what was expected there.
"""
import re
from dataclasses import dataclass

GEN_OPEN, GEN_CLOSE = "<gen>", "</gen>"


@dataclass(frozen=True)
class Copy:
    start: int
    end: int
    indent: int | None = None  # None: a copy in order; a number: a moved copy, shifted by that many columns

    @property
    def moved(self) -> bool:
        return self.indent is not None


@dataclass(frozen=True)
class CopySpan:
    start_line: int
    start_col: int
    end_line: int
    end_col: int


@dataclass(frozen=True)
class Gen:
    text: str


Item = Copy | CopySpan | Gen


class ProgramSyntaxError(ValueError):
    def __init__(self, source: str, offset: int, expected: str):
        line = source.count("\n", 0, offset) + 1
        col = offset - (source.rfind("\n", 0, offset) + 1) + 1
        found = repr(source[offset:offset + 12]) if offset < len(source) else "end of program"
        super().__init__(f"program line {line}, column {col}: expected {expected}, found {found}")
        self.offset, self.line, self.column, self.expected = offset, line, col, expected


_NUM = r"(0|[1-9][0-9]*)"  # no leading zeros; 0 is a column, never a line (the resolver checks ranges)
_SHIFT = r"(0|[-+][1-9][0-9]*)"
_SHIFT_BEGINNING = r"(?:[-+]|(?:0|[-+][1-9][0-9]*)"  # closed by _beginnings
COPY_OPEN, COPY_CLOSE = '<copy lines="', '"/>'
INDENT = '" indent="'
_LINES = (COPY_OPEN, _NUM, "-", _NUM, COPY_CLOSE)
_MOVE = (COPY_OPEN, _NUM, "-", _NUM, INDENT, _SHIFT, COPY_CLOSE)
_SPAN = ('<copy from="', _NUM, ":", _NUM, '" to="', _NUM, ":", _NUM, COPY_CLOSE)


def _regex(parts: tuple[str, ...]) -> str:
    return "".join(p if p in (_NUM, _SHIFT) else re.escape(p) for p in parts)


def _beginnings(parts: tuple[str, ...]) -> str:
    """A regex for every beginning of the tag that `parts` spell, the empty one and the whole tag included."""
    if not parts:
        return ""
    head, rest = parts[0], _beginnings(parts[1:])
    if head == _NUM:  # a beginning of a number is a number
        return f"(?:{_NUM}{rest})?"
    if head == _SHIFT:  # a sign alone, or a whole shift
        return f"{_SHIFT_BEGINNING}{rest})?"
    cut = "|".join(re.escape(head[:k]) for k in range(1, len(head)))
    return f"(?:{cut}|{re.escape(head)}{rest})?"


_COPY_LINES, _COPY_SPAN = re.compile(_regex(_LINES)), re.compile(_regex(_SPAN))
_COPY_MOVE = re.compile(_regex(_MOVE))
_COPY_START = re.compile(_regex(_LINES[:3]))
_TAG_BEGINNING = re.compile(f"{_beginnings(_LINES)}|{_beginnings(_MOVE)}|{_beginnings(_SPAN)}")
_BLANK = re.compile(r"\s+")


def next_item(source: str, pos: int = 0) -> tuple[Item | None, int]:
    """The item after the blanks at `pos` and the offset just past it; or (None, where that item starts) when
    `source` ends before the item is complete (len(source) when only blanks are left). Raises
    ProgramSyntaxError where no item can start. The one reader of program text: `parse` reads whole programs
    with it, engine/decoding/tracker.py the text still being decoded."""
    if m := _BLANK.match(source, pos):
        pos = m.end()
    if pos == len(source):
        return None, pos
    if source.startswith(GEN_OPEN, pos):
        close = source.find(GEN_CLOSE, pos + len(GEN_OPEN))
        if close < 0:
            return None, pos
        return Gen(source[pos + len(GEN_OPEN):close]), close + len(GEN_CLOSE)
    if m := _COPY_LINES.match(source, pos):
        return Copy(int(m[1]), int(m[2])), m.end()
    if m := _COPY_MOVE.match(source, pos):
        return Copy(int(m[1]), int(m[2]), int(m[3])), m.end()
    if m := _COPY_SPAN.match(source, pos):
        return CopySpan(*map(int, m.groups())), m.end()
    if GEN_OPEN.startswith(source[pos:pos + len(GEN_OPEN)]) or _TAG_BEGINNING.fullmatch(source, pos):
        return None, pos
    raise _error(source, pos)


def copy_start(text: str) -> int | None:
    """I when `text` is exactly `<copy lines="I-`, the point where a copy's end is still to be written."""
    return int(m[1]) if (m := _COPY_START.fullmatch(text)) else None


def parse(source: str) -> list[Item]:
    items: list[Item] = []
    item, pos = next_item(source)
    while item is not None:
        items.append(item)
        item, pos = next_item(source, pos)
    if pos < len(source):
        raise _error(source, pos)
    return items


def _error(source: str, pos: int) -> ProgramSyntaxError:
    """What the item at `pos` lacks: it is unfinished or cannot be an item at all."""
    if source.startswith(GEN_OPEN, pos):
        return ProgramSyntaxError(source, len(source), f'"</gen>" closing the <gen> opened at offset {pos}')
    if source.startswith("<copy", pos):
        return ProgramSyntaxError(source, pos, '<copy lines="I-J"/>, <copy lines="I-J" indent="S"/> or '
                                               '<copy from="I:A" to="J:B"/> (numbers without leading zeros)')
    return ProgramSyntaxError(source, pos, '"<copy" or "<gen>"')


def format_item(item: Item) -> str:
    match item:
        case Copy(start, end, None):
            return f"{COPY_OPEN}{start}-{end}{COPY_CLOSE}"
        case Copy(start, end, shift):
            return f"{COPY_OPEN}{start}-{end}{INDENT}{shift:+d}{COPY_CLOSE}" if shift else \
                f"{COPY_OPEN}{start}-{end}{INDENT}0{COPY_CLOSE}"
        case CopySpan(a, b, c, d):
            return f'<copy from="{a}:{b}" to="{c}:{d}"/>'
        case Gen(text):
            # "</gen>" inside the text is split across two gens; the resolver concatenates them again.
            return "".join(f"{GEN_OPEN}{part}{GEN_CLOSE}" for part in _split_gen(text))
    raise TypeError(item)


def _split_gen(text: str) -> list[str]:
    # "a</gen>b" -> ["a</ge", "n>b"]: each piece is a legal gen body and they concatenate back to text.
    parts, start = [], 0
    while (k := text.find(GEN_CLOSE, start)) >= 0:
        parts.append(text[start:k + 4])
        start = k + 4
    return parts + [text[start:]]


def format_program(items: list[Item], sep: str = "\n") -> str:
    """Canonical text: one item per line. `sep=""` gives the compact form the engine emits."""
    return sep.join(format_item(item) for item in items)
