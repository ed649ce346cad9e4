"""Where an edit happens: the windows of a document that a windowed edit rewrites. Every way an edit reaches the
engine (CLI, worker, language server) ends here, and only here are windows decided.

A window is a range of whole lines, found as a developer would find the place:
1. the editor's selection, when there is one;
2. the symbol the instruction names as the one to change (`Mention`): a name in backticks or quotes, shaped
   like an identifier (`get_user`, `parseURL`, `f7`), or introduced as one ("in fib", "the fib function").
   Names said to be called or used ("it must call `is_active`", "is_active(user)") are the target's helpers:
   never rewritten. A rename or "update every use" also takes every line that uses the name, with its
   function;
   A method to be moved out of its class ("a stand alone, top level function") is rewritten alone, as any
   named method, and its rewrite goes after the class (`Window.to`); every line that uses it is updated;
3. the symbol at the cursor, unless the instruction names another one as the target. A cursor always bounds
   the edit: in no symbol (a language without a grammar, a file that does not parse, a line between
   definitions) the window is the block around it (core/blocks.py: by indentation and blank lines), and in a
   function too large to be a window, the innermost block inside it around the cursor;
4. otherwise the symbol that alone holds the code the instruction quotes, else the symbols that match its
   words best (core/search.py), from which the model chooses (engine/selectors/windowed.py), as it does among
   several definitions of a named name.
Everything outside the windows is copied without a forward pass, so an edit costs what its windows cost.
The whole file is edited only when the document is short, or the selection is all of it, or there is no
cursor and the document has no outline or nothing is named and no symbol matches the instruction's words;
`reason` says why.
"""
import io
import re
import tokenize
from dataclasses import dataclass, field

from . import blocks, parsers, search
from .document import split_lines
from .outline import Symbol, outline

MIN_LINES = 60            # shorter documents are edited whole: a window would save little
MAX_SITES = 8             # more windows than this: the whole file
MAX_SHARE = 0.5           # windows covering more of the document than this: the whole file (at a cursor: the
                          # block around it)
NESTED_LINES = 60         # a function nested in one this short is edited with it
USE_LINES = 30            # a use of a renamed name is windowed with its function up to this size, else alone
CONTAINERS = ("class", "module")  # symbols that hold others: a window only when none of theirs holds the place
# The model's choice among candidates (choose): where the search alone does not decide the place (core/search.py:
# no one symbol holds the code the instruction quotes, and no words match MARGIN times better than the next), its
# choice among the hits decides the place without asking only when it is the search's first hit and the model
# gives it at least SURE; a choice of another hit decides nothing (the search's first leads a pick, the model's
# choice comes second). Set on the development cases of the locate corpora (docs/locate.md).
SURE = 0.9
NAMED = 0.5               # several definitions of a named name: the model's choice decides it at this probability
CONFIDENCE = 0.5          # an edit that asks no one takes the model's choice of another hit than the search's first
                          # at this probability, else the search's first
USES = re.compile(r"\b(renam\w*|every use|all uses|uses of|usages?|callers?|call sites?|references?|every call|"
                  r"all calls|calls? (of|to)|existing [^.]{0,40}calls)\b", re.I)
# what a rename renames: "rename [the local variable] `x` to ...", its name in group 1
RENAMED = re.compile(r"\brenam\w*\s+(?:the\s+)?(?:(?:local\s+)?(?:variable|parameter|argument|attribute|field|"
                     r"function|method|class|constant)\s+)?[`'\"]?([A-Za-z_$][\w$.]*)[`'\"]?\s+(?:to|as|into)\b", re.I)
MOVES = re.compile(r"\b(stand[- ]?alone|top[- ]level|module[- ]level|out of (the|its) class|free function)\b", re.I)
# a single quote opens a string only where no letter comes before it: the apostrophe of "There's" or "user's"
# opens nothing
_QUOTED = re.compile(r"`([^`\n]+)`|\"([^\"\n]+)\"|(?<!\w)'([^'\n]+)'")
# a name, its parts joined by `.` or by `::` (how Rust and C++ users write `Type::method`)
_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")
# an identifier by its shape: an underscore, a dot, a digit, or a capital after the first letter
_SHAPED = re.compile(r"[\w$]*(?:[_$.\d]|[a-z][A-Z])[\w$.]*")
# words that introduce a plain word as a symbol's name ("bugs in fib", "the fib function", "def fib", "fib is
# wrong")
_INTRODUCED_BEFORE = re.compile(r"\b(in|inside|function|method|class|def|fix|rewrite|refactor|rename|update|"
                                r"change|modify|edit|section)\s+$", re.I)
