"""Merging a chat's code block into the file, without a model where the block says exactly where each part goes.

A block is read with the file's own parser (core/outline.py) and each of its parts is placed as a developer
would paste it:
- a function, method, class or Markdown section that the file has (the same name, one candidate in its scope)
  replaces the file's one, re-indented to where it goes (a method pasted at column 0 lands in its class);
- one that holds lazy markers (core/lazy_block.py), or a class that leaves out some of the file's methods, is a
  container: its own parts are placed inside the file's one, and its other lines are anchored there (below);
- one whose name the file lacks, with the lines after its header those of one symbol of its kind and scope
  there (whose name the block does not define), renames that one: it replaces it;
- a new one goes beside its neighbour in the block (after the one before it, else before the one after it),
  else at the end of its class, else after the file's last definition;
- an import of a module the file imports replaces that import; a new one goes after the file's imports;
- any other run of lines is anchored: its first and last lines found once, in order, in the part of the file
  it belongs to, and the lines between them replaced; a run the file already holds is context.
A part that none of these places (a name found twice, a run whose ends are not found once) is left `pending`
with the lines it belongs to: engine/apply.py has the model rewrite those lines with the part as its guide.
No marker line is ever written, and no file line is removed except by a part that replaces it.
"""
import ast
import difflib
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from . import lazy_block
from .document import indent_of, split_lines
from .languages import named as named_language
from .outline import Symbol, outline

# the file's outline, read once for the merge and the check of its result (engine/apply.py)
outlined = lru_cache(maxsize=4)(outline)


class MergeError(ValueError):
    """The block cannot be merged into this file; the message says why (nothing was changed)."""


@dataclass(frozen=True)
class Pending:
    """A part of the block that only the model can place: its text (markers kept: they say what stays), and
    the file lines it belongs to (1-based, inclusive; None: the whole file)."""
    text: str
    window: tuple[int, int] | None
    why: str
    symbol: str | None = None  # the qualname of the file's symbol it belongs to
    # the file's definitions it matches alike (qualname, first line, last line): the places the model picks among
    candidates: tuple[tuple[str, int, int], ...] = ()
    # a new definition that nothing places: the file's definitions it may go right after (the same triples), of
    # which the model picks one (engine/apply.py)
    places: tuple[tuple[str, int, int], ...] = ()


@dataclass
class Merge:
    text: str                       # the file with every part placed but the pending ones
    language: str | None
    placed: list[str] = field(default_factory=list)    # what went where, in words
    pending: list[Pending] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)      # names of the file's definitions it replaced or changed in
    last: str | None = None         # the qualname of the last of the file's definitions it replaced or changed in
    # the block's header lines of the file's definitions it placed parts into, and its imports of names the
    # file's import of that module binds: the file's own line stays there (`export class Box {` where the block
    # shows `class Box {`; `import {useLocale} from 'react-aria'` where the file imports more from it)
    headers: set[str] = field(default_factory=set)


@dataclass
class _Change:
    start: int        # file lines [start, end) replaced (0-based); start == end inserts before line `start`
    end: int
    lines: list[str]
    what: str
    order: int = 0    # insertions at one place, in block order


_PY_IMPORT = re.compile(r"^(?:from\s+(\.*[\w.]*)\s+import\b|import\s+([\w.]+))")
_JS_IMPORT = re.compile(r"""^(?:import\b[^'"]*?['"]([^'"]+)['"]|"""
                        r"""(?:const|let|var)\s+[^=]+=\s*require\(\s*['"]([^'"]+)['"]\s*\))""")
# an import statement of each language, the module it names in its first group that matched
_IMPORT = {
    "python": _PY_IMPORT, "javascript": _JS_IMPORT, "typescript": _JS_IMPORT, "tsx": _JS_IMPORT,
    "go": re.compile(r"""^import\s+(?:\w+\s+)?"([^"]+)"|^\t(?:\w+\s+)?"([^"]+)"$"""),  # a line of `import (...)` too
    "rust": re.compile(r"^(?:pub\s+)?use\s+([\w:]+)"),
    "java": re.compile(r"^import\s+(?:static\s+)?([\w.]+)"), "kotlin": re.compile(r"^import\s+([\w.]+)"),
    "c": re.compile(r"^#\s*include\s*[<\"]([^>\"]+)"), "cpp": re.compile(r"^#\s*include\s*[<\"]([^>\"]+)"),
    "csharp": re.compile(r"^using\s+([\w.]+)\s*;"),
}
NESTED_IMPORTS = {"csharp"}  # languages whose imports may stand indented, in a namespace's body
# languages whose bodies close with a brace line (the block's own closing brace is its container's)
BRACED = {"javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp", "csharp", "php", "kotlin", "swift"}
ENDED = {"lua", "ruby"}  # languages whose bodies close with an `end` line
_PY_ASSIGN = re.compile(r"^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)")
_JS_ASSIGN = re.compile(r"^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=")
_ASSIGN = re.compile(r"^(?:(?:local|readonly|declare|export)\s+)?(\$?[A-Za-z_][\w]*)\s*=(?!=)")  # shell, Lua, Ruby, PHP


def merge(document: str, block: str, language: str | None = None,
          hints: Sequence[tuple[str, str]] = (), beside: str | None = None) -> Merge:
    """The file with the block's parts placed (see the module's docstring); both texts with "\n" line endings
    (engine/request.py reads a file's endings, and gives the result them back). `hints`: where the answer's
    prose says a new definition goes, ("after" | "before", a name), read by core/chat_answer.py; a new
    definition goes there when the file has one such name in its scope. `beside`: the qualname of the
    definition the answer's block before this one changed; a new definition the block shows alone goes after
    it (a helper shown below the function that calls it), when the prose says nothing.

    Raises MergeError when the block holds nothing to place. What the result must hold before it is written
    (the block's lines, nothing else changed, no marker, a file that still parses) engine/apply.py checks."""
    read = lazy_block.read(_in_file_style(block, document), document)
    if not "".join(line for k, line in enumerate(split_lines(read.text)) if k not in read.markers).strip():
        raise MergeError("the code block holds no code, only lazy markers")
    read_as, file_symbols = outlined(document, language)
    language = read_as or language  # a file with no definitions reads as no language: the given one holds
    merger = _Merger(split_lines(document), file_symbols, language, read, hints, beside)
    merger.run()
    return Merge(merger.apply(), language, merger.placed, merger.pending, merger.touched, merger.last,
                 merger.headers)


