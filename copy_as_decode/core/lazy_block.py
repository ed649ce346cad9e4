"""A code block as a chat writes it: its fences taken off, and its lazy markers found.

Chat models answer "change this function" with a block that shows the changed parts and elides the rest with a
marker line in the language's comment style: `# ... existing code ...`, `// ... rest unchanged ...`,
`/* ... */`, `<!-- ... -->`, a bare `...`. Such a line must never land in the file (core/block_merge.py); it
says only that the file's own lines continue there.
"""
import re
from dataclasses import dataclass

from .document import split_lines

# a comment's text; a bare ellipsis line is the comment-less marker
_COMMENT = re.compile(r"^\s*(?:#+|//+|/\*+|<!--|\*|--)\s*(?P<text>.*?)\s*(?:\*+/|-->)?\s*$")
_ELLIPSIS = re.compile(r"^\s*(?:\.\.\.|…|\[\.\.\.\]|\(\.\.\.\))\s*$")
# what marker comments say besides (or instead of) an ellipsis
_ELIDED = re.compile(r"\b(existing (code|methods?|functions?|imports?|content|tests?|lines?)|rest of (the )?"
                     r"(code|file|class|function|module|section|document|methods?)|(remains?|stays?|is|are) "
                     r"(the same|unchanged)|unchanged|as before|same as before|omitted|elided|other (methods|"
                     r"functions|code|imports|sections))\b", re.I)
_FENCE = re.compile(r"^\s*(```+|~~~+)")
# a comment that names arguments and ends in a variadic one (`# Usage: del_rules PROTO MATCH ARGS...`): the
# ellipsis is the usage's, the comment the code's
_ARGUMENTS = re.compile(r"^usage:.*\w(?:\.\.\.|…)$", re.I)
MARKER_WORDS = 8  # the most words of a marker comment without an ellipsis ("rest of the method is the same")


@dataclass(frozen=True)
class Block:
    text: str            # the block without its fences, with "\n" line endings
    markers: frozenset   # 0-based indexes of its marker lines


def is_marker(line: str, document_lines: frozenset = frozenset()) -> bool:
    """Whether `line` elides code: a bare ellipsis, or a comment that is an ellipsis or says what it elides.
    A line the document itself holds (`document_lines`, stripped) is the document's, not a marker, unless it
    is a comment holding nothing but an ellipsis."""
    stripped = line.strip()
    if not stripped:
        return False
    m = _COMMENT.match(stripped)
    if m is not None and m.group("text") in ("...", "…"):
        return True  # a comment that is only an ellipsis elides, even where the file has one (in an example)
    if stripped in document_lines:
        return False
    if _ELLIPSIS.match(stripped):
        return True
    if m is None or stripped.startswith("*") and not stripped.startswith("*/"):
        return False  # a line inside a doc comment (`* ... left unchanged.`) is the comment's, not a marker
    text = m.group("text")
    if text.startswith(("...", "…")) or text.endswith(("...", "…")) and not _ARGUMENTS.search(text):
        return True
    # a marker says what it elides in a few words; a longer comment that says "unchanged" is the code's own
    return _ELIDED.search(text) is not None and len(text.split()) <= MARKER_WORDS


def _leader(line: str) -> str | None:
    """What opens a comment line (`--`, `//`, `#`), or None for a line that is no comment."""
    m = _COMMENT.match(line)
    return line.strip()[:m.start("text") - (len(line) - len(line.lstrip()))].strip() if m and line.strip() else None


_STUB = re.compile(r"\s*(?:@\S+\s+)*(?:async\s+)?(?:def|class)\b")


def read(block: str, document: str = "") -> Block:
    """The block as merged, with "\\n" line endings as both texts come (engine/request.py reads them): outer
    code fences off (a chat's ```python ... ```), and its marker lines. A bare `...` that is the whole body of
    a Python definition (the line before it opens a `def` or `class` and ends with `:`) is code, not a marker
    (a stub); under an `if` or `elif` it stands for the branch's body; so is a comment line without
    an ellipsis that goes on from the comment line above it."""
    lines = split_lines(block)
    solid = [k for k, line in enumerate(lines) if line.strip()]
    if len(solid) >= 2 and _FENCE.match(lines[solid[0]]) and _FENCE.match(lines[solid[-1]]) \
            and lines[solid[-1]].strip().strip("`~") == "":
        lines = lines[solid[0] + 1: solid[-1]]
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    own = frozenset(line.strip() for line in split_lines(document))
    markers = set()
    for k, line in enumerate(lines):
        if not is_marker(line, own):
            continue
        before = next((lines[j] for j in range(k - 1, -1, -1) if lines[j].strip()), "")
        if _ELLIPSIS.match(line) and before.rstrip().endswith(":") and _STUB.match(before):
            continue
        if k and k - 1 not in markers and _leader(line) is not None and _leader(lines[k - 1]) == _leader(line) \
                and not any(e in line for e in ("...", "…")):
            continue  # the rest of a comment the line before opens ("..., and fall\n-- back ..., as before.")
        markers.add(k)
    return Block("".join(lines), frozenset(markers))
