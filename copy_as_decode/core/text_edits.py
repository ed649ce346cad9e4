"""Old text -> new text as a few minimal editor edits (what an LSP `WorkspaceEdit` carries).

Positions are (0-based line, character) with characters counted in code points and lines broken at "\\n"
only, as in document.split_lines; converting to an editor's UTF-16 columns is the caller's job.
All edits refer to the old text, are sorted and do not overlap (LSP semantics).
"""
import bisect
import re
from dataclasses import dataclass
from itertools import accumulate

from .document import split_lines
from .oracle import matching_runs


@dataclass(frozen=True)
class TextEdit:
    start_line: int
    start_char: int
    end_line: int
    end_char: int
    new_text: str


def text_edits(old: str, new: str) -> list[TextEdit]:
    """One edit per changed hunk of lines, shrunk to the characters that differ; [] when old == new."""
    if old == new:
        return []
    xs, ys = split_lines(old), split_lines(new)
    x_off = list(accumulate(map(len, xs), initial=0))
    y_off = list(accumulate(map(len, ys), initial=0))
    starts = _line_starts(old)
    edits = []
    x_done = y_done = 0
    for x, y, k in matching_runs(xs, ys) + [(len(xs), len(ys), 0)]:
        if x > x_done or y > y_done:
            edits.append(_hunk(old, new, x_off[x_done], x_off[x], y_off[y_done], y_off[y], starts))
        x_done, y_done = x + k, y + k
    return [e for e in edits if e is not None]


def _hunk(old: str, new: str, a0: int, a1: int, b0: int, b1: int, starts: list[int]) -> TextEdit | None:
    """old[a0:a1] -> new[b0:b1], without the characters both share at either end; None if nothing is left
    (the anchored diff of large texts may leave equal hunks)."""
    while a0 < a1 and b0 < b1 and old[a0] == new[b0]:
        a0, b0 = a0 + 1, b0 + 1
    while a0 < a1 and b0 < b1 and old[a1 - 1] == new[b1 - 1]:
        a1, b1 = a1 - 1, b1 - 1
    # never cut between "\r" and "\n": editors see "\r\n" as one line break
    if 0 < a0 and old[a0 - 1] == "\r" and old[a0:a0 + 1] == "\n":
        a0, b0 = a0 - 1, b0 - 1
    if a1 < len(old) and old[a1 - 1:a1] == "\r" and old[a1] == "\n":
        a1, b1 = a1 + 1, b1 + 1
    if a0 == a1 and b0 == b1:
        return None
    return TextEdit(*_position(starts, a0), *_position(starts, a1), new[b0:b1])


def apply_text_edits(old: str, edits: list[TextEdit]) -> str:
    """Apply edits that all refer to `old`; raises ValueError on positions outside it or overlapping edits."""
    starts = _line_starts(old)
    out, done = [], 0
    for e in sorted(edits, key=lambda e: (e.start_line, e.start_char, e.end_line, e.end_char)):
        a0, a1 = _offset(old, starts, e.start_line, e.start_char), _offset(old, starts, e.end_line, e.end_char)
        if a0 < done or a1 < a0:
            raise ValueError(f"edit {e} overlaps an earlier one or ends before it starts")
        out += [old[done:a0], e.new_text]
        done = a1
    return "".join(out) + old[done:]


def _line_starts(text: str) -> list[int]:
    """Offsets where lines begin; a text ending in "\\n" has an empty last line there, as editors show it."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset) - 1
    return line, offset - starts[line]


def _offset(text: str, starts: list[int], line: int, char: int) -> int:
    if not 0 <= line < len(starts):
        raise ValueError(f"line {line} outside 0-{len(starts) - 1}")
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)  # before the "\n"
    if not 0 <= char <= end - starts[line]:
        raise ValueError(f"character {char} past the end of line {line}")
    return starts[line] + char
