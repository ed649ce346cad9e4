"""The edit formats copy/gen programs are compared against, written from a gold edit and applied back.

- Aider-style SEARCH/REPLACE blocks; context grows one line on each side until the search text is the first
  match in the file as it stands when the block is applied (blocks apply in order, as Aider does).
  Applier: Aider's exact rule - the first occurrence of the search lines is replaced; a file without a
  final newline gets one first (Aider's `prep`), and marker lines end a section wherever they appear.
- Unified diffs as `diff -u` writes them (3 lines of context, "\\ No newline at end of file").
  Applier: as `patch` does without fuzz - each hunk's old lines must match exactly; its position is
  searched outward from the stated line (shifted by the previous hunks), so wrong line numbers are fine.
"""
import re
from difflib import SequenceMatcher

from copy_as_decode.core.document import split_lines

PATH = "doc"
HEAD, DIVIDER, UPDATED = "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"
FENCE = "```"
NO_NEWLINE = "\\ No newline at end of file\n"
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class FormatError(ValueError):
    """An edit in some format that does not apply to the document."""


def _opcodes(a: list[str], b: list[str]):
    return SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def _find(lines: list[str], part: list[str], start: int = 0) -> int:
    n = len(part)
    return next((i for i in range(start, len(lines) - n + 1) if lines[i:i + n] == part), -1)


def _block_text(lines: list[str]) -> str:
    # A block holds whole lines; a last line without newline gets one (the applier adds it to the file too).
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def to_search_replace(before: str, after: str) -> str:
    state, b = split_lines(before), split_lines(after)
    hunks = [list(op[1:]) for op in _opcodes(split_lines(before), b) if op[0] != "equal"]
    delta, out, k = 0, [], 0
    while k < len(hunks):
        i1, i2, j1, j2 = hunks[k]
        p1, p2, c = i1 + delta, i2 + delta, 0
        while True:
            s, e = max(0, p1 - c), min(len(state), p2 + c)
            if k + 1 < len(hunks) and e > hunks[k + 1][0] + delta:
                # The context would reach into the next change: make both one block.
                i2, j2 = hunks[k + 1][1], hunks[k + 1][3]
                p2 = i2 + delta
                del hunks[k + 1]
                continue
            if (s < e or not state) and _find(state, state[s:e]) == s:
                break
            c += 1
        search, replace = state[s:e], state[s:p1] + b[j1:j2] + state[p2:e]
        out.append(f"{PATH}\n{FENCE}\n{HEAD}\n{_block_text(search)}{DIVIDER}\n"
                   f"{_block_text(replace)}{UPDATED}\n{FENCE}\n")
        state[s:e] = replace
        delta += len(replace) - len(search)
        k += 1
    return "\n".join(out)


def has_marker_line(text: str) -> bool:
    """A line that reads as a block marker ends a SEARCH or REPLACE section early, wherever it stands."""
    return any(line.strip() in (HEAD, DIVIDER, UPDATED) for line in split_lines(text))


def parse_search_replace(text: str) -> list[tuple[list[str], list[str]]]:
    blocks, lines, i = [], split_lines(text), 0
    while i < len(lines):
        if lines[i].strip() != HEAD:
            i += 1
            continue
        sections = []
        for marker in (DIVIDER, UPDATED):
            i, start = i + 1, i + 1
            while i < len(lines) and lines[i].strip() != marker:
                i += 1
            if i == len(lines):
                raise FormatError(f"SEARCH/REPLACE block {len(blocks) + 1}: missing {marker!r}")
            sections.append(lines[start:i])
        blocks.append((sections[0], sections[1]))
        i += 1
    return blocks


def apply_search_replace(document: str, text: str) -> str:
    if document and not document.endswith("\n"):
        document += "\n"
    lines = split_lines(document)
    for k, (search, replace) in enumerate(parse_search_replace(text), 1):
        if not search:  # Aider: an empty search appends
            lines += replace
            continue
        if (at := _find(lines, search)) < 0:
            raise FormatError(f"SEARCH/REPLACE block {k}: search text not found")
        lines[at:at + len(search)] = replace
    return "".join(lines)


def to_udiff(before: str, after: str, context: int = 3) -> str:
    a, b = split_lines(before), split_lines(after)
    out = [f"--- a/{PATH}\n", f"+++ b/{PATH}\n"]
    for group in SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                out += [_diff_line(" ", line) for line in a[x1:x2]]
                continue
            out += [_diff_line("-", line) for line in a[x1:x2]]
            out += [_diff_line("+", line) for line in b[y1:y2]]
    return "".join(out) if len(out) > 2 else ""


def _range(start: int, stop: int) -> str:
    length = stop - start
    return f"{start + 1}" if length == 1 else f"{start if length == 0 else start + 1},{length}"


def _diff_line(prefix: str, line: str) -> str:
    return prefix + line if line.endswith("\n") else prefix + line + "\n" + NO_NEWLINE


def parse_udiff(text: str) -> list[tuple[int, list[str], list[str]]]:
    """Hunks as (stated 0-based old position, old lines, new lines); bodies are read by the header counts."""
    hunks, lines, i = [], split_lines(text), 0
    while i < len(lines):
        m = _HUNK.match(lines[i])
        i += 1
        if not m:
            continue
        start, old_n, new_n = int(m[1]), int(m[2] or 1), int(m[4] or 1)
        old, new = [], []
        while (len(old) < old_n or len(new) < new_n) and i < len(lines):
            tag, body = lines[i][0], lines[i][1:]
            i += 1
            if tag not in " -+":
                raise FormatError(f"hunk {len(hunks) + 1}: unexpected line {lines[i - 1]!r}")
            if i < len(lines) and lines[i] == NO_NEWLINE:
                body, i = body.removesuffix("\n"), i + 1
            if tag in " -":
                old.append(body)
            if tag in " +":
                new.append(body)
        if len(old) != old_n or len(new) != new_n:
            raise FormatError(f"hunk {len(hunks) + 1}: truncated")
        hunks.append((start if old_n == 0 else start - 1, old, new))
    return hunks


def apply_udiff(document: str, text: str) -> str:
    lines, offset, floor = split_lines(document), 0, 0
    for k, (stated, old, new) in enumerate(parse_udiff(text), 1):
        expected = min(max(stated + offset, floor), len(lines))
        at = _nearest_match(lines, old, expected, floor)
        if at < 0:
            raise FormatError(f"hunk {k}: context not found")
        lines[at:at + len(old)] = new
        offset, floor = at - stated + len(new) - len(old), at + len(new)
    return "".join(lines)


def _nearest_match(lines: list[str], old: list[str], expected: int, floor: int) -> int:
    """Like patch: try the expected line, then one after, one before, two after, ... never above `floor`."""
    last = len(lines) - len(old)
    for d in range(max(expected - floor, last - expected, 0) + 1):
        for at in (expected + d, expected - d):
            if floor <= at <= last and lines[at:at + len(old)] == old:
                return at
    return -1


FORMATS = {
    "search_replace": (to_search_replace, apply_search_replace),
    "udiff": (to_udiff, apply_udiff),
}
