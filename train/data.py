"""Training examples for edit programs, generated from code and prose found on this machine.

Every example is (instruction, before, after) plus the line-oracle program that turns before into after.
Sources, none of them an evaluation corpus:

- python-bug / js-bug: a real function (Python standard library sources; JavaScript files of globally
  installed npm packages) with one synthetic bug of a HumanEvalFix bug type injected (operator misuse,
  value misuse, variable misuse, function misuse, missing logic, excess logic). The document is the
  BUGGY function, the target the original, the instruction "Fix bugs in <name>."; for half of them the
  instruction also says what is wrong ("Fix bugs in f: `i < n` should be `i <= n`."), the way a user who
  has found the bug would, so that the fixed line is something the model can learn rather than guess.
- code-edit: multi-line edits of the same functions, with an instruction that says what to do: insert
  (a comment, a guard), delete (docstring, comment lines, an `if` block, one statement), replace (rename
  a variable), move (a statement, a whole function).
- prose-edit: paragraphs of documentation files (READMEs and Markdown under /usr/share/doc and the npm
  packages, module docstrings): typo fixes, word replacements, paragraph deletion, insertion and moves.
- long-file: a whole real file of 100-3,000 lines (Python module, JavaScript file, Markdown document) with
  a localized edit: one or several bugs in its functions, a code edit of one function, a function renamed
  at its definition and uses, a prose edit. Its program copies long ranges around a few short gens.

Functions and paragraphs sharing a distinctive line with any evaluation corpus are skipped; a long file is
skipped when it is a benchmark file, a copy of one, or shares more than MAX_SHARED of its distinctive lines
with the evaluation documents, and a long edit whose changed lines include one of theirs is dropped.
Output is deterministic for a given seed and set of source files.
"""
import ast
import difflib
import hashlib
import io
import json
import os
import random
import re
import sys
import textwrap
import tokenize
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Copy, Gen, format_program, parse
from copy_as_decode.core.resolver import resolve

PYTHON_ROOT = Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
JS_ROOTS = (Path("/usr/lib/node_modules"), Path("/usr/share/nodejs"), Path("/usr/local/lib/node_modules"))
PROSE_ROOTS = (Path("/usr/share/doc"), Path("/usr/lib/node_modules"), Path("/usr/local/lib/node_modules"))
BUG_TYPES = ("operator misuse", "value misuse", "variable misuse", "function misuse", "missing logic",
             "excess logic")
DATA_VERSION = 3  # docs/training.md, "Data versions"
# Share of each source in a generated set: Python bug fixing leads (the main evaluation), JavaScript bugs
# have a quarter, and long files teach the long copies of real-size documents.
MIX = {"python-bug": 0.35, "js-bug": 0.25, "code-edit": 0.15, "prose-edit": 0.10, "long-file": 0.15}
MIN_LINES, MAX_LINES = 5, 40
LONG_MIN, LONG_MAX = 100, 3000
# Share of long files per language, and of edits per code file (Markdown files take the prose edits).
LONG_LANGUAGES = {"python": 0.4, "javascript": 0.35, "prose": 0.25}
LONG_EDITS = {"bug": 0.4, "bugs": 0.2, "edit": 0.25, "rename-function": 0.15}
MULTI_HUNK = ("bugs", "rename-function")  # kinds that must change two places or more
LONG_MAX_GEN_LINES = 12  # a long edit stays localized: at most this many generated lines
# A line this long (stripped) that also occurs in an evaluation corpus marks the snippet as contaminated.
DISTINCTIVE = 20
# A long file with more of its distinctive lines in evaluation documents is a version of one (as the
# long-file benchmark decides the other way round).
MAX_SHARED = 0.1


@dataclass(frozen=True)
class Example:
    id: str
    source: str       # python-bug, js-bug, code-edit, prose-edit, long-file
    kind: str         # bug type or edit kind
    instruction: str
    before: str
    after: str
    program: str      # compact line-oracle program (items joined without separators)


@dataclass(frozen=True)
class Snippet:
    origin: str       # file:line, for the record
    name: str         # function name ("" for prose)
    text: str
    language: str     # python, javascript, prose


@dataclass(frozen=True)
class LongFile:
    origin: str
    text: str
    language: str                        # python, javascript, prose
    functions: tuple[Snippet, ...] = ()  # methods named Class.method; names unique in the file
    renamable: tuple[str, ...] = ()      # top-level functions every mention of which is a use in code

    def offers(self) -> list[str]:
        """The LONG_EDITS this file supports (a Markdown file takes the prose edits instead)."""
        n = len(self.functions)
        return [k for k, ok in (("bug", n >= 1), ("bugs", n >= 2), ("edit", n >= 1),
                                ("rename-function", bool(self.renamable))) if ok]


# ----------------------------------------------------------------------------------------------- sources

def python_functions(root: Path = PYTHON_ROOT) -> list[Snippet]:
    """Top-level functions and methods (dedented) of MIN_LINES..MAX_LINES lines from root/*.py."""
    out = []
    for path in _not_evaluated(Path(root).glob("*.py")):
        try:
            src = path.read_text(encoding="utf-8")
            tree = ast.parse(src)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
        lines = split_lines(src)
        out += [s for _, node in _python_defs(tree) if (s := _python_snippet(path.name, lines, node, node.name))]
    return out


_PY_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _python_defs(tree) -> list[tuple[str, ast.AST]]:
    """(qualified name, node) of the top-level functions and of the methods of top-level classes, in order."""
    found = []
    for node in tree.body:
        found += [(node.name, node)] if isinstance(node, _PY_FUNCS) else []
        if isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{n.name}", n) for n in node.body if isinstance(n, _PY_FUNCS)]
    return found


def _python_snippet(file: str, lines: list[str], node, name: str) -> Snippet | None:
    """The function, dedented, when it has MIN_LINES..MAX_LINES lines, no tab, no line over 100 characters."""
    start = min([node.lineno] + [d.lineno for d in node.decorator_list])
    if not MIN_LINES <= node.end_lineno - start + 1 <= MAX_LINES:
        return None
    text = textwrap.dedent("".join(lines[start - 1:node.end_lineno]))
    if "\t" in text or not text.endswith("\n") or max(map(len, text.split("\n"))) > 100 or not valid_python(text):
        return None
    return Snippet(f"{file}:{start}", name, text, "python")


_JS_HEAD = re.compile(r"^(\s*)(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(.*\)\s*\{\s*$"
                      r"|^(\s*)(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\([^()]*\)\s*=>\s*\{\s*$"
                      r"|^(\s*)(?:static\s+)?(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{\s*$")
_JS_NOT_NAMES = {"if", "for", "while", "switch", "catch", "function", "return", "with", "constructor"}


