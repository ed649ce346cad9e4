"""The long-file corpora (long-python, long-js, long-text): localized edits with a known right answer in real,
permissively licensed files of 100 to 3,000 lines found on this machine (bench/data/LONG_CORPUS.md).

    python -m copy_as_decode.bench.long_corpus [--seed 0]

Kinds of case:
  bug              one bug of a HumanEvalFix type injected into a real function by train.data's injectors; the
                   instruction names the function and what is wrong (hinted); the real file is the gold
  humanevalfix     a HumanEvalFix task's buggy function inserted between two top-level definitions of a real
                   module that runs by itself; the gold has the canonical body; `tests` is the task's test
  add-parameter, rename-function, add-docstring (Python) / add-jsdoc (JavaScript): small feature edits
  typo (hinted), rename-heading, add-sentence: Markdown edits inside a named section
Files are drawn in a seeded order, each serves at most two cases. A file is left out when more than
MAX_SHARED of its distinctive lines occur in another file the training data is drawn from (another
version of the same package), so that leaving the used files out of training (`is_source`, fed by
long_sources.json) keeps every line of the corpus out of it.
"""
import argparse
import ast
import difflib
import hashlib
import io
import itertools
import json
import platform
import random
import re
import subprocess
import tempfile
import textwrap
import tokenize
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from copy_as_decode.core.document import split_lines

DATA = Path(__file__).resolve().parent / "data"
SOURCES_JSON = DATA / "long_sources.json"
NOTE = DATA / "LONG_CORPUS.md"
CORPUS_FILES = {"python": "long-python.jsonl", "javascript": "long-js.jsonl", "text": "long-text.jsonl"}
_REPO = Path(__file__).resolve().parent.parent
BUCKETS = {100: (80, 150), 300: (250, 400), 1000: (800, 1300), 3000: (2300, 3000)}
CASES = {100: 12, 300: 12, 1000: 11, 3000: 10}
PER_FILE = 2
MAX_SHARED = 0.05
DISTINCTIVE = 20  # as train.data: a stripped line this long identifies its file
MAX_CHANGED = 12  # lines a case may change: the edits are localized
# Each language cycles bug fix, HumanEvalFix (code only), feature edit; the feature edits take turns.
FEATURES = {"python": ("add-parameter", "rename-function", "add-docstring"),
            "javascript": ("add-parameter", "rename-function", "add-jsdoc"),
            "text": ("rename-heading", "add-sentence")}
