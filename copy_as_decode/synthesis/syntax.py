"""Python and JavaScript functions read as text: where they start, where their body begins, their tokens
and names, so that an edit can change one token or line and leave every other byte as it was."""
import ast
import io
import re
import tokenize
from collections import Counter

from copy_as_decode.core.document import split_lines

PY_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def valid_python(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def python_defs(tree) -> list[tuple[str, ast.AST]]:
    """(qualified name, node) of the top-level functions and of the methods of top-level classes, in order."""
    found = []
    for node in tree.body:
        found += [(node.name, node)] if isinstance(node, PY_FUNCS) else []
        if isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{n.name}", n) for n in node.body if isinstance(n, PY_FUNCS)]
    return found


def unique_defs(tree) -> list[tuple[str, ast.AST]]:
    """python_defs whose qualified name occurs once: in a whole file, a name then says which function."""
    defs = python_defs(tree)
    counts = Counter(q for q, _ in defs)
    return [(q, n) for q, n in defs if counts[q] == 1]


def first_line(node) -> int:
    """The line a definition starts at, its decorators included."""
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def docstring(node) -> ast.Expr | None:
    """The statement that is the function's docstring, if its body opens with one."""
    first = node.body[0]
    return first if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str) else None


def body_start(node) -> int:
    """The line of the first statement after the docstring; the line after the function when there is none."""
    body = node.body[1:] if docstring(node) else node.body
    return body[0].lineno if body else node.end_lineno + 1


class PyFunc:
    """A parsed Python function: its lines, tokens, and where its body (after the docstring) starts."""

    def __init__(self, text: str):
        self.text = text
        self.lines = split_lines(text)
        self.tree = ast.parse(text)
        fn = self.tree.body[0]
        self.fn = fn
        doc = docstring(fn)
        self.docstring = (doc.lineno, doc.end_lineno) if doc else None
        self.body_start = body_start(fn)
        self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)]
        args = fn.args
        params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg not in ("self", "cls")}
        self.locals = sorted(params
                             | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})

    def body_tokens(self):
        return [(k, t) for k, t in enumerate(self.tokens) if t.start[0] >= self.body_start and t.start[0] == t.end[0]]

    def replace(self, tok, new: str) -> str:
        (row, a), (_, b) = tok.start, tok.end
        lines = list(self.lines)
        lines[row - 1] = lines[row - 1][:a] + new + lines[row - 1][b:]
        return "".join(lines)

    def stmts(self):
        return [n for n in ast.walk(self.fn) if isinstance(n, ast.stmt) and n is not self.fn
                and n.lineno >= self.body_start]


JS_TOKEN = re.compile(r"//.*|/\*.*?\*/|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|===|!==|==|!=|<=|>=|&&|\|\||"
                      r"\+\+|--|\+=|-=|=>|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|\S")


def js_tokens(lines: list[str]):
    """(line index, start, end, text) for code tokens; lines with a possible regex literal are skipped."""
    out = []
    for i, line in enumerate(lines):
        if re.search(r"(^|[=(,:!&|?{};]\s*)/[^/*]", line):
            continue
        out += [(i, m.start(), m.end(), m.group()) for m in JS_TOKEN.finditer(line)
                if not m.group().startswith(("//", "/*", "'", '"'))]
    return out


def js_code(line: str) -> str:
    """The line with its strings and comments blanked out."""
    return JS_TOKEN.sub(lambda m: " " * len(m[0]) if m[0].startswith(("//", "/*", "'", '"')) else m[0], line)


def word(name: str) -> re.Pattern:
    """The name as a whole identifier, not a property (Python and JavaScript)."""
    return re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
