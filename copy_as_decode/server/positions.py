"""LSP positions <-> code-point offsets, and core TextEdits -> LSP TextEdits.

LSP positions count lines by the protocol's line breaks ("\\r\\n", "\\n", "\\r") and characters in the
negotiated encoding's code units (UTF-16 unless the client offered UTF-8 or UTF-32). The core counts lines by
"\\n" only and characters in code points. Everything is converted through code-point offsets into the
document, so the two line conventions never need to agree; the unit counting is pygls's position codec.
"""
import re
from bisect import bisect_right
from dataclasses import dataclass

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

_LSP_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """Positions in one text under one position encoding."""

    def __init__(self, text: str, encoding=types.PositionEncodingKind.Utf16):
        self.text = text
        self.codec = PositionCodec(encoding)
        self.starts = [0] + [m.end() for m in _LSP_BREAK.finditer(text)]
        # content end of each line (before its break)
        self.ends = [m.start() for m in _LSP_BREAK.finditer(text)] + [len(text)]

    def offset_at(self, position: types.Position) -> int:
        """Code-point offset of a client position; characters past the line end clamp to it, lines past
        the end of the text give its end."""
        if position.line < 0:
            return 0
        if position.line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[position.line], self.ends[position.line]
        line = self.text[start:end]
        want = position.character
        if line.isascii() or self.codec.client_num_units(line) == len(line):
            return start + min(max(want, 0), len(line))
        units = 0
        for k, ch in enumerate(line):
            if units >= want:
                return start + k
            units += self.codec.impl.code_units_for_char(ch)
        return end

    def position_at(self, offset: int) -> types.Position:
        """Client position of a code-point offset (an offset inside a line break maps to the line's end)."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        stop = min(offset, self.ends[line])
        return types.Position(line=line, character=self.codec.client_num_units(self.text[start:stop]))

    def range_offsets(self, rng: types.Range) -> tuple[int, int]:
        a, b = self.offset_at(rng.start), self.offset_at(rng.end)
        return (a, b) if a <= b else (b, a)


def line_starts(text: str) -> list[int]:
    """Offsets where the core's lines ("\\n"-terminated) begin; one more entry for the end of the text
    when it ends with a newline (the empty last line a TextEdit may point at)."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen [start, end) to whole "\\n"-terminated lines. An end at the very start of a line (a selection
    that ends at column 0) does not take that line, unless the range is empty."""
    a = text.rfind("\n", 0, start) + 1
    if end > start and end > 0 and text[end - 1] == "\n":
        b = end
    elif end > start and text[end - 1:end + 1] == "\r\n":
        b = end + 1  # ends between "\r" and "\n"
    else:
        nl = text.find("\n", end)
        b = len(text) if nl < 0 else nl + 1
    return a, max(a, b)


def selected_lines(text: str, index: LineIndex, rng: types.Range) -> list[int]:
    """[first, last]: the core's lines (1-based, inclusive) a selection covers, whole (whole_lines)."""
    start, end = whole_lines(text, *index.range_offsets(rng))
    first = _clamped(text, text.count("\n", 0, start) + 1)
    last = first + text.count("\n", start, end) - (1 if text[start:end].endswith("\n") else 0)
    return [first, _clamped(text, max(first, last))]


def line_of(text: str, index: LineIndex, position: types.Position) -> int:
    """The core's line (1-based) a position lies on; the empty line after a final line break is the last."""
    return _clamped(text, text.count("\n", 0, index.offset_at(position)) + 1)


def _clamped(text: str, line: int) -> int:
    return max(1, min(line, text.count("\n") + (1 if text and not text.endswith("\n") else 0)))


def to_lsp_edits(full_text: str, base: int, core_edits, index: LineIndex) -> list[types.TextEdit]:
    """Core TextEdits made on `full_text[base:...]` (lines and code points relative to that slice) ->
    LSP TextEdits on `full_text` in the index's encoding.

    An edit that starts or ends between the "\\r" and "\\n" of a CRLF (a position LSP cannot name) is
    widened over that break, with the break's characters added to its new text.
    """
    starts = line_starts(full_text[base:])
    out = []
    for e in core_edits:
        a = base + starts[e.start_line] + e.start_char if e.start_line < len(starts) else len(full_text)
        b = base + starts[e.end_line] + e.end_char if e.end_line < len(starts) else len(full_text)
        new = e.new_text
        if 0 < a < len(full_text) and full_text[a - 1] == "\r" and full_text[a] == "\n":
            a -= 1
            new = "\r" + new
        if 0 < b < len(full_text) and full_text[b - 1] == "\r" and full_text[b] == "\n":
            b += 1
            new = new + "\n"
        out.append(types.TextEdit(range=types.Range(start=index.position_at(a), end=index.position_at(b)),
                                  new_text=new))
    return out


@dataclass(frozen=True)
class Hunk:
    """The whole lines one edit touches: `old` lines from line `first` (0-based) become `new` lines."""
    first: int
    old: int
    new: int

    @property
    def changed(self) -> int:
        """Lines a reader has to look at: a hunk replacing 3 lines with 5 counts 5."""
        return max(self.old, self.new)

    @property
    def label(self) -> str:
        """In words: "line 42: replace 1 line", "line 7: insert 2 lines", "lines 10–12: delete 3 lines"."""
        where = f"line {self.first + 1}" if self.old <= 1 else f"lines {self.first + 1}–{self.first + self.old}"
        if not self.old:
            return f"{where}: insert {_lines(self.new)}"
        if not self.new:
            return f"{where}: delete {_lines(self.old)}"
        return f"{where}: replace {_lines(self.old)}" + (f" with {self.new}" if self.new != self.old else "")


def hunk(index: LineIndex, edit: types.TextEdit) -> Hunk:
    """The lines `edit` (a position range in the index's text) replaces and how many take their place.
    An insertion at a line start that ends with a line break touches no line; a range that ends at a
    line start does not touch that line."""
    a, b = index.range_offsets(edit.range)
    first = bisect_right(index.starts, a) - 1
    if a == b == index.starts[first] and edit.new_text.endswith(("\n", "\r")):
        return Hunk(first, 0, _count_lines(edit.new_text))
    last = bisect_right(index.starts, b) - 1
    if b > a and b == index.starts[last]:
        last -= 1
    start = index.starts[first]
    end = index.starts[last + 1] if last + 1 < len(index.starts) else len(index.text)
    new = index.text[start:a] + edit.new_text + index.text[b:end]
    return Hunk(first, _count_lines(index.text[start:end]), _count_lines(new))


def _count_lines(text: str) -> int:
    """Lines in `text`, counting a last one without a line break."""
    return len(_LSP_BREAK.findall(text)) + int(bool(text) and not text.endswith(("\n", "\r")))


def _lines(n: int) -> str:
    return f"{n} line{'s' if n != 1 else ''}"


def apply_lsp_edits(text: str, edits: list[types.TextEdit], encoding=types.PositionEncodingKind.Utf16) -> str:
    """Apply LSP TextEdits (positions on `text`, non-overlapping) the way an editor does."""
    index = LineIndex(text, encoding)
    spans = sorted(((*index.range_offsets(e.range), e.new_text) for e in edits), key=lambda s: s[:2])
    out, pos = [], 0
    for a, b, new in spans:
        if a < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:a])
        out.append(new)
        pos = b
    out.append(text[pos:])
    return "".join(out)