def js_files(roots=JS_ROOTS) -> list[Path]:
    files = []
    for root in roots:
        if root.is_dir():
            files += [p for p in root.rglob("*.js")
                      if p.is_file() and not re.search(r"\.min\.js$|/dist/|/test/", str(p))]
    return _not_evaluated(files)


def js_functions(files=None) -> list[Snippet]:
    """Functions whose closing brace sits alone at the header's indent, MIN_LINES..MAX_LINES lines."""
    out = []
    for path in js_files() if files is None else files:
        try:
            lines = split_lines(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        out += _js_file_functions(str(path.relative_to(path.anchor)), lines)
    return out


def _js_head(line: str) -> tuple[str, str] | None:
    """(indent, name) when the line opens a function: a declaration, an arrow function or a method."""
    m = _JS_HEAD.match(line)
    if not m:
        return None
    name = next(g for g in (m[2], m[4], m[6]) if g is not None)
    return None if name in _JS_NOT_NAMES else (next(g for g in (m[1], m[3], m[5]) if g is not None), name)


def _js_file_functions(file: str, lines: list[str]) -> list[Snippet]:
    out = []
    for k, line in enumerate(lines):
        if not (head := _js_head(line)):
            continue
        indent, name = head
        for e in range(k + 1, min(k + MAX_LINES, len(lines))):
            if lines[e].rstrip("\r\n") in (indent + "}", indent + "};"):
                break
            if lines[e].strip() and len(lines[e]) - len(lines[e].lstrip()) <= len(indent):
                e = -1
                break
        else:
            continue
        if e < 0 or e - k + 1 < MIN_LINES:
            continue
        text = textwrap.dedent("".join(lines[k:e + 1]))
        if "\t" in text or not text.endswith("\n") or "`" in text or max(map(len, text.split("\n"))) > 100:
            continue
        out.append(Snippet(f"{file}:{k + 1}", name, text, "javascript"))
    return out


def prose_files(roots=PROSE_ROOTS) -> list[Path]:
    files = []
    for root in roots:
        if root.is_dir():
            files += [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
                      and re.search(r"(?i)(readme[^/]*|\.md|\.markdown|\.txt)$", p.name)
                      and p.stat().st_size < 200_000]
    return _not_evaluated(files)


def prose_chunks(files=None, python_root: Path = PYTHON_ROOT) -> list[Snippet]:
    """Runs of whole paragraphs (6..30 lines) of documentation files and module docstrings."""
    texts = []
    for path in prose_files() if files is None else files:
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    for path in _not_evaluated(Path(python_root).glob("*.py")):
        try:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=True)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
        if doc:
            texts.append((f"{path.name}:docstring", doc + "\n"))
    out = []
    for origin, text in texts:
        paras = [p for p in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n")) if p.strip()]
        chunk: list[str] = []
        for para in paras + [None]:
            size = sum(p.count("\n") + 1 for p in chunk) + max(len(chunk) - 1, 0)
            if para is None or size + para.count("\n") + 2 > 30:
                if size >= 6 and len(chunk) >= 2:
                    body = "\n\n".join(chunk) + "\n"
                    if "\t" not in body and max(map(len, body.split("\n"))) <= 100 and re.search(r"[a-z]{4}", body):
                        out.append(Snippet(f"{origin}:{len(out)}", "", body, "prose"))
                chunk = []
            if para is not None and para.count("\n") < 25:
                chunk.append(para.rstrip("\n"))
    return out


def _not_evaluated(paths) -> list[Path]:
    """Sorted, without the files the long-file benchmark is built from (or copies of them)."""
    from copy_as_decode.bench.long_corpus import is_source
    return sorted(p for p in paths if not is_source(p))


EVALUATION = ("humanevalfix-python", "humanevalfix-js", "text", "long-python", "long-js", "long-text")


def evaluation_lines(include=EVALUATION) -> tuple[set[str], set[str], set[str]]:
    """(distinctive lines, whole documents, function names) of the evaluation corpora found here."""
    from copy_as_decode.bench.corpora import CorpusError, load, user_file
    lines, docs, names = set(), set(), set()
    for name in include:
        try:
            cases = load(name)
        except CorpusError:
            continue
        for c in cases:
            texts = [c.before, c.after, *user_file(c)]
            docs.update(texts)
            names.add(c.extra.get("entry_point", ""))
            for t in texts:
                lines.update(s for s in (x.strip() for x in t.split("\n")) if len(s) >= DISTINCTIVE)
    names.discard("")
    return lines, docs, names


def decontaminate(snippets: list[Snippet], lines: set[str], names: set[str]) -> list[Snippet]:
    return [s for s in snippets if s.name.rsplit(".", 1)[-1] not in names
            and not any(len(x) >= DISTINCTIVE and x in lines for x in (y.strip() for y in s.text.split("\n")))]


def shared(text: str, lines: set[str]) -> float:
    """Share of the text's distinctive lines that are in `lines`."""
    mine = {x for x in (y.strip() for y in text.split("\n")) if len(x) >= DISTINCTIVE}
    return len(mine & lines) / max(len(mine), 1)


def decontaminate_long(files: list[LongFile], lines: set[str], names: set[str]) -> list[LongFile]:
    """The files sharing at most MAX_SHARED of their distinctive lines with the evaluation documents, each
    with only its functions that share none (a long document may hold a few common lines; what an edit
    changes may not, see _touches_evaluation)."""
    return [replace(f, functions=tuple(decontaminate(list(f.functions), lines, names)))
            for f in files if shared(f.text, lines) <= MAX_SHARED]


# -------------------------------------------------------------------------------------------- long files

def long_files(python_root: Path = PYTHON_ROOT, js=None, prose=None) -> list[LongFile]:
    """Whole files of LONG_MIN..LONG_MAX lines from the files the snippets come from (root/*.py, js_files(),
    the Markdown of prose_files()), never a benchmark file or a copy of one (`_not_evaluated`). The long-file
    benchmark checks its own files against exactly these (bench/long_corpus.py, training_lines), so that
    neither side holds another version of a file of the other."""
    markdown = [p for p in (prose_files() if prose is None else prose) if re.search(r"(?i)\.(md|markdown)$", p.name)
                and not re.search(r"(?i)changelog|history|release", p.name)]  # release notes are lists, not prose
    out = []
    for language, paths in (("python", Path(python_root).glob("*.py")),
                            ("javascript", js_files() if js is None else js), ("prose", markdown)):
        out += [f for path in _not_evaluated(paths) if (f := _long_file(path, language))]
    return out


def _long_file(path: Path, language: str) -> LongFile | None:
    """The file as a long document, or None when it is too short or too long, unreadable or minified."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = split_lines(text)
    # \r and \x0c would make ast's and tokenize's line numbers differ from split_lines'
    if not LONG_MIN <= len(lines) <= LONG_MAX or "\r" in text or "\x0c" in text:
        return None
    if language == "prose":
        return LongFile(str(path.relative_to(path.anchor)), text, language)
    if max(map(len, lines)) > 160:  # minified or generated
        return None
    if language == "python":
        return _python_long(path.name, text)
    return _js_long(str(path.relative_to(path.anchor)), lines)


def _python_long(origin: str, text: str) -> LongFile | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    lines, defs = split_lines(text), _python_defs(tree)
    counts = Counter(q for q, _ in defs)
    functions = tuple(s for q, n in defs if counts[q] == 1 and (s := _python_snippet(origin, lines, n, q)))
    return LongFile(origin, text, "python", functions, _python_renamable(tree, text))


def _python_renamable(tree, text: str) -> tuple[str, ...]:
    """Top-level functions mentioned 2..8 times, every mention the definition or a name in code: none in a
    string, comment, attribute, keyword argument, import or nested definition, which a rename would miss."""
    words = Counter(re.findall(r"\w+", text))  # a whole-word mention is a maximal run of word characters
    candidates = [n.name for n in tree.body if isinstance(n, _PY_FUNCS) and not n.name.startswith("__")
                  and 2 <= words[n.name] <= 8]
    if not candidates:  # walking the tree is the costly part
        return ()
    uses = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    return tuple(name for name in candidates if words[name] == uses[name] + 1)


def _js_long(origin: str, lines: list[str]) -> LongFile:
    heads = Counter(h[1] for x in lines if (h := _js_head(x)))
    functions = tuple(s for s in _js_file_functions(origin, lines) if heads[s.name] == 1)
    return LongFile(origin, "".join(lines), "javascript", functions, _js_renamable(lines))


def _js_renamable(lines: list[str]) -> tuple[str, ...]:
    """Top-level function declarations mentioned 2..8 times, all in code: not in strings, comments or
    templates, not as a property or an export (renaming would change the module's interface)."""
    text, out = "".join(lines), []
    words = Counter(re.findall(r"[\w$]+", text))  # an upper bound of the mentions, cheap to take first
    for m in re.finditer(r"(?m)^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(", text):
        if not 2 <= words[m[1]] <= 8:
            continue
        name, word = re.escape(m[1]), _word(m[1])
        hits = [x for x in lines if word.search(x)]
        if len(re.findall(rf"\bfunction\s*\*?\s*{name}(?![\w$])", text)) == 1 and 2 <= len(word.findall(text)) <= 8 \
                and not re.search(rf"\.{name}(?![\w$])|{word.pattern}\s*:", text) \
                and not any("exports" in x or "`" in x or x.lstrip().startswith(("*", "//", "/*"))
                            or len(word.findall(_js_code(x))) != len(word.findall(x)) for x in hits):
            out.append(m[1])
    return tuple(out)


def _word(name: str) -> re.Pattern:
    """The name as a whole identifier, not a property (Python and JavaScript)."""
    return re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")


def _js_code(line: str) -> str:
    """The line with its strings and comments blanked out."""
    return _JS_TOKEN.sub(lambda m: " " * len(m[0]) if m[0].startswith(("//", "/*", "'", '"')) else m[0], line)


# ------------------------------------------------------------------------------------------- Python bugs

_PY_OPS = {"+": ("-",), "-": ("+",), "*": ("/", "+"), "/": ("*", "//"), "//": ("/", "%"), "%": ("//",),
           "<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"), ">=": (">", "<="), "==": ("!=",),
           "!=": ("==",), "+=": ("-=",), "-=": ("+=",), "**": ("*",), "and": ("or",), "or": ("and",),
           "in": ("not in",), "is": ("is not",)}
_FUNCS = {"min": "max", "max": "min", "any": "all", "all": "any", "lower": "upper", "upper": "lower",
          "startswith": "endswith", "endswith": "startswith", "lstrip": "rstrip", "rstrip": "lstrip",
          "find": "rfind", "rfind": "find", "index": "rindex", "floor": "ceil", "ceil": "floor",
          "append": "extend", "extend": "append", "keys": "values", "values": "keys", "sorted": "reversed",
          "split": "rsplit", "isdigit": "isalpha", "isalpha": "isdigit", "strip": "lstrip", "sum": "len",
          "items": "keys", "insert": "append", "pop": "popitem", "issubclass": "isinstance",
          "isinstance": "issubclass", "getattr": "hasattr", "join": "split", "str": "repr", "repr": "str",
          "int": "float", "list": "tuple", "tuple": "list", "isupper": "islower", "islower": "isupper"}


class _PyFunc:
    """A parsed Python function: its lines, tokens, and where its body (after the docstring) starts."""

    def __init__(self, text: str):
        self.text = text
        self.lines = split_lines(text)
        self.tree = ast.parse(text)
        fn = self.tree.body[0]
        self.fn = fn
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            self.docstring = (body[0].lineno, body[0].end_lineno)
            body = body[1:]
        else:
            self.docstring = None
        self.body_start = body[0].lineno if body else len(self.lines) + 1
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


def _byte_col(line: str, col: int) -> int:
    return len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def valid_python(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def python_bug(text: str, bug_type: str, rng: random.Random) -> str | None:
    """`text` with one bug of `bug_type`, or None when this function offers no place for one."""
    f = _PyFunc(text)
    toks = f.body_tokens()
    cands: list[str] = []
    if bug_type == "operator misuse":
        for k, t in toks:
            if t.string in _PY_OPS and t.type in (tokenize.OP, tokenize.NAME):
                nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
                prev = f.tokens[k - 1].string if k else ""
                if t.string in ("in", "is") and (nxt == "not" or prev == "not"):
                    continue
                cands += [f.replace(t, rng.choice(_PY_OPS[t.string]))]
    elif bug_type == "value misuse":
        for k, t in toks:
            if t.type == tokenize.NUMBER and re.fullmatch(r"[0-9]+", t.string):
                v = int(t.string)
                cands.append(f.replace(t, str(rng.choice([v + 1, v - 1] if v > 1 else [v + 1]))))
            elif t.type == tokenize.NAME and t.string in ("True", "False"):
                cands.append(f.replace(t, "False" if t.string == "True" else "True"))
            elif t.type == tokenize.STRING and re.fullmatch(r"([rbu]?)(['\"])([^'\"\\{}]{0,12})\2", t.string):
                m = re.fullmatch(r"([rbu]?)(['\"])([^'\"\\{}]{0,12})\2", t.string)
                body = m[3]
                new = (body[:-1] if len(body) > 1 and rng.random() < 0.5 else body + ("" if body == " " else " ")) \
                    if body else " "
                if new != body:
                    cands.append(f.replace(t, f"{m[1]}{m[2]}{new}{m[2]}"))
    elif bug_type == "variable misuse":
        names = f.locals
        for k, t in toks:
            prev = f.tokens[k - 1].string if k else ""
            nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
            if t.type == tokenize.NAME and t.string in names and prev != "." and nxt != "=" and len(names) > 1:
                cands.append(f.replace(t, rng.choice([n for n in names if n != t.string])))
    elif bug_type == "function misuse":
        for k, t in toks:
            nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
            if t.type == tokenize.NAME and t.string in _FUNCS and nxt == "(":
                cands.append(f.replace(t, _FUNCS[t.string]))
    elif bug_type == "missing logic":
        for s in f.stmts():
            if s.lineno == s.end_lineno and not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
                cands.append("".join(f.lines[:s.lineno - 1] + f.lines[s.end_lineno:]))
        for n in ast.walk(f.fn):
            if isinstance(n, ast.BoolOp) and n.lineno == n.end_lineno and n.lineno >= f.body_start:
                line = f.lines[n.lineno - 1]
                a, b = _byte_col(line, n.values[-2].end_col_offset), _byte_col(line, n.end_col_offset)
                lines = list(f.lines)
                lines[n.lineno - 1] = line[:a] + line[b:]
                cands.append("".join(lines))
    elif bug_type == "excess logic":
        for s in f.stmts():
            line = f.lines[s.lineno - 1]
            if s.lineno != s.end_lineno and not isinstance(s, ast.If):
                continue
            if isinstance(s, ast.AugAssign) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                                                 and isinstance(s.value.func, ast.Attribute)
                                                 and s.value.func.attr in ("append", "add", "write", "extend")):
                cands.append("".join(f.lines[:s.lineno] + [line] + f.lines[s.lineno:]))
            elif isinstance(s, ast.If) and s.test.lineno == s.test.end_lineno and f.locals:
                end = _byte_col(line, s.test.end_col_offset)
                v = rng.choice(f.locals)
                extra = rng.choice([f" and {v}", f" and not {v}", f" or {v} is None"])
                lines = list(f.lines)
                lines[s.lineno - 1] = line[:end] + extra + line[end:]
                cands.append("".join(lines))
            elif isinstance(s, ast.Return) and s.value is not None and s.lineno == s.end_lineno and \
                    isinstance(s.value, (ast.BinOp, ast.Call, ast.Name)) and \
                    (isinstance(s.value, ast.BinOp) or "len" in ast.unparse(s.value)):
                end = _byte_col(line, s.value.end_col_offset)
                cands.append("".join(f.lines[:s.lineno - 1] + [line[:end] + rng.choice([" + 1", " - 1"])
                                                                          + line[end:]] + f.lines[s.lineno:]))
    else:
        raise ValueError(f"unknown bug type {bug_type!r}")
    cands = [c for c in cands if c != text and valid_python(c)]
    return rng.choice(cands) if cands else None


# ----------------------------------------------------------------------------------------------- JS bugs

_JS_TOKEN = re.compile(r"//.*|/\*.*?\*/|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|===|!==|==|!=|<=|>=|&&|\|\||"
                       r"\+\+|--|\+=|-=|=>|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|\S")
_JS_OPS = {"===": ("!==",), "!==": ("===",), "<": ("<=", ">"), "<=": ("<",), ">": (">=", "<"), ">=": (">",),
           "+": ("-",), "-": ("+",), "&&": ("||",), "||": ("&&",), "+=": ("-=",), "-=": ("+=",), "*": ("/",),
           "++": ("--",), "--": ("++",)}
_JS_FUNCS = {"push": "unshift", "unshift": "push", "startsWith": "endsWith", "endsWith": "startsWith",
             "toLowerCase": "toUpperCase", "toUpperCase": "toLowerCase", "min": "max", "max": "min",
             "some": "every", "every": "some", "indexOf": "lastIndexOf", "lastIndexOf": "indexOf",
             "trimStart": "trimEnd", "trimEnd": "trimStart", "shift": "pop", "pop": "shift", "slice": "splice",
             "filter": "find", "find": "filter", "keys": "values", "values": "keys", "floor": "ceil",
             "ceil": "floor", "concat": "push", "includes": "startsWith", "has": "get", "resolve": "reject"}
_JS_KEYWORDS = {"var", "let", "const", "function", "return", "if", "else", "for", "while", "do", "new", "this",
                "typeof", "instanceof", "in", "of", "true", "false", "null", "undefined", "async", "await",
                "throw", "try", "catch", "finally", "break", "continue", "switch", "case", "default", "class",
                "extends", "super", "delete", "void", "yield", "static", "get", "set"}


def _js_tokens(lines: list[str]):
    """(line index, start, end, text) for code tokens; lines with a possible regex literal are skipped."""
    out = []
    for i, line in enumerate(lines):
        if re.search(r"(^|[=(,:!&|?{};]\s*)/[^/*]", line):
            continue
        out += [(i, m.start(), m.end(), m.group()) for m in _JS_TOKEN.finditer(line)
                if not m.group().startswith(("//", "/*", "'", '"'))]
    return out


def js_bug(text: str, bug_type: str, rng: random.Random) -> str | None:
    lines = split_lines(text)
    toks = [t for t in _js_tokens(lines) if t[0] > 0]  # not the header line
    declared = sorted({m[1] for m in re.finditer(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)", text)}
                      | {p for p in re.findall(r"[A-Za-z_$][\w$]*", lines[0][lines[0].find("("):])
                         if p not in _JS_KEYWORDS})

    def sub(t, new):
        i, a, b, _ = t
        out = list(lines)
        out[i] = lines[i][:a] + new + lines[i][b:]
        return "".join(out)

    cands = []
    for k, t in enumerate(toks):
        s = t[3]
        prev = toks[k - 1][3] if k else ""
        nxt = toks[k + 1][3] if k + 1 < len(toks) else ""
        if bug_type == "operator misuse" and s in _JS_OPS:
            cands.append(sub(t, rng.choice(_JS_OPS[s])))
        elif bug_type == "value misuse":
            if re.fullmatch(r"[0-9]+", s):
                v = int(s)
                cands.append(sub(t, str(rng.choice([v + 1, v - 1] if v > 1 else [v + 1]))))
            elif s in ("true", "false"):
                cands.append(sub(t, "false" if s == "true" else "true"))
        elif bug_type == "variable misuse" and s in declared and prev != "." and nxt not in ("=", ":") \
                and len(declared) > 1 and prev not in ("const", "let", "var"):
            cands.append(sub(t, rng.choice([d for d in declared if d != s])))
        elif bug_type == "function misuse" and s in _JS_FUNCS and prev == "." and nxt == "(":
            cands.append(sub(t, _JS_FUNCS[s]))
    if bug_type == "missing logic":
        for i in range(1, len(lines) - 1):
            s = lines[i].strip()
            if s.endswith(";") and not s.startswith(("//", "/*", "*", "return", "}")) and s.count("(") == s.count(")") \
                    and "{" not in s and "}" not in s:
                cands.append("".join(lines[:i] + lines[i + 1:]))
        for i, a, b, s in toks:
            if s in ("&&", "||"):  # drop "&& rest" up to the closing paren of an if condition
                line = lines[i]
                m = re.match(r"\s*(?:if|while)\s*\((.*)\)\s*\{?\s*$", line)
                if m and line.find(")", b) == line.rfind(")") and line.count("(") == 1:
                    out = list(lines)
                    out[i] = line[:a].rstrip() + line[line.rfind(")"):]
                    cands.append("".join(out))
    elif bug_type == "excess logic":
        for i in range(1, len(lines) - 1):
            s = lines[i].strip()
            if re.fullmatch(r"[\w$.\[\]]+\s*(\+\+|--|\+=.*|-=.*|\.push\(.*\));", s):
                cands.append("".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]))
            m = re.fullmatch(r"(\s*(?:if|while)\s*\()(.*)(\)\s*\{\s*\n?)", lines[i])
            if m and m[2].count("(") == m[2].count(")") and declared:
                v = rng.choice(declared)
                out = list(lines)
                out[i] = m[1] + m[2] + rng.choice([f" && {v}", f" && !{v}", f" || {v} === undefined"]) + m[3]
                cands.append("".join(out))
    cands = [c for c in cands if c != text and c.count("{") == text.count("{")]
    return rng.choice(cands) if cands else None


