"""A document's outline: its functions, classes and methods or sections (Markdown), each with the lines it
spans, read with a real parser (Python's `ast`, tree-sitter for JavaScript and the languages of
core/queries/, markdown-it for Markdown). Windowed edits (core/windows.py) find the part of a file an
instruction is about here.

What a tree-sitter language's definitions are is data: core/queries/LANGUAGE.scm captures each definition's
node as `@definition.KIND` and its name as `@name` (and a Go method's receiver type as `@scope`), as
tree-sitter's own tags.scm files do; `tagged` reads any of them. A new language is a grammar in
core/parsers.py, its query file and a line in core/languages.py.
"""
import ast
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .document import split_lines
from .languages import DETECTED
from .parsers import GRAMMARS, grammar, parse


@dataclass(frozen=True)
class Symbol:
    name: str      # as written: `is_loopback`, or a section's heading text
    qualname: str  # with its enclosing classes and functions: `IPv6Address.is_loopback`
    kind: str      # function, method, class (a struct, interface, enum, trait, impl block too), module (a
                   # namespace or module that holds definitions), section
    start: int     # first line (1-based), its decorators and the comment lines right above it included
    end: int       # last line, inclusive
    header: int    # the line that names it (the `def`, `class` or heading line)
    parent: "Symbol | None" = None
    code: int | None = None  # its first line without the comments above it (None: `start`): a long doc comment
                             # is no part of what an edit changes (core/windows.py `span`)
    declaration: bool = False  # a signature without a body (a Rust trait's `fn f(&self);`, an abstract method)


def outline(document: str, language: str | None = None) -> tuple[str | None, list[Symbol]]:
    """(the language it was read as, its symbols in document order). Without `language` each parser of
    DETECTED is tried in turn: a file that Python's parser accepts with definitions in it is Python, one
    tree-sitter reads without error is JavaScript, one with headings is Markdown. (None, []) when nothing
    fits. A tree-sitter language's file with syntax errors has the definitions that hold none."""
    for lang in (language,) if language else DETECTED:
        symbols = _READERS[lang](document) if lang in _READERS else tagged(document, lang)
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
                             _with_comments(lines, first, _PY_COMMENT), child.end_lineno, child.lineno, parent,
                             first)
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
                             lead.start_point[0] + 1, outer.end_point[0] + 1, child.start_point[0] + 1, parent,
                             outer.start_point[0] + 1)
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


_READERS = {"python": python, "javascript": javascript, "markdown": markdown}  # the others: `tagged`
QUERIED = frozenset(GRAMMARS) - set(_READERS)  # the languages core/queries/NAME.scm outlines

# what a definition's capture says it is, as a Symbol's kind (a function inside a class is a method)
_KINDS = {"function": "function", "method": "method", "class": "class", "struct": "class", "interface": "class",
          "enum": "class", "trait": "class", "impl": "class", "module": "module"}
# nodes a definition is written inside and whose lines it spans (`export class`, `template <...> T f()`)
_WRAPPERS = {"export_statement", "template_declaration", "ambient_declaration"}
# nodes right above a definition that belong to it, beside its comments (Rust's `#[derive(...)]`)
_ATTACHED = {"attribute_item", "decorator"}
_SIGNATURES = {"method_signature", "function_signature"}  # TypeScript's overloads, before the body they sign
_QUERY_OF = {"tsx": "typescript"}  # a language that reads another's query file
_SCOPES = re.compile(r"::|\.|:")  # `Circle::area`, `M.add`, `M:method`: the name after the last
_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")
_OPERATOR = re.compile(r"\boperator\b")


@cache
def query(language: str):
    from tree_sitter import Query
    text = resources.files(__package__).joinpath("queries", f"{_QUERY_OF.get(language, language)}.scm").read_text()
    return Query(grammar(language), text)