_INTRODUCED_AFTER = re.compile(r"^\s*(\(\)|function\b|method\b|class\b|section\b|is (wrong|broken|buggy)\b|"
                               r"(returns|raises|throws|crashes|fails)\b)", re.I)
# words that make a name a helper the target calls or uses, or context it is compared with: not the target
_HELPER_BEFORE = re.compile(r"\b(call|calls|calling|called|use|uses|using|used|via|through|with|like|helper|"
                            r"delegates? to|invokes?|invoking|instead of|rely on|relies on|relying on|leave|keep|"
                            r"compare with|compare it with|see|as in|same as|similar to|unlike|do not touch|"
                            r"don't touch|do not change|don't change|without changing|without touching)"
                            r"(\s+(how|the|its|a))?(\s+(helper|function|method))?\s+$", re.I)
# words that make a name an operand of the code the instruction describes, a value it reads or a call it makes
# ("compares `self.err.line` with", "the value used for `grow`", "the condition on `config.state`"): not the target
_OPERAND_BEFORE = re.compile(r"\b(compares?|comparing|comparison of|conditions? on|(value|number|flag|argument)s?"
                             r"( used| passed)? (for|to)|when|whether|computes?|computing)\s+$", re.I)
# between two names, words that give the second the first one's part ("on `a` and `b`")
_LISTED = re.compile(r"\s*(,|and|or|, and|, or)\s*")
_NOT_NAMES = frozenset("the a an this that these those it its all every each some any one their".split())
_CALLED_AFTER = re.compile(r"^\([^)\s]")  # `name(user)` in an instruction: a call, so a helper


@dataclass(frozen=True)
class Mention:
    name: str
    strong: bool   # quoted, shaped like an identifier, or introduced as a name
    helper: bool   # said to be called or used by the target


@dataclass(frozen=True)
class Window:
    start: int   # first line, 1-based
    end: int     # last line, inclusive
    names: tuple[str, ...]  # the symbols it holds, or ("selection",), ("line N",) (a use), ("the cursor's block",),
                            # ("a block of SYMBOL",)
    to: int | None = None  # moved: the rewrite goes after this line, at the top level, and nothing stays here
    note: str = ""         # what this window is for, when it is one step of a larger edit (a move)
    calls: str | None = None  # a line that uses a moved method of this name: its uses are made calls of the
                              # function, without the model (engine/selectors/windowed.py `called`)


@dataclass
class Plan:
    windows: list[Window]
    reason: str                     # why these windows, or why none (then the whole file is edited)
    language: str | None = None
    symbols: list[Symbol] = field(default_factory=list)
    candidates: list[Symbol] = field(default_factory=list)  # no window yet: the model chooses one of these
    named: bool = False             # the candidates are definitions of a named name (else: search hits)

    def describe(self) -> str:
        return ", ".join(f"{w.start}-{w.end} ({', '.join(w.names)}{f', moved after {w.to}' if w.to else ''})"
                         for w in self.windows) or "whole file"


def mentions(instruction: str) -> list[Mention]:
    """The names an instruction mentions, in order: what it quotes, and the words that are names by their
    shape or by the words around them (others, "check" in "the check must fail", are ordinary words)."""
    out, quoted = [], []
    for m in _QUOTED.finditer(instruction):
        text = next(g for g in m.groups() if g is not None).strip()
        # `get_user` and `get_user()` name get_user; other quoted text only a symbol spelled exactly so (a
        # heading): `dest.removeListener('close', onclose);` is code, which core/search.py looks for
        word = _WORD.fullmatch(text.removesuffix("()"))
        name = _dotted(word.group()) if word is not None else text
        listed = quoted and _LISTED.fullmatch(instruction[quoted[-1][1]:m.start()])
        helper = out[-1][1].helper if listed else _helper(instruction[:m.start()], "")
        out.append((m.start(), Mention(name, True, helper)))
        quoted.append((m.start(), m.end()))
    for m in _WORD.finditer(instruction):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        before, after, name = instruction[:m.start()], instruction[m.end():], _dotted(m.group())
        strong = _SHAPED.fullmatch(name) is not None or name.lower() not in _NOT_NAMES and (
            _INTRODUCED_BEFORE.search(before) is not None or _INTRODUCED_AFTER.match(after) is not None)
        out.append((m.start(), Mention(name, strong, _helper(before, after))))
    return [mention for _, mention in sorted(out, key=lambda x: x[0])]