# ------------------------------------------------------------------------------------------ code edits

def _tick(s: str) -> str:
    return f"`{s.strip()}`"


def python_edit(snippet: Snippet, rng: random.Random, kinds=None) -> tuple[str, str, str] | None:
    """(kind, instruction, after) for a multi-line edit of a Python function, or None."""
    f = _PyFunc(snippet.text)
    name, lines = snippet.name, f.lines
    simple = [s for s in f.stmts() if s.lineno == s.end_lineno and len(lines[s.lineno - 1].strip()) < 70]
    options = []
    if f.docstring:
        a, b = f.docstring
        options.append(("delete", f"Remove the docstring of `{name}`.", "".join(lines[:a - 1] + lines[b:])))
    comments = [i for i, x in enumerate(lines) if x.strip().startswith("#")]
    if comments:
        options.append(("delete", f"Delete the comment lines in `{name}`.",
                        "".join(x for i, x in enumerate(lines) if i not in comments)))
    ifs = [s for s in f.stmts() if isinstance(s, ast.If) and not s.orelse and s.test.lineno == s.lineno
           and s.end_lineno > s.lineno]
    if ifs:
        s = rng.choice(ifs)
        after = "".join(lines[:s.lineno - 1] + lines[s.end_lineno:])
        if valid_python(after):
            options.append(("delete", f"Remove the {_tick(lines[s.lineno - 1])} block.", after))
    if simple:
        s = rng.choice(simple)
        after = "".join(lines[:s.lineno - 1] + lines[s.lineno:])
        if valid_python(after):
            options.append(("delete", f"Delete the line {_tick(lines[s.lineno - 1])}.", after))
        indent = re.match(r"\s*", lines[s.lineno - 1])[0]
        note = rng.choice(["TODO: handle errors here", "NOTE: keep this in sync with the caller",
                           "FIXME: slow for large inputs", "the order matters below"])
        options.append(("insert", f"Add the comment `# {note}` above the line {_tick(lines[s.lineno - 1])}.",
                        "".join(lines[:s.lineno - 1] + [f"{indent}# {note}\n"] + lines[s.lineno - 1:])))
    args = [a.arg for a in f.fn.args.args + f.fn.args.kwonlyargs if a.arg not in ("self", "cls")]
    if args and f.body_start <= len(lines):
        arg = rng.choice(args)
        indent = re.match(r"\s*", lines[f.body_start - 1])[0]
        if rng.random() < 0.5:
            new = [f"{indent}if {arg} is None:\n", f"{indent}    raise ValueError(\"{arg} is required\")\n"]
            instr = f"At the start of `{name}`'s body, raise ValueError(\"{arg} is required\") if `{arg}` is None."
        else:
            new = [f"{indent}assert {arg} is not None\n"]
            instr = f"Assert that `{arg}` is not None at the start of `{name}`'s body."
        options.append(("insert", instr, "".join(lines[:f.body_start - 1] + new + lines[f.body_start - 1:])))
    names = [n for n in f.locals if len(n) > 1 and sum(t.string == n for t in f.tokens) >= 2]
    if names:
        old = rng.choice(names)
        new = rng.choice([f"{old}_value", f"the_{old}", f"{old}2", f"new_{old}"])
        out = list(lines)
        for t in reversed(f.tokens):
            if t.type == tokenize.NAME and t.string == old and t.start[0] == t.end[0]:
                r, a, b = t.start[0] - 1, t.start[1], t.end[1]
                out[r] = out[r][:a] + new + out[r][b:]
        after = "".join(out)
        if after.count("\n") == snippet.text.count("\n") and valid_python(after):
            options.append(("replace", f"Rename `{old}` to `{new}` in `{name}`.", after))
    # move: one simple statement swapped with the simple statement right after it (same block)
    pairs = [(a, b) for a in simple for b in simple if b.lineno == a.lineno + 1 and
             lines[a.lineno - 1][:len(lines[a.lineno - 1]) - len(lines[a.lineno - 1].lstrip())] ==
             lines[b.lineno - 1][:len(lines[b.lineno - 1]) - len(lines[b.lineno - 1].lstrip())]
             and lines[a.lineno - 1] != lines[b.lineno - 1]]
    if pairs:
        a, b = rng.choice(pairs)
        out = list(lines)
        out[a.lineno - 1], out[b.lineno - 1] = out[b.lineno - 1], out[a.lineno - 1]
        options.append(("move", f"Move the line {_tick(lines[b.lineno - 1])} above {_tick(lines[a.lineno - 1])}.",
                        "".join(out)))
    if kinds:
        options = [o for o in options if o[0] in kinds]
    return rng.choice(options) if options else None


