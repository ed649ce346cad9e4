"""The statements an edit of code drops: each statement of the original (an `if` block, a call, an assignment, a
return, a definition) read by the language's parser (Python's `ast`; tree-sitter for the others,
core/parsers.py) that the result neither keeps nor writes a changed version of in its place.

A line count misses a short statement dropped beside a fix (a four-line `if` block under core/deletions.py's
threshold); a statement count sees it. Kept: the result holds its text, whitespace normalised, as often as the
original did (moved or re-indented too). Changed: the result writes, where the diff maps the statement's lines, a
statement the original had not, one-to-one, of the same kind first (the most alike), then of any kind (a
conditional rewritten as an expression); or anywhere, when it is much like the original (moved). Anything else is
dropped, and only the outermost dropped statement is named.
"""
import ast
import difflib
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .document import bare, split_lines
from .parsers import GRAMMARS, parse

# tree-sitter's node types that are statements, across grammars: `if_statement`, `lexical_declaration`,
# `function_definition`, Rust's `let_declaration` and `function_item`
_TS_STATEMENT = re.compile(r"(statement|declaration|definition|_item)$")
_TOKEN = re.compile(r"\w+|\S")
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
ALIKE = 0.8  # a statement this alike to one written in its place (difflib's ratio) is changed, not dropped


@dataclass(frozen=True)
class Statement:
    kind: str    # ast's class name or tree-sitter's node type
    first: int   # 1-based, inclusive
    last: int
    text: str    # whitespace normalised
    depth: int   # how many statements enclose it


def statements(text: str, language: str | None) -> list[Statement] | None:
    """Every statement of `text`, nested ones too; None when no parser reads `language` or `text` does not
    parse as Python."""
    if language == "python":
        return _python(text)
    if language in GRAMMARS:
        return _tree_sitter(text, language)
    return None


def _norm(text: str) -> str:
    return " ".join(text.split())


def _python(text: str) -> list[Statement] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    lines = [line.encode() for line in split_lines(text)]  # ast's columns count UTF-8 bytes
    out: list[Statement] = []

    def visit(body: list, depth: int):  # statements hold statements only in these fields, never in expressions
        for node in body:
            if isinstance(node, ast.stmt):
                first, last = node.lineno, node.end_lineno
                if first == last:
                    raw = lines[first - 1][node.col_offset:node.end_col_offset]
                else:
                    raw = (lines[first - 1][node.col_offset:] + b"".join(lines[first:last - 1])
                           + lines[last - 1][:node.end_col_offset])
                out.append(Statement(type(node).__name__, first, last, _norm(raw.decode(errors="replace")), depth))
                depth_inside = depth + 1
            else:  # an `except` handler or a `case`: its body is its statement's
                depth_inside = depth
            for name in _BODIES:
                visit(getattr(node, name, None) or [], depth_inside)

    visit(tree.body, 0)
    return out


def _tree_sitter(text: str, language: str) -> list[Statement]:
    data, out = text.encode(), []
    stack = [(child, 0) for child in reversed(parse(text, language).root_node.named_children)]
    while stack:
        node, depth = stack.pop()
        inner = depth
        if node.is_named and not node.is_error and _TS_STATEMENT.search(node.type):
            out.append(Statement(node.type, node.start_point[0] + 1, node.end_point[0] + 1,
                                 _norm(data[node.start_byte:node.end_byte].decode(errors="replace")), depth))
            inner = depth + 1
        stack += [(child, inner) for child in reversed(node.named_children)]
    return out


