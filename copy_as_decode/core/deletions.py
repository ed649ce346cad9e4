"""What an edit deletes: lines lost, and the runs of lines it drops unasked.

Small models answer a long file's edit with the part they mean to change (the edited function alone, or the
file from its first class on), or replace a whole function with a call to another; applied, that deletes
the rest. Gold edits that ask for no deletion never drop a run of lines (measured over every shipped corpus,
tests/test_deletions.py), so a finished edit that does is the model skipping, and it changes nothing unless
the instruction asks for a deletion. In code the same holds for each statement, however short
(core/statements.py): a dropped `if` block beside a fix is a drop too.
"""
import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

from .document import bare, split_lines
from .statements import dropped

# An instruction that asks for lines to go; only then may an edit delete at the head or tail.
_DELETING = re.compile(r"\b(remove|delete|drop|strip|cut(?! off)|get rid of|erase|trim|truncate|shorten|shorter|clear|"
                       r"simplif\w*|condense|collapse|consolidate|inline|merge|should(?: not|n't) be (?:there|here))\b",
                       re.I)
# An instruction that asks for a fix and says nothing of what to change: taking out the wrong statement may be the
# fix (HumanEvalFix's "Fix bugs in fib." whose bug is an extra statement), so the statement rule does not hold;
# the line rule does.
_OPEN_FIX = re.compile(r"^\W*fix (?:the |all )?(?:bugs?|errors?|issues?)(?: in [`\w.()]+)?\W*$", re.I)


def _bare(text: str) -> list[str]:
    return [bare(line) for line in split_lines(text)]


def _solid(lines: list[str]) -> int:
    return sum(bool(line.strip()) for line in lines)


@lru_cache(maxsize=4)  # an edit's checks diff the same two texts several times (engine/front.py)
def opcodes(old: str, new: str) -> tuple:
    """difflib's opcodes of the two texts' lines (without their endings)."""
    return tuple(difflib.SequenceMatcher(None, _bare(old), _bare(new), autojunk=False).get_opcodes())


def hunks(old: str, new: str) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) of every changed block, old lines [i1, i2) replaced by new lines [j1, j2)."""
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in opcodes(old, new) if tag != "equal"]


def deleted_lines(old: str, new: str) -> int:
    """Non-blank lines of `old` that `new` drops: per changed block, how many more it takes than it gives."""
    a, b = _bare(old), _bare(new)
    return sum(max(0, _solid(a[i1:i2]) - _solid(b[j1:j2])) for i1, i2, j1, j2 in hunks(old, new))


def lines_lost(old: str, new: str, gold: str) -> int:
    """Lines the edit deleted beyond those the gold edit deleted (0 when it deleted no more than the gold)."""
    return max(0, deleted_lines(old, new) - deleted_lines(old, gold))


SKIP_EXCESS = 3   # at the head or the tail: lines removed beyond those written (1 when it writes nothing)
DROP_EXCESS = 8   # anywhere else (gold edits of the shipped corpora go up to 5 there: a prose rewrite)
JOIN_GAP = 2      # changed blocks this few kept non-blank lines apart count as one


@dataclass(frozen=True)
class Drop:
    """A changed block that drops lines: old lines `first`..`last` (1-based), `lost` non-blank lines of which
    appear nowhere in the result, beyond those written in their place; `where` is head, tail or middle, or
    `statement` for one statement the result drops (`kind`: the parser's name for it)."""
    first: int
    last: int
    lost: int
    where: str
    kind: str = ""

    def describe(self, offset: int = 0, whole: str = "file") -> str:
        """In words, its lines moved by `offset` (a window's drops in the document's numbers)."""
        part = {"head": f"the {whole}'s head: ", "tail": f"the {whole}'s tail: "}.get(self.where, "")
        first, last = self.first + offset, self.last + offset
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        if self.where == "statement":
            return f"{span} (a statement, `{self.kind}`, neither kept nor changed)"
        return f"{part}{span} ({self.lost} non-blank line{'s' if self.lost != 1 else ''} not kept elsewhere)"


def drops(old: str, new: str) -> list[Drop]:
    """Every run of lines `new` drops. A changed block drops lines when those it removes that appear nowhere
    in `new` (so not moved) outnumber the new non-blank lines it writes in their place: at the head or the tail
    of the document (only blank lines beyond it) by SKIP_EXCESS, or by one when it writes nothing there;
    anywhere, with the blocks near it (_grouped), by DROP_EXCESS. Measured over every shipped corpus
    (tests/test_deletions.py): no gold edit does either."""
    a, b = _bare(old), _bare(new)
    kept, had = {line.strip() for line in b}, {line.strip() for line in a}

    def loss(i1, i2, j1, j2) -> tuple[int, int]:
        # lines written in a block's place count only when new: a class rewritten as its methods' bodies,
        # dedented, writes no line, and the class header and attributes it lost are dropped
        return (sum(1 for line in a[i1:i2] if line.strip() and line.strip() not in kept),
                sum(1 for line in b[j1:j2] if line.strip() and line.strip() not in had))

    blocks = hunks(old, new)
    ends = [("head", blocks[0], a[:blocks[0][0]]), ("tail", blocks[-1], a[blocks[-1][1]:])] if blocks else []
    out = []
    for where, block, beyond in ends:
        gone, written = loss(*block)
        if not _solid(beyond) and gone - written >= (SKIP_EXCESS if written else 1) and \
                not any(d.first == block[0] + 1 for d in out):
            out.append(Drop(block[0] + 1, block[1], gone - written, where))
    for group in _grouped(a, blocks):
        gone, written = map(sum, zip(*(loss(*block) for block in group)))
        first, last = group[0][0] + 1, group[-1][1]
        if gone - written >= DROP_EXCESS and not any(d.first <= last and first <= d.last for d in out):
            out.append(Drop(first, last, gone - written, "middle"))
    return sorted(out, key=lambda d: d.first)


def _grouped(a: list[str], blocks) -> list[list[tuple[int, int, int, int]]]:
    """Changed blocks that only JOIN_GAP or fewer kept non-blank lines part, together: a function replaced by
    a call keeps a stray `return` or closing brace by chance, which must not split what it drops."""
    out: list[list] = []
    for block in blocks:
        if out and _solid(a[out[-1][-1][1]:block[0]]) <= JOIN_GAP:
            out[-1].append(block)
        else:
            out.append([block])
    return out


def unasked(old: str, new: str, instruction: str, language: str | None = None) -> list[Drop]:
    """The drops of an edit whose instruction asks for no deletion (none when it asks for one): runs of lines,
    and in a `language` a parser reads, each statement dropped that no run of lines names already (unless the
    instruction is an open "fix the bugs", _OPEN_FIX)."""
    if asks_deletion(instruction):
        return []
    runs = drops(old, new)
    if _OPEN_FIX.match(instruction):
        return runs
    gone = [Drop(s.first, s.last, s.last - s.first + 1, "statement", s.kind)
            for s in dropped(old, new, language, opcodes(old, new))
            if not any(d.first <= s.last and s.first <= d.last for d in runs)]
    return sorted(runs + gone, key=lambda d: d.first)


def asks_deletion(instruction: str) -> bool:
    return _DELETING.search(instruction) is not None