def _dotted(name: str) -> str:
    """A name as the outlines' qualnames join it: `Vec::chunk_mut` is `Vec.chunk_mut` (core/outline.py)."""
    return name.replace("::", ".")


def _helper(before: str, after: str) -> bool:
    """Said to be called, used or compared with ("call", "using", "leave", ...), an operand of the code the
    instruction describes ("compares `x` with"), or written as a call with arguments outside quotes ("only when
    is_active(user) is true")."""
    return (_HELPER_BEFORE.search(before[-40:]) is not None or _OPERAND_BEFORE.search(before[-40:]) is not None
            or _CALLED_AFTER.match(after) is not None)


def named(symbols: list[Symbol], names: list[str]) -> list[Symbol]:
    """Symbols a name refers to: its qualified name (`Cls.method`, a heading's text), else the end of one
    (`Service.Run` in namespace `Demo.App`), else its own name; an enclosing symbol is dropped when one inside
    it is named too, and a declaration without a body (a trait's `fn chunk_mut(&mut self);`) when a definition
    of its name with one is named: the body is what an edit changes."""
    hits = []
    for name in map(_dotted, names):
        exact = [s for s in symbols if s.qualname == name]
        tail = [s for s in symbols if "." in name and s.qualname.endswith("." + name)]
        hits += exact or tail or [s for s in symbols if s.name == name or s.name == name.split(".")[-1] and "." in name]
    hits = list(dict.fromkeys(hits))
    bodies = {s.name for s in hits if not s.declaration}
    hits = [s for s in hits if not s.declaration or s.name not in bodies]
    return [s for s in hits if not any(o is not s and s.start <= o.start and o.end <= s.end and
                                       (o.start, o.end) != (s.start, s.end) for o in hits)]


def at_cursor(symbols: list[Symbol], line: int) -> Symbol | None:
    """The function, method or section around `line` (a class only when no method holds it): the innermost
    editable unit (_unit)."""
    around = [s for s in symbols if s.start <= line <= s.end]
    inner = [s for s in around if s.kind not in CONTAINERS] or around
    best = min(inner, key=lambda s: s.end - s.start, default=None)
    return best if best is None else _unit(best)


def units(symbols: list[Symbol]) -> list[Symbol]:
    """The symbols a window may be, once each: every function, method and section as its unit (_unit), and
    the classes and modules that hold none of them."""
    holders = {s.parent for s in symbols if s.parent is not None}
    return list(dict.fromkeys(_unit(s) for s in symbols if s.kind not in CONTAINERS or s not in holders))


def _unit(symbol: Symbol) -> Symbol:
    """A function nested in one shorter than NESTED_LINES belongs to it (a helper defined inside)."""
    while symbol.parent is not None and symbol.parent.kind == "function" and \
            symbol.parent.end - symbol.parent.start < NESTED_LINES:
        symbol = symbol.parent
    return symbol