class _Merger:
    def __init__(self, lines: list[str], symbols: list[Symbol], language: str | None, read: lazy_block.Block,
                 hints: Sequence[tuple[str, str]] = (), beside: str | None = None):
        self.lines, self.symbols, self.language, self.hints = lines, symbols, language, hints
        self.beside = next((f for f in symbols if f.qualname == beside), None)
        self.last: str | None = None
        self.headers: set[str] = set()
        self.markers = read.markers
        self.block = split_lines(read.text)
        self.block_indent = indent_of("".join(b for k, b in enumerate(self.block) if k not in self.markers))
        dedented = [line[len(self.block_indent):] if line.startswith(self.block_indent) else line for line in self.block]
        self.dedented = dedented
        self.block_symbols, self.offset = self._block_outline("".join(dedented))
        self.changes: list[_Change] = []
        self.placed: list[str] = []
        self.pending: list[Pending] = []
        self.touched: set[str] = set()
        self._tied: dict[Symbol, list[Symbol]] = {}  # a block symbol's alike file definitions
        self._headed: dict[Symbol, int] = {}  # a new definition's first line with the comments set apart above it
        self._order = 0

    # the block's outline

    def _block_outline(self, text: str) -> tuple[list[Symbol], int]:
        """The block's symbols and the line offset of their numbers; JavaScript methods pasted without their
        class are read inside one. There, a statement after a brace that closes a body the block elided
        (`if (x) {` past a marker's `return true\n}`) reads as a method of its keyword's name: not a definition."""
        _, symbols = outline(text, self.language) if self.language else (None, [])
        opened = _depth(["".join(ch for ch in text if ch in "{}")])
        # a C-like function shown by its header alone (a comment changed above it): read with an empty body
        bare = not symbols and opened == 0 and self.language in ("c", "cpp", "java", "csharp") \
            and text.rstrip().endswith(")")
        if (opened > 0 or bare) and self.language in BRACED:  # a class shown without its closing brace: read as
            n = text.count("\n")  # closed
            _, closed = outline(text + ("{\n}\n" if bare else "}\n" * opened), self.language)
            if len(closed) > len(symbols):
                ends: dict[int, Symbol] = {}  # each symbol's end within the block, its parent's too
                for f in closed:  # parents come before their children
                    ends[id(f)] = replace(f, end=min(f.end, n), parent=f.parent and ends.get(id(f.parent)))
                symbols = list(ends.values())
        if self.language in ("javascript", "typescript", "tsx"):  # `if (x) {` read alone: no method of that name
            symbols = [s for s in symbols if s.name not in _STATEMENTS]
        if symbols or self.language not in ("javascript", "typescript", "tsx"):
            return symbols, 0
        _, wrapped = outline("class __Block__ {\n" + text + "}\n", self.language)
        return [Symbol(s.name, s.qualname.removeprefix("__Block__."), "function" if s.parent and s.parent.name ==
                       "__Block__" else s.kind, s.start, s.end, s.header,
                       None if s.parent and s.parent.name == "__Block__" else s.parent)
                for s in wrapped if s.name != "__Block__" and s.name not in _STATEMENTS], 1

    def _span(self, s: Symbol) -> tuple[int, int]:
        """A block symbol's lines, 0-based [start, end), its leading marker and blank lines left out."""
        start, end = s.start - 1 - self.offset, s.end - self.offset
        header = s.header - 1 - self.offset
        while start < header and (start in self.markers or not self.block[start].strip()):
            start += 1
        if self.language == "python":  # comments indented into its body after its last statement are its own,
            # a lazy marker among them too: "# ... rest of the function unchanged ..." elides the body's end
            k, lead = end, len(_lead(self.dedented[header]))
            while k < len(self.block) and (not self.block[k].strip() or len(
                    _lead(self.dedented[k])) > lead and self.dedented[k].lstrip().startswith("#")):
                k += 1
                end = k if self.block[k - 1].strip() else end
        # a Markdown section runs to the next heading: a marker after its text elides the sections that follow
        while end > header + 1 and (not self.block[end - 1].strip()
                                    or self.language == "markdown" and end - 1 in self.markers):
            end -= 1
        return start, end

    def _children(self, s: Symbol | None) -> list[Symbol]:
        return [c for c in self.block_symbols if c.parent == s]

    def _has_marker(self, a: int, b: int) -> bool:
        return any(a <= k < b for k in self.markers)

    # placing

    def run(self) -> None:
        # Markdown sections do not hold one another (each spans its own lines): all are placed as one scope
        tops = self.block_symbols if self.language == "markdown" else self._children(None)
        self._place_symbols(tops, None)
        covered = {k for s in tops for k in range(self._headed.get(s, self._span(s)[0]), self._span(s)[1])}
        self._place_loose(self._runs(0, len(self.block), covered), None)

    def _place_symbols(self, symbols: list[Symbol], container: Symbol | None) -> None:
        """Block symbols of one scope, placed into the file's `container` (None: the file)."""
        matched: dict[Symbol, Symbol | None] = {}
        for s in symbols:
            matched[s] = self._match(s, container)
        for k, s in enumerate(symbols):
            target = matched[s]
            a, b = self._span(s)
            # a class that leaves out some of the file's methods shows only what changed, as if a marker stood
            # for the others: replaced whole, it would delete them
            inner = self._has_marker(a, b) or isinstance(target, Symbol) and target.kind == "class" and \
                bool({f.name for f in self.symbols if f.parent == target} - {c.name for c in self._children(s)}) \
                and not self._said_replaced(target)
            if target is _AMBIGUOUS:
                self._defer(a, b, container, f"`{s.qualname}` is defined more than once in the file",
                            tuple((f.qualname, f.start, f.end) for f in self._tied[s]))
            elif target is not None and not inner and self._signature_only(s, target):
                self._replace_comment(s, target)
            elif target is not None and not inner:
                self._replace_symbol(s, target)
                self.touched.add(target.name)  # and its members, replaced with it (gone, when the block drops one)
                self.touched.update(f.name for f in self.symbols if f.parent == target)
                self.last = target.qualname
            elif target is not None:
                self.touched.add(target.name)
                self.last = target.qualname
                if not self._place_header(s, target):  # the file's header stands for the block's
                    self.headers.add(self.dedented[s.header - 1 - self.offset].strip())
                inside = self._children(s) if self.language != "markdown" else []
                self._place_symbols(inside, target)
                covered = {k for c in inside for k in range(self._headed.get(c, self._span(c)[0]), self._span(c)[1])}
                runs = self._runs(a, b, covered, header=s.header - 1 - self.offset)
                self._place_loose(runs, target, self._pins(runs, a, b, covered))
            elif inner:
                self._defer(a, b, container, f"`{s.qualname}` is new and holds lazy markers")
            else:
                self._insert_symbol(s, symbols[:k], symbols[k + 1:], matched, container)

    def _signature_only(self, s: Symbol, f: Symbol) -> bool:
        """Whether the block shows the file's function `f` by its header alone, no line of its body after the
        one that opens it (a doc comment changed above `static int check(...) {`): context, not its new body."""
        if f.kind not in ("function", "method") or f.declaration or self.language not in BRACED:
            return False
        a, b = self._span(s)
        k = s.header - 1 - self.offset
        while k < b and not self._opens(self.dedented[k]):
            k += 1
        return all(not line.strip() or line.strip() == "}" and j == b - 1
                   for j, line in enumerate(self.dedented[k + 1:b], k + 1)) and f.end - f.header > b - s.header

    def _replace_comment(self, s: Symbol, f: Symbol) -> None:
        """The comment lines above the file's function `f` replaced by those above its header in the block."""
        a, _ = self._span(s)
        mine = self.dedented[a:s.header - 1 - self.offset]
        fa, fc = f.start - 1, (f.code or f.header) - 1
        if [x.strip() for x in mine] != [x.strip() for x in self.lines[fa:fc]]:
            self._change(fa, fc, _moved(mine, _lead(self.dedented[s.header - 1 - self.offset]),
                                        _lead(self.lines[f.header - 1])), f"replaced the comment of `{f.qualname}`")
        self.touched.add(f.name)
        # its header lines are context, the file's stand for them (`f(...) {` shown for the file's `f(...)\n{`)
        self.headers.update(x.strip() for x in self.dedented[s.header - 1 - self.offset:self._span(s)[1]])

    def _said_replaced(self, f: Symbol) -> bool:
        """Whether the prose says the block replaces the file's definition `f` whole ("replace the existing
        `impl<L, R> Error for Either<L, R>` block"): its header opens with the code the prose quotes."""
        header = self.lines[f.header - 1].strip()
        return any(rel == "replaces" and len(code) > 8 and header.startswith(code.strip()) for rel, code in self.hints)

    def _match(self, s: Symbol, container: Symbol | None):
        """The file's symbol the block's `s` is, None (new), or _AMBIGUOUS."""
        def same_kind(f: Symbol) -> bool:
            return (f.kind == "class") == (s.kind == "class")

        scope = [f for f in self.symbols if f.parent == container and f.name == s.name and same_kind(f)]
        if container is None and s.parent is None and s.kind != "class" and self._method_like(s):
            # a method pasted without its class (a class pasted indented, as in its namespace, is a class)
            scope = [f for f in self.symbols if f.name == s.name and f.kind == "method"] or scope
        if not scope and container is None and (s.parent is None or self.language == "markdown"):
            # a function that is a method in the file; a Markdown section under any heading (a Rust function
            # without `self` is no method that takes it: a `#[test] fn map_either` beside `Either::map_either`)
            mine = _SELF.search(self.dedented[s.header - 1 - self.offset]) is not None
            scope = [f for f in self.symbols if f.name == s.name and same_kind(f) and not (
                self.language == "rust" and mine != (_SELF.search(self.lines[f.header - 1]) is not None))]
        if len(scope) > 1 and self.language == "markdown" and s.parent is not None:
            scope = [f for f in scope if f.parent is not None and f.parent.name == s.parent.name] or scope
        if len(scope) > 1:  # the one in the class the block's neighbours live in
            near = [f for f in scope if f.parent is not None and
                    any(g.parent == f.parent and g.name == c.name for c in self._children(s.parent) if c is not s
                        for g in self.symbols)]
            scope = near if len(near) == 1 else scope
        if len(scope) > 1:  # overloads: those whose header (its parameters) is the block's, when any is
            header = self.dedented[s.header - 1 - self.offset].strip()
            scope = [f for f in scope if self.lines[f.header - 1].strip() == header] or scope
        if scope and s.kind == "class":  # an `extension`, an `impl` of a type is not the type's `enum` or `struct`
            word = _declares(self.dedented[s.header - 1 - self.offset])
            trait = _trait(self.dedented[s.header - 1 - self.offset])  # `impl Debug for T` is not `impl Display for T`
            scope = [f for f in scope if _declares(self.lines[f.header - 1]) == word
                     and _trait(self.lines[f.header - 1]) == trait]
            if not scope:
                return None
        if len(scope) > 1 and s.kind == "class":  # declarations of one type: Rust's `impl`s, C#'s partial classes
            header = " ".join(self.dedented[s.header - 1 - self.offset].split())
            theirs = [" ".join(self.lines[f.header - 1].split()) for f in scope]
            if header not in theirs and len(set(theirs)) == len(theirs):
                return None  # another `impl Trait for Type` than the file's: a new one
            kids = {c.name for c in self._children(s)}
            holding = [f for f in scope if kids & {g.name for g in self.symbols if g.parent == f}]
            scope = holding if len(holding) == 1 else scope
        if len(scope) > 1:
            scope = self._likest_symbol(s, scope)
        if len(scope) > 1:  # alike: the one in the class the answer's prose names ("in `EmailStr`")
            named = {name for rel, name in self.hints if rel == "named"}
            scope = [f for f in scope if f.parent is not None and f.parent.name in named] or scope
        if not scope:
            return self._renamed(s, container)
        if len(scope) == 1 and self._forwards(s) and len(self._body_lines(scope[0], self.lines)) > 2:
            # the file's method does the work that the block's hands to an object's namesake
            raise MergeError(f"the block's `{s.name}` calls `{s.name}` of another object: it is a wrapper in "
                             f"another class or file, not `{scope[0].qualname}` (lines {scope[0].start}-{scope[0].end})")
        if len(scope) > 1:
            self._tied[s] = scope
        return scope[0] if len(scope) == 1 else _AMBIGUOUS

    def _forwards(self, s: Symbol, lines: list[str] | None = None) -> bool:
        """Whether a definition's body is one call of its own name on another object (`return m_impl.f( x );`):
        a wrapper of that object's method. `lines`: the file's (else the block's)."""
        body = self._body_lines(s, lines)
        call = re.compile(rf"(?:\.|->){re.escape(s.name)}\s*\(")
        return len(body) == 1 and call.search(body[0]) is not None

    def _body_lines(self, s: Symbol, lines: list[str] | None = None) -> list[str]:
        """A definition's lines after its header, blank lines and lone braces left out (`lines`: the file's,
        else the block's)."""
        body = lines[s.header:s.end] if lines is not None else self.dedented[s.header - self.offset:self._span(s)[1]]
        return [x for x in body if x.strip() not in ("", "{", "}", "};", "end")]

    def _likest_symbol(self, s: Symbol, scope: list[Symbol]) -> list[Symbol]:
        """Of the file's definitions of one name, the one whose lines hold clearly the most of the block
        symbol's (lines of more than three characters, markers left out); all of them when none does."""
        a, b = self._span(s)
        want = {self.block[k].strip() for k in range(a, b) if k not in self.markers and len(self.block[k].strip()) > 3}
        if not want:
            return scope
        scores = sorted(((len(want & {x.strip() for x in self.lines[f.start - 1:f.end]}) / len(want), k)
                         for k, f in enumerate(scope)), reverse=True)
        return [scope[scores[0][1]]] if scores[0][0] - scores[1][0] >= CLEARLY else scope

    def _renamed(self, s: Symbol, container: Symbol | None) -> Symbol | None:
        """The file's symbol a new name in the block renames: the one of its kind and scope whose lines after
        the header are the block symbol's, at least two of them not blank, and whose own name the block does
        not define. None when no one symbol is (a new symbol then goes in beside its neighbour)."""
        a, b = self._span(s)
        body = _body(self.dedented[s.header - self.offset:b])
        if sum(bool(line.strip()) for line in body) < 2:
            return None
        named = {c.name for c in self.block_symbols}
        anywhere = container is None and (s.parent is None or self.language == "markdown")
        found = [f for f in self.symbols if (f.parent == container or anywhere) and f.name not in named
                 and (f.kind == "class") == (s.kind == "class") and _body(self.lines[f.header:f.end]) == body]
        return found[0] if len(found) == 1 else None

    def _method_like(self, s: Symbol) -> bool:
        """Whether a block's top-level definition reads as a method: pasted indented, read inside a class
        (JavaScript), read as a method by its language's outline (Java), or a Python function whose first
        parameter is `self` or `cls`."""
        header = self.dedented[s.header - 1 - self.offset]
        return bool(self.block_indent) or self.offset > 0 or s.kind == "method" or \
            self.language == "python" and re.match(r"\s*(async\s+)?def\s+\w+\s*\(\s*(self|cls)\b", header) is not None

    def _replace_symbol(self, s: Symbol, f: Symbol) -> None:
        a, b = self._span(s)
        fa, fb = f.start - 1, f.end
        comments = ("//", "/*", "*") + (("--",) if self.language == "lua" else ()) + (
            ("#",) if self.language not in _HASH_CODE else ())  # Rust's `#[derive]`, C's `#define`: code
        if not any(self.dedented[k].strip().startswith(comments) for k in range(a, s.header - 1 - self.offset)):
            # the block shows no comment above it: the file's comment lines above it stay
            while fa < f.header - 1 and self.lines[fa].strip().startswith(comments):
                fa += 1
        new = _moved(self.dedented[a:b], _lead(self.dedented[s.header - 1 - self.offset]), _lead(self.lines[f.header - 1]))
        new += _trailing_blank(self.lines[fa:fb])
        if self.language != "markdown":  # blank lines after it beyond the file's spacing, as many as the block
            usual = _spacing(self.lines, [g for g in self.symbols if g.parent == f.parent])  # adds lines: a body's
            blank = 0  # lines gone (the file's gap where they were) come back in that gap; otherwise the gap stays
            while fb + blank < len(self.lines) and not self.lines[fb + blank].strip():
                blank += 1
            grown = len(new) - (fb - fa)
            if usual and blank > usual and grown > 0 and \
                    any(g.start - 1 == fb + blank and g.parent == f.parent for g in self.symbols):
                fb += min(blank - usual, grown)
        self._change(fa, fb, new, f"replaced `{f.qualname}` (lines {f.start}-{f.end})")

    def _insert_symbol(self, s: Symbol, before: list[Symbol], after: list[Symbol], matched, container) -> None:
        a, b = self._span(s)
        a = self._headed[s] = self._heading(a)
        gap = _blank_run(self.dedented, a)
        prev = next((p for p in reversed(before) if isinstance(matched.get(p), Symbol)), None)
        nxt = next((n for n in after if isinstance(matched.get(n), Symbol)), None)
        siblings = [f for f in self.symbols if f.parent == container]
        hinted = self._hinted(s, container)
        if hinted is None and any(rel in PLACES for rel, _ in self.hints) and prev is None and nxt is None:
            where = ", ".join(f"{rel} `{name}`" for rel, name in self.hints if rel in PLACES)
            self._defer(a, b, container, f"the answer puts `{s.name}` {where}, which the file does not define once")
            return
        if hinted is not None:
            rel, f = hinted
            # beside a constant: the block's spacing, not the one between the file's definitions
            siblings = [g for g in self.symbols if g.parent == f.parent] if f.kind != "statement" else []
            indent = _lead(self.lines[f.header - 1])
            if rel == "after":
                at, where, prev, nxt = f.end, f"after `{f.qualname}`, as the answer says", f, None
            else:
                at, where, prev, nxt = f.start - 1, f"before `{f.qualname}`, as the answer says", None, f
        elif prev is not None:
            p = matched[prev]
            at, indent, where = p.end, _lead(self.lines[p.header - 1]), f"after `{p.qualname}`"
        elif nxt is not None:
            n = matched[nxt]
            at, indent, where = n.start - 1, _lead(self.lines[n.header - 1]), f"before `{n.qualname}`"
        elif near := next(((p, why) for find, why in ((self._beside, "changed before it"), (self._caller, "which uses it"),
                                                      (self._namesake, "named alike")) if (p := find(s, container))), None):
            p, why = near
            siblings = [g for g in self.symbols if g.parent == p.parent]
            at, indent, where = p.end, _lead(self.lines[p.header - 1]), f"after `{p.qualname}`, {why}"
        elif container is None and self._method_like(s) and any(f.kind == "class" for f in self.symbols) \
                and not any(f.kind == "method" and f.parent is None for f in self.symbols):
            classes = [f for f in self.symbols if f.kind == "class"]
            if len(classes) == 1:  # the file's one class: at its end
                return self._insert_symbol(s, [], [], matched, classes[0])
            self._defer(a, b, None, f"`{s.name}` is a new method and the answer does not say its class",
                        places=self._places(self._scope(s, None)))
            return
        elif container is None and s.kind != "class" and (lang := named_language(self.language)) and lang.before_use:
            self._defer(a, b, None, f"`{s.name}` is new, the answer does not say where, and "
                        f"{lang.name.capitalize()} defines a function before the code that calls it",
                        places=self._places(siblings))
            return
        elif len(siblings) > 1 and siblings[-1].name.lower() in ("tests", "test") and siblings[-1].kind != "function":
            nxt = siblings[-1]  # the file's test module stays last
            at, indent, where = nxt.start - 1, _lead(self.lines[nxt.header - 1]), f"before `{nxt.qualname}`"
        elif len(siblings) > ENDLESS and not any(rel == "end" for rel, _ in self.hints):
            # the end of a scope of many is one place of many: an answer that means it says so ("at the bottom
            # of the file"); else the prose gave a place the request does not carry (an endpoint's)
            self._defer(a, b, container, f"`{s.name}` is new and the answer does not say where it goes among the "
                        f"{len(siblings)} definitions of {f'`{container.qualname}`' if container else 'the file'}",
                        places=self._places(siblings))
            return
        elif siblings:
            last = siblings[-1]
            at, indent, where = last.end, _lead(self.lines[last.header - 1]), f"after `{last.qualname}`"
        elif container is not None:
            at = container.header
            while at < container.end and not self._opens(self.lines[at - 1]):
                at += 1
            indent, where = _lead(self.lines[container.header - 1]) + _unit(self.lines), f"in `{container.qualname}`"
        else:
            at, indent, where = len(self.lines), "", "at the end of the file"
        gap = _spacing(self.lines, siblings) or gap or (2 if self.language == "python" and not indent else 1)
        if self.language == "python" and not indent:  # PEP 8: two blank lines around a top-level definition
            gap = max(gap, 2)
        body = _moved(self.dedented[a:b], _lead(self.dedented[s.header - 1 - self.offset]), indent)
        if self.language == "markdown":  # a section ends with its blank lines: the new one after them
            new = (["\n"] if at and self.lines[at - 1].strip() else []) + body + (["\n"] if at < len(self.lines) else [])
        else:
            if nxt is None or prev is not None:
                new = ["\n"] * gap + body
            else:  # before the next one: the file's spacing above it, the blank lines it had below it
                above = _blank_run(self.lines, at)
                new = ["\n"] * max(0, gap - above) * bool(at) + body + ["\n"] * (above or gap)
        self._change(at, at, new, f"added `{s.qualname}` {where}")

    def _heading(self, a: int) -> int:
        """Where a new definition starting at block line `a` starts with the comment lines set apart above it
        (`// MARK: - LocalizedError`, a blank line, the new `extension`): those lines open the block or follow a
        blank line, and are no marker and no other definition's. And with the new declarations the block opens
        with before it (a constant its new helper reads, `private val EXTENSIONS = setOf(...)`): lines the file
        does not have, from the block's start or a marker, none indented less than the definition."""
        k = a
        while k > 0 and not self.block[k - 1].strip():
            k -= 1
        top = k
        while top > 0 and self.block[top - 1].strip() and top - 1 not in self.markers \
                and self.dedented[top - 1].strip().startswith(_COMMENTS):
            top -= 1
        taken = {j for f in self.block_symbols for j in range(*self._span(f))}
        if top == k or k - a == 0 or top > 0 and self.block[top - 1].strip() or any(j in taken for j in range(top, k)):
            top = a
        own, lead = {line.strip() for line in self.lines}, len(_lead(self.dedented[a]))
        j = top
        while j > 0 and j - 1 not in self.markers and j - 1 not in taken and (not self.block[j - 1].strip() or (
                self.dedented[j - 1].strip() not in own and len(_lead(self.dedented[j - 1])) >= lead)):
            j -= 1
        while j < top and not self.block[j].strip():
            j += 1
        if j < top and (j == 0 or j - 1 in self.markers) and len(_lead(self.dedented[j])) == lead \
                and self.language != "markdown":
            return j
        return top

    def _beside(self, s: Symbol, container: Symbol | None) -> Symbol | None:
        """The definition the block before changed, or the one at the user's cursor, or the one around it that
        is of the new one's scope (the method at the cursor for a method, its class for a class)."""
        p, scope = self.beside, self._scope(s, container)
        while p is not None and p not in scope:
            p = p.parent
        return p

    def _caller(self, s: Symbol, container: Symbol | None) -> Symbol | None:
        """The one definition of the scope that calls the new one (`name(`): a helper goes after its caller."""
        if s.kind == "class":  # a type is not a helper: its uses are everywhere
            return None
        call = re.compile(rf"(?<![\w$]){re.escape(s.name)}\s*\(")
        callers = [f for f in self._scope(s, container) if f.name != s.name and f.kind != "class"
                   and not any(g.parent == f for g in self.symbols)  # a namespace holds its calls' definitions
                   and any(call.search(x) for x in self.lines[f.header:f.end])]
        return callers[0] if len(callers) == 1 else None

    def _namesake(self, s: Symbol, container: Symbol | None) -> Symbol | None:
        """The definition of the scope a new one goes after as its kin: the one named most like it (`SetCaption`
        for `SetCaptionAlignment`, `redacted_url` for `redacted_headers`), or the last of the definitions near
        it whose names begin as both do (`__redisReaderSetError`, `chrtos`, `…SetErrorProtocolByte`,
        `…SetErrorOOM` for `__redisReaderSetErrorFmt`: no two of them apart by more than one other). None when
        the names begin alike for less than NAMESAKE of the longer one, or two named alike stand apart."""
        def kin(f: Symbol) -> tuple[int, bool]:
            a, b = f.name.lower(), s.name.lower()
            n = len(os.path.commonprefix([a, b]))
            # whole words of the file's name alike (`suggest|Value`, `test_display_al…`), not a word's start
            # (`get_arg|c_argv` for `get_arg_max`)
            whole = n == len(a) or f.name[n - 1:n] == "_" or bool(_WORD_START.match(f.name, n)) \
                or len(_WORD_START.findall(f.name[:n])) > 2
            return (n, n == len(a)) if n >= max(NAMESAKE * max(len(a), len(b)), 5) and whole else (0, False)
        scope = [f for f in self._scope(s, container) if f.name != s.name and f.kind != "class"]
        ranked = sorted(((kin(f), f) for f in scope), key=lambda x: x[0], reverse=True)
        if not ranked or not ranked[0][0][0]:
            return None
        (n, _), f = ranked[0]
        siblings = [g for g in self.symbols if g.parent == f.parent]
        tied = sorted(siblings.index(g) if g in siblings else -len(siblings) for score, g in ranked
                      if score == ranked[0][0])
        if any(b - a > 2 for a, b in zip(tied, tied[1:])):  # named alike apart: two places
            return None
        k = j = tied[0]
        while j + 1 < len(siblings) and j - k < 2:
            j += 1
            k = j if siblings[j].name.lower().startswith(s.name.lower()[:n]) else k
        return siblings[k]

    def _scope(self, s: Symbol, container: Symbol | None) -> list[Symbol]:
        """The file's definitions a new one is among: its container's; a method shown without its class, every
        class's members."""
        if container is None and self._method_like(s):  # Go's methods stand at the top, named `Type.method`
            return [f for f in self.symbols if f.parent is not None or f.kind == "method"]
        return [f for f in self.symbols if f.parent == container]

    def _hinted(self, s: Symbol, container: Symbol | None) -> tuple[str, Symbol] | None:
        """Where the answer's prose puts a new definition: ("after" | "before", the file's symbol), when the
        names it gives point to one place in the scope it belongs to (a method pasted alone: any class)."""
        method = container is None and self._method_like(s)
        named = {name for rel, name in self.hints if rel == "named"}
        found = [(rel, f) for rel, name in self.hints if rel in PLACES for f in self.symbols
                 if name in (f.name, f.qualname) and (f.parent == container if not method else f.parent is not None)]
        if len(found) > 1 and all(f.kind == "class" for _, f in found):  # a type and its `impl`s: the type
            found = [(rel, f) for rel, f in found if _declares(self.lines[f.header - 1]) not in ("impl", "extension")
                     ] if sum(_declares(self.lines[f.header - 1]) not in ("impl", "extension") for _, f in found) == 1 \
                else found
        if not found and container is None:  # a definition pasted without its namespace: the one it names in any
            # scope, a class rather than its constructor of the same name
            found = [(rel, f) for rel, name in self.hints if rel in PLACES for f in self.symbols
                     if name in (f.name, f.qualname) and not (f.parent is not None and f.parent.name == f.name)]
            found = found if len({f.parent for _, f in found}) == 1 else []
        if not found:  # a name the header of one definition of the scope holds: "after the `MulAssign` impl"
            found = [(rel, f[0]) for rel, name in self.hints if rel in PLACES and len(f := [
                g for g in self.symbols if g.parent == container and re.search(
                    rf"(?<![\w$]){re.escape(name)}(?![\w$])", self.lines[g.header - 1])]) == 1]
        if not found and container is None and not method:
            found = [(rel, f) for rel, name in self.hints if rel in PLACES and (f := self._statement_of(name))]
            return (max if found and found[0][0] == "after" else min)(found, key=lambda x: x[1].start) \
                if found and len({rel for rel, _ in found}) == 1 else None
        if len({f.parent for _, f in found}) > 1:  # the class the prose names
            found = [(rel, f) for rel, f in found if f.parent is not None and f.parent.name in named]
        if len({rel for rel, _ in found}) > 1 and len(found) == 2 and len({f.parent for _, f in found}) == 1:
            (r1, f1), (r2, f2) = sorted(found, key=lambda x: x[0] != "after")  # "above `g` (after `f` is fine)":
            siblings = [g for g in self.symbols if g.parent == f1.parent]  # one place when g follows f
            return (r1, f1) if siblings.index(f2) == siblings.index(f1) + 1 else None
        if not found or len({(rel, f.parent) for rel, f in found}) > 1:
            return None
        # one name defined several times (overloads, a getter and its setter) is one place when they stand together
        siblings = [g for g in self.symbols if g.parent == found[0][1].parent]
        at = sorted(siblings.index(f) for _, f in found)
        if at[-1] - at[0] != len(at) - 1:
            return None
        return found[-1] if found[0][0] == "after" else found[0]

    def _statement_of(self, name: str) -> Symbol | None:
        """The file's one top-level statement that assigns or `#define`s `name` (`const DEFER_EVENT = 6;`, not a
        definition the outline has), as a symbol a new definition can go after or before; None when none or
        several do."""
        assigns = re.compile(rf"^(?:[\w$]+\s+)*{re.escape(name)}\s*(?::[^=]*)?:?=(?!=)|^#\s*define\s+{re.escape(name)}\b")
        found = [k for k, line in enumerate(self.lines) if line[:1].strip() and assigns.match(line)]
        if len(found) != 1:
            return None
        k = found[0]
        span = self._statement(k)
        end = span[1] if span else k + 1
        if end < len(self.lines) and self.lines[end].startswith("#endif"):
            end += 1  # a fallback `#define` closes with the `#ifndef` that guards it
        return Symbol(name, name, "statement", k + 1, end, k + 1)

    def _pins(self, runs: list[tuple[int, int]], a: int, b: int, covered: set) -> list[tuple[bool, bool]]:
        """For each run inside a container's block lines [a, b): whether nothing (no marker, no placed symbol)
        comes between the container's header and it, and between it and the container's end; such a run
        starts or ends where the file's container body does."""
        taken = set(self.markers) | covered
        while b < len(self.block) and (b in self.markers or not self.block[b].strip()):
            b += 1  # a marker right after the container's last line (outside its span) elides the rest of it
        return [(k == 0 and not any(x in taken for x in range(a, s)), not any(x in taken for x in range(e, b)))
                for k, (s, e) in enumerate(runs)]

    def _place_loose(self, runs: list[tuple[int, int]], container: Symbol | None,
                     pins: list[tuple[bool, bool]] | None = None) -> None:
        """Runs of block lines outside any symbol: imports, assignments, anchored lines, or context."""
        region = (container.start - 1, container.end) if container is not None else (0, len(self.lines))
        opened = None  # the file statement a context run before this one opens (`switch x {`), when found once
        for (a, b), pin in zip(runs, pins or [(False, False)] * len(runs)):
            text = self.dedented[a:b]
            if container is None and _import_key(text[0], self.language) is not None:
                self._place_head(a, b, region)
            elif held := self._holds(text, region):
                opened = self._statement(held[-1] + len(text) - 1) if len(held) == 1 else None
            # the function the prose names, where the run opens and closes with its lines, before the file: a
            # `case 'math':` the file has once elsewhere does not pull an `endTag()` fix into `startTag()`
            elif not self._assignment(a, b, region) and not (
                    (named := self._named(container)) and self._bounded(a, b, named)
                    and self._anchor(a, b, named, None, *pin)) and not self._anchor(a, b, region, container, *pin) \
                    and not (opened and self._anchor(a, b, opened, None, *pin)) \
                    and not self._before_next(a, b, region) and not self._beside_said(a, b, region):
                self._defer(a, b, container, "its place in the file is not certain")

    def _named(self, container: Symbol | None) -> tuple[int, int] | None:
        """The lines [start, end) of the one function of the scope the answer's prose names ("In
        `configureAudioSession()`:"), where a fragment found nowhere else for certain belongs, when the fragment
        opens and closes with lines of it (`_bounded`); None when the prose names none or several."""
        named = {name for rel, name in self.hints if rel == "named"}
        found = [f for f in self.symbols if f.name in named and f.kind in ("function", "method")
                 and (container is None or f.parent == container)]
        return (found[0].start - 1, found[0].end) if len(found) == 1 else None

    def _bounded(self, a: int, b: int, region: tuple[int, int]) -> bool:
        """Whether the region holds the run's first and last lines (stripped): the run's new lines lie between
        lines of the file, so they replace or add to what is there, not some line before or after it."""
        have = {line.strip() for line in self.lines[region[0]:region[1]]}
        solid = [line.strip() for line in self.dedented[a:b] if line.strip()]
        return bool(solid) and solid[0] in have and solid[-1] in have

    def _beside_said(self, a: int, b: int, region: tuple[int, int]) -> bool:
        """New lines (none of them the file's) the prose puts after or before a member or statement it names
        ("right after `CallerPrettyfier`", a struct's field; "after `_M.USERAGENT`"): the one line of the region
        that opens with the name (after modifiers), and its statement; the lines inserted there, set apart by a
        blank line when the file sets that statement apart from the one before it. False when the prose names
        no such one place."""
        solid = [k for k in range(a, b) if self.dedented[k].strip()]
        own = {x.strip() for x in self.lines}
        places = [(rel, name) for rel, name in self.hints if rel in ("after", "before")]
        if not solid or any(self.dedented[k].strip() in own and _telling(self.dedented[k].strip())
                            and re.search(r"\w", self.dedented[k]) for k in solid) \
                or len(places) != 1:  # (a bracket the file has anyway is the new lines' own)
            return False
        rel, name = places[0]
        opens = re.compile(rf"^(?:[\w$]+\s+)*{re.escape(name)}(?![\w$(])")
        found = [k for k in range(*region) if opens.match(self.lines[k].strip())]
        if len(found) != 1:
            return False
        k = found[0]
        start, end = k, (span[1] if (span := self._statement(k)) else k + 1)
        while start > region[0] and self.lines[start - 1].strip().startswith(_COMMENTS):
            start -= 1
        apart = ["\n"] if start > region[0] and not self.lines[start - 1].strip() else []
        new = _moved(self.dedented[solid[0]:solid[-1] + 1], _lead(self.dedented[solid[0]]), _lead(self.lines[k]))
        at, new = (end, apart + new) if rel == "after" else (start, new + apart)
        self._change(at, at, new, f"added lines {a + 1}-{b} of the block {rel} `{name}`, as the answer says")
        return True

    def _before_next(self, a: int, b: int, region: tuple[int, int]) -> bool:
        """A new top-level assignment the block shows right above a line the file has once (`var VALID =
        /.../;` above the changed `setBoundary`): inserted above that line and the comments above it, with the
        block's blank lines between them. False when the run is not that, or the next line is not the file's
        once."""
        code = [x.strip() for x in self.dedented[a:b] if x.strip() and not x.strip().startswith(_COMMENTS)]
        own = {x.strip() for x in self.lines}
        if region != (0, len(self.lines)) or not code or any(x in own for x in code) or not _ASSIGNS.match(code[0]):
            return False  # only a new top-level assignment: other new lines above a file line may replace it
        nxt = next((k for k in range(b, len(self.dedented)) if self.dedented[k].strip()), None)
        if nxt is None or nxt in self.markers or len(held := self._holds([self.dedented[nxt]], region)) != 1:
            return False
        at = held[0]
        while at > region[0] and self.lines[at - 1].strip().startswith(_COMMENTS):
            at -= 1
        self._change(at, at, self.dedented[a:nxt], f"added lines {a + 1}-{b} of the block above line {at + 1}")
        return True

    def _holds(self, text: list[str], region: tuple[int, int]) -> list[int]:
        """Where (0-based file lines) the region holds the run's lines, stripped, in a row."""
        want = [line.strip() for line in text]
        have = [line.strip() for line in self.lines[region[0]:region[1]]]
        n = len(want)
        return [region[0] + k for k in range(len(have) - n + 1) if have[k:k + n] == want]

    def _statement(self, k: int) -> tuple[int, int] | None:
        """The lines [start, end) of the file's statement that opens on line k and goes on past it (a `switch`, a
        `match`, an `if` chain; by its syntax tree, or in Python by indentation): where the runs of a block that
        shows its first line, then a marker for the branches it keeps, belong. None when none opens there."""
        tree = self.tree
        if tree is None:
            lead = len(_lead(self.lines[k]))
            end = k + 1
            while end < len(self.lines) and (not self.lines[end].strip() or len(_lead(self.lines[end])) > lead):
                end += 1
            return (k, end) if end > k + 1 else None
        node = tree.root_node.descendant_for_point_range((k, len(_lead(self.lines[k]))), (k, len(self.lines[k]) - 1))
        while node.parent is not None and node.parent.start_point[0] == k and node.parent.parent is not None:
            node = node.parent
        return (k, node.end_point[0] + 1) if node.end_point[0] > k else None

    @cached_property
    def file_imports(self) -> list[tuple[int, int, str]]:
        """The file's import statements (its lines do not change during a merge: changes apply at its end)."""
        return _imports(self.lines, self.language)

    @cached_property
    def tree(self):
        """The file's syntax tree (None for a language no tree-sitter grammar reads)."""
        from .parsers import parse
        return parse("".join(self.lines), self.language)

    def _place_head(self, a: int, b: int, region: tuple[int, int]) -> None:
        """A run that opens with imports: each group of import statements placed among the file's imports, and
        the code between or after them (`LOG = logging.getLogger(...)`) below the file's imports."""
        while a < b:
            end = self._after_imports(a, b)
            self._place_import(a, end, _import_key(self.dedented[a], self.language))
            rest = end
            while rest < b and not self.dedented[rest].strip():
                rest += 1
            later = _imports(self.dedented[rest:b], self.language)
            stop = rest + later[0][0] if later else b  # the next import statement, if code stands between
            code = stop
            while code > rest and not self.dedented[code - 1].strip():
                code -= 1
            if code > rest and not self._holds(self.dedented[rest:code], region) and \
                    not self._assignment(rest, code, region):
                self._below_imports(rest, code, self._import_end(a, end))
            a = stop

    def _after_imports(self, a: int, b: int) -> int:
        """Where the run's leading import statements end: the lines after them (`LOG = logging.getLogger(...)`
        under the imports) are code of their own."""
        mine = _imports(self.dedented[a:b], self.language)
        end = 0
        for s, e, _ in mine:
            if any(x.strip() for x in self.dedented[a + end:a + s]):
                break
            end = e
        return a + end if end else b

    def _import_end(self, a: int, b: int) -> int | None:
        """Where (0-based) the file's statement ends that is the last of the block's imports in [a, b), when the
        file has it as it is."""
        mine = _imports(self.dedented[a:b], self.language)
        if not mine:
            return None
        s, e, _ = mine[-1]
        text = [x.strip() for x in self.dedented[a + s:a + e]]
        return next((fe for fs, fe, _ in self.file_imports if [x.strip() for x in self.lines[fs:fe]] == text), None)

    def _below_imports(self, a: int, b: int, after: int | None = None) -> None:
        """New top-level code an answer shows under its imports: after the file's import the block shows it
        under (`after`), else after the file's import block, set apart by the blank lines the block sets it
        apart with."""
        statements = self.file_imports
        at = after if after is not None else _import_place(self.lines, statements, "", "\uffff", self.language) \
            if statements else _head(self.lines, self.language)
        gap = max(1, _blank_run(self.dedented, a))
        self._change(at, at, ["\n"] * gap + self.dedented[a:b], f"added lines {a + 1}-{b} of the block below the imports")

    def _place_import(self, a: int, b: int, key: str) -> None:
        """A run of import statements, each placed alone: one that imports a module the file imports once
        replaces that import; a new one goes where the block shows it among the file's own (after the one the
        block shows before it, else before the one after it), else among the file's imports of its kind
        (`from` or `import`, `import` or `require`): at its sorted place when those are sorted, else after the
        last of them."""
        statements = self.file_imports
        mine = _imports(self.dedented[a:b], self.language)
        def apart(e: int, s: int) -> bool:  # more than blank lines between two statements
            return any(line.strip() for line in self.dedented[a + e:a + s])
        if not mine or mine[0][0] != 0 or mine[-1][1] < b - a or \
                any(apart(e, s) for (_, e, _), (s, _, _) in zip(mine, mine[1:])):
            mine = [(0, b - a, key)]  # not statements end to end (blank lines between them apart): the run as one
        sames, helds = [], []  # per statement of the block: the file's forms of it, those it has as they are
        for s, e, k in mine:
            text = self.dedented[a + s:a + e]
            sames.append(self._same_import(statements, k, text))
            helds.append([(fs, fe) for fs, fe in sames[-1]
                          if [x.strip() for x in self.lines[fs:fe]] == [x.strip() for x in text]])
        # the file statement each of the block's is, or replaces
        where = [held[0] if held else same[0] if len(same) == 1 else None for same, held in zip(sames, helds)]
        for n, (s, e, k) in enumerate(mine):
            text, same = self.dedented[a + s:a + e], sames[n]
            if helds[n]:
                continue  # the file imports it so already (an import inside a function is not this one)
            if len(same) == 1 and 2 * len(_bound(text) & (theirs := _bound(self.lines[same[0][0]:same[0][1]]))) < len(
                    theirs) - 1:
                # one name of many the file imports from the module: the block shows what it uses, not the
                # import without the others
                if not _bound(text) <= theirs:
                    self._defer(a + s, a + e, None, f"the block imports from {k} a part of what the file does")
                else:  # the file's import stands for it
                    self.headers.update(x.strip() for x in text)
            elif len(same) == 1:
                fs, fe = same[0]
                self._change(fs, fe, _moved(text, _lead(text[0]), _lead(self.lines[fs])),
                             f"replaced the import of {k} (line {fs + 1})")
            elif same:
                self._defer(a + s, a + e, None, f"the file imports {k} in several places")
            else:  # where the block shows it among the file's own: after the one before it, else before the next
                before = next((w[1] for w in reversed(where[:n]) if w is not None), None)
                after = next((w[0] for w in where[n + 1:] if w is not None), None)
                if after is not None and n + 1 < len(mine) and not apart(mine[n][1], mine[n + 1][0]) and \
                        n > 0 and self.dedented[a + mine[n - 1][1]:a + s] != [] and where[n + 1] is not None:
                    before = None  # set apart from the one before it, beside the one after: with that one
                at = before if before is not None else after if after is not None else \
                    _import_place(self.lines, statements, text[0], k, self.language)
                # indented as the file's imports beside it (C#'s in a namespace's body)
                near = next((self.lines[j] for j in (at - 1, at) if 0 <= j < len(self.lines)
                             and _import_key(self.lines[j], self.language)), text[0])
                self._change(at, at, _moved(text, _lead(text[0]), _lead(near)), f"added the import of {k}")

    def _same_import(self, statements: list[tuple[int, int, str]], key: str, text: list[str]) -> list[tuple[int, int]]:
        """The file's import statements the block's `text` (importing `key`) is a new form of: of its module and
        kind, and binding a name it binds, or both binding none (`var Readable = require('stream').Readable` is
        not a form of `var Stream = require('stream').Stream`)."""
        mine = _bound(text)
        return [(fs, fe) for fs, fe, fk in statements if fk == key and _kind(self.lines[fs]) == _kind(text[0])
                and (mine & (theirs := _bound(self.lines[fs:fe])) or not mine and not theirs)]

    def _assignment(self, a: int, b: int, region: tuple[int, int]) -> bool:
        """Top-level assignments, the first of a name the file assigns once at its top level: each such
        statement replaced by the block's, a new one after it going with it."""
        pattern = _PY_ASSIGN if self.language == "python" else _JS_ASSIGN if self.language in (
            "javascript", "typescript", "tsx") else _ASSIGN
        if region != (0, len(self.lines)) or not pattern.match(self.dedented[a]):
            return False
        theirs = _assignments(self.lines, self.language, pattern)
        groups: list[list] = []  # [first, end, the file's span] of the run, end to end
        for s, e, name in _assignments(self.dedented[a:b], self.language, pattern):
            spans = [(fs, fe) for fs, fe, n in theirs if n == name]
            if len(spans) != 1 and groups:
                groups[-1][1] = e  # a new one: with the one before it
            elif len(spans) != 1:
                return False
            else:
                groups.append([s, e, spans[0]])
        groups[-1][1] = b - a  # the last one to the run's end
        for s, e, (fs, fe) in groups:
            self._change(fs, fe, self.dedented[a + s:a + e], f"replaced line {fs + 1}")
        return True

    def _anchor(self, a: int, b: int, region: tuple[int, int], container: Symbol | None, pin_start: bool,
                pin_end: bool) -> bool:
        """The run aligned with the file region's lines (difflib, on stripped lines; at least one line it matches
        occurs once in the region): it replaces the file lines from where its first line aligns to where its last
        does, an unmatched end extended by as many lines as the run has there, or pinned to the container's body
        start or end (`pin_start`, `pin_end`). Re-indented as its first matched line is in the file."""
        run = [line.strip() for line in self.dedented[a:b]]
        lo, hi = region
        if container is not None:  # the body: after the line that opens it, to its last non-blank line
            lo = container.header
            while lo < hi and self.language != "markdown" and not self._opens(self.lines[lo - 1]):
                lo += 1
            while hi > lo and not self.lines[hi - 1].strip():
                hi -= 1
            if hi > lo and (self.language in BRACED and self.lines[hi - 1].strip().startswith("}")
                            or self.language in ENDED and self.lines[hi - 1].strip() == "end"):
                hi -= 1  # the closing brace is the container's own
        have = [line.strip() for line in self.lines[lo:hi]]
        counts = {}
        for line in have:
            counts[line] = counts.get(line, 0) + 1
        # a group's bare opening (Go's `var (`) says where the run stands when a line of the group is the file's
        # there too (gofmt realigns the group's lines); else it opens a new group as well as the file's
        spaced = {" ".join(x.split()) for x in have}
        grouped = any(" ".join(x.split()) in spaced for x in run if _telling(x))

        def telling(x: str) -> bool:
            return _telling(x, grouped)
        ends = [have.index(x) if telling(x) and counts.get(x) == 1 else None for x in (run[0], run[-1])]
        # the run's first line found once: the file lines before it are none of the run's (difflib would take a
        # `return ERR; }` pair above it and lose the run's first line)
        off = ends[0] or 0
        every = [m._replace(b=m.b + off) for m in difflib.SequenceMatcher(None, run, have[off:], autojunk=False)
                 .get_matching_blocks() if m.size]
        blocks = [m for m in every
                  if any(telling(run[m.a + k]) and counts[run[m.a + k]] == 1 for k in range(m.size))]
        if (arm := _arm(run[0])) and len(found := [j for j, x in enumerate(have) if _arm(x) == arm]) == 1:
            blocks = [m for m in blocks if m.b >= found[0]]  # a run that opens with a branch starts at the file's
        def reopens(m, n) -> bool:  # between two matches the run rewrites the opening of a block of the file
            # (`try {` and what it does), and the next match, a line the file has once, is the block's close kept
            theirs, mine = have[_end(m, "b"):n.b], run[_end(m, "a"):n.a]
            return self.language in BRACED and _depth(theirs) == _depth(mine) != 0 and any(
                len(run[n.a + k]) > 12 and counts[run[n.a + k]] == 1 for k in range(n.size))

        def apart(m, n) -> bool:  # the file's lines between two matches, past the run's own there (a statement
            # written over several lines counts once: a one-line rewrite of a four-line command takes its place)
            return not reopens(m, n) and statements(have[_end(m, "b"):n.b], blank=True) > statements(
                run[_end(m, "a"):n.a], blank=True) + STRAY
        while len(blocks) > 1 and not pin_end and apart(blocks[-2], blocks[-1]):
            blocks.pop()  # a last match far past the one before it, over file lines the run does not show: another
        while len(blocks) > 1 and not pin_start and apart(blocks[0], blocks[1]):
            blocks.pop(0)  # place's line like it (a `return false` of the next branch), not the run's own
        labelled = False  # the run's ends found by its branches' labels (`_arm_start`, `_arm_end`)
        opening = any(reopens(m, n) for m, n in zip(blocks, blocks[1:]))
        own = Counter(line.strip() for line in self.lines)
        found = sum(1 for m in blocks for k in range(m.size) if telling(run[m.a + k]) and counts[run[m.a + k]] == 1)
        if found < 2 <= sum(map(bool, run)) - WEAK and not (pin_start or pin_end):
            return False  # one line of many found once in the file: too little to know where the rest goes
        if len(run) > 2 and None not in ends and ends[0] < ends[1] and not (pin_start or pin_end) \
                and (ends[0] == 0 or have[ends[0] - 1] not in run) \
                and (ends[1] + 1 >= len(have) or have[ends[1] + 1] not in run):
            # its first and last lines found once, in order, and the file's lines beyond them none of the run's:
            # the run replaces what lies between them (a branch from its label to the next one's), whatever lines
            # inside it the file has elsewhere
            start, end, ref, at = lo + ends[0], lo + ends[1] + 1, a, lo + ends[0]
        elif blocks:
            first, last = blocks[0], blocks[-1]
            # a bracket that closes the run's own new lines is theirs, though the file has one like it there
            while self.language in BRACED and first.size > 1 and _depth(run[:first.a]) > 0 \
                    and _depth(run[first.a:first.a + 1]) < 0 and not run[first.a].strip("})]; ,"):
                first = first._replace(a=first.a + 1, b=first.b + 1, size=first.size - 1)
            # blank lines that end (open) the kept lines, before (after) the run's new ones: the file's spacing
            # stays on the far side of what the run adds (a logger shown under the imports keeps the file's two
            # blank lines before the code below it)
            while last.size > 1 and last.a + last.size < len(run) and run[last.a + last.size - 1] in ("", "/**", "/*"):
                last = last._replace(size=last.size - 1)  # and a doc comment's opener: the new member's, next
            while first.size > 1 and first.a > 0 and not run[first.a]:
                first = first._replace(a=first.a + 1, b=first.b + 1, size=first.size - 1)
            # the run's lines before its first kept line replace as many file lines as are like them (edited
            # lines), and the others are new: inserted, so no file line the run does not show is lost
            # a branch under a label the file lacks is new: its lines are inserted, none of them an edit of the
            # file's branch beside it (`return -operand;` of `case MINUS` stays beside a new `case INCR`)
            new = _new_arms(run, self._arm_labels(have, lo, first.b) or self._arm_labels(have, lo, first.b - 1))
            before = run[:first.a][::-1]
            before = before[:next((k for k in range(len(before)) if first.a - 1 - k in new), len(before))]
            j = last.b + last.size
            new = _new_arms(run, self._arm_labels(have, lo, j - 1) or self._arm_labels(have, lo, j))
            after = run[last.a + last.size:]
            after = after[:next((k for k in range(len(after)) if last.a + last.size + k in new), len(after))]
            # new lines that a marker follows: the marker says the file's lines go on after them, so an entry
            # of another key (`test!(fixed_low: ...)` beside the file's `test!(rgb: ...)`) is no edit of theirs
            entries = self._marked_after(b) and last.a + last.size < len(run)
            nb, na = self._like_edge(before, have[:first.b][::-1]), self._like_edge(after, have[last.b + last.size:],
                                                                                    entries)
            edits = [(x, y) for lines, near, n, keyed in ((before, have[:first.b][::-1], nb, False),
                                                          (after, have[last.b + last.size:], na, entries))
                     for k, j in like_pairs(lines, near[:n], keyed)[1] if (x := lines[k]) != (y := near[j])]
            here = self._inner(lo + first.b)
            if any(len(x) > 12 and own[x] == 1 and self._inner(next(
                    k for k, line in enumerate(self.lines) if line.strip() == x)) != here for x, _ in edits):
                return False  # a line another definition has as it is, taken as an edit of a line like it here:
                # the run's lines point two ways (the `throw` of another function's switch)
            start = lo if pin_start else lo + first.b - nb
            end = hi if pin_end else lo + last.b + last.size + na
            # an end line the file has more than once, matched right beside the unique ones: the run ends there
            # (it may insert lines between them)
            tail = next((m for m in every if m.a + m.size == len(run) and m.a >= last.a + last.size
                         and 0 <= m.b - last.b - last.size and statements(have[last.b + last.size:m.b], blank=True)
                         <= statements(run[last.a + last.size:m.a], blank=True) + 1
                         and not _other_arms(have[last.b + last.size:m.b], run)), None)
            head = next((m for m in every if m.a == 0 and m.size <= first.a and m.b + m.size <= first.b
                         and first.b - m.b - m.size <= first.a - m.size + 3), None)
            if tail is not None and not pin_end:
                end = lo + tail.b + tail.size
            elif not pin_end and (found := _context(run[last.a + last.size:], have, last.b + last.size, after=True)) \
                    is not None and not _other_arms(have[last.b + last.size:found], run):
                end = lo + found  # (not over a branch of the file's the run does not show: the new ones' `;;`
                # like the next one's)
            if head is not None and not pin_start:
                start = lo + head.b
            elif not pin_start and (found := _context(run[:first.a], have, first.b, after=False)) is not None \
                    and not _other_arms(have[found:first.b], run):
                start = lo + found
            if (said := self._replaced(run, have, first, last, nb, pin_start, pin_end)) is not None:
                start, end, labelled = min(start, lo + said[0]), max(end, lo + said[1]), True
            if not pin_start and (arm := lo + self._arm_start(run, have, lo, first)) < start:
                start, labelled = arm, True
            if not pin_end and (arm := lo + self._arm_end(run, have, lo, last, a, b)) > end:
                end, labelled = arm, True
            ref, at = a + first.a, lo + first.b
            if not pin_end and last.a + last.size < len(run) and (span := self._statement(lo + last.b)) is not None \
                    and end < span[1] and span[1] - span[0] == len(run) - last.a:
                end = span[1]  # the run's last lines rewrite the end of a statement it opens as the file does, as
                # many lines as the file's (`: new URLSearchParams(...)` made `: serialize(params)`)
        elif (arm := _arm(run[0])) and len(found := [j for j, x in enumerate(have) if _arm(x) == arm]) == 1 \
                and not any(_arm(x) for x in run[1:]) and not (pin_start or pin_end):
            # one branch, none of its lines kept: the file's branch under its label, rewritten whole
            start, end = lo + found[0], lo + self._arm_close(have, lo, found[0])
            ref, at, labelled = a, start, True
        else:  # no line kept as it was: the run's ends are edited lines of the file, found by likeness
            head, tail = _likest(run[0], have), _likest(run[-1], have)
            if head is None and not pin_start or tail is None and not pin_end:
                return False
            start = lo if pin_start else lo + head
            end = hi if pin_end else lo + tail + 1
            ref, at = a, start
        if pin_start and a > 0 and not self.dedented[a - 1].strip():
            while start < end and not self.lines[start].strip():
                start += 1  # the blank line the block shows under the header is the file's, there as well
        if not lo <= start <= end <= hi or at >= len(self.lines):
            return False
        kept = set(run)
        dropped = statements([line.strip() for line in self.lines[start:end] if line.strip() not in kept])
        if not (labelled or opening) and dropped > statements(
                [line for line in run if line not in set(have[start - lo:end - lo])]):
            return False  # the file statements it would replace are not the run's: their place is not certain
            # (a branch found by its label is the run's, whatever its old body)
        new = _moved(self.dedented[a:b], _lead(self.dedented[ref]), _lead(self.lines[at]))
        if self.language == "markdown":  # a paragraph the block sets apart by blank lines stays apart in the file
            if a > 0 and not self.block[a - 1].strip() and start > 0 and self.lines[start - 1].strip():
                new = ["\n"] + new
            if b < len(self.block) and not self.block[b].strip() and end < len(self.lines) and self.lines[end].strip():
                new = new + ["\n"]
        self._change(start, end, new,
                     f"replaced lines {start + 1}-{end}" if end > start else f"added lines at line {start + 1}")
        if container is None and (around := [f for f in self.symbols if f.start - 1 <= start and end <= f.end]):
            inner = min(around, key=lambda f: f.end - f.start)  # the definition a fragment's lines changed in
            self.touched.add(inner.name)
            self.last = inner.qualname
        return True

    def _replaced(self, run: list[str], have: list[str], first, last, nb: int, pin_start: bool,
                  pin_end: bool) -> tuple[int, int] | None:
        """The lines [start, end) of `have` the answer's prose says the run replaces ("replace the `// color`
        block", "replace the `sleep(delay)` call"), a line the region has once: from that line to the end of
        its paragraph when it is the run's last kept line and new lines follow it; from it (and the comment
        lines above it, when the run opens with a comment) to the run's first kept line when the run's lines
        before that one are new and the paragraph reaches it. None when the prose says none of these."""
        for rel, code in self.hints:
            found = [j for j, h in enumerate(have) if rel == "replaces" and h == code.strip()]
            if len(found) != 1:
                continue
            x = found[0]
            if x == last.b + last.size - 1 and last.a + last.size < len(run) and not pin_end:
                t = x + 1
                while t < len(have) and have[t]:
                    t += 1
                return x, t
            if x < first.b and nb == 0 and not pin_start and all(have[x:first.b]):
                while x > 0 and have[x - 1].startswith(_COMMENTS) and run[0].startswith(_COMMENTS):
                    x -= 1
                return x, first.b
        return None

    def _inner(self, k: int) -> Symbol | None:
        """The innermost definition that holds file line k (0-based), or None."""
        around = [f for f in self.symbols if f.start - 1 <= k < f.end]
        return min(around, key=lambda f: f.end - f.start) if around else None

    def _arm_labels(self, have: list[str], lo: int, j: int) -> set[str]:
        """The labels of the branches beside file line `lo + j` (`have[j]`), when it is a branch's head or in its
        body: the branch heads at that one's indentation, up to the lines indented less around them (its
        `switch`); else none (also for j outside `have`: a run's kept line that ends the file's branches, as a
        `default:`'s comment does, is beside those above it)."""
        if not 0 <= j < len(have):
            return set()
        head = self._arm_head(have, lo, j)
        if head is None:
            return set()
        lead = len(_lead(self.lines[lo + head]))
        out = set()
        for walk in (range(head, -1, -1), range(head + 1, len(have))):
            for k in walk:
                line = self.lines[lo + k]
                if line.strip() and len(_lead(line)) < lead:
                    break
                if len(_lead(line)) == lead and (label := _arm(have[k])):
                    out.add(label)
        return out

    def _arm_head(self, have: list[str], lo: int, j: int) -> int | None:
        """The head of the branch file line `lo + j` (`have[j]`) heads or stands in, or None."""
        depth = len(_lead(self.lines[lo + j]))
        head = next((k for k in range(j, -1, -1) if have[k] and (k == j or len(_lead(self.lines[lo + k])) < depth)
                     and (_arm(have[k]) or k < j)), None)
        return head if head is not None and _arm(have[head]) else None

    def _arm_start(self, run: list[str], have: list[str], lo: int, first) -> int:
        """Where the run starts in the file region's `have` by its first branch: a branch head the run shows before
        its first kept line (only blank lines before it), which the file has once under the same label with no
        other branch between it and that kept line, is the file's branch rewritten (Kotlin's `null -> a` made
        `null ->` and a body); else the kept line."""
        k = next((k for k, x in enumerate(run[:first.a]) if x), None)
        label = _arm(run[k]) if k is not None else None
        found = [j for j, x in enumerate(have[:first.b]) if label is not None and _arm(x) == label] or [
            j for j, x in enumerate(have[:first.b]) if label is not None and (theirs := _arm(x)) is not None
            and arm_values(theirs) > arm_values(label)]
        if len(found) != 1 or any(_arm(x) for x in have[found[0] + 1:first.b]):
            return first.b
        return found[0]

    def _arm_end(self, run: list[str], have: list[str], lo: int, last, a: int, b: int) -> int:
        """Where the run (block lines [a, b)) ends in `have` by its last branch: a branch head at or after the
        run's last kept line, the rest of the run that branch's new body (no marker inside the body follows it),
        which the file has once under the same label with no other branch between, ends where the file's
        branch does (its old body goes, `break` and all); else after the last kept line."""
        done = last.b + last.size
        k = next((k for k in range(len(run) - 1, last.a + last.size - 2, -1) if _arm(run[k])), None)
        m = next((m for m in range(b, len(self.dedented)) if self.dedented[m].strip()), None)
        if k is not None and m in self.markers and len(_lead(self.dedented[m])) > len(_lead(self.dedented[a + k])):
            return done  # a marker in the branch's body stands for the rest of it
        found = [j for j, x in enumerate(have) if k is not None and j >= done - 1 and _arm(x) == _arm(run[k])]
        held = self._arm_head(have, lo, done - 1)
        if k is not None and k >= last.a + last.size and held is not None and not found \
                and arm_values(_arm(have[held])) > arm_values(_arm(run[k])):
            return self._arm_close(have, lo, held)  # a branch split off the one the last kept line is in
        if len(found) != 1 or any(_arm(x) for x in have[done:found[0]]) or k >= last.a + last.size and \
                found[0] < done:
            return done
        return self._arm_close(have, lo, found[0])

    def _arm_close(self, have: list[str], lo: int, j: int) -> int:
        """Where the branch whose head is `have[j]` (file line lo + j) ends in `have` (exclusive): arm_end."""
        return arm_end(self.lines[lo:lo + len(have)], j)

    def _marked_after(self, b: int) -> bool:
        """Whether the block's next line after [.., b) that is not blank is a marker."""
        return next((k in self.markers for k in range(b, len(self.block)) if self.block[k].strip()), False)

    def _like_edge(self, run: list[str], have: list[str], keyed: bool = False) -> int:
        """_like_run, where the file lines it would replace hold the brackets the run's lines do: a `}` the run
        closes its own new `if {` with is not the file's `}` beside it, which closes another block."""
        n = like_pairs(run, have, keyed)[0]
        if self.language in BRACED and _depth(have[:n]) != _depth(run):  # all of the run takes their place
            return 0
        return n

    def _defer(self, a: int, b: int, container: Symbol | None, why: str, candidates: tuple = (),
               places: tuple = ()) -> None:
        window = (container.start, container.end) if container is not None else None
        self.pending.append(Pending("".join(self.block[a:b]), window, why, container.qualname if container else None,
                                    candidates, places))

    @staticmethod
    def _places(definitions: list[Symbol]) -> tuple[tuple[str, int, int], ...]:
        """The definitions a new one may go right after, as Pending's `places`: those of a class or namespace,
        not the class itself (a method's place is among the members)."""
        return tuple((f.qualname, f.start, f.end) for f in definitions if f.kind != "class" or f.parent is None)

    def _place_header(self, s: Symbol, f: Symbol) -> bool:
        """A header whose lines the block changes, as many as the file's: a header written over several lines (a
        parameter per line) whose lines after the first the block changes, or a header line the block only
        adds to (`class Data implements DataInterface, ArrayAccess, Countable`): those replace the file's, line
        for line (the rest of the header is context, the file's). A header the block shortens stays the file's
        (`class Cart:` shown for `class Cart(Base):`). Whether the block's first header line took the file's
        place."""
        if self.language == "markdown":
            return False
        h, k = s.header - 1 - self.offset, f.header - 1
        mine, theirs = [h], [k]
        while not self._opens(self.dedented[mine[-1]]) and mine[-1] + 1 < len(self.dedented) and len(mine) < 32:
            mine.append(mine[-1] + 1)
        while not self._opens(self.lines[theirs[-1]]) and theirs[-1] + 1 < f.end and len(theirs) < 32:
            theirs.append(theirs[-1] + 1)
        if len(mine) != len(theirs) or any(j in self.markers for j in mine):
            return False
        pairs = [(j, i) for j, i in zip(mine, theirs) if self.dedented[j].strip() != self.lines[i].strip()]
        if len(mine) < 3 or self.dedented[h].strip() != self.lines[k].strip():
            pairs = [(j, i) for j, i in pairs if _WORDS.findall(self.lines[i])
                     and Counter(_WORDS.findall(self.lines[i])) <= Counter(_WORDS.findall(self.dedented[j]))]
        for j, i in pairs:
            self._change(i, i + 1, [_lead(self.lines[i]) + self.dedented[j].lstrip()],
                         f"replaced line {i + 1} of the header of `{f.qualname}`")
        return any(j == h for j, _ in pairs)

    def _runs(self, a: int, b: int, covered: set, header: int | None = None) -> list[tuple[int, int]]:
        """Runs of non-marker lines in [a, b) outside `covered`, blank lines trimmed; a container's header
        (`header`, to the line that opens its body) is context."""
        runs, start = [], None
        for k in range(a, b + 1):
            inside = k < b and k not in covered and k not in self.markers
            if inside and start is None:
                start = k
            elif not inside and start is not None:
                runs.append((start, k))
                start = None
        out = []
        for s, e in runs:
            if header is not None and s <= header < e:  # the container's own header (its attributes above it,
                s = header  # to the line that opens its body): the file's stays
                while s < e and not self._opens(self.dedented[s]) and self.language != "markdown":
                    s += 1
                s += 1
            while s < e and not self.dedented[s].strip():
                s += 1
            while e > s and not self.dedented[e - 1].strip():
                e -= 1
            if header is not None and e == b and self.dedented[e - 1].strip() == ("end" if self.language in ENDED else "}") \
                    and (self.language in BRACED or self.language in ENDED):
                e -= 1  # the container's own closing brace (`end`): the file's stays
            if s < e:
                out.append((s, e))
        return out

    def _opens(self, line: str) -> bool:
        """Whether a header's line is the one that opens the body (`:`, `{`; in Lua and Ruby, whose bodies end
        with `end`, a header line that closes its parameters)."""
        line = line.rstrip()
        return line.endswith((":", "{")) or self.language in ENDED and (line.endswith(")") or "(" not in line)

    def _change(self, start: int, end: int, lines: list[str], what: str) -> None:
        self._order += 1
        self.changes.append(_Change(start, end, lines, what, self._order))

    def apply(self) -> str:
        """The file with the changes made; changes that overlap one made before them go pending."""
        kept: list[_Change] = []
        for c in self.changes:
            if any(c.start < k.end and k.start < c.end or (c.start == c.end and k.start < c.start < k.end)
                   or (k.start == k.end and c.start < k.start < c.end) for k in kept):
                self.pending.append(Pending("".join(c.lines), (c.start + 1, max(c.start + 1, c.end)),
                                            f"{c.what} overlaps another part of the block"))
                continue
            kept.append(c)
            self.placed.append(c.what)
        out, at = [], 0
        for c in sorted(kept, key=lambda c: (c.start, c.end != c.start, c.order)):
            out += self.lines[at:c.start]
            out += c.lines
            at = max(at, c.end)
        out += self.lines[at:]
        return "".join(_joined(out))


