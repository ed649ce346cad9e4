"""A document's outline: its functions, classes and methods (Python, JavaScript) or sections (Markdown), each
with the lines it spans, read with a real parser (Python's `ast`, tree-sitter for JavaScript, markdown-it for
Markdown). Windowed edits (core/windows.py) find the part of a file an instruction is about here.
"""
import ast
import re
from dataclasses import dataclass

from .document import split_lines
from .languages import OUTLINED
from .parsers import parse


@dataclass(frozen=True)
class Symbol:
    name: str      # as written: `is_loopback`, or a section's heading text
    qualname: str  # with its enclosing classes and functions: `IPv6Address.is_loopback`
    kind: str      # function, class, method, section
    start: int     # first line (1-based), its decorators and the comment lines right above it included
    end: int       # last line, inclusive
    header: int    # the line that names it (the `def`, `class` or heading line)
    parent: "Symbol | None" = None


def outline(document: str, language: str | None = None) -> tuple[str | None, list[Symbol]]:
    """(the language it was read as, its symbols in document order). Without `language` each parser is tried
    in turn: a file that Python's parser accepts with definitions in it is Python, one tree-sitter reads
    without error is JavaScript, one with headings is Markdown. (None, []) when nothing fits."""
    for lang in (language,) if language else OUTLINED:
        symbols = _READERS[lang](document)
        if symbols:
            return lang, symbols
    return None, []


def _with_comments(lines: list[str], start: int, comment: re.Pattern) -> int:
    """`start` moved up over the comment lines right above it (no blank line between)."""
    while start > 1 and comment.match(lines[start - 2]):
        start -= 1
    return start


_PY_COMMENT = re.compile(r"\s*#")


def python(document: str) -> list[Symbol]:
    try:
        tree = ast.parse(document)
    except (SyntaxError, ValueError):
        return []
    lines, out = split_lines(document), []

    def visit(node, parent: Symbol | None):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                kind = ("class" if isinstance(child, ast.ClassDef) else
                        "method" if parent is not None and parent.kind == "class" else "function")
                sym = Symbol(child.name, f"{parent.qualname}.{child.name}" if parent else child.name, kind,
                             _with_comments(lines, first, _PY_COMMENT), child.end_lineno, child.lineno, parent)
                out.append(sym)
                visit(child, sym)
            else:
                visit(child, parent)

    visit(tree, None)
    return sorted(out, key=lambda s: (s.start, -s.end))


_JS_FUNCTIONS = {"function_declaration", "generator_function_declaration", "function_expression",
                 "generator_function", "arrow_function", "method_definition", "class_declaration", "class"}
# the statement a definition is written in, whose lines it spans (`const f = () => {...};`, `a.b = function`)
_JS_STATEMENTS = {"lexical_declaration", "variable_declaration", "expression_statement", "export_statement",
                  "pair", "field_definition", "public_field_definition"}


def _js_name(node) -> str | None:
    """The name a function or class is known by: its own, or what it is assigned to."""
    own = node.child_by_field_name("name")
    if own is not None:
        return own.text.decode()
    up = node.parent
    if up is None:
        return None
    if up.type == "variable_declarator":
        target = up.child_by_field_name("name")
    elif up.type == "assignment_expression":
        target = up.child_by_field_name("left")
    elif up.type in ("pair", "field_definition", "public_field_definition"):
        target = up.child_by_field_name("key") or up.child_by_field_name("property")
    else:
        return None
    return target.text.decode().split(".")[-1] if target is not None else None


def javascript(document: str) -> list[Symbol]:
    tree = parse(document, "javascript")
    if tree.root_node.has_error:
        return []
    out = []

    def visit(node, parent: Symbol | None):
        for child in node.children:
            sym = None
            if child.type in _JS_FUNCTIONS and (name := _js_name(child)) is not None:
                outer = child
                while outer.parent is not None and (outer.parent.type in _JS_STATEMENTS or
                                                    outer.parent.type in ("variable_declarator",
                                                                          "assignment_expression")):
                    outer = outer.parent
                kind = ("class" if child.type.startswith("class") else
                        "method" if parent is not None and parent.kind == "class" else "function")
                lead = outer  # the comments right above it (a JSDoc block, `//` lines) are part of it
                while (lead.prev_sibling is not None and lead.prev_sibling.type == "comment"
                       and lead.prev_sibling.end_point[0] >= lead.start_point[0] - 1):
                    lead = lead.prev_sibling
                sym = Symbol(name, f"{parent.qualname}.{name}" if parent else name, kind,
                             lead.start_point[0] + 1, outer.end_point[0] + 1, child.start_point[0] + 1, parent)
                out.append(sym)
            visit(child, sym or parent)

    visit(tree.root_node, None)
    return sorted(out, key=lambda s: (s.start, -s.end))


def markdown(document: str) -> list[Symbol]:
    """Each heading's own section: its heading line to the line before the next heading of any level."""
    from markdown_it import MarkdownIt
    tokens = MarkdownIt("commonmark").parse(document)
    heads = [(t.map[0] + 1, tokens[k + 1].content.strip(), int(t.tag[1]))
             for k, t in enumerate(tokens) if t.type == "heading_open" and t.map]
    n = len(split_lines(document))
    out, parents = [], []
    for k, (line, text, level) in enumerate(heads):
        end = heads[k + 1][0] - 1 if k + 1 < len(heads) else n
        while parents and parents[-1][0] >= level:
            parents.pop()
        parent = parents[-1][1] if parents else None
        sym = Symbol(text, text, "section", line, max(line, end), line, parent)
        out.append(sym)
        parents.append((level, sym))
    return out


_READERS = {"python": python, "javascript": javascript, "markdown": markdown}  # one for each of OUTLINED