def find(document: str, instruction: str, selection: tuple[int, int] | None = None,
         language: str | None = None, min_lines: int = MIN_LINES, at: int | None = None) -> Plan:
    """selection: the editor's selected lines (1-based, inclusive); at: the cursor's line (1-based)."""
    lines = split_lines(document)
    for first, last in [selection] if selection else []:
        if not 1 <= first <= last <= len(lines):
            raise ValueError(f"window {first}-{last} is outside the document's lines 1-{len(lines)}")
        return Plan([Window(first, last, ("selection",))], "the selection", language)
    if at is not None and not 1 <= at <= max(1, len(lines)):
        raise ValueError(f"the cursor's line {at} is outside the document's lines 1-{len(lines)}")
    if len(lines) < min_lines:
        return Plan([], f"short document ({len(lines)} lines < {min_lines})", language)
    language, symbols = outline(document, language)
    if not symbols:
        why = f"no {language} outline" if language else "no outline (not Python, JavaScript or Markdown)"
        if at is not None:
            return _block(lines, at, 1, len(lines), why, language, symbols)
        return Plan([], why, language)
    said = mentions(instruction)
    strong = [m for m in said if m.strong]
    targets = named(symbols, [m.name for m in strong if not m.helper])
    helpers = named(symbols, [m.name for m in strong if m.helper])
    context = f" (not its helpers: {', '.join(dict.fromkeys(s.qualname for s in helpers))})" if helpers else ""
    moving = _first_target(targets, said)
    if len(moving) == 1 and moving[0].kind == "method" and MOVES.search(instruction) and language == "python":
        return _move(document, lines, moving[0], language, symbols)
    # every use of the targets, unless what is renamed is a name inside them (a local, a parameter)
    renamed = RENAMED.search(instruction)
    used = {s.name for s in targets} & ({renamed[1].rsplit(".", 1)[-1]} if renamed else {s.name for s in targets})
    if used and USES.search(instruction) and (language == "python" or parsers.parser(language) is not None):
        spans = [span(lines, s) for s in targets]
        spans += _uses(document, lines, language, symbols, used, spans)
        return _windows(lines, spans, "named, with every use: " + ", ".join(s.qualname for s in targets), language,
                        symbols)
    cursor = at_cursor(symbols, at) if at is not None else None
    first = _first_target(targets, said)
    if not first and at is not None:
        if cursor is None:
            return _block(lines, at, 1, len(lines), "in no symbol", language, symbols)
        start, end, _ = span(lines, cursor)
        size = through_blanks(lines, end) - start + 1
        if size > MAX_SHARE * len(lines) or at < start:
            return _block(lines, at, cursor.start, cursor.end, f"in {cursor.qualname}, whose {size} lines are more "
                          f"than {MAX_SHARE:.0%} of the file's {len(lines)}", language, symbols, cursor)
        return _windows(lines, [span(lines, cursor)], f"the cursor: {cursor.qualname}"
                        + context, language, symbols)
    several = [s for s in targets if s.name != first[0].name] if first else []
    if len(first) > 1 or several:
        first = _disambiguated(first + several, said, cursor)
    if len(first) == 1:
        return _windows(lines, [span(lines, first[0])],
                        f"named: {first[0].qualname}{context}", language, symbols)
    if first:
        names = ", ".join(dict.fromkeys(s.name for s in first))
        return Plan([], f"the instruction names {names} ({len(first)} definitions)", language, symbols, first,
                    named=True)
    hits = [h for h in search.rank(document, units(symbols), instruction) if h.symbol not in helpers]
    if not hits:
        return Plan([], "the instruction names no symbol of the document and no symbol matches its words",
                    language, symbols)
    if search.decisive(hits):
        s = hits[0].symbol
        why = "holds the code it quotes" if hits[0].quoted else "matches its words best by far"
        return _windows(lines, [span(lines, s)], f"found: {s.qualname} {why}", language, symbols)
    return Plan([], "the instruction names no symbol of the document", language, symbols, [h.symbol for h in hits])


def span(lines: list[str], symbol: Symbol) -> tuple[int, int, str]:
    """(first line, last line, qualname) of a symbol's window: with the comments above it, unless they make it
    more than MAX_SHARE of the document; then its code alone (a 40-line function under a 119-line JSDoc: the code
    is what an edit changes)."""
    with_comments = through_blanks(lines, symbol.end) - symbol.start + 1 <= MAX_SHARE * len(lines)
    return symbol.start if with_comments else symbol.code or symbol.start, symbol.end, symbol.qualname


def _first_target(targets: list[Symbol], said: list[Mention]) -> list[Symbol]:
    """The definitions of the first name the instruction names as a target (one name: the one to change)."""
    for m in said:
        if m.strong and not m.helper and (hits := named(targets, [m.name])):
            return hits
    return []


def _nested(a: Symbol, b: Symbol) -> bool:
    return a.start <= b.start <= b.end <= a.end or b.start <= a.start <= a.end <= b.end


