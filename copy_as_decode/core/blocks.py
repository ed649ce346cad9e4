"""The block of lines around a line, found from the text alone as a developer's eye finds it: by indentation
(a header line and the lines indented under it, with the line that closes it: `}`, `end`, `fi`, `done`) and
by blank lines (the run of lines between them, when its brackets balance). Any language, a file that does
not parse and a function too large to be a window all have one (core/windows.py: a cursor always bounds
the edit).
"""
import re

MIN_LINES = 6    # a smaller block is taken with the one around it: a window needs some context to edit in
MAX_LINES = 60   # a larger one is cut to this many lines around the line

_CLOSER = re.compile(r"\s*([})\]]|(end|fi|done|esac|until|endif|endfor|endwhile|endforeach|endswitch)\b|#\s*endif\b)")
# a line at the header's indentation that goes on with the same statement: `} else {`, `else:`, `except E:`
_GOES_ON = re.compile(r"\s*(\}.*\{\s*$|(else|elif|elsif|elseif|except|finally|catch|rescue|ensure)\b)")
_STRING = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`[^`]*`")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def around(lines: list[str], line: int, lo: int = 1, hi: int | None = None, max_lines: int = MAX_LINES) -> tuple[int, int]:
    """(first, last), 1-based and inclusive, of the smallest block of at least MIN_LINES lines that holds
    `line` within lines lo..hi, of at most `max_lines` lines: an indented block or a run between blank lines,
    else the largest that fits, else `max_lines` lines centred on `line`."""
    hi = len(lines) if hi is None else hi
    blocks = sorted(set(_indented(lines, line, lo, hi) + _paragraph(lines, line, lo, hi)), key=lambda b: b[1] - b[0])
    fits = [b for b in blocks if b[1] - b[0] < max_lines]
    big = [b for b in fits if b[1] - b[0] + 1 >= MIN_LINES]
    if big:
        return big[0]
    if fits:
        return fits[-1]
    first = max(lo, min(line - max_lines // 2, hi - max_lines + 1))
    return first, min(hi, first + max_lines - 1)


def _indent(text: str) -> int:
    return len(text.expandtabs(4)) - len(text.expandtabs(4).lstrip())


def _blank(lines: list[str], k: int) -> bool:
    return not lines[k - 1].strip()


def _indented(lines: list[str], line: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """The blocks that hold `line`, innermost first: each header line with the lines indented under it and
    the line that closes it at the header's indentation."""
    anchor = next((k for k in [*range(line, hi + 1), *range(line - 1, lo - 1, -1)] if not _blank(lines, k)), None)
    if anchor is None:
        return []
    out, header = [], anchor
    while header is not None:
        header = _statement_start(lines, header, lo)
        end = _body_end(lines, header, hi)
        if end > header or header != anchor:
            out.append((header, end))
        header = next((k for k in range(header - 1, lo - 1, -1)
                       if not _blank(lines, k) and _indent(lines[k - 1]) < _indent(lines[header - 1])), None)
    return [b for b in out if b[0] <= line <= b[1]]


def _statement_start(lines: list[str], header: int, lo: int) -> int:
    """`header` moved up from an `else` (`} else {`, `except E:`) to the line that begins its statement."""
    while _GOES_ON.match(lines[header - 1]):
        above = next((k for k in range(header - 1, lo - 1, -1) if not _blank(lines, k)
                      and _indent(lines[k - 1]) <= _indent(lines[header - 1])), None)
        if above is None or _indent(lines[above - 1]) < _indent(lines[header - 1]):
            break
        header = above
    return header


def _body_end(lines: list[str], header: int, hi: int) -> int:
    """The last line of `header`'s block: the last line indented under it, and the closer after it; an `else`
    (`} else {`, `except E:`) goes on with the statement."""
    depth, end = _indent(lines[header - 1]), header
    for k in range(header + 1, hi + 1):
        if _blank(lines, k):
            continue
        if _indent(lines[k - 1]) < depth:
            return end
        if _indent(lines[k - 1]) == depth:
            if end == header or not (_GOES_ON.match(lines[k - 1]) or _CLOSER.match(lines[k - 1])):
                return end
            if not _GOES_ON.match(lines[k - 1]):
                return k
        end = k
    return end


def _paragraph(lines: list[str], line: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """The run of non-blank lines around `line`, when its brackets balance."""
    if _blank(lines, line):
        return []
    first, last = line, line
    while first > lo and not _blank(lines, first - 1):
        first -= 1
    while last < hi and not _blank(lines, last + 1):
        last += 1
    return [(first, last)] if _balanced("".join(lines[first - 1:last])) else []


def _balanced(text: str) -> bool:
    """Whether every bracket outside simple string literals closes in order."""
    stack = []
    for ch in _STRING.sub("", text):
        if ch in _BRACKETS:
            stack.append(_BRACKETS[ch])
        elif ch in _BRACKETS.values() and (not stack or stack.pop() != ch):
            return False
    return not stack