ROUND = {"python": ("bug", "humanevalfix", None), "javascript": ("bug", "humanevalfix", None), "text": ("typo", None)}
PERMISSIVE = {"MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "0BSD"}
JS_ROOTS = (Path("/usr/lib/node_modules"), _REPO / ".tools")
NODE_DOCS = Path("/usr/share/doc/nodejs")  # MIT: its copyright file is the Node.js license
_SKIP_DIRS = {"test", "tests", "__tests__", "idle_test", "site-packages", "__pycache__", "encodings", "example",
              "examples", "fixtures"}
# Failing console.assert only logs; the HumanEvalFix JS tests need it to fail the process.
JS_ASSERT = ("console.assert = (ok, ...msg) => { if (!ok) { console.error('assertion failed', ...msg); "
             "process.exit(1); } };\n")
_SENTENCES = ("The examples below assume a recent release.", "Read this section before changing the defaults.",
              "Behaviour described here may differ on older versions.",
              "Report mistakes in this section to the maintainers.", "Most readers can skip the details that follow.",
              "This section was reviewed for the current release.")


@dataclass(frozen=True)
class Source:
    path: Path
    label: str  # package/relative path, for case ids
    text: str
    package: str
    version: str
    license: str

    @property
    def lines(self) -> int:
        return len(split_lines(self.text))

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------------------------- what training leaves out

@cache
def source_files() -> dict[str, str]:
    """{path: sha256} of every real file the shipped long corpora were built from."""
    return {f["path"]: f["sha256"] for f in json.loads(SOURCES_JSON.read_text(encoding="utf-8"))["files"]}


def is_source(path) -> bool:
    """Whether a file is (a byte-identical copy of) a source of the long corpora; training skips those."""
    path = Path(path)
    if str(path) in source_files():
        return True
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() in source_files().values()
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------- sources

def bucket_of(lines: int) -> int | None:
    return next((b for b, (lo, hi) in BUCKETS.items() if lo <= lines <= hi), None)


def _permissive(license) -> bool:
    license = license.get("type") if isinstance(license, dict) else license
    return isinstance(license, str) and all(t in PERMISSIVE for t in re.split(r"\s+(?:OR|AND)\s+", license.strip("() ")))


def _package(path: Path) -> tuple[Path, dict] | None:
    """The nearest package.json above `path` that names a package and its version."""
    for d in path.parents:
        try:
            meta = json.loads((d / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and "name" in meta and "version" in meta:
            return d, meta
    return None


def _files(roots, pattern: str):
    for root in roots:
        if root.is_dir():
            for p in sorted(root.rglob(pattern)):
                if p.is_file() and not p.is_symlink() and not _SKIP_DIRS & set(p.relative_to(root).parts[:-1]):
                    try:
                        text = p.read_text(encoding="utf-8")
                    except (OSError, UnicodeDecodeError):
                        continue
                    if bucket_of(len(split_lines(text))) and "\r" not in text and "\x0c" not in text:
                        yield p, text


def python_sources() -> list[Source]:
    from copy_as_decode.train.data import PYTHON_ROOT
    out = []
    for p, text in _files([PYTHON_ROOT], "*.py"):
        if "\t" in text or max(map(len, text.split("\n"))) > 120:
            continue
        try:
            if len(_py_functions(text)) < 4:
                continue
        except (SyntaxError, ValueError):
            continue
        rel = p.relative_to(PYTHON_ROOT)
        out.append(Source(p, f"cpython/{rel.with_suffix('')}", text, "CPython standard library",
                          platform.python_version(), "PSF-2.0"))
    return out


def js_sources() -> list[Source]:
    from copy_as_decode.train.data import js_functions
    out = []
    for p, text in _files(JS_ROOTS, "*.js"):
        if p.name.endswith(".min.js") or max(map(len, text.split("\n"))) > 160 \
                or re.search(r"^(?:import|export)\b", text, re.M) or not (pkg := _package(p)) \
                or not _permissive(pkg[1].get("license")) or len(js_functions([p])) < 4:
            continue
        out.append(Source(p, f"{pkg[1]['name']}/{p.relative_to(pkg[0]).with_suffix('')}", text, pkg[1]["name"],
                          pkg[1]["version"], pkg[1]["license"]))
    return out


def markdown_sources() -> list[Source]:
    out = []
    for p, text in _files(JS_ROOTS + (NODE_DOCS,), "*.md"):
        if re.search(r"(?i)changelog|history|release", p.name) or len(_sections(split_lines(text))) < 3:
            continue
        if p.is_relative_to(NODE_DOCS):
            out.append(Source(p, f"nodejs/{p.relative_to(NODE_DOCS).with_suffix('')}", text, "nodejs",
                              _dpkg_version("nodejs"), _node_docs_license()))
        elif (pkg := _package(p)) and _permissive(pkg[1].get("license")):
            out.append(Source(p, f"{pkg[1]['name']}/{p.relative_to(pkg[0]).with_suffix('')}", text, pkg[1]["name"],
                              pkg[1]["version"], pkg[1]["license"]))
    return [s for s in out if s.license]


def _dpkg_version(package: str) -> str:
    status = Path("/var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    m = re.search(rf"^Package: {re.escape(package)}\n(?:[^\n]+\n)*?Version: (\S+)", status, re.M)
    return m[1] if m else "unknown"


def _node_docs_license() -> str:
    copyright = (NODE_DOCS / "copyright").read_text(encoding="utf-8", errors="replace")[:2000]
    return "MIT" if "Permission is hereby granted, free of charge" in copyright else ""


def _distinctive(text: str) -> set[str]:
    return {s for s in (x.strip() for x in text.split("\n")) if len(s) >= DISTINCTIVE}


def training_lines(language: str) -> dict[str, set[str]]:
    """{distinctive line: sha256s of the training-source files holding it}, for the files train.data draws from."""
    from copy_as_decode.train import data
    if language == "python":
        paths = sorted(data.PYTHON_ROOT.glob("*.py"))
    else:
        paths = data.js_files() if language == "javascript" else data.prose_files()
    index: dict[str, set[str]] = {}
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        for line in _distinctive(text):
            index.setdefault(line, set()).add(sha)
    return index


def shared(source: Source, index: dict[str, set[str]]) -> float:
    """Share of the file's distinctive lines that also occur in a training-source file with other content."""
    lines = _distinctive(source.text)
    return sum(bool(index.get(x, set()) - {source.sha256}) for x in lines) / max(len(lines), 1)


# ------------------------------------------------------------------------------------------- Python cases

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _py_functions(text: str) -> list[tuple[str, ast.AST]]:
    """(qualified name, node) of top-level functions and methods of top-level classes, names unique in the file."""
    found = []
    for node in ast.parse(text).body:
        if isinstance(node, _FUNCS):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{n.name}", n) for n in node.body if isinstance(n, _FUNCS)]
    counts = Counter(q for q, _ in found)
    return [(q, n) for q, n in found if counts[q] == 1]


def _first_line(node) -> int:
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def _splice(lines: list[str], start: int, old: str, new: str) -> list[str] | None:
    """`lines` with the one-hunk difference between the dedented chunks old and new applied at `start`
    (0-based), re-indented like the line it lands on."""
    a, b = split_lines(old), split_lines(new)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1:
        return None
    _, i1, i2, j1, j2 = ops[0]
    indent = re.match(r"[ \t]*", lines[start])[0]
    return lines[:start + i1] + [indent + x if x.strip() else x for x in b[j1:j2]] + lines[start + i2:]


def python_bug(src: Source, rng: random.Random, ctx) -> dict | None:
    from copy_as_decode.train.data import BUG_TYPES, bug_hint, python_bug as inject
    lines = split_lines(src.text)
    funcs = [(q, n) for q, n in _py_functions(src.text) if 5 <= n.end_lineno - _first_line(n) + 1 <= 60]
    rng.shuffle(funcs)
    for q, n in funcs:
        start = _first_line(n) - 1
        text = textwrap.dedent("".join(lines[start:n.end_lineno]))
        if not _parses(text) or not (buggy := inject(text, rng.choice(BUG_TYPES), rng)):
            continue
        hint, new = bug_hint(buggy, text), _splice(lines, start, text, buggy)
        if hint and new and _parses("".join(new)):
            return {"kind": "bug", "hinted": True, "instruction": f"Fix the bug in `{q}`: {hint}.",
                    "before": "".join(new), "after": src.text}
    return None


def _name_tokens(text: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(text).readline))


def python_add_parameter(src: Source, rng: random.Random, ctx) -> dict | None:
    lines, toks = split_lines(src.text), _name_tokens(src.text)
    funcs = _py_functions(src.text)
    rng.shuffle(funcs)
    for q, n in funcs:
        a = n.args
        m = re.fullmatch(r"(\s*(?:async\s+)?def\s+\w+\()([^()*/]*)(\)\s*(?:->\s*[^:()]+)?:\s*)", lines[n.lineno - 1])
        if not m or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or n.body[0].lineno == n.lineno \
                or m[2].rstrip().endswith(","):
            continue
        inside = [t for t in toks if n.lineno <= t.start[0] <= n.end_lineno]
        body = _body_start(n)
        literals = Counter(t.string for t in inside if _literal(t))
        once = [t for t in inside if t.start[0] >= body and _literal(t) and literals[t.string] == 1]
        names = {t.string for t in inside if t.type == tokenize.NAME}
        if not once:
            continue
        t = rng.choice(once)
        choices = ("limit", "size", "count", "width") if t.type == tokenize.NUMBER else ("sep", "label", "prefix", "text")
        free = [c for c in choices if c not in names]
        if not free:
            continue
        p = rng.choice(free)
        out = list(lines)
        (row, c0), (_, c1) = t.start, t.end
        out[row - 1] = out[row - 1][:c0] + p + out[row - 1][c1:]
        out[n.lineno - 1] = m[1] + (f"{m[2]}, " if m[2].strip() else "") + f"{p}={t.string}" + m[3]
        after = "".join(out)
        if _parses(after):
            return {"kind": "add-parameter", "hinted": False, "before": src.text, "after": after,
                    "instruction": f"Add a parameter `{p}` with default `{t.string}` as the last parameter of "
                                   f"`{q}`, and use it instead of the literal `{t.string}` in the body."}
    return None


def _body_start(n) -> int:
    body = n.body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        return body[1].lineno if len(body) > 1 else n.end_lineno + 1
    return body[0].lineno


def _literal(t: tokenize.TokenInfo) -> bool:
    return (t.type == tokenize.NUMBER and re.fullmatch(r"[2-9]|[1-9][0-9]{1,3}", t.string) is not None) or \
        (t.type == tokenize.STRING and re.fullmatch(r"(['\"])[A-Za-z0-9 _.,:;/-]{1,16}\1", t.string) is not None)


def python_rename_function(src: Source, rng: random.Random, ctx) -> dict | None:
    toks = _name_tokens(src.text)
    funcs = [(q, n) for q, n in _py_functions(src.text) if "." not in q and not q.startswith("__")]
    rng.shuffle(funcs)
    for old, n in funcs:
        uses = [k for k, t in enumerate(toks) if t.type == tokenize.NAME and t.string == old]
        if not 2 <= len(uses) <= 8 or len(re.findall(rf"\b{old}\b", src.text)) != len(uses) \
                or any(toks[k - 1].string == "." or toks[k + 1].string == "=" for k in uses):
            continue
        new = rng.choice([f"{old}_impl", f"{old}_helper", f"{old}_inner"])
        if re.search(rf"\b{new}\b", src.text):
            continue
        out = split_lines(src.text)
        for k in reversed(uses):
            (row, c0), (_, c1) = toks[k].start, toks[k].end
            out[row - 1] = out[row - 1][:c0] + new + out[row - 1][c1:]
        return {"kind": "rename-function", "hinted": False, "before": src.text, "after": "".join(out),
                "instruction": f"Rename the function `{old}` to `{new}` and update every use of it in this file."}
    return None


def _words(name: str) -> str:
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", name)
    return " ".join(words).capitalize() + "." if words else ""


def python_add_docstring(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    funcs = [(q, n) for q, n in _py_functions(src.text) if not n.name.startswith("__") and
             _body_start(n) == n.body[0].lineno == n.lineno + 1 and n.end_lineno - n.lineno >= 3 and _words(n.name)]
    if not funcs:
        return None
    q, n = rng.choice(funcs)
    indent = re.match(r"\s*", lines[n.lineno])[0]
    doc = f'"""{_words(n.name)}"""'
    after = "".join(lines[:n.lineno] + [f"{indent}{doc}\n"] + lines[n.lineno:])
    return {"kind": "add-docstring", "hinted": False, "before": src.text, "after": after,
            "instruction": f"Add the docstring {doc} to `{q}` as the first line of its body."}


def python_humanevalfix(src: Source, rng: random.Random, ctx) -> dict | None:
    if not ctx.runs_alone("python", src):
        return None
    tree, lines = ast.parse(src.text), split_lines(src.text)
    host = {t.string for t in _name_tokens(src.text) if t.type == tokenize.NAME}
    slots = [a.end_lineno for a, b in zip(tree.body, tree.body[1:])
             if isinstance(a, _FUNCS + (ast.ClassDef,)) and isinstance(b, _FUNCS + (ast.ClassDef,))
             and _first_line(b) - 1 > a.end_lineno and not "".join(lines[a.end_lineno:_first_line(b) - 1]).strip()]
    if not slots:
        return None

    def bound(code):
        names = set()
        for node in ast.parse(code).body:
            names |= {node.name} if isinstance(node, _FUNCS) else {(a.asname or a.name).split(".")[0] for a in node.names}
        return names

    return ctx.embed(src, rng, lines, slots, ["\n", "\n"], lambda c: bool(bound(c.after) & host),
                     lambda c: c.extra["test"] + f"\n\ncheck({c.extra['entry_point']})\n")


# --------------------------------------------------------------------------------------- JavaScript cases

_JS_DECL = re.compile(r"^(\s*)(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^()]*)\)\s*\{\s*$")


def _js_decls(lines: list[str]) -> list[tuple[int, int, str, str]]:
    """(header index, closing brace index, name, params) of function declarations whose closing brace sits
    alone at the header's indent, names unique in the file."""
    found = []
    for k, line in enumerate(lines):
        if not (m := _JS_DECL.match(line)):
            continue
        for e in range(k + 1, min(k + 400, len(lines))):
            if lines[e].rstrip() in (m[1] + "}", m[1] + "};"):
                found.append((k, e, m[2], m[3]))
                break
            if lines[e].strip() and len(lines[e]) - len(lines[e].lstrip()) <= len(m[1]):
                break
    counts = Counter(re.findall(r"\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)", "".join(lines)))
    return [d for d in found if counts[d[2]] == 1]


def js_bug(src: Source, rng: random.Random, ctx) -> dict | None:
    from copy_as_decode.train.data import BUG_TYPES, bug_hint, js_bug as inject, js_functions
    lines = split_lines(src.text)
    snippets = js_functions([src.path])
    counts = Counter(s.name for s in snippets)
    rng.shuffle(snippets)
    for s in snippets:
        if counts[s.name] > 1 or len(re.findall(rf"\b{re.escape(s.name)}\s*\(", src.text)) < 1:
            continue
        start = int(s.origin.rsplit(":", 1)[1]) - 1
        buggy = inject(s.text, rng.choice(BUG_TYPES), rng)
        if not buggy or not (hint := bug_hint(buggy, s.text)) or not (new := _splice(lines, start, s.text, buggy)):
            continue
        if ctx.node_check("".join(new)):
            return {"kind": "bug", "hinted": True, "instruction": f"Fix the bug in `{s.name}`: {hint}.",
                    "before": "".join(new), "after": src.text}
    return None


def _js_code(line: str) -> str:
    """The line with its strings and comments blanked out."""
    from copy_as_decode.train.data import _JS_TOKEN
    return _JS_TOKEN.sub(lambda m: " " * len(m[0]) if m[0].startswith(("//", "/*", "'", '"', "`")) else m[0], line)


def js_add_parameter(src: Source, rng: random.Random, ctx) -> dict | None:
    from copy_as_decode.train.data import _js_tokens
    lines = split_lines(src.text)
    decls = [d for d in _js_decls(lines) if re.fullmatch(r"\s*(?:[A-Za-z_$][\w$]*\s*(?:,\s*[A-Za-z_$][\w$]*\s*)*)?", d[3])
             and "`" not in "".join(lines[d[0]:d[1] + 1])]
    rng.shuffle(decls)
    for k, e, name, params in decls:
        toks = [(i + k + 1, a, b, s) for i, a, b, s in _js_tokens(lines[k + 1:e])]
        nums = Counter(s for *_, s in toks if re.fullmatch(r"[2-9]|[1-9][0-9]{1,3}", s))
        once = [t for j, t in enumerate(toks) if nums[t[3]] == 1 and t[3] in nums and (j == 0 or toks[j - 1][3] != ".")]
        body = "".join(lines[k:e + 1])
        if not once or nums.total() != sum(len(re.findall(rf"(?<![\w$.]){n}(?![\w$.])", body)) * c
                                           for n, c in Counter(nums).items() if c):
            continue
        i, a, b, lit = rng.choice(once)
        if len(re.findall(rf"(?<![\w$.]){lit}(?![\w$.])", body)) != 1:
            continue
        free = [c for c in ("limit", "size", "count", "width") if not re.search(rf"\b{c}\b", body)]
        if not free:
            continue
        p = rng.choice(free)
        out = list(lines)
        out[i] = out[i][:a] + p + out[i][b:]
        m = _JS_DECL.match(lines[k])
        cut = lines[k].index("(", lines[k].index(m[2])) + 1
        close = lines[k].index(")", cut)
        out[k] = lines[k][:close] + (", " if params.strip() else "") + f"{p} = {lit}" + lines[k][close:]
        after = "".join(out)
        if ctx.node_check(after):
            return {"kind": "add-parameter", "hinted": False, "before": src.text, "after": after,
                    "instruction": f"Add a parameter `{p}` with default value `{lit}` as the last parameter of "
                                   f"`{name}`, and use it instead of the literal `{lit}` in the body."}
    return None


def js_rename_function(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    decls = [d for d in _js_decls(lines) if not re.match(r"\s", lines[d[0]])]
    rng.shuffle(decls)
    for _, _, old, _ in decls:
        word = re.compile(rf"(?<![\w$.]){re.escape(old)}(?![\w$])")
        hits = [i for i, x in enumerate(lines) for _ in word.finditer(x)]
        if not 2 <= len(hits) <= 8 or re.search(rf"\.{re.escape(old)}\b|\b{re.escape(old)}\s*:", src.text) or any(
                "exports" in lines[i] or lines[i].lstrip().startswith("*") or len(word.findall(_js_code(lines[i])))
                != len(word.findall(lines[i])) for i in hits):
            continue
        new = rng.choice([f"{old}Impl", f"{old}Helper", f"{old}Inner"])
        if new in src.text:
            continue
        after = "".join(word.sub(new, x) for x in lines)
        if ctx.node_check(after):
            return {"kind": "rename-function", "hinted": False, "before": src.text, "after": after,
                    "instruction": f"Rename the function `{old}` to `{new}` and update every use of it in this file."}
    return None


def js_add_jsdoc(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    decls = []
    for k, _, name, _ in _js_decls(lines):
        prev = next((x.strip() for x in reversed(lines[:k]) if x.strip()), "")
        if not prev.endswith("*/") and not prev.startswith(("//", "@")) and _words(name):
            decls.append((k, name))
    if not decls:
        return None
    k, name = rng.choice(decls)
    doc = f"/** {_words(name)} */"
    after = "".join(lines[:k] + [re.match(r"\s*", lines[k])[0] + doc + "\n"] + lines[k:])
    return {"kind": "add-jsdoc", "hinted": False, "before": src.text, "after": after,
            "instruction": f"Add the JSDoc comment `{doc}` on its own line directly above the function `{name}`."}


def js_humanevalfix(src: Source, rng: random.Random, ctx) -> dict | None:
    if not ctx.runs_alone("javascript", src):
        return None
    lines = split_lines(src.text)
    host = set(re.findall(r"[A-Za-z_$][\w$]*", src.text))
    slots = []
    for i in range(1, len(lines) - 1):
        nxt = next((x for x in lines[i:] if x.strip()), "")
        if lines[i - 1].rstrip() in ("}", "};", "})", "});") and not lines[i].strip() and re.match(r"[A-Za-z/]", nxt):
            slots.append(i)
    declared = r"(?:const|let|var|function)\s+([A-Za-z_$][\w$]*)"
    return ctx.embed(src, rng, lines, slots, ["\n"],
                     lambda c: bool(set(re.findall(declared, c.after + c.extra["test"])) & host),
                     lambda c: JS_ASSERT + c.extra["test"])


# ----------------------------------------------------------------------------------------- Markdown cases

def _sections(lines: list[str]) -> list[tuple[int, int, str]]:
    """(heading index, end index (exclusive), title) of headings outside code fences, titles unique."""
    heads, fence = [], None
    for i, x in enumerate(lines):
        s = x.strip()
        if fence and s.startswith(fence):
            fence = None
        elif not fence and re.match(r"(```|~~~)", s):
            fence = s[:3]
        elif not fence and (m := re.match(r"(#{1,6}) +(.+?)\s*#*\s*$", x)):
            heads.append((i, m[2]))
    counts = Counter(t for _, t in heads)
    ends = [i for i, _ in heads[1:]] + [len(lines)]
    return [(i, e, t) for (i, t), e in zip(heads, ends) if counts[t] == 1]


def _prose(line: str) -> bool:
    return bool(re.match(r"[A-Za-z(\"']", line)) and not re.match(r"\s{4}", line) and re.search(r"[a-z]{3} [a-z]{3}", line) is not None


def _first_paragraph(lines: list[str], head: int, end: int) -> tuple[int, int] | None:
    i = head + 1
    while i < end and not lines[i].strip():
        i += 1
    j = i
    while j < end and lines[j].strip() and _prose(lines[j]):
        j += 1
    return (i, j - 1) if j > i and (j >= end or not lines[j].strip()) else None


def _in_fence(lines: list[str]) -> list[bool]:
    out, fence = [], None
    for x in lines:
        s = x.strip()
        out.append(fence is not None or s.startswith(("```", "~~~")))
        if fence and s.startswith(fence):
            fence = None
        elif not fence and s.startswith(("```", "~~~")):
            fence = s[:3]
    return out


def text_typo(src: Source, rng: random.Random, ctx) -> dict | None:
    from copy_as_decode.train.data import _typo
    lines, fenced = split_lines(src.text), _in_fence(split_lines(src.text))
    spots = []
    for head, end, title in _sections(lines):
        for i in range(head + 1, end):
            if fenced[i] or not (_prose(lines[i]) or re.match(r"[*-] [A-Za-z]", lines[i])):
                continue
            masked = re.sub(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|\[[^\]]*\]", lambda m: " " * len(m[0]), lines[i])
            spots += [(title, i, m) for m in re.finditer(r"(?<![\w.-])[a-z]{6,12}(?![\w-])", masked)]
    rng.shuffle(spots)
    for title, i, m in spots:
        bad = _typo(m[0], rng)
        if bad != m[0] and not re.search(rf"\b{bad}\b", src.text) and "\"" not in title:
            out = list(lines)
            out[i] = lines[i][:m.start()] + bad + lines[i][m.end():]
            return {"kind": "typo", "hinted": True, "before": "".join(out), "after": src.text,
                    "instruction": f'Fix the typo in the section "{title}": "{bad}" should be "{m[0]}".'}
    return None


def text_rename_heading(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    heads = [(i, t) for i, _, t in _sections(lines) if re.fullmatch(r"[A-Z][A-Za-z0-9 ,'/-]{2,50}", t)]
    if not heads:
        return None
    i, old = rng.choice(heads)
    new = rng.choice([f"{old} in detail", f"More on {old[0].lower() + old[1:]}", f"{old} explained"])
    after = "".join(lines[:i] + [lines[i].replace(old, new, 1)] + lines[i + 1:])
    return {"kind": "rename-heading", "hinted": False, "before": src.text, "after": after,
            "instruction": f'Rename the heading "{old}" to "{new}".'}


def text_add_sentence(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    spots = [(t, p) for h, e, t in _sections(lines) if (p := _first_paragraph(lines, h, e)) and "\"" not in t]
    if not spots:
        return None
    title, (_, last) = rng.choice(spots)
    sentence = rng.choice(_SENTENCES)
    after = "".join(lines[:last + 1] + ["\n", sentence + "\n"] + lines[last + 1:])
    return {"kind": "add-sentence", "hinted": False, "before": src.text, "after": after,
            "instruction": f'Add the sentence "{sentence}" as a new paragraph right after the first paragraph of '
                           f'the section "{title}".'}


MAKERS = {
    "python": {"bug": python_bug, "humanevalfix": python_humanevalfix, "add-parameter": python_add_parameter,
               "rename-function": python_rename_function, "add-docstring": python_add_docstring},
    "javascript": {"bug": js_bug, "humanevalfix": js_humanevalfix, "add-parameter": js_add_parameter,
                   "rename-function": js_rename_function, "add-jsdoc": js_add_jsdoc},
    "text": {"typo": text_typo, "rename-heading": text_rename_heading, "add-sentence": text_add_sentence},
}


# ------------------------------------------------------------------------------------------------ assembly

class Context:
    """What the makers share: runners for node and python, and the HumanEvalFix tasks not used yet."""

    def __init__(self, seed: int):
        from copy_as_decode.bench.corpora import load, node
        self.node = node()
        if self.node is None:
            raise SystemExit("node is needed to check the JavaScript cases")
        tasks = {"python": load("humanevalfix-python"),
                 "javascript": [c for c in load("humanevalfix-js") if "require(" not in c.after + c.extra["test"]]}
        for language, cs in tasks.items():
            random.Random(f"{seed}:{language}:tasks").shuffle(cs)
        self.tasks = tasks
        self._alone: dict[Path, bool] = {}

    def node_check(self, text: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".js", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            return subprocess.run([self.node, "--check", f.name], capture_output=True).returncode == 0

    def runs_alone(self, language: str, src: Source) -> bool:
        """The file runs by itself (no missing imports, nothing printed) within a few seconds."""
        from copy_as_decode.bench.corpora import run_tests
        if src.path not in self._alone:
            marker = "print('ok')\n" if language == "python" else "console.log('ok')\n"
            self._alone[src.path] = bool(run_tests(language, src.text, "", timeout=5)) and _quiet(language, src.text, marker)
        return self._alone[src.path]

    def embed(self, src, rng, lines, slots, gap, collides, tests_of) -> dict | None:
        """A HumanEvalFix task inserted at one of `slots` (line indices), kept when the gold passes its tests
        and the buggy file fails them."""
        from copy_as_decode.bench.corpora import run_tests, user_file
        language = "python" if src.path.suffix == ".py" else "javascript"
        for task in [t for t in self.tasks[language] if not collides(t)][:3]:
            buggy, gold = user_file(task)
            at = rng.choice(slots)
            before, after = ("".join(lines[:at] + gap + split_lines(code.strip("\n") + "\n") + lines[at:])
                             for code in (buggy, gold))
            tests = tests_of(task)
            if bucket_of(len(split_lines(before))) and run_tests(language, after, tests) and \
                    run_tests(language, before, tests) is False:
                self.tasks[language].remove(task)
                return {"kind": "humanevalfix", "hinted": False, "instruction": task.instruction,
                        "before": before, "after": after, "tests": tests, "task": task.id}
        return None


def _quiet(language: str, text: str, marker: str) -> bool:
    from copy_as_decode.bench.corpora import node
    import sys
    cmd = [sys.executable, "-c" if language == "python" else "", text + "\n" + marker]
    if language == "javascript":
        cmd = [node(), "-e", text + "\n" + marker]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=5).stdout == "ok\n"
    except subprocess.TimeoutExpired:
        return False


def _localized(case: dict) -> bool:
    ops = difflib.SequenceMatcher(None, split_lines(case["before"]), split_lines(case["after"]), autojunk=False).get_opcodes()
    changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    return 0 < changed <= MAX_CHANGED


def _plan(language: str) -> dict[int, list[str]]:
    features = itertools.cycle(FEATURES[language])
    rounds = itertools.cycle(ROUND[language])
    return {b: [next(rounds) or next(features) for _ in range(n)] for b, n in CASES.items()}


def build(seed: int = 0, log=print) -> tuple[dict[str, list[dict]], list[Source]]:
    """The cases of each language and the sources they use."""
    ctx = Context(seed)
    finders = {"python": python_sources, "javascript": js_sources, "text": markdown_sources}
    corpora, used = {}, {}
    for language, find in finders.items():
        index = training_lines({"text": "prose"}.get(language, language))
        pool = [s for s in find() if shared(s, index) <= MAX_SHARED]
        seen, unique = set(), []
        for s in pool:  # a file present twice serves once
            if s.sha256 not in seen:
                seen.add(s.sha256)
                unique.append(s)
        log(f"{language}: {len(unique)} candidate files")
        cases = []
        for bucket, kinds in _plan(language).items():
            files = [s for s in unique if bucket_of(s.lines) == bucket]
            random.Random(f"{seed}:{language}:{bucket}").shuffle(files)
            uses: Counter = Counter()
            done: set = set()
            for n, kind in enumerate(kinds):
                fallback = [k for k in MAKERS[language] if k != kind]
                case = None
                for k in [kind] + fallback:
                    order = [s for s in files if uses[s.path] == 1] + [s for s in files if uses[s.path] == 0]
                    for src in order:
                        if (k, src.path) in done:
                            continue
                        rng = random.Random(f"{seed}:{language}:{bucket}:{n}:{k}:{src.path}")
                        made = MAKERS[language][k](src, rng, ctx)
                        if made and _localized(made) and bucket_of(len(split_lines(made["before"]))) == bucket:
                            case = made
                            break
                    if case:
                        break
                if case is None:
                    raise RuntimeError(f"no {kind} case for {language} bucket {bucket}")
                uses[src.path] += 1
                done.add((case["kind"], src.path))
                used[src.path] = src
                cases.append(_record(language, bucket, src, case))
        corpora[language] = sorted(cases, key=lambda c: (c["bucket"], c["kind"], c["id"]))
    return corpora, sorted(used.values(), key=lambda s: str(s.path))


def _record(language: str, bucket: int, src: Source, case: dict) -> dict:
    from copy_as_decode.core.oracle import line_oracle
    from copy_as_decode.core.program import format_program
    from copy_as_decode.core.resolver import resolve
    program = format_program(line_oracle(case["before"], case["after"]))
    if resolve(program, case["before"]) != case["after"]:
        raise AssertionError(f"the gold program does not resolve for {src.path}")
    short = {"python": "py", "javascript": "js", "text": "md"}[language]
    rec = {"id": f"{short}-{bucket}-{case['kind']}-{src.label}", "language": language, "bucket": bucket,
           "lines": len(split_lines(case["before"])), "kind": case["kind"], "hinted": case["hinted"],
           "source": str(src.path), "instruction": case["instruction"], "before": case["before"],
           "after_program": program}
    if "tests" in case:
        rec.update(tests=case["tests"], task=case["task"])
    return rec


# ---------------------------------------------------------------------------------------------- writing

def write(corpora: dict[str, list[dict]], sources: list[Source], out: Path = DATA) -> None:
    for language, cases in corpora.items():
        with open(out / CORPUS_FILES[language], "w", encoding="utf-8") as f:
            f.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    by_source: dict[str, list[str]] = {}
    for c in (c for cs in corpora.values() for c in cs):
        by_source.setdefault(c["source"], []).append(c["id"])
    files = [{"path": str(s.path), "sha256": s.sha256, "package": s.package, "version": s.version,
              "license": s.license, "lines": s.lines, "cases": by_source[str(s.path)]} for s in sources]
    (out / SOURCES_JSON.name).write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
    note = out / NOTE.name
    text = note.read_text(encoding="utf-8") if note.is_file() else "<!-- generated -->\n<!-- /generated -->\n"
    head, rest = text.split("<!-- generated -->", 1)
    note.write_text(head + "<!-- generated -->\n" + _tables(corpora, files) + "<!-- /generated -->"
                    + rest.split("<!-- /generated -->", 1)[1], encoding="utf-8")


def _tables(corpora: dict[str, list[dict]], files: list[dict]) -> str:
    rows = ["| language | " + " | ".join(f"~{b} lines" for b in BUCKETS) + " | cases | kinds |",
            "|---|" + "---|" * (len(BUCKETS) + 2)]
    for language, cases in corpora.items():
        per = Counter(c["bucket"] for c in cases)
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(Counter(c["kind"] for c in cases).items()))
        rows.append(f"| {language} | " + " | ".join(str(per[b]) for b in BUCKETS) + f" | {len(cases)} | {kinds} |")
    rows += ["", "| source file | package | version | license | lines | cases |", "|---|---|---|---|---|---|"]
    rows += [f"| `{f['path']}` | {f['package']} | {f['version']} | {f['license']} | {f['lines']} | {len(f['cases'])} |"
             for f in files]
    return "\n".join(rows) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m copy_as_decode.bench.long_corpus", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DATA, help="directory for the JSONL files, long_sources.json and the note")
    args = p.parse_args(argv)
    corpora, sources = build(args.seed)
    write(corpora, sources, args.out)
    for language, cases in corpora.items():
        print(f"{language}: {len(cases)} cases, buckets {dict(Counter(c['bucket'] for c in cases))}, "
              f"kinds {dict(Counter(c['kind'] for c in cases))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
