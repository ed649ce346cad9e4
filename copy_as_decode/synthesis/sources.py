"""Code and prose harvested from what is installed on this machine: functions of the Python standard library
and of globally installed npm packages, paragraphs of their documentation and of module docstrings, and
whole files of 100-3,000 lines.

None of it is a file the long-file benchmark is built from, or a copy of one: that benchmark lists its files
in BENCHMARK_FILES (cases/data/long_sources.json) for harvesting to leave out. Listings are sorted, so
what is found depends only on the files installed.
"""
import ast
import hashlib
import json
import re
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from copy_as_decode.cases import corpora
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import Symbol
from copy_as_decode.core.outline import javascript as js_outline

from .syntax import PY_FUNCS, first_line, js_code, python_defs, unique_defs, valid_python, word

PYTHON_ROOT = Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
JS_ROOTS = (Path("/usr/lib/node_modules"), Path("/usr/share/nodejs"), Path("/usr/local/lib/node_modules"))
PROSE_ROOTS = (Path("/usr/share/doc"), Path("/usr/lib/node_modules"), Path("/usr/local/lib/node_modules"))
BENCHMARK_FILES = corpora.DATA / "long_sources.json"
MIN_LINES, MAX_LINES = 5, 40
LONG_MIN, LONG_MAX = 100, 3000


@dataclass(frozen=True)
class Snippet:
    origin: str       # file:line, for the record
    name: str         # function name ("" for prose)
    text: str
    language: str     # python, javascript, markdown (prose: READMEs, .md and .txt files)

    @property
    def start(self) -> int:
        """The 0-based line of its file at which a function snippet starts."""
        return int(self.origin.rsplit(":", 1)[1]) - 1


@dataclass(frozen=True)
class LongFile:
    origin: str
    text: str
    language: str                        # python, javascript, markdown
    functions: tuple[Snippet, ...] = ()  # methods named Class.method; names unique in the file
    renamable: tuple[str, ...] = ()      # top-level functions every mention of which is a use in code

    def offers(self) -> list[str]:
        """The long_edits.LONG_EDITS this file supports (a Markdown file takes the prose edits instead)."""
        n = len(self.functions)
        return [k for k, ok in (("bug", n >= 1), ("bugs", n >= 2), ("edit", n >= 1),
                                ("rename-function", bool(self.renamable))) if ok]


# ---------------------------------------------------------------------------- what the benchmark is built from

@cache
def benchmark_files() -> dict[str, str]:
    """{path: sha256} of every real file the shipped long-file corpora were built from."""
    return {f["path"]: f["sha256"] for f in json.loads(BENCHMARK_FILES.read_text(encoding="utf-8"))["files"]}


def is_benchmark_file(path) -> bool:
    """Whether a file is a source of the long-file corpora or a byte-identical copy of one."""
    if str(path) in benchmark_files():
        return True
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() in benchmark_files().values()
    except OSError:
        return False


def _not_evaluated(paths) -> list[Path]:
    """Sorted, without the files the long-file benchmark is built from (or copies of them)."""
    return sorted(p for p in paths if not is_benchmark_file(p))


# ---------------------------------------------------------------------------------------------- snippets

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
        out += [s for _, node in python_defs(tree) if (s := _python_snippet(path.name, lines, node, node.name))]
    return out


def _python_snippet(file: str, lines: list[str], node, name: str) -> Snippet | None:
    """The function, dedented, when it has MIN_LINES..MAX_LINES lines, no tab, no line over 100 characters."""
    start = first_line(node)
    if not MIN_LINES <= node.end_lineno - start + 1 <= MAX_LINES:
        return None
    text = textwrap.dedent("".join(lines[start - 1:node.end_lineno]))
    if "\t" in text or not text.endswith("\n") or max(map(len, text.split("\n"))) > 100 or not valid_python(text):
        return None
    return Snippet(f"{file}:{start}", name, text, "python")


# JavaScript functions are core/outline.py's (tree-sitter): name, header line, last line. A snippet is one whose
# header is one line of _JS_HEAD's forms and whose lines are a block (js_block). The forms are those the training
# data and the stored long-js corpus were drawn with; the outline's others (getters, private and computed
# methods, arrow functions of a bare parameter, functions assigned to properties) would change both.
_JS_HEAD = re.compile(r"^(\s*)(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(.*\)\s*\{\s*$"
                      r"|^(\s*)(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\([^()]*\)\s*=>\s*\{\s*$"
                      r"|^(\s*)(?:static\s+)?(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{\s*$")


def js_files(roots=JS_ROOTS) -> list[Path]:
    files = []
    for root in roots:
        if root.is_dir():
            files += [p for p in root.rglob("*.js")
                      if p.is_file() and not re.search(r"\.min\.js$|/dist/|/test/", str(p))]
    return _not_evaluated(files)