def js_edit(snippet: Snippet, rng: random.Random) -> tuple[str, str, str] | None:
    lines = split_lines(snippet.text)
    options = []
    stmts = [i for i in range(1, len(lines) - 1) if lines[i].strip().endswith(";") and "{" not in lines[i]
             and "}" not in lines[i] and len(lines[i].strip()) < 70 and not lines[i].strip().startswith(("//", "*"))]
    if stmts:
        i = rng.choice(stmts)
        options.append(("delete", f"Delete the line {_tick(lines[i])}.", "".join(lines[:i] + lines[i + 1:])))
        indent = re.match(r"\s*", lines[i])[0]
        note = rng.choice(["TODO: handle errors here", "keep in sync with the caller", "this can be slow"])
        options.append(("insert", f"Add the comment `// {note}` above the line {_tick(lines[i])}.",
                        "".join(lines[:i] + [f"{indent}// {note}\n"] + lines[i:])))
        pairs = [i for i in stmts if i + 1 in stmts and lines[i] != lines[i + 1]
                 and re.match(r"\s*", lines[i])[0] == re.match(r"\s*", lines[i + 1])[0]]
        if pairs:
            i = rng.choice(pairs)
            out = list(lines)
            out[i], out[i + 1] = out[i + 1], out[i]
            options.append(("move", f"Move the line {_tick(lines[i + 1])} above {_tick(lines[i])}.", "".join(out)))
    comments = [i for i, x in enumerate(lines) if x.strip().startswith("//")]
    if comments:
        options.append(("delete", f"Delete the comment lines in `{snippet.name}`.",
                        "".join(x for i, x in enumerate(lines) if i not in comments)))
    decl = sorted({m[1] for m in re.finditer(r"\b(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=", snippet.text)})
    decl = [d for d in decl
            if len(d) > 1 and len(re.findall(rf"(?<![\w$.]){re.escape(d)}(?![\w$])", snippet.text)) >= 2]
    if decl:
        old = rng.choice(decl)
        new = rng.choice([f"{old}Value", f"the{old[0].upper()}{old[1:]}", f"{old}2"])
        out = [re.sub(rf"(?<![\w$.'\"]){re.escape(old)}(?![\w$'\"])", new, x) for x in lines]
        options.append(("replace", f"Rename `{old}` to `{new}` in `{snippet.name}`.", "".join(out)))
    return rng.choice(options) if options else None


