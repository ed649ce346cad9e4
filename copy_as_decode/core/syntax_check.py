"""Whether a result still parses where its original did: the one parse check every door's result passes
(an edit, a window's rewrite, an applied block) before anything is written.

A result is judged against its original, never against an error-free tree: tree-sitter reports errors on
some valid real code (C with `extern "C"` guards, heavy macros), and a file that never parsed cannot be
broken by an edit. What counts is the errors the result has that the original has not, each named by the
line it starts on and that line's text (errors are matched by text, so lines moved by the edit still match).
"""
import warnings
from collections import Counter
from dataclasses import dataclass

from .document import split_lines
from .parsers import GRAMMARS, parse


@dataclass(frozen=True)
class ParseError:
    line: int      # 1-based, in the text it was found in
    text: str      # that line, stripped
    message: str

    def describe(self) -> str:
        return f"line {self.line}: {self.message} (`{self.text[:60]}`)"


def errors(text: str, language: str | None) -> list[ParseError] | None:
    """Every parse error of `text` read as `language`; None when no parser reads that language."""
    reader = _READERS.get(language or "")
    return None if reader is None else reader(text)


def new_errors(old: str, new: str, language: str | None) -> list[ParseError]:
    """The parse errors `new` has beyond those `old` has ([] for a language no parser reads)."""
    before, after = errors(old, language), errors(new, language)
    if before is None or after is None:
        return []
    if language == "python":  # Python's parser stops at the first error: a file that did not parse can't regress
        return [] if before else after
    seen = Counter(e.text for e in before)
    out = []
    for e in after:
        if seen[e.text] > 0:
            seen[e.text] -= 1
        else:
            out.append(e)
    return out


def parses(text: str, language: str | None) -> bool:
    """Whether `text` reads as `language` without error (True for a language no parser reads)."""
    return not errors(text, language)


def _python(text: str) -> list[ParseError]:
    try:  # compiled, not only parsed: a `return` or `break` where none may stand is an error of the compiler's
        with warnings.catch_warnings():  # an invalid escape sequence is a warning, not an error
            warnings.simplefilter("ignore")
            compile(text, "<edit>", "exec", dont_inherit=True)
    except SyntaxError as e:
        line = e.lineno or 1
        lines = split_lines(text)
        shown = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return [ParseError(line, shown, e.msg)]
    except ValueError as e:  # a NUL byte
        return [ParseError(1, "", str(e))]
    return []


def tree_errors(tree, text: str) -> list[ParseError]:
    """The ERROR and MISSING nodes of a tree-sitter tree, outermost only."""
    lines, out, stack = split_lines(text), [], [tree.root_node]
    while stack:
        node = stack.pop()
        if not node.has_error:
            continue
        if node.is_error or node.is_missing:
            line = node.start_point[0] + 1
            shown = lines[line - 1].strip() if line <= len(lines) else ""
            what = f"missing `{node.type}`" if node.is_missing else "syntax error"
            out.append(ParseError(line, shown, what))
            continue
        stack += reversed(node.children)
    return out


def _tree_sitter(language: str):
    def read(text: str) -> list[ParseError]:
        return tree_errors(parse(text, language), text)
    return read


_READERS = {"python": _python, **{name: _tree_sitter(name) for name in GRAMMARS}}
