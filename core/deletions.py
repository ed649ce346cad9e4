"""What an edit deletes: lines lost, and whether it dropped the head or the tail of the document.

Small models answer a long file's edit with the part they mean to change (the edited function alone, or the
file from its first class on); applied, that deletes the rest. Gold edits almost never delete at the very
start or end of a document (measured over every shipped corpus, README "Nothing dropped"), so a finished
edit that does is the model skipping, and it changes nothing unless the instruction asks for a deletion.
"""
import difflib
import re

from .document import split_lines

# An instruction that asks for lines to go; only then may an edit delete at the head or tail.
_DELETING = re.compile(r"\b(remove|delete|drop|strip|cut|get rid of|erase|trim|truncate|shorten|clear)\b", re.I)


def _bare(text: str) -> list[str]:
    return [line.rstrip("\r\n") for line in split_lines(text)]


def _solid(lines: list[str]) -> int:
    return sum(bool(line.strip()) for line in lines)


def hunks(old: str, new: str) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) of every changed block, old lines [i1, i2) replaced by new lines [j1, j2)."""
    a, b = _bare(old), _bare(new)
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in ops if tag != "equal"]


def deleted_lines(old: str, new: str) -> int:
    """Non-blank lines of `old` that `new` drops: per changed block, how many more it takes than it gives."""
    a, b = _bare(old), _bare(new)
    return sum(max(0, _solid(a[i1:i2]) - _solid(b[j1:j2])) for i1, i2, j1, j2 in hunks(old, new))


def lines_lost(old: str, new: str, gold: str) -> int:
    """Lines the edit deleted beyond those the gold edit deleted (0 when it deleted no more than the gold)."""
    return max(0, deleted_lines(old, new) - deleted_lines(old, gold))


SKIP_EXCESS = 3


def skipped_end(old: str, new: str) -> str | None:
    """'head' when the first changed block drops the document's start (only blank lines before it), 'tail'
    when the last one drops its end; else None. A block drops lines when those it removes that appear nowhere
    in `new` outnumber the lines it writes in their place by SKIP_EXCESS, or by one when it writes nothing.
    Measured over every shipped corpus (README "Nothing dropped"): gold edits at the ends replace a few lines
    with fewer (a fix that merges two lines, a reworded docstring) or move them, and never do that."""
    a, b = _bare(old), _bare(new)
    blocks = hunks(old, new)
    if not blocks:
        return None
    kept = {line.strip() for line in b}

    def drops(i1, i2, j1, j2) -> bool:
        gone = sum(1 for line in a[i1:i2] if line.strip() and line.strip() not in kept)
        written = _solid(b[j1:j2])
        return gone - written >= (SKIP_EXCESS if written else 1)

    if not _solid(a[:blocks[0][0]]) and drops(*blocks[0]):
        return "head"
    if not _solid(a[blocks[-1][1]:]) and drops(*blocks[-1]):
        return "tail"
    return None


def asks_deletion(instruction: str) -> bool:
    return _DELETING.search(instruction) is not None