def _disambiguated(candidates: list[Symbol], said: list[Mention], cursor: Symbol | None) -> list[Symbol]:
    """Several definitions, of one name or of several the instruction names: the one at the cursor, else those
    inside a class (or function) the instruction also mentions; else all, for the model to choose."""
    if cursor is not None and len(near := [c for c in candidates if _nested(c, cursor)]) == 1:
        return near
    words = {m.name for m in said}
    inside = [c for c in candidates if c.parent is not None and (c.parent.name in words or c.parent.qualname in words)]
    return inside or candidates


def _block(lines, at, lo, hi, why, language, symbols, inside: Symbol | None = None) -> Plan:
    """The window at the cursor's line `at` when no symbol can be: the block around it within lines lo..hi
    (core/blocks.py; `inside` the symbol they are), at most MAX_SHARE of the document."""
    first, last = blocks.around(lines, at, lo, hi, min(blocks.MAX_LINES, int(MAX_SHARE * len(lines))))
    return Plan([Window(first, last, (f"a block of {inside.qualname}" if inside else "the cursor's block",))],
                f"the cursor: the block around line {at}, lines {first}-{last} ({why})", language, symbols)


def _windows(lines, spans, reason, language, symbols) -> Plan:
    windows = [Window(w.start, through_blanks(lines, w.end), w.names) for w in _merge(spans)]
    covered = sum(w.end - w.start + 1 for w in windows)
    if len(windows) > MAX_SITES:
        return Plan([], f"{len(windows)} sites (more than {MAX_SITES})", language, symbols)
    if covered > MAX_SHARE * len(lines):
        return Plan([], f"the windows would cover {covered} of {len(lines)} lines", language, symbols)
    return Plan(windows, reason, language, symbols)


def _move(document, lines, method: Symbol, language, symbols) -> Plan:
    """A method moved out of its class: the method, rewritten alone as any named method is, goes after the
    class; every line that uses its name (`self.name(...)`) is a window whose uses become calls of the function.
    Shown the class with the method in it, the untrained 1.5B rewrote the class itself into the function as
    often as it moved the method."""
    cls, start, end = method.parent, method.start, through_blanks(lines, method.end)
    if method.end == cls.end:  # the last member: the blank lines before it go with it
        start, end = _after_content(lines, method.start), method.end
    if not any(line.strip() for line in lines[cls.header:start - 1] + lines[end:cls.end]):
        return _windows(lines, [(method.start, method.end, method.qualname)], f"named: {method.qualname} (the "
                        f"only member of {cls.qualname}, so it stays)", language, symbols)
    name = method.name
    moved = Window(start, end, (method.qualname,), to=cls.end,
                   note=f"Here is the method `{name}` alone: write it as that top-level function, and nothing else. "
                        f"The code that calls it is updated separately.")
    spans = _uses(document, lines, language, symbols, {name}, [(start, end, method.qualname)], unit_lines=0)
    uses = [Window(w.start, w.end, w.names, calls=name) for w in _merge(spans)]
    windows = sorted([moved, *uses], key=lambda w: w.start)
    if len(windows) > MAX_SITES:
        return Plan([], f"{len(windows)} sites (more than {MAX_SITES})", language, symbols)
    return Plan(windows, f"move: {method.qualname} after {method.parent.qualname}, with every use of "
                         f"{method.name}", language, symbols)


def choice_text(candidates: list[Symbol], lines: list[str], shown: int = 2) -> str:
    """The candidates the model chooses among: each listed by name, kind and lines, with its first lines
    (the signature, and a docstring's or body's first line)."""
    out = []
    for s in candidates:
        head = [line.strip() for line in lines[s.header - 1:s.end] if line.strip()][:shown]
        out.append(f"{s.qualname} ({s.kind}, lines {s.start}-{s.end}):\n" + "".join(f"    {h}\n" for h in head))
    return "".join(out)


@dataclass(frozen=True)
class Choice:
    """The model's choice among a plan's candidates weighed against the search's first hit (choose)."""
    taken: Symbol | None  # what an edit that asks no one takes; None: the engine could not choose
    first: Symbol         # what a pick offers first
    decisive: bool        # sure enough that no one is asked
    why: str              # why `taken`
    offered: str          # why `first` leads a pick, and how sure the model was