def function_move(a: Snippet, b: Snippet) -> tuple[str, str, str, str]:
    """Two functions in one file; the edit moves the second above the first."""
    before = a.text + "\n\n" + b.text
    after = b.text + "\n\n" + a.text
    return "move", f"Move `{b.name}` above `{a.name}`.", before, after


# ------------------------------------------------------------------------------------------ prose edits

_SWAPS = [("use", "employ"), ("file", "document"), ("show", "display"), ("start", "begin"), ("error", "failure"),
          ("package", "bundle"), ("option", "setting"), ("run", "execute"), ("help", "assist"), ("list", "catalog"),
          ("command", "instruction"), ("directory", "folder"), ("default", "standard"), ("user", "person"),
          ("version", "release"), ("need", "require"), ("make", "create"), ("get", "obtain")]
_NOTES = ["Note: this section may change in a future release.", "See the project website for more details.",
          "This behaviour can be changed in the configuration file.", "Feedback on this part is welcome."]


def _typo(word: str, rng: random.Random) -> str:
    k = rng.randrange(1, len(word) - 1)
    op = rng.choice(["swap", "drop", "double"])
    if op == "swap":
        return word[:k] + word[k + 1] + word[k] + word[k + 2:] if word[k] != word[k + 1] else word[:k] + word[k + 1:]
    if op == "drop":
        return word[:k] + word[k + 1:]
    return word[:k] + word[k] + word[k:]