def js_functions(files=None) -> list[Snippet]:
    """Functions of _JS_HEAD's forms whose lines are a block (js_block) of MIN_LINES..MAX_LINES lines."""
    out = []
    for path in js_files() if files is None else files:
        try:
            lines = split_lines(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        out += _js_file_functions(str(path.relative_to(path.anchor)), lines)
    return out


def js_block(lines: list[str], k: int, e: int) -> bool:
    """Whether lines k..e (0-based) are a block that dedents into a text of its own and splices back
    (long_edits.splice): line e a closing brace alone at line k's indent, no line between at that indent or
    left of it."""
    indent = lines[k][:len(lines[k]) - len(lines[k].lstrip())]
    return lines[e].rstrip() in (indent + "}", indent + "};") and not any(
        x.strip() and len(x) - len(x.lstrip()) <= len(indent) for x in lines[k + 1:e])


def _js_named(lines: list[str], symbols: list[Symbol]) -> list[tuple[int, int, str]]:
    """(header index, last line index, name) of the outline's functions whose header is a _JS_HEAD line that
    names them; not a `constructor`, a name every class has."""
    out = []
    for s in symbols:
        m = _JS_HEAD.match(lines[s.header - 1])
        if m and s.kind != "class" and s.name == (m[2] or m[4] or m[6]) and s.name != "constructor":
            out.append((s.header - 1, s.end - 1, s.name))
    return out


def _js_file_functions(file: str, lines: list[str]) -> list[Snippet]:
    named = _js_named(lines, js_outline("".join(lines)))
    return [s for k, e, name in named if (s := _js_snippet(file, lines, k, e, name))]


def _js_snippet(file: str, lines: list[str], k: int, e: int, name: str) -> Snippet | None:
    """The function of lines k..e, dedented, when they are a block of MIN_LINES..MAX_LINES lines, no tab, no
    template literal, no line over 100 characters."""
    if not MIN_LINES <= e - k + 1 <= MAX_LINES or not js_block(lines, k, e):
        return None
    text = textwrap.dedent("".join(lines[k:e + 1]))
    if "\t" in text or not text.endswith("\n") or "`" in text or max(map(len, text.split("\n"))) > 100:
        return None
    return Snippet(f"{file}:{k + 1}", name, text, "javascript")


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
                        out.append(Snippet(f"{origin}:{len(out)}", "", body, "markdown"))
                chunk = []
            if para is not None and para.count("\n") < 25:
                chunk.append(para.rstrip("\n"))
    return out


# -------------------------------------------------------------------------------------------- long files

def long_files(python_root: Path = PYTHON_ROOT, js=None, prose=None) -> list[LongFile]:
    """Whole files of LONG_MIN..LONG_MAX lines from the files the snippets come from (root/*.py, js_files(),
    the Markdown of prose_files()), never a benchmark file or a copy of one (`_not_evaluated`). The long-file
    benchmark checks its own files against exactly these (synthesis/long_corpus.py, training_lines), so that
    neither side holds another version of a file of the other."""
    markdown = [p for p in (prose_files() if prose is None else prose) if re.search(r"(?i)\.(md|markdown)$", p.name)
                and not re.search(r"(?i)changelog|history|release", p.name)]  # release notes are lists, not prose
    out = []
    for language, paths in (("python", Path(python_root).glob("*.py")),
                            ("javascript", js_files() if js is None else js), ("markdown", markdown)):
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
    if language == "markdown":
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
    lines = split_lines(text)
    functions = tuple(s for q, n in unique_defs(tree) if (s := _python_snippet(origin, lines, n, q)))
    return LongFile(origin, text, "python", functions, _python_renamable(tree, text))


def _python_renamable(tree, text: str) -> tuple[str, ...]:
    """Top-level functions mentioned 2..8 times, every mention the definition or a name in code: none in a
    string, comment, attribute, keyword argument, import or nested definition, which a rename would miss."""
    words = Counter(re.findall(r"\w+", text))  # a whole-word mention is a maximal run of word characters
    candidates = [n.name for n in tree.body if isinstance(n, PY_FUNCS) and not n.name.startswith("__")
                  and 2 <= words[n.name] <= 8]
    if not candidates:  # walking the tree is the costly part
        return ()
    uses = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    return tuple(name for name in candidates if words[name] == uses[name] + 1)


def _js_long(origin: str, lines: list[str]) -> LongFile:
    symbols = js_outline("".join(lines))
    named = _js_named(lines, symbols)
    counts = Counter(name for *_, name in named)
    functions = tuple(s for k, e, name in named if counts[name] == 1 and (s := _js_snippet(origin, lines, k, e, name)))
    return LongFile(origin, "".join(lines), "javascript", functions, _js_renamable(lines, symbols))


def _js_renamable(lines: list[str], symbols: list[Symbol]) -> tuple[str, ...]:
    """Top-level function declarations (of the outline `symbols`, their header a line that starts with
    `function`) mentioned 2..8 times, all in code: not in strings, comments or templates, not as a property or
    an export (renaming would change the module's interface)."""
    text, out = "".join(lines), []
    words = Counter(re.findall(r"[\w$]+", text))  # an upper bound of the mentions, cheap to take first
    for s in symbols:
        if not lines[s.header - 1].startswith(("function", "async function")) or not 2 <= words[s.name] <= 8:
            continue
        name, mention = re.escape(s.name), word(s.name)
        hits = [x for x in lines if mention.search(x)]
        if len(re.findall(rf"\bfunction\s*\*?\s*{name}(?![\w$])", text)) == 1 \
                and 2 <= len(mention.findall(text)) <= 8 \
                and not re.search(rf"\.{name}(?![\w$])|{mention.pattern}\s*:", text) \
                and not any("exports" in x or "`" in x or x.lstrip().startswith(("*", "//", "/*"))
                            or len(mention.findall(js_code(x))) != len(mention.findall(x)) for x in hits):
            out.append(s.name)
    return tuple(out)
