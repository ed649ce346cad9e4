"""The language of a text that comes with no file name (the apply endpoint's `<code>`, a new file): the outlined
language whose parser reads it best, on the same evidence for every language.

Python's compiler reads the whole text first: a text it accepts with definitions is Python. Each tree-sitter
grammar of core/parsers.py then gives (the share of the text's non-blank lines inside its parse errors, the
definitions its outline query finds). Among the languages with the fewest error lines (within SLACK), the one
that finds most definitions wins; a language that LANGUAGES (core/languages.py) says `extends` another gives
way to it when that one reads the text as well (plain JavaScript is JavaScript, not TypeScript; C is C, not
C++). Lines, not errors, are counted: a foreign grammar wraps most of a text in one error, a text's own grammar
keeps its rare errors on a few lines. PHP's grammar reads text outside `<?php` as markup (OUTSIDE): those lines
count as unread. When no grammar reads most of the text (MOST), it is prose: Markdown by its headings, or none.

Cost: the grammars are tried in the order in which they read the text's first lines best, and the search stops
at one that reads the whole text cleanly with definitions (once the languages it extends or is extended by are
read too); each grammar has a time limit, as error recovery on foreign code can take long.
"""
import warnings
from functools import cache
from pathlib import Path

from .languages import LANGUAGES, claiming, kin, named
from .outline import QUERIED, outline, query
from .parsers import GRAMMARS, grammar
from .syntax_check import errors

LIMIT_US = 40_000   # per grammar: its own code of a few thousand lines parses in well under this
RETRY = 10          # when no grammar reads the text cleanly, those that gave up read it again with RETRY x the
                    # limit: on a loaded machine the text's own grammar can give up too
SLACK = 0.02        # shares of error lines this close count as reading the text alike
MOST = 0.3          # past this share of error lines no language reads the text
CLEAN = 0.01        # a share this low, with definitions found, ends the search
SAMPLE_LINES = 40   # the lines every grammar reads to order the search
OUTSIDE = {"php": "text"}  # the node a grammar reads text outside its code as
KEY_CHARS = 4_000   # a text's head, by which its language is remembered
REMEMBERED = 64     # texts whose language is remembered
TREES = tuple(lang.name for lang in LANGUAGES if lang.name in GRAMMARS)


@cache
def _bounded(name: str, limit_us: int):
    """A parser of its own for detection (the shared one in core/parsers.py has no time limit)."""
    import tree_sitter
    p = tree_sitter.Parser(grammar(name))
    with warnings.catch_warnings():  # its replacement, a progress callback, is not called on a text held in memory
        warnings.simplefilter("ignore", DeprecationWarning)
        p.timeout_micros = limit_us
    return p


def _read(text: str, name: str, limit_us: int = LIMIT_US) -> tuple[float, object] | None:
    """(the share of `text`'s non-blank lines that `name`'s grammar leaves unread, its tree), or None when it
    gave up in time."""
    parser = _bounded(name, limit_us)
    parser.reset()  # a parse cut off by the time limit would otherwise be resumed by the next one
    try:
        tree = parser.parse(text.encode())
    except ValueError:  # the time limit
        return None
    if tree is None:
        return None
    unread, stack = set(), [tree.root_node]
    for node in tree.root_node.children:
        if node.type == OUTSIDE.get(name):
            unread.update(range(node.start_point[0], node.end_point[0] + 1))
    while stack:
        node = stack.pop()
        if not node.has_error:
            continue
        if node.is_error or node.is_missing:
            unread.update(range(node.start_point[0], node.end_point[0] + 1))
            continue
        stack += node.children
    solid = [k for k, line in enumerate(text.split("\n")) if line.strip()]
    return sum(k in unread for k in solid) / max(1, len(solid)), tree


def _definitions(text: str, name: str, tree) -> int:
    """How many definitions `name`'s outline finds in `text` (its query's matches on `tree`)."""
    if name not in QUERIED:
        return len(outline(text, name)[1])
    from tree_sitter import QueryCursor
    return sum(1 for _, captures in QueryCursor(query(name)).matches(tree.root_node) if "name" in captures)


def _order(text: str) -> list[str]:
    """TREES, those that read a sample of the text's lines with most definitions and fewest errors first (a
    grammar that gives up: last): its first
    lines (PHP's `<?php`), and lines a third of the way in, as its first lines are often a license or a doc
    comment, which every grammar reads alike."""
    lines = text.split("\n")
    at = max(SAMPLE_LINES, len(lines) // 3)
    head = "\n".join(lines[:SAMPLE_LINES // 2] + lines[at:at + SAMPLE_LINES])
    read = {name: _read(head, name) for name in TREES}
    key = {name: (r[0] > MOST, -_definitions(head, name, r[1]), r[0]) if r else (True, 0, 1.0)
           for name, r in read.items()}
    return sorted(TREES, key=lambda name: key[name])


def detect(text: str) -> str | None:
    """The outlined language `text` reads as best (see the module's docstring), Markdown when it has headings
    and no code language reads it, else None. Remembered by the text's first KEY_CHARS: a file edited again
    (the next block of one answer, the next answer) keeps its language."""
    key = text[:KEY_CHARS]
    if key not in _seen:
        _seen[key] = _detect(text)
        while len(_seen) > REMEMBERED:
            _seen.pop(next(iter(_seen)))
    return _seen[key]


_seen: dict[str, str | None] = {}


def of_file(path: str, text: str) -> str | None:
    """The outlined language of a file: its suffix's, and where several claim the suffix (a `.h` header, C's or
    C++'s), the one of those whose grammar reads the text best, on detect's evidence; a file without a suffix
    (a script: `bin/bats`) is read as detect reads a text that comes without a name."""
    if not Path(path).suffix:
        return detect(text)
    claims = [lang.name for lang in claiming(Path(path).suffix) if lang.outline]
    if len(claims) < 2:
        return claims[0] if claims else None
    read = {name: r for name in claims if (r := _read(text, name, LIMIT_US * RETRY)) is not None}
    return _best(text, read) or claims[0]


def _detect(text: str) -> str | None:
    if not text.strip():
        return None
    if not errors(text, "python") and outline(text, "python")[1]:
        return "python"
    read = {}
    for name in _order(text):
        if name in read:
            continue
        read[name] = _read(text, name)
        if read[name] is not None and read[name][0] <= CLEAN and _definitions(text, name, read[name][1]):
            read.update({k: _read(text, k) for k in kin(name) if k not in read})
            break
    else:  # none read it cleanly: those that gave up, once more with more time
        read.update({name: _read(text, name, LIMIT_US * RETRY) for name, r in read.items() if r is None})
    # else Markdown's headings, or a Python/JavaScript text with no definitions
    return _best(text, {name: r for name, r in read.items() if r is not None}) or outline(text)[0]


def _best(text: str, read: dict) -> str | None:
    """Of the languages `read` ({name: (share of error lines, tree)}), the one with most definitions among
    those with the fewest error lines, a language giving way to the one it extends where that reads as well;
    None where none reads most of the text or finds a definition."""
    if not read or (least := min(share for share, _ in read.values())) > MOST:
        return None
    found = {name: _definitions(text, name, tree) for name, (share, tree) in read.items() if share <= least + SLACK}
    best = max(found, key=lambda name: (found[name], -TREES.index(name)))
    while (sub := named(best).extends) in found and found[sub]:
        best = sub
    return best if found[best] else None