_AMBIGUOUS = object()


def _body(lines: list[str]) -> list[str]:
    """A symbol's lines after its header, as they read whatever their indentation, without trailing blank lines."""
    out = [line.strip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def _joined(lines: list[str]) -> list[str]:
    """Lines joined end to end: one that lost its newline by being last in the file gets it back when more
    follows."""
    return [line if line.endswith("\n") or k == len(lines) - 1 else line + "\n" for k, line in enumerate(lines)]


IMPORT_GAP = 3  # the most lines of other code between two imports of one import block
_STATEMENTS = {"if", "for", "while", "switch", "catch", "with", "do", "else", "return", "try", "finally"}
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Za-z0-9])_|^")  # where a name's words begin (or end)
NAMESAKE = 0.5  # the least share of the shorter name that two definitions' names begin with alike to be kin
CLEARLY = 0.15  # the least lead, in the share of a block symbol's lines a file definition holds, of the likest one
WEAK = 9  # a run of more lines than this needs two of them found once in the file
STRAY = 2  # file lines between two matches of a run, beyond the run's own there, that part them
LIKE_RUN = 0.5  # the least difflib ratio of a run's edited end line to the file line it replaces
LIKE = 0.75  # the least difflib ratio of an edited line to the file line it replaces


def _context(lines: list[str], have: list[str], at: int, after: bool) -> int | None:
    """Where a run's lines beside its kept line at `at` of `have` (before it, or after it with `after`) start
    (or end): the most of their outer lines, in a row, that the file has within a few lines of `at` (context;
    the lines between are new or replace the file's lines between); None when not even one is."""
    n = len(lines)
    for k in range(n, 0, -1):
        outer = lines[:k] if not after else lines[n - k:]
        if not any(outer):
            continue
        for j in range(0, n - k + 2):
            s = at - j - k if not after else at + j
            if 0 <= s and s + k <= len(have) and have[s:s + k] == outer:
                return s if not after else s + k
    return None


