"""The edit-program language: `<copy lines="i-j"/>`, `<copy from="i:a" to="j:b"/>` and `<gen>...</gen>`.

    program := (item | blank)*          blank = whitespace between items, ignored
    item    := <copy lines="I-J"/>      input lines I..J (1-based, inclusive), verbatim with their endings
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


_NUM = r"(0|[1-9][0-9]*)"
_COPY_LINES = re.compile(rf'<copy lines="{_NUM}-{_NUM}"/>')
_COPY_SPAN = re.compile(rf'<copy from="{_NUM}:{_NUM}" to="{_NUM}:{_NUM}"/>')
_BLANK = re.compile(r"\s+")


def parse(source: str) -> list[Item]:
    items: list[Item] = []
    pos = 0
    while pos < len(source):
        if m := _BLANK.match(source, pos):
            pos = m.end()
        elif source.startswith(GEN_OPEN, pos):
            close = source.find(GEN_CLOSE, pos + len(GEN_OPEN))
            if close < 0:
                raise ProgramSyntaxError(source, len(source), '"</gen>" closing the <gen> opened at offset %d' % pos)
            items.append(Gen(source[pos + len(GEN_OPEN):close]))
            pos = close + len(GEN_CLOSE)
        elif m := _COPY_LINES.match(source, pos):
            items.append(Copy(int(m[1]), int(m[2])))
            pos = m.end()
        elif m := _COPY_SPAN.match(source, pos):
            items.append(CopySpan(*map(int, m.groups())))
            pos = m.end()
        elif source.startswith("<copy", pos):
            raise ProgramSyntaxError(source, pos, '<copy lines="I-J"/> or <copy from="I:A" to="J:B"/> (numbers without leading zeros)')
        else:
            raise ProgramSyntaxError(source, pos, '"<copy" or "<gen>"')
    return items


def format_item(item: Item) -> str:
    match item:
        case Copy(start, end):
            return f'<copy lines="{start}-{end}"/>'
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