def prose_edit(snippet: Snippet, rng: random.Random) -> tuple[str, str, str, str] | None:
    """(kind, instruction, before, after): for a typo fix the document is the damaged text."""
    text = snippet.text
    lines = split_lines(text)
    paras = []  # (first line index, last line index) of each paragraph
    i = 0
    while i < len(lines):
        if lines[i].strip():
            j = i
            while j + 1 < len(lines) and lines[j + 1].strip():
                j += 1
            paras.append((i, j))
            i = j + 1
        else:
            i += 1
    opening = lambda p: " ".join(lines[p[0]].split()[:5])  # noqa: E731
    options = []
    words = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"\b[a-z]{5,12}\b", line)]
    if words:
        picked = sorted(rng.sample(words, min(len(words), rng.choice([1, 1, 2, 3]))),
                        key=lambda w: (w[0], w[1].start()))
        out = list(lines)
        for i, m in reversed(picked):
            out[i] = out[i][:m.start()] + _typo(m.group(), rng) + out[i][m.end():]
        before = "".join(out)
        if before != text:
            options.append(("typo", rng.choice(["Fix the typos.", "Correct the spelling mistakes.",
                                                "Fix spelling errors in this text."]), before, text))
    present = [(a, b) for a, b in _SWAPS if re.search(rf"\b{a}\b", text)]
    if present:
        a, b = rng.choice(present)
        options.append(("replace", f'Replace every whole word "{a}" with "{b}".', text,
                        re.sub(rf"\b{a}\b", b, text)))
    if len(paras) >= 2:
        p = rng.choice(paras)
        if len(opening(p)) >= 8 and sum(opening(q) == opening(p) for q in paras) == 1:
            out = lines[:p[0]] + lines[p[1] + 1:]
            if p[1] + 1 < len(lines) and not lines[p[1] + 1].strip() and (p[0] == 0 or not lines[p[0] - 1].strip()):
                out = lines[:p[0]] + lines[p[1] + 2:]
            options.append(("delete", f'Delete the paragraph that begins with "{opening(p)}".', text, "".join(out)))
            note = rng.choice(_NOTES)
            options.append(("insert", f'Add the sentence "{note}" as a new line after the paragraph that begins '
                            f'with "{opening(p)}".', text,
                            "".join(lines[:p[1] + 1] + [note + "\n"] + lines[p[1] + 1:])))
            if p != paras[-1] and lines[-1].endswith("\n"):
                block = lines[p[0]:p[1] + 1]
                rest = lines[:p[0]] + lines[p[1] + 2:] if p[1] + 1 < len(lines) and not lines[p[1] + 1].strip() \
                    else lines[:p[0]] + lines[p[1] + 1:]
                options.append(("move", f'Move the paragraph that begins with "{opening(p)}" to the end.', text,
                                "".join(rest + ["\n"] + block)))
    heads = [i for i, x in enumerate(lines) if re.match(r"#{1,4} [A-Za-z][^`]*$", x)]
    if heads:
        i = rng.choice(heads)
        title = lines[i].rstrip("\n")
        new = re.sub(r"^(#+ )(.*)$", lambda m: m[1] + m[2].upper(), title)
        if new != title:
            options.append(("replace", f'Make the heading "{title.lstrip("# ")}" all upper case.', text,
                            "".join(lines[:i] + [new + "\n"] + lines[i + 1:])))
    return rng.choice(options) if options else None