_GOES_ON = ("\\", "|", "&&", "||")  # a line that ends so goes on on the next


def _goes_on(lines: list[str]) -> bool:
    """Whether the statement the (stripped) lines start goes on past them (a bracket left open, a `\\`)."""
    return statements(lines + ["x"]) <= statements(lines)


def statements(lines: list[str], blank: bool = False) -> int:
    """How many statements the (stripped) lines start: a line inside parentheses or brackets an earlier one left
    open, or after one that goes on (`\\`, `|`, `&&`), is that one's (a command substitution over four lines is
    one; a `{` body's lines are statements of their own). With `blank`, a blank line counts as one."""
    count = depth = 0
    going = False
    for line in lines:
        if not line:
            count += blank
            continue
        count += depth <= 0 and not going
        depth = max(0, depth + sum(line.count(o) - line.count(c) for o, c in ("()", "[]")))
        going = line.endswith(_GOES_ON)
    return count


PLACES = ("after", "before")  # the hints that name a place (core/chat_answer.py `_places`)
ENDLESS = 2  # a scope with more definitions than this has no one end a new one goes to unless the prose says so
_HASH_CODE = {"rust", "c", "cpp", "csharp"}  # a line opening with `#` is code there (an attribute, a directive)
_COMMENTS = ("#", "//", "/*", "*", "--")  # how a comment line starts (`--`: Lua's, SQL's)
_ASSIGNS = re.compile(r"^(?:[\w$]+\s+)*[\w$.]+\s*(?::[^=]*)?:?=(?!=)")  # `var X = ...`, `X: int = ...`, `x := ...`


