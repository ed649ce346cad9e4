"""Where an edit happens: the windows of a document that a windowed edit rewrites.

A window is a range of whole lines: the editor's selection when there is one, else each symbol the instruction
names (core/outline.py; backticked or quoted names first, else any word that is a symbol's name), plus, when
the instruction renames or asks for uses, every other line that uses the name, each with its enclosing
function. Everything outside the windows is copied without a forward pass, so an edit costs what its windows
cost. No window is chosen when no symbol is named, when a name is ambiguous beyond MAX_SITES, or when the
windows would cover most of the document: the edit then runs on the whole file, and `reason` says why.
"""
import io
import re
import tokenize
from dataclasses import dataclass, field

from .document import split_lines
from .outline import Symbol, outline

MIN_LINES = 60            # shorter documents are edited whole: a window would save little
MAX_SITES = 8             # more windows than this: the whole file
MAX_SHARE = 0.5           # windows covering more of the document than this: the whole file
USE_LINES = 30            # a use of a renamed name is windowed with its function up to this size, else alone
MAX_OUTLINE = 400         # outline entries the model may choose from (beyond: top-level ones only)
CONFIDENCE = 0.5          # the least probability of the model's choice of a window
USES = re.compile(r"\b(renam\w*|every use|all uses|uses of|usages?|callers?|call sites?|references?)\b", re.I)
_QUOTED = re.compile(r"`([^`\n]+)`|\"([^\"\n]+)\"|'([^'\n]+)'")
_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


@dataclass(frozen=True)
class Window:
    start: int   # first line, 1-based
    end: int     # last line, inclusive
    names: tuple[str, ...]  # the symbols it holds, or ("selection",) / ("use of NAME",)


@dataclass
class Plan:
    windows: list[Window]
    reason: str                     # why these windows, or why none (then the whole file is edited)
    language: str | None = None
    symbols: list[Symbol] = field(default_factory=list)
    unnamed: bool = False           # no symbol named: the model may choose one from the outline

    def describe(self) -> str:
        return ", ".join(f"{w.start}-{w.end} ({', '.join(w.names)})" for w in self.windows) or "whole file"


def mentioned(instruction: str) -> list[str]:
    """The names an instruction mentions: what it quotes (backticks or quotation marks), else its words."""
    quoted = [next(g for g in m.groups() if g is not None).strip() for m in _QUOTED.finditer(instruction)]
    return quoted or _WORD.findall(instruction)


def named(symbols: list[Symbol], names: list[str]) -> list[Symbol]:
    """Symbols a name refers to: its qualified name (`Cls.method`, a heading's text), else its own name; an
    enclosing symbol is dropped when one inside it is named too."""
    hits = []
    for name in names:
        exact = [s for s in symbols if s.qualname == name]
        hits += exact or [s for s in symbols if s.name == name or s.name == name.split(".")[-1] and "." in name]
    hits = list(dict.fromkeys(hits))
    return [s for s in hits if not any(o is not s and s.start <= o.start and o.end <= s.end and
                                       (o.start, o.end) != (s.start, s.end) for o in hits)]


def find(document: str, instruction: str, selection: tuple[int, int] | None = None,
         language: str | None = None, min_lines: int = MIN_LINES) -> Plan:
    lines = split_lines(document)
    if selection is not None:
        start, end = selection
        if not 1 <= start <= end <= len(lines):
            raise ValueError(f"window {start}-{end} is outside the document's lines 1-{len(lines)}")
        return Plan([Window(start, end, ("selection",))], "the selection", language)
    if len(lines) < min_lines:
        return Plan([], f"short document ({len(lines)} lines < {min_lines})", language)
    language, symbols = outline(document, language)
    if not symbols:
        return Plan([], "no outline (the document does not parse as Python, JavaScript or Markdown)", language)
    targets = named(symbols, mentioned(instruction))
    if not targets:
        return Plan([], "the instruction names no symbol of the document", language, symbols, unnamed=True)
    spans = [(s.start, s.end, s.qualname) for s in targets]
    if USES.search(instruction) and language in ("python", "javascript"):
        spans += _uses(document, lines, language, symbols, {s.name for s in targets}, spans)
    # a window runs on through the blank lines after it: an edit may append at a function's end
    windows = [Window(w.start, _through_blanks(lines, w.end), w.names) for w in _merge(spans)]
    covered = sum(w.end - w.start + 1 for w in windows)
    if len(windows) > MAX_SITES:
        return Plan([], f"{len(windows)} sites (more than {MAX_SITES})", language, symbols)
    if covered > MAX_SHARE * len(lines):
        return Plan([], f"the windows would cover {covered} of {len(lines)} lines", language, symbols)
    return Plan(windows, "named: " + ", ".join(s.qualname for s in targets), language, symbols)


def outline_text(symbols: list[Symbol]) -> tuple[str, list[Symbol]]:
    """The compact outline the model chooses a window from, and the symbols it lists (at most MAX_OUTLINE)."""
    listed = symbols if len(symbols) <= MAX_OUTLINE else [s for s in symbols if s.parent is None][:MAX_OUTLINE]
    listed = list({s.qualname: s for s in reversed(listed)}.values())[::-1]  # one entry per name
    return "".join(f"{s.qualname} ({s.kind}, lines {s.start}-{s.end})\n" for s in listed), listed


def chosen(plan: Plan, lines: list[str], symbol: Symbol, p: float) -> Plan:
    """The plan with the window the model chose over the outline (with the probability it gave it)."""
    window = Window(symbol.start, _through_blanks(lines, symbol.end), (symbol.qualname,))
    if p < CONFIDENCE:
        return Plan([], f"the model's choice ({symbol.qualname}, p={p:.2f}) is below {CONFIDENCE}", plan.language,
                    plan.symbols)
    if window.end - window.start + 1 > MAX_SHARE * len(lines):
        return Plan([], f"the model chose {symbol.qualname}, most of the file", plan.language, plan.symbols)
    return Plan([window], f"the model's choice: {symbol.qualname} (p={p:.2f})", plan.language, plan.symbols)


def _uses(document, lines, language, symbols, names, spans) -> list[tuple[int, int, str]]:
    """Every line outside `spans` that uses one of `names` as an identifier, as the innermost function around
    it when that has at most USE_LINES lines, else the line alone (a rename in a 3,000-line file once took a
    144-line function for one call: 244 s of a 250 s edit)."""
    found = []
    for line in sorted(_identifier_lines(document, language, names)):
        if any(a <= line <= b for a, b, _ in spans + found):
            continue
        around = [s for s in symbols if s.start <= line <= s.end and s.kind != "class"]
        inner = min(around, key=lambda s: s.end - s.start, default=None)
        small = inner is not None and inner.end - inner.start < USE_LINES
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
    from .outline import _js_parser
    out, stack = set(), [_js_parser().parse(document.encode()).root_node]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "property_identifier", "shorthand_property_identifier") and \
                node.text.decode() in names:
            out.add(node.start_point[0] + 1)
        stack += node.children
    return out


def _through_blanks(lines: list[str], end: int) -> int:
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