# ------------------------------------------------------------------------------------------- long edits

# suffixes only: a leading "__" would be name-mangled inside a class body
_RENAMES = {"python": ("{}_impl", "{}_v2", "{}_base"), "javascript": ("{}Impl", "{}V2", "{}Base")}
_PRIVATE = r"#[A-Za-z_$][\w$]*"
_RENAME_ASKS = ("Rename the function `{old}` to `{new}` and update its uses.",
                "Rename `{old}` to `{new}` everywhere in this file.",
                "Rename the function `{old}` to `{new}` throughout the file.")


def long_edit(f: LongFile, rng: random.Random) -> tuple[str, str, str, str] | None:
    """(kind, instruction, before, after): a localized edit of the whole file; for bug fixes the document is
    the buggy file and the target the real one."""
    if f.language == "prose":
        return prose_edit(Snippet(f.origin, "", f.text, "prose"), rng)
    if not (offers := f.offers()):
        return None
    kind = rng.choices(offers, [LONG_EDITS[k] for k in offers])[0]
    if kind == "rename-function":
        edit = _long_rename(f, rng)
    elif kind == "edit":
        edit = _long_code_edit(f, rng)
    else:
        edit = _long_bugs(f, 1 if kind == "bug" else rng.choice((2, 3)), rng)
    if edit is None or (f.language == "python" and not (valid_python(edit[2]) and valid_python(edit[3]))):
        return None
    # js_bug may swap the name of a private field (`this.#a`), which no longer parses in a whole class
    if f.language == "javascript" and set(re.findall(_PRIVATE, edit[2])) != set(re.findall(_PRIVATE, edit[3])):
        return None
    return edit


def _start(s: Snippet) -> int:
    """The 0-based line of the file at which a function snippet starts."""
    return int(s.origin.rsplit(":", 1)[1]) - 1


def _splice(text: str, start: int, old: str, new: str) -> str:
    """`text` with its function at line `start`, dedented as `old`, edited into `new`: the changed lines are
    re-indented by what dedent took off, every other line stays byte for byte (dedent also empties
    whitespace-only lines)."""
    lines, a, b = split_lines(text), split_lines(old), split_lines(new)
    indent = lines[start][:len(lines[start]) - len(a[0])]
    out = lines[:start]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        out += lines[start + i1:start + i2] if tag == "equal" else [indent + x if x.strip() else x for x in b[j1:j2]]
    return "".join(out + lines[start + len(a):])


def _long_bugs(f: LongFile, count: int, rng: random.Random) -> tuple[str, str, str, str] | None:
    """`count` bugs of HumanEvalFix types, each in its own function of the file."""
    inject = python_bug if f.language == "python" else js_bug
    kinds = [rng.choice(BUG_TYPES) for _ in range(count)]
    bugs = []  # (function, its buggy text)
    for s in rng.sample(f.functions, min(len(f.functions), 50)):
        if len(bugs) == count:
            break
        if (buggy := inject(s.text, kinds[len(bugs)], rng)) is not None:
            bugs.append((s, buggy))
    if len(bugs) < count:
        return None
    bugs.sort(key=lambda b: _start(b[0]))
    before = f.text
    for s, buggy in reversed(bugs):  # from the bottom up, so the lines above keep their numbers
        before = _splice(before, _start(s), s.text, buggy)
    instr = _fix_instruction([s.name for s, _ in bugs], [bug_hint(buggy, s.text) for s, buggy in bugs], rng)
    return kinds[0] if count == 1 else "bugs", instr, before, f.text


def _long_code_edit(f: LongFile, rng: random.Random) -> tuple[str, str, str, str] | None:
    """One of the snippets' code edits, made to one function of the file."""
    if not f.functions:
        return None
    s = rng.choice(f.functions)
    edit = (python_edit if f.language == "python" else js_edit)(s, rng)
    if edit is None:
        return None
    kind, instr, new = edit
    if f"`{s.name}`" not in instr:  # a quoted line is found by its function in a whole file
        instr = f"{instr[:-1]} in `{s.name}`."
    return kind, instr, f.text, _splice(f.text, _start(s), s.text, new)


def _long_rename(f: LongFile, rng: random.Random) -> tuple[str, str, str, str] | None:
    """A top-level function renamed at its definition and at every use: one hunk per place."""
    if not f.renamable:
        return None
    old = rng.choice(f.renamable)
    new = rng.choice(_RENAMES[f.language]).format(old)
    if _word(new).search(f.text):
        return None
    return ("rename-function", rng.choice(_RENAME_ASKS).format(old=old, new=new), f.text,
            _word(old).sub(new, f.text))


def _localized(kind: str, items) -> bool:
    """A long edit generates at most LONG_MAX_GEN_LINES lines, and changes two places or more when its kind
    says so."""
    gens = [split_lines(i.text) for i in items if isinstance(i, Gen)]
    return sum(map(len, gens)) <= LONG_MAX_GEN_LINES and (kind not in MULTI_HUNK or len(gens) >= 2)


def _touches_evaluation(items, before: str, eval_lines: set[str]) -> bool:
    """Whether the program writes (in a gen) or drops (leaves uncopied) a distinctive line of an evaluation
    document: an injected bug can write one by chance, and a long file's edit can fall on one."""
    copied = {k for i in items if isinstance(i, Copy) for k in range(i.start, i.end + 1)}
    changed = [x for i in items if isinstance(i, Gen) for x in split_lines(i.text)]
    changed += [x for k, x in enumerate(split_lines(before), 1) if k not in copied]
    return any(len(x.strip()) >= DISTINCTIVE and x.strip() in eval_lines for x in changed)


# --------------------------------------------------------------------------------------------- assembly

_FIX = ["Fix bugs in {name}.", "Fix bugs in {name}.", "Fix bugs in {name}.", "Fix the bug in `{name}`.",
        "There is a bug in {name}; fix it."]
_FIX_MANY = ["Fix the bugs in {names}.", "Fix bugs in {names}.", "There are bugs in {names}; fix them."]
HINT_SHARE = 0.5  # share of bug fixes whose instruction says what is wrong


def _fix_instruction(names: list[str], hints: list[str | None], rng: random.Random) -> str:
    """Fix the bugs in the named functions; for HINT_SHARE of them, where every fix has a hint, also what is
    wrong (in each function, when there are several)."""
    if len(names) == 1:
        instr = rng.choice(_FIX).format(name=names[0])
    else:
        instr = rng.choice(_FIX_MANY).format(names=", ".join(f"`{n}`" for n in names[:-1]) + f" and `{names[-1]}`")
    if rng.random() < HINT_SHARE and all(hints):
        said = hints[0] if len(names) == 1 else "; ".join(f"in `{n}`, {h}" for n, h in zip(names, hints))
        instr = f"{instr.rstrip('.')}: {said}."
    return instr