def choose(plan: Plan, symbol: Symbol | None, p: float | None) -> Choice:
    """The model's choice `symbol` (with the probability `p` it gave it; None: the engine cannot choose) among
    the plan's candidates, against the search's first. A definition of a named name is the model's choice,
    decisive at NAMED. Among search hits a pick leads with the search's first, decisive only when the model
    chose it at SURE; an edit that asks no one takes the model's choice when it agrees or is confident
    (CONFIDENCE), else the search's first (a wrong function is one window to look at; the whole file, minutes
    of rewriting that may change anything)."""
    first = plan.candidates[0]
    if symbol is None or p is None:
        return Choice(None, first, False, "the engine cannot choose among candidates",
                      f"the search's first: {first.qualname} (the engine cannot choose)")
    model = f"the model's choice: {symbol.qualname} (p={p:.2f})"
    if plan.named:
        return Choice(symbol, symbol, p >= NAMED, model, model)
    if symbol is first:
        return Choice(symbol, first, p >= SURE, model,
                      f"the search's first and the model's choice: {first.qualname} (p={p:.2f})")
    searched = f"the search's first: {first.qualname} (the model chose {symbol.qualname}, p={p:.2f})"
    confident = p >= CONFIDENCE
    return Choice(symbol if confident else first, first, False, model if confident else searched, searched)


def chosen(plan: Plan, lines: list[str], choice: Choice) -> Plan:
    """The plan with the window of the candidate an edit that asks no one takes (choose), or the whole file when
    that is most of it."""
    start, end, _ = span(lines, choice.taken)
    window = Window(start, through_blanks(lines, end), (choice.taken.qualname,))
    if window.end - window.start + 1 > MAX_SHARE * len(lines):
        return Plan([], f"the model chose {choice.taken.qualname}, most of the file", plan.language, plan.symbols)
    return Plan([window], choice.why, plan.language, plan.symbols)


def _uses(document, lines, language, symbols, names, spans, unit_lines=USE_LINES) -> list[tuple[int, int, str]]:
    """Every line outside `spans` that uses one of `names` as an identifier, as the innermost function around
    it when that has at most `unit_lines` lines, else the line alone (a rename in a 3,000-line file once took a
    144-line function for one call: 244 s of a 250 s edit)."""
    found = []
    for line in sorted(_identifier_lines(document, language, names)):
        if any(a <= line <= b for a, b, _ in spans + found):
            continue
        around = [s for s in symbols if s.start <= line <= s.end and s.kind not in CONTAINERS]
        inner = min(around, key=lambda s: s.end - s.start, default=None)
        small = inner is not None and inner.end - inner.start < unit_lines
        found.append((inner.start, inner.end, inner.qualname) if small else (line, line, f"line {line}"))
    return found


def _identifier_lines(document: str, language: str, names: set[str]) -> set[int]:
    """Lines where a name is used as code (not in a string or comment)."""
    if language == "python":
        try:
            toks = tokenize.generate_tokens(io.StringIO(document).readline)
            return {t.start[0] for t in toks if t.type == tokenize.NAME and t.string in names}
        except (tokenize.TokenError, SyntaxError):
            return set()
    out, stack = set(), [parsers.parse(document, language).root_node]
    while stack:
        node = stack.pop()
        if _IDENTIFIER.search(node.type) and node.text.decode().lstrip("$") in names:
            out.add(node.start_point[0] + 1)
        stack += node.children
    return out


# tree-sitter's node types that are a name, across grammars: `identifier`, `property_identifier`, Go's
# `field_identifier`, Swift's `simple_identifier`, PHP's `name` and `variable_name` (`$x`), Ruby's `constant`,
# Bash's `command_name` (a function called)
_IDENTIFIER = re.compile(r"identifier$|^(name|variable_name|constant|command_name)$")


def _after_content(lines: list[str], start: int) -> int:
    """`start` moved up over the blank lines right above it."""
    while start > 1 and not lines[start - 2].strip():
        start -= 1
    return start


def through_blanks(lines: list[str], end: int) -> int:
    """A window's last line `end` moved down over the blank lines after it: an edit may append at a function's
    end."""
    while end < len(lines) and not lines[end].strip():
        end += 1
    return end


def _merge(spans) -> list[Window]:
    """Overlapping or touching spans as one window each, in document order."""
    out: list[list] = []
    for a, b, name in sorted(spans):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
            out[-1][2].append(name)
        else:
            out.append([a, b, [name]])
    return [Window(a, b, tuple(dict.fromkeys(names))) for a, b, names in out]