def tagged(document: str, language: str) -> list[Symbol]:
    """The definitions core/queries/LANGUAGE.scm captures, nested by their spans. One whose span may be wrong
    is left out: it holds a syntax error over several lines, or it ends in a token tree-sitter supplied (an
    unclosed brace). An error within one line is recovered where it is (C's `local int out(...)`, a macro
    tree-sitter does not know, zlib's examples), and a missing token inside is no error here (it flags valid
    code: Kotlin's one-line `interface Shape { fun area(): Double }`)."""
    from tree_sitter import QueryCursor
    tree = parse(document, language)
    if tree is None:
        return []
    found, broken = {}, _error_spans(tree.root_node)
    for _, captures in QueryCursor(query(language)).matches(tree.root_node):
        kind = next((c.split(".", 1)[1] for c in captures if c.startswith("definition.")), None)
        if kind is None or "name" not in captures:
            continue
        node = captures[f"definition.{kind}"][0]
        if any(node.start_byte <= a and b <= node.end_byte for a, b in broken) or _ends_missing(node):
            continue
        declaration = _KINDS[kind] in ("function", "method") and _declaration(node)
        while node.parent is not None and node.parent.type in _WRAPPERS:
            node = node.parent
        written = captures["name"][0].text.decode()
        if not written and (typed := captures[f"definition.{kind}"][0].child_by_field_name("type")) is not None:
            written = typed.text.decode()  # a Java constructor pasted without its class: a method, its name missing
        scope = [n.text.decode() for n in captures.get("scope", [])[:1]]
        *outer, name = [part for part in _SCOPES.split(_written(written)) if part] or [written]
        header = captures["name"][0].start_point[0] + written[:max(0, written.rfind(name))].count("\n") + 1
        found.setdefault(node.id, (node, _KINDS[kind], name, scope + outer, header, declaration))
    out, open_ = [], []
    for node, kind, name, outer, header, declaration in sorted(found.values(), key=lambda f: (f[0].start_byte, -f[0].end_byte)):
        while open_ and open_[-1][1].end_byte < node.end_byte:
            open_.pop()
        parent = open_[-1][0] if open_ else None
        if kind == "function" and parent is not None and parent.kind == "class":
            kind = "method"
        qualname = ".".join(([parent.qualname] if parent else []) + outer + [name])
        sym = Symbol(name, qualname, kind, _leading(node, name) + 1, node.end_point[0] + 1, header, parent,
                     node.start_point[0] + 1, declaration)
        out.append(sym)
        open_.append((sym, node))
    return sorted(out, key=lambda s: (s.start, -s.end))


def _declaration(node) -> bool:
    """Whether a function's node is a signature without a body: Rust's `function_signature_item`, TypeScript's
    `abstract_method_signature`, a Java method with parameters and `;` where its body would be."""
    return "signature" in node.type or (node.child_by_field_name("parameters") is not None and
                                        node.child_by_field_name("body") is None and node.text.endswith(b";"))


def _written(name: str) -> str:
    """A captured name as the outline keeps it: without template arguments (`Foo<T>::bar` is `Foo::bar`), and
    from its last word where a macro tree-sitter does not know ran into it (CUDA's `__HOST__ T\nf(...)` reads
    as one name over two lines); an operator's name as written (`operator float`, `operator()`)."""
    operator = _OPERATOR.search(name)
    head, tail = (name[:operator.start()], " ".join(name[operator.start():].split())) if operator else (name, "")
    while (plain := _TEMPLATE_ARGS.sub("", head)) != head:
        head = plain
    words = head.split()
    if not tail:
        return words[-1] if words else name
    return (words[-1] if words and not head[-1].isspace() else "") + tail  # `__INLINE__ T::operator int`


def _error_spans(root) -> list[tuple[int, int]]:
    """The byte spans of the ERROR nodes of a tree that run over more than one line."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.is_error and node.end_point[0] > node.start_point[0]:
            out.append((node.start_byte, node.end_byte))
        elif node.has_error:
            stack += node.children
    return out


def _ends_missing(node) -> bool:
    """Whether `node`'s last token is one tree-sitter supplied."""
    while node.children:
        node = node.children[-1]
    return node.is_missing


def _leading(node, name: str) -> int:
    """The 0-based first line of `node` with the comments, attributes and overload signatures of its `name`
    right above it (no blank line between, none that ends a line of code): TypeScript's `f(): T;` lines before
    `f(x?) {...}` are one definition with it. A definition first in its block is reached from the block's
    siblings (Ruby's `# A cart.` sits before the body that holds `class Cart`)."""
    start = node.start_point[0]
    while True:
        above = node.prev_sibling
        while above is None and node.parent is not None and node.parent.start_point == node.start_point:
            node = node.parent
            above = node.prev_sibling
        if above is not None and above.type == ";" and above.prev_sibling is not None \
                and _signs(above.prev_sibling, name):  # a class body's signature ends with a `;` of its own
            above = above.prev_sibling
        if above is None or not ("comment" in above.type or above.type in _ATTACHED or _signs(above, name)) \
                or above.text.startswith(b"#!"):
            return start
        before = above.prev_sibling
        if _last_line(above) < start - 1 or before is not None and _last_line(before) == above.start_point[0]:
            return start
        node, start = above, above.start_point[0]


def _signs(node, name: str) -> bool:
    """Whether `node` is an overload's signature of `name` (`export function f(): T;` too)."""
    if node.type in _WRAPPERS and node.named_child_count:
        node = node.named_children[0]
    named = node.child_by_field_name("name")
    return node.type in _SIGNATURES and named is not None and named.text.decode() == name


def _last_line(node) -> int:
    """The 0-based line `node` ends on (a line comment's node may end past its newline)."""
    return node.end_point[0] - (node.end_point[1] == 0 and node.end_point[0] > node.start_point[0])