def dropped(old: str, new: str, language: str | None, ops=None) -> list[Statement]:
    """The outermost statements of `old` that `new` drops ([] where either text has no statements to read);
    `ops`: difflib's opcodes of their lines, where the caller has them."""
    before = statements(old, language)
    after = statements(new, language) if before else None
    if not before or after is None:
        return []
    if ops is None:
        a, b = [bare(line) for line in split_lines(old)], [bare(line) for line in split_lines(new)]
        ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    # a statement gone is one whose text the result holds fewer times than the original did, on a changed line
    # or around an insertion; one written is on a line the result changed, or its text is one the result holds
    # more times than the original did, around a change
    more, fewer = Counter(s.text for s in after), Counter(s.text for s in before)
    more.subtract(fewer)
    old_spans = [(i1, i2) for tag, i1, i2, _, _ in ops if tag != "equal"]
    new_spans = [(j1, j2) for tag, _, _, j1, j2 in ops if tag != "equal"]
    gone = [s for s in before if more[s.text] < 0 and _touches(s, old_spans)]
    written = [s for s in after if _touches(s, [span for span in new_spans if span[0] < span[1]])
               or more[s.text] > 0 and _touches(s, new_spans)]
    # each statement gone is paired with one written in its place (where the diff maps the statement that
    # encloses it: the statements of one block are one place), the most alike pairs first, of the same kind
    # before any other; one left unpaired is still changed when a statement written in its place has much the
    # same tokens (two merged into one: `out = [...]; return out` as `return [...]`, an `if` block as an expression)
    places = [_mapped(ops, *_enclosing(before, g)) for g in gone]
    pairs = sorted(((w.kind != g.kind, -_alike(g, w), k, n) for k, g in enumerate(gone)
                    for n, w in enumerate(written) if _meets(w, places[k])))
    paired, taken = set(), set()
    for _, _, k, n in pairs:
        if k not in paired and (n not in taken or _alike(gone[k], written[n]) >= ALIKE):
            paired.add(k), taken.add(n)
    # one still unpaired is changed and moved when a statement written anywhere is much like it (a method moved
    # out of its class, its `self.` uses rewritten)
    gone = [g for k, g in enumerate(gone) if k not in paired and not any(
        _like(g, w) for w in written)]
    out = []
    for s in sorted(gone, key=lambda s: (s.first, s.depth)):
        if not any(o.first <= s.first and s.last <= o.last for o in out):
            out.append(s)
    return out


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(text))


@lru_cache(maxsize=4096)
def _bag(text: str) -> Counter:
    return Counter(_tokens(text))


def _alike(a: Statement, b: Statement) -> float:
    """How alike two statements are, by the tokens they share (linear: a statement may be a whole class)."""
    x, y = _bag(a.text), _bag(b.text)
    return 2 * sum((x & y).values()) / max(1, x.total() + y.total())


def _like(a: Statement, b: Statement) -> bool:
    """Much alike, their tokens in the same order too (difflib's ratio, which `_alike` bounds from above)."""
    return _alike(a, b) >= ALIKE and \
        difflib.SequenceMatcher(None, _tokens(a.text), _tokens(b.text), autojunk=False).ratio() >= ALIKE


def _enclosing(every: list[Statement], s: Statement) -> tuple[int, int]:
    """The old lines [first, end) (0-based) of the statement that encloses `s`, or `s`'s own at the top level."""
    inner = [o for o in every if o.depth == s.depth - 1 and o.first <= s.first and s.last <= o.last]
    o = inner[-1] if inner else s
    return o.first - 1, o.last


def _meets(w: Statement, place: tuple[int, int]) -> bool:
    """Whether `w`'s lines meet new lines [lo, hi) (0-based), or touch the point lo where hi == lo."""
    lo, hi = place
    return w.first - 1 < hi and lo < w.last if lo < hi else w.first - 1 <= lo <= w.last


def _touches(s: Statement, spans: list[tuple[int, int]]) -> bool:
    """Whether a changed span [i1, i2) (0-based; empty: an insertion) falls on or inside `s`'s lines."""
    return any(i1 < s.last and s.first - 1 < i2 or i1 == i2 and s.first - 1 < i1 <= s.last for i1, i2 in spans)


def _mapped(ops, first: int, end: int) -> tuple[int, int]:
    """The new lines [j1, j2) the diff maps old lines [first, end) to (0-based); where they were all deleted,
    the point (j, j) where they were."""
    spans = []
    for tag, i1, i2, j1, j2 in ops:
        if i2 <= first and not (i1 == i2 == first) or i1 >= end and not (i1 == i2 == end):
            continue
        if tag == "equal":
            j1, j2 = j1 + max(0, first - i1), j2 - max(0, i2 - end)
        spans.append((j1, j2))
    wide = [span for span in spans if span[0] < span[1]] or spans or [(0, 0)]
    return min(lo for lo, _ in wide), max(hi for _, hi in wide)