def _end(m, side: str) -> int:
    """Where a difflib match ends on one side ("a", "b")."""
    return getattr(m, side) + m.size


def _depth(lines: list[str]) -> int:
    """How many brackets the lines open and leave open (negative: close), strings and comments not told apart."""
    return sum(line.count(o) - line.count(c) for line in lines for o, c in ("{}", "()", "[]"))


def like_run(run: list[str], have: list[str]) -> int:
    """How many of `have`'s first lines are, one by one, like `run`'s (blank beside blank, else at least LIKE_RUN
    alike), the run's last line like the one after them with the run's other lines new before it (`say
    "skipping"` before the `return false` that takes the place of `return true`); the rest of `run` is new."""
    return like_pairs(run, have)[0]


def like_pairs(run: list[str], have: list[str], keyed: bool = False) -> tuple[int, list[tuple[int, int]]]:
    """like_run's count, and the (run index, `have` index) of each pair of like lines it found; with `keyed`,
    no pair of entries of different keys (`_other_entry`)."""
    n = solid = r = 0  # blank lines count only when a like line follows them
    pairs = []
    while n < len(have) and r < len(run):
        if not have[n]:
            r += not run[r]
            n += 1
            continue
        k = next((k for k in (r, len(run) - 1) if run[k] and difflib.SequenceMatcher(
            None, run[k], have[n], autojunk=False).ratio() >= LIKE_RUN and not _other_label(run[k], have[n])
            and not (keyed and _other_entry(run[k], have[n]))), None)
        if k is None:
            break
        pairs.append((k, n))
        r, n = k + 1, n + 1
        if not _goes_on([run[k]]):  # a whole statement, in place of one the file writes over several lines
            at = n - 1
            while n < len(have) and _goes_on(have[at:n]):
                n += 1
        solid = n
    if pairs and run[pairs[0][0]] == have[pairs[0][1]] and not re.search(r"\w", run[pairs[0][0]]) and (
            len(pairs) < 2 or run[pairs[1][0]] != have[pairs[1][1]]):
        return 0, []  # a `/**` like the file's next one, then another text: a new comment, no edit of that one
    return solid, pairs