def bug_hint(before: str, after: str) -> str | None:
    """What a one-line fix changes, in a user's words (`i < n` should be `i <= n`; `x += 1` should not be
    there; `return y` is missing), or None for a larger change."""
    a, b = split_lines(before), split_lines(after)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1:
        return None
    tag, i1, i2, j1, j2 = ops[0]
    if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
        old, new = _changed_words(a[i1].strip(), b[j1].strip())
        return f"`{old}` should be `{new}`"
    if tag == "delete" and i2 - i1 == 1:
        return f"`{a[i1].strip()}` should not be there"
    if tag == "insert" and j2 - j1 == 1:
        return f"`{b[j1].strip()}` is missing"
    return None


def _changed_words(x: str, y: str) -> tuple[str, str]:
    """The differing middle of two lines, widened to whole space-separated words on both sides."""
    p = len(os.path.commonprefix([x, y]))
    s = min(len(os.path.commonprefix([x[::-1], y[::-1]])), len(x) - p, len(y) - p)
    start = max(x.rfind(" ", 0, p), y.rfind(" ", 0, p)) + 1
    end_x, end_y = x.find(" ", len(x) - s), y.find(" ", len(y) - s)
    return x[start:end_x if end_x >= 0 else len(x)], y[start:end_y if end_y >= 0 else len(y)]


class Sources:
    """The snippet pools and long files, loaded once, decontaminated against the evaluation corpora found here."""

    def __init__(self, python=None, javascript=None, prose=None, long=None, decontaminate_against=True):
        python = python_functions() if python is None else python
        javascript = js_functions() if javascript is None else javascript
        prose = prose_chunks() if prose is None else prose
        long = long_files() if long is None else long
        self.eval_docs: set[str] = set()
        self.eval_lines: set[str] = set()
        if decontaminate_against:
            self.eval_lines, self.eval_docs, names = evaluation_lines()
            lines = self.eval_lines
            python, javascript = decontaminate(python, lines, names), decontaminate(javascript, lines, names)
            prose = decontaminate(prose, lines, set())
            long = decontaminate_long(long, lines, names)
        self.python, self.javascript, self.prose = python, javascript, prose
        by_language = {k: [f for f in long if f.language == k and (k == "prose" or f.offers())]
                       for k in LONG_LANGUAGES}
        self.long = {k: files for k, files in by_language.items() if files}
        by_file: dict[str, list[Snippet]] = {}
        for s in python:
            by_file.setdefault(s.origin.split(":")[0], []).append(s)
        self.python_pairs = [(a, b) for fs in by_file.values() for a, b in zip(fs, fs[1:])
                             if a.text.count("\n") + b.text.count("\n") <= MAX_LINES]


def make_example(sources: Sources, source: str, rng: random.Random) -> Example | None:
    if source in ("python-bug", "js-bug"):
        pool, inject = (sources.python, python_bug) if source == "python-bug" else (sources.javascript, js_bug)
        kind = rng.choice(BUG_TYPES)  # then look for a function that offers a place for this kind of bug
        for _ in range(50):
            s = rng.choice(pool)
            if (buggy := inject(s.text, kind, rng)) is not None:
                break
        else:
            return None
        before, after = buggy, s.text
        instr = _fix_instruction([s.name], [bug_hint(before, after)], rng)
    elif source == "code-edit":
        r = rng.random()
        if r < 0.1 and sources.python_pairs:
            a, b = rng.choice(sources.python_pairs)
            s = a
            kind, instr, before, after = function_move(a, b)
        elif r < 0.75 or not sources.javascript:
            s = rng.choice(sources.python)
            edit = python_edit(s, rng)
            if edit is None:
                return None
            (kind, instr, after), before = edit, s.text
        else:
            s = rng.choice(sources.javascript)
            edit = js_edit(s, rng)
            if edit is None:
                return None
            (kind, instr, after), before = edit, s.text
    elif source == "prose-edit":
        s = rng.choice(sources.prose)
        edit = prose_edit(s, rng)
        if edit is None:
            return None
        kind, instr, before, after = edit
    elif source == "long-file":
        # the language is kept while files are tried, so that files with few places for an edit (small
        # JavaScript files) do not shift LONG_LANGUAGES
        language = rng.choices(list(sources.long), [LONG_LANGUAGES[k] for k in sources.long])[0]
        for _ in range(20):
            s = rng.choice(sources.long[language])
            if (edit := long_edit(s, rng)) is not None:
                break
        else:
            return None
        kind, instr, before, after = edit
    else:
        raise ValueError(f"unknown source {source!r}")
    if before == after or before in sources.eval_docs or after in sources.eval_docs:
        return None
    items = line_oracle(before, after)
    if _touches_evaluation(items, before, sources.eval_lines) or \
            (source == "long-file" and not _localized(kind, items)):
        return None
    program = format_program(items, sep="")
    if resolve(parse(program), before) != after:  # the oracle is exact; a failure here is a bug in it
        raise AssertionError(f"oracle program does not resolve for {s.origin}")
    digest = hashlib.sha1(f"{instr}\0{before}\0{after}".encode()).hexdigest()[:10]
    return Example(f"{source}/{s.origin}/{digest}", source, kind, instr, before, after, program)


def generate(n: int, seed: int = 0, sources: Sources | None = None, mix: dict[str, float] = MIX,
             progress=None) -> list[Example]:
    """n distinct examples; the same seed and sources give the same list, and a prefix of a longer run
    equals a shorter run."""
    sources = sources or Sources()
    names = [k for k in mix if mix[k] > 0 and (k != "js-bug" or sources.javascript)
             and (k != "prose-edit" or sources.prose) and (k != "long-file" or sources.long)]
    weights = [mix[k] for k in names]
    out, seen = [], set()
    for i in range(n):
        rng = random.Random(f"{seed}:{i}")
        for _ in range(200):
            ex = make_example(sources, rng.choices(names, weights)[0], rng)
            if ex is not None and ex.id not in seen:
                seen.add(ex.id)
                out.append(ex)
                break
        else:
            raise RuntimeError(f"no new example after 200 tries at #{i}; the sources are too small")
        if progress:
            progress(i + 1)
    return out


def meta_path(data: Path) -> Path:
    """Where `train data` records the data version, seed and command of a generated set."""
    return data.with_name(data.name + ".meta.json")


def write_jsonl(examples: list[Example], path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for ex in examples:
            f.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Example]:
    with open(path, encoding="utf-8") as f:
        return [Example(**json.loads(line)) for line in f if line.strip()]