# a branch's head and its label: `case 1:`, `case .began:`, `when :a`, `default:`, and an arm before its arrow
# (Kotlin's `null ->`, Rust's `Some(x) =>`, a Java switch rule) that is not an assignment, a lambda or a statement
_WORDS = re.compile(r"\w+")
_ARM = re.compile(r"^(?:@unknown\s+)?(?:(?P<label>case\b[^:]*?|default)\s*(?::|->|=>|$)|(?P<when>when\b.*?)\s*(?:\bthen\b|$))"
                  r"|^(?!.*?\bfn\s+\w+\s*[<(])"  # not a Rust function's `-> T` (`pub fn f<A>(a: A) -> T`)
                  r"(?P<arrow>(?!(?:val|var|let|const|return|if|for|while|fun|fn|func|def)\b)[^\s={}/.(]"
                  r"(?:[^={};()]|\([^()]*\))*?)"  # `=` only within a call's parentheses (`ignoreCase = true`)
                  r"\s*(?:->|=>)(?=\s|$)"  # an arrow set apart: not PHP's `$this->x`
                  # a shell `case` pattern that no call's closing line could be: an option, a glob, a quoted
                  # word or alternatives (`--algo)`, `*)`, `-h|--help)`, `start|stop)`)
                  r"|^(?P<shell>(?:[-*\"']|\w[\w-]*\|)[^\s()]*)\)(?=\s|$)")


def _arm(line: str) -> str | None:
    """The label of a branch whose head is the (stripped) line, or None: how a changed `case` is told from a
    new one beside it, whatever the two's bodies."""
    m = _ARM.match(line)
    if m is None:
        return None
    label = m.group("label") or m.group("when") or m.group("arrow") or m.group("shell")
    return " ".join(label.split()) if _depth([label]) == 0 else None


_DECLARES = re.compile(r"\b(class|struct|enum|interface|protocol|extension|impl|trait|object|module|namespace|record|"
                       r"type|union)\b")


def arm_values(label: str) -> set[str]:
    """The values a branch's label lists (`case A, B` and Rust's `A | B`: {A, B}): a branch that shows some of
    the values of the file's `case A, B, C` splits that branch, and takes its place."""
    body = re.sub(r"^(?:case|when)\b\s*", "", label)
    out, depth, part = set(), 0, ""
    for ch in body:
        depth += ch in "([{" and 1 or ch in ")]}" and -1 or 0
        if depth == 0 and ch in ",|":
            out.add(part.strip())
            part = ""
        else:
            part += ch
    return (out | {part.strip()}) - {""}


_TRAIT = re.compile(r"\bimpl\b\s*(?:<[^{]*?>)?\s*(.+?)\s+for\s")


def _trait(header: str) -> str | None:
    """The trait a Rust `impl Trait for Type` header implements (its generics aside), or None."""
    m = _TRAIT.search(header)
    return re.sub(r"<.*", "", m.group(1)).strip() if m else None


def _declares(header: str) -> str | None:
    """The keyword a type's declaration opens with (`extension`, `impl`, `enum`), or None."""
    m = _DECLARES.search(header)
    return m.group(1) if m else None


def arm_end(lines: list[str], j: int) -> int:
    """Where the branch whose head is lines[j] ends (exclusive): at the next head at its indentation, or a line
    indented less, or its `switch`'s closing line (`}`, `end`); its blank lines after it left out."""
    lead = len(_lead(lines[j]))
    t = j + 1
    while t < len(lines):
        line = lines[t]
        if line.strip() and (len(_lead(line)) < lead or len(_lead(line)) == lead and (
                _arm(line.strip()) or line.strip().startswith(("}", "end")))):
            break
        t += 1
    while t > j + 1 and not lines[t - 1].strip():
        t -= 1
    return t


def _new_arms(run: list[str], labels: set[str]) -> set[int]:
    """The indexes of the run's lines in a branch under a label not among `labels`, its head and its body (up
    to a line that closes what holds the branches: `];` after a new `'ws' => 80,` entry, `esac`)."""
    out, new = set(), False
    for k, line in enumerate(run if labels else ()):
        if label := _arm(line):
            new = label not in labels
        elif line in ("esac", "end") or line[:1] in ")]}" and _depth([line]) < 0:
            new = False
        if new:
            out.add(k)
    return out


_SELF = re.compile(r"\(\s*(?:&\s*(?:'\w+\s+)?)?(?:mut\s+)?self\b")  # a Rust method's receiver
_OPENER = re.compile(r"^(?:var|const|type|import|let)\s*[({]$")  # a group's opening, the same in any group


def _telling(line: str, grouped: bool = False) -> bool:
    """Whether a (stripped) line says where it stands when the file has it once: more than a bracket, and no
    group's bare opening (Go's `var (` opens the file's group and a new one alike) unless the run is `grouped`
    (a line of the group is the file's there too)."""
    return len(line) > 2 and (grouped or not _OPENER.match(line))


def _other_arms(lines: list[str], run: list[str]) -> bool:
    """Whether `lines` hold the head of a branch under a label none of the run's branches has."""
    labels = {_arm(x) for x in run}
    return any((label := _arm(x)) and label not in labels for x in lines)


def _other_label(line: str, other: str) -> bool:
    """Two branch heads of different labels: a new `case` beside the file's, never an edit of it."""
    a, b = _arm(line), _arm(other)
    return a is not None and b is not None and a != b


_ENTRY = re.compile(r"^([\w.]+!?)\(\s*([\w\"']+)")  # a call or macro and its first argument: an entry's key


def _other_entry(line: str, other: str) -> bool:
    """Two calls of one function or macro whose first arguments differ (`test!(fixed_low: ...)` and
    `test!(rgb: ...)`): entries side by side, each of its own key."""
    a, b = _ENTRY.match(line), _ENTRY.match(other)
    return a is not None and b is not None and a.group(1) == b.group(1) and a.group(2) != b.group(2)


def _likest(line: str, have: list[str]) -> int | None:
    """The index of the one line of `have` most like `line` (at least LIKE), or None (none, or a tie)."""
    if not line:
        return None
    scores = [difflib.SequenceMatcher(None, line, h, autojunk=False).ratio() if h else 0.0 for h in have]
    best = max(scores, default=0.0)
    return scores.index(best) if best >= LIKE and scores.count(best) == 1 else None


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _unit(lines: list[str]) -> str:
    """The file's indentation step: its smallest indent, or four spaces."""
    leads = [_lead(line) for line in lines if line.strip() and _lead(line)]
    return min(leads, key=len) if leads else "    "


def _in_file_style(block: str, document: str) -> str:
    """The block indented as the file is, when it shows the file's code (half its lines are the file's): a block
    indented with spaces in steps of two or more (the greatest common divisor of its indents) for a file indented
    with tabs alone gets a tab for each step (a chat re-indents what it shows), and a block
    indented with tabs for a file indented with spaces gets the file's step for each tab."""
    leads = [_lead(line) for line in split_lines(document) if line.strip() and _lead(line)]
    lines = split_lines(block)
    mine = [_lead(line) for line in lines if line.strip() and _lead(line)]
    have = {line.strip() for line in split_lines(document)}
    if not leads or not mine or 2 * sum(line.strip() in have for line in lines if line.strip()) < len(mine):
        return block  # new code (a new function) keeps the indentation it was given
    # a file indented with tabs only (a block comment's ` * ` aside) or with spaces only
    tabbed = sum(lead.startswith("  ") for lead in leads) <= len(leads) // 50
    if tabbed and all(set(lead) == {" "} for lead in mine):
        step = math.gcd(*(len(lead) for lead in mine))
        if step < 2:
            return block
        return "".join("\t" * (len(_lead(x)) // step) + x.lstrip(" ") if x.strip() else x for x in lines)
    if not any("\t" in lead for lead in leads) and all(set(lead) == {"\t"} for lead in mine) \
            and set(unit := _unit(split_lines(document))) == {" "}:
        return "".join(unit * len(_lead(x)) + x.lstrip("\t") if x.strip() else x for x in lines)
    return block


def _moved(lines: list[str], old: str, new: str) -> list[str]:
    """Lines indented with `old` re-indented with `new` (lines indented less get `new` in front; with the
    same indent, lines stay as they are)."""
    if old == new:
        out = list(lines)
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        return out
    out = []
    for line in lines:
        if not line.strip():  # a blank line keeps its spaces where the indent stays
            out.append(line if old == new else "\n" if line.endswith("\n") else "")
        elif line.startswith(old):
            out.append(new + line[len(old):])
        elif len(new) > len(old):  # indented less than the reference line: moved by as much
            out.append((new[len(old):] if new.startswith(old) else " " * (len(new) - len(old))) + line)
        else:
            lead = _lead(line)
            out.append(line[min(len(lead), len(old) - len(new)):])
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return out


def _spacing(lines: list[str], siblings: list[Symbol]) -> int:
    """The blank lines the file most often has between two neighbouring definitions of a scope (0: none
    to go by)."""
    gaps = Counter(sum(1 for x in lines[p.end:n.start - 1] if not x.strip())
                   for p, n in zip(siblings, siblings[1:]) if all(not x.strip() for x in lines[p.end:n.start - 1]))
    return gaps.most_common(1)[0][0] if gaps else 0


def _trailing_blank(lines: list[str]) -> list[str]:
    n = 0
    while n < len(lines) and not lines[len(lines) - 1 - n].strip():
        n += 1
    return ["\n"] * n


def _blank_run(lines: list[str], k: int) -> int:
    """Blank lines right before line k, when something comes before them."""
    n = 0
    while k - n - 1 >= 0 and not lines[k - n - 1].strip():
        n += 1
    return n if k - n > 0 else 0


def _import_key(line: str, language: str | None) -> str | None:
    pattern = _IMPORT.get(language or "")
    m = pattern.match(line.lstrip() if language in NESTED_IMPORTS else line) if pattern else None
    return next(g for g in m.groups() if g is not None) if m else None


def _import_place(lines: list[str], statements: list[tuple[int, int, str]], first: str, key: str,
                  language: str | None) -> int:
    """Where a new import statement goes (0-based line): see _Merger._place_import."""
    if not statements:
        return _head(lines, language)
    # the import block: the file's first imports, up to the first code after them beyond a few lines (a
    # `const cache = new LRU()` between two requires is still in it; a function is not)
    block = statements[:1]
    for st in statements[1:]:
        if sum(bool(x.strip()) and not x.lstrip().startswith(("#", "//", "/*", "*")) for x in lines[block[-1][1]:st[0]]) \
                > IMPORT_GAP:
            break
        block.append(st)
    statements = block
    same = [(s, e, k) for s, e, k in statements if _kind(lines[s]) == _kind(first)] or statements
    keys = [k.lower() for _, _, k in same]
    if keys == sorted(keys):
        after = [s for s, _, k in same if k.lower() > key.lower()]
        if after:
            return after[0]
    return same[-1][1]


_QUOTED = re.compile(r"""(['"<`]).*?(?:\1|>)""")
_IMPORT_WORDS = {"import", "from", "const", "let", "var", "require", "as", "type", "static", "use", "using",
                 "include", "pub", "crate", "self", "super", "local", "mod"}


def _bound(text: list[str]) -> set[str]:
    """The names an import statement binds, roughly: its identifiers but the module's (quoted) and keywords."""
    words = set(re.findall(r"[A-Za-z_$][\w$]*", _QUOTED.sub(" ", " ".join(text))))
    return words - _IMPORT_WORDS


def _kind(line: str) -> str:
    """An import statement's kind: its first word (`from`, `import`, `const`, `#include`, `use`; TypeScript's
    `import type`, which imports from a module beside its plain import)."""
    words = line.split()
    return " ".join(words[:2]) if words[:2] == ["import", "type"] else words[0] if words else ""


def _imports(lines: list[str], language: str | None) -> list[tuple[int, int, str]]:
    """The file's top-level import statements: (first line, end, the module), 0-based [first, end)."""
    out, k = [], 0
    while k < len(lines):
        key = _import_key(lines[k], language)
        if key is None and language in ("javascript", "typescript", "tsx") and \
                re.match(r"(?:const|let|var|import)\s*\{[^}]*$", lines[k]):
            e = k + 1  # a destructuring import over several lines: its module is on its last line
            while e < len(lines) and e - k < 64 and lines[e][:1].isspace():
                e += 1
            if e < len(lines) and (m := re.match(r"""\}\s*(?:=\s*require\(|from\s)\s*['"]([^'"]+)['"]""", lines[e])):
                out.append((k, e + 1, m.group(1)))
                k = e + 1
                continue
        if key is None and language in ("c", "cpp") and lines[k].startswith("#if") and k + 2 < len(lines) \
                and (inner := _import_key(lines[k + 1], language)) and lines[k + 2].startswith("#endif"):
            out.append((k, k + 3, inner))  # an include its platform guards: one statement, guard and all
            k += 3
            continue
        if key is None:
            k += 1
            continue
        e = k + 1
        if "(" in lines[k] and ")" not in lines[k] or language in BRACED and "{" in lines[k] and "}" not in lines[k]:
            while e < len(lines) and not re.search(r"[)}]", lines[e - 1] if e - 1 > k else ""):
                e += 1
        out.append((k, e, key))
        k = e
    return out


def _assignments(lines: list[str], language: str, pattern: re.Pattern) -> list[tuple[int, int, str]]:
    """Top-level assignments: (first line, end, the name); a statement runs to the next top-level line."""
    out = []
    for k, line in enumerate(lines):
        if (m := pattern.match(line)) is None:
            continue
        e = k + 1
        while e < len(lines) and (not lines[e].strip() or _lead(lines[e]) or lines[e].lstrip()[:1] in ")]}"):
            e += 1
        while e > k + 1 and not lines[e - 1].strip():
            e -= 1
        out.append((k, e, m.group(1)))
    return out


def _head(lines: list[str], language: str | None) -> int:
    """Where imports go in a file that has none: after its docstring, leading comments and blank lines."""
    if language == "python":
        try:
            tree = ast.parse("".join(lines))
        except (SyntaxError, ValueError):
            return 0
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
            return body[0].end_lineno
    k = 0
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith(("#", "//", "'use strict'", '"use strict"'))):
        k += 1
    return k
