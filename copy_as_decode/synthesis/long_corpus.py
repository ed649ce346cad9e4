"""The long-file corpora (long-python, long-js, long-text): localized edits with a known right answer in real,
permissively licensed files of 100 to 3,000 lines found on this machine (cases/data/LONG_CORPUS.md).

    python -m copy_as_decode.synthesis.long_corpus [--seed 0]

Kinds of case:
  bug            one bug of a HumanEvalFix type injected into a real function by the training data's own
                 injectors (synthesis.bugs); the instruction names the function and what is wrong (hinted);
                 the real file is the gold
  humanevalfix   a HumanEvalFix task's buggy function inserted between two top-level definitions of a real
                 module that runs by itself; the gold has the canonical body; `tests` is the task's test
  add-parameter, rename-function, add-docstring (Python) / add-jsdoc (JavaScript): small feature edits
  typo (hinted), rename-heading, add-sentence: Markdown edits inside a named section
Files are drawn in a seeded order and serve two cases each (more where a bucket has few files). A file
with more than MAX_SHARED of its distinctive lines in another file the training data is drawn from (another
version of the same package) is not used: training leaves out the files used (long_sources.json, read by
synthesis.sources.is_benchmark_file), and what little text other files share with them is left to its
line-level checks.
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

from copy_as_decode import CHECKOUT
from copy_as_decode.cases.corpora import DATA
from copy_as_decode.core import languages
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import javascript as js_outline
from copy_as_decode.synthesis import bugs
from copy_as_decode.synthesis.decontaminate import MAX_SHARED, distinctive
from copy_as_decode.synthesis.edits import typo
from copy_as_decode.synthesis.long_edits import splice
from copy_as_decode.synthesis.sources import BENCHMARK_FILES, PYTHON_ROOT, js_block, js_files, js_functions, prose_files
from copy_as_decode.synthesis.syntax import (
    PY_FUNCS,
    body_start,
    first_line,
    js_code,
    js_tokens,
    unique_defs,
    valid_python,
    word,
)

NOTE = DATA / "LONG_CORPUS.md"
CORPUS_FILES = {"python": "long-python.jsonl", "javascript": "long-js.jsonl", "markdown": "long-text.jsonl"}
BUCKETS = {100: (80, 150), 300: (250, 400), 1000: (800, 1300), 3000: (2300, 3000)}
CASES = {100: 12, 300: 12, 1000: 11, 3000: 10}
PER_FILE = 2
MAX_CHANGED = 12  # lines a case may change: the edits are localized
# Each language cycles through ROUND; None is a feature edit, and the feature edits take turns.
ROUND = {"python": ("bug", "humanevalfix", None), "javascript": ("bug", "humanevalfix", None), "markdown": ("typo", None)}
FEATURES = {"python": ("add-parameter", "rename-function", "add-docstring"),
            "javascript": ("add-parameter", "rename-function", "add-jsdoc"), "markdown": ("rename-heading", "add-sentence")}
# The shipped long-text cases were drawn when Markdown was called `text` here; the seeds keep that name, so a
# rebuild with the same seed draws the same cases.
DRAWN_AS = {"markdown": "text"}
PERMISSIVE = {"MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "0BSD"}
# The npm packages long-js and long-text draw their files from: the global ones and the project's own tools
# (.tools, code-server's). Not synthesis.sources.JS_ROOTS, where training harvests JavaScript (no .tools):
# training_lines checks the files found here against that harvest.
NPM_ROOTS = (Path("/usr/lib/node_modules"), CHECKOUT / ".tools")
NODE_DOCS = Path("/usr/share/doc/nodejs")  # under the Node.js license (MIT), as its copyright file says
_SKIP_DIRS = {"test", "tests", "__tests__", "idle_test", "site-packages", "__pycache__", "encodings", "example",
              "examples", "fixtures"}
# A failing console.assert only logs; HumanEvalFix's JavaScript tests rely on it failing the process.
JS_ASSERT = ("console.assert = (ok, ...msg) => { if (!ok) { console.error('assertion failed', ...msg); "
             "process.exit(1); } };\n")
_SENTENCES = ("The examples below assume a recent release.", "Read this section before changing the defaults.",
              "Behaviour described here may differ on older versions.",
              "Report mistakes in this section to the maintainers.", "Most readers can skip the details that follow.",
              "This section was reviewed for the current release.")


@dataclass(frozen=True)
class Source:
    path: Path
    label: str  # package/path inside it, for case ids
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


# ---------------------------------------------------------------------------------------------- sources

def bucket_of(lines: int) -> int | None:
    return next((b for b, (lo, hi) in BUCKETS.items() if lo <= lines <= hi), None)


def _permissive(license) -> bool:
    return isinstance(license, str) and all(t in PERMISSIVE
                                            for t in re.split(r"\s+(?:OR|AND)\s+", license.strip("() ")))


def _npm(path: Path, text: str) -> Source | None:
    """The file as part of the nearest package.json above it that names a package, if that one's license is
    permissive."""
    for d in path.parents:
        try:
            meta = json.loads((d / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and "name" in meta and "version" in meta:
            license = meta.get("license")
            license = license.get("type") if isinstance(license, dict) else license
            return Source(path, f"{meta['name']}/{path.relative_to(d).with_suffix('')}", text, meta["name"],
                          meta["version"], license) if _permissive(license) else None
    return None


def _files(roots, pattern: str):
    """(path, text) of the files under `roots` whose length falls in a bucket, outside test and data folders."""
    for root in roots:
        for p in sorted(root.rglob(pattern)) if root.is_dir() else ():
            if not p.is_file() or p.is_symlink() or _SKIP_DIRS & set(p.relative_to(root).parts[:-1]):
                continue
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            # \r and \x0c would make tokenize's and ast's line numbers differ from split_lines'
            if bucket_of(len(split_lines(text))) and "\r" not in text and "\x0c" not in text:
                yield p, text


def python_sources() -> list[Source]:
    out = []
    for p, text in _files([PYTHON_ROOT], "*.py"):
        if "\t" not in text and max(map(len, text.split("\n"))) <= 120 and valid_python(text) \
                and len(unique_defs(ast.parse(text))) >= 4:
            out.append(Source(p, f"cpython/{p.relative_to(PYTHON_ROOT).with_suffix('')}", text,
                              "CPython standard library", platform.python_version(), "PSF-2.0"))
    return out


def js_sources() -> list[Source]:
    out = []
    for p, text in _files(NPM_ROOTS, "*.js"):
        minified = sum(len(x) > 160 for x in text.split("\n")) > text.count("\n") // 100
        if not p.name.endswith(".min.js") and not minified and not re.search(r"^(?:import|export)\b", text, re.M) \
                and (src := _npm(p, text)) and len(js_functions([p])) >= 4:
            out.append(src)
    return out


def markdown_sources() -> list[Source]:
    out = []
    for p, text in _files(NPM_ROOTS + (NODE_DOCS,), "*.md"):
        if re.search(r"(?i)changelog|history|release", p.name) or len(_sections(split_lines(text))) < 3:
            continue
        if p.is_relative_to(NODE_DOCS):
            if _node_docs_license():
                out.append(Source(p, f"nodejs/{p.relative_to(NODE_DOCS).with_suffix('')}", text, "nodejs",
                                  _dpkg_version("nodejs"), _node_docs_license()))
        elif src := _npm(p, text):
            out.append(src)
    return out


@cache
def _dpkg_version(package: str) -> str:
    status = Path("/var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    m = re.search(rf"^Package: {re.escape(package)}\n(?:[^\n]+\n)*?Version: (\S+)", status, re.M)
    return m[1] if m else "unknown"


@cache
def _node_docs_license() -> str:
    copyright = (NODE_DOCS / "copyright").read_text(encoding="utf-8", errors="replace")[:2000]
    return "MIT" if "Permission is hereby granted, free of charge" in copyright else ""


def training_lines(language: str) -> dict[str, set[str]]:
    """{distinctive line: sha256s of the files holding it} over the files the training data draws `language`
    from (synthesis.sources)."""
    paths = {"python": lambda: sorted(PYTHON_ROOT.glob("*.py")), "javascript": js_files,
             "markdown": prose_files}[language]()
    index: dict[str, set[str]] = {}
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        for line in distinctive(text):
            index.setdefault(line, set()).add(sha)
    return index


def shared(source: Source, index: dict[str, set[str]]) -> float:
    """Share of the file's distinctive lines that also occur in a training file with other content."""
    lines = distinctive(source.text)
    return sum(bool(index.get(x, set()) - {source.sha256}) for x in lines) / max(len(lines), 1)


# ------------------------------------------------------------------------------------------- Python cases

_DEFS = PY_FUNCS + (ast.ClassDef,)


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(text).readline))


def _splice(text: str, start: int, old: str, new: str) -> str | None:
    """`text` with its function at line `start` (0-based), dedented as `old`, edited into `new` (splice);
    None when `old` and `new` differ in more than one hunk."""
    ops = difflib.SequenceMatcher(None, split_lines(old), split_lines(new), autojunk=False).get_opcodes()
    return splice(text, start, old, new) if sum(op[0] != "equal" for op in ops) == 1 else None


def _tidy(hint: str) -> bool:
    """A hint a person would write: every quoted fragment has balanced brackets and quotes."""
    return bool(hint) and all(f.count("(") == f.count(")") and f.count("[") == f.count("]") and f.count("'") % 2 == 0
                              and f.count('"') % 2 == 0 for f in re.findall(r"`([^`]*)`", hint))


def _words(name: str) -> str:
    """A one-line description from a name of two words or more: parse_header, parseHeader -> "Parse header."."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", name)
    return " ".join(words).capitalize() + "." if len(words) > 1 else ""


def python_bug_case(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    funcs = [(q, n) for q, n in unique_defs(ast.parse(src.text)) if 5 <= n.end_lineno - first_line(n) + 1 <= 60]
    rng.shuffle(funcs)
    for q, n in funcs:
        start = first_line(n) - 1
        text = textwrap.dedent("".join(lines[start:n.end_lineno]))
        if not valid_python(text) or not (buggy := bugs.python_bug(text, rng.choice(bugs.BUG_TYPES), rng)):
            continue
        hint, new = bugs.bug_hint(buggy, text), _splice(src.text, start, text, buggy)
        if hint and _tidy(hint) and new and valid_python(new):
            return {"kind": "bug", "hinted": True, "instruction": f"Fix the bug in `{q}`: {hint}.",
                    "before": new, "after": src.text}
    return None


def _literal(t: tokenize.TokenInfo) -> bool:
    return (t.type == tokenize.NUMBER and re.fullmatch(r"[2-9]|[1-9][0-9]{1,3}", t.string) is not None) or \
        (t.type == tokenize.STRING and re.fullmatch(r"(['\"])[A-Za-z0-9 _.,:;/-]{1,16}\1", t.string) is not None)


def python_add_parameter(src: Source, rng: random.Random, ctx) -> dict | None:
    lines, toks = split_lines(src.text), _tokens(src.text)
    funcs = unique_defs(ast.parse(src.text))
    rng.shuffle(funcs)
    for q, n in funcs:
        a = n.args
        m = re.fullmatch(r"(\s*(?:async\s+)?def\s+\w+\()([^()*/]*)(\)\s*(?:->\s*[^:()]+)?:\s*)", lines[n.lineno - 1])
        if n.name.startswith("__") or not m or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs \
                or n.body[0].lineno == n.lineno or m[2].rstrip().endswith(","):
            continue
        inside = [t for t in toks if n.lineno <= t.start[0] <= n.end_lineno]
        literals = Counter(t.string for t in inside if _literal(t))
        once = [t for t in inside if t.start[0] >= body_start(n) and _literal(t) and literals[t.string] == 1]
        if not once:
            continue
        t = rng.choice(once)
        names = {t.string for t in inside if t.type == tokenize.NAME}
        choices = ("limit", "size", "count", "width") if t.type == tokenize.NUMBER else \
            ("sep", "label", "prefix", "text")
        if not (free := [c for c in choices if c not in names]):
            continue
        p = rng.choice(free)
        out = list(lines)
        (row, c0), (_, c1) = t.start, t.end
        out[row - 1] = out[row - 1][:c0] + p + out[row - 1][c1:]
        out[n.lineno - 1] = m[1] + (f"{m[2]}, " if m[2].strip() else "") + f"{p}={t.string}" + m[3]
        if valid_python(after := "".join(out)):
            return _parameter_case(src, after, p, t.string, q, "default")
    return None


def _parameter_case(src: Source, after: str, p: str, literal: str, name: str, default: str) -> dict:
    """An add-parameter case: `p` takes the place of `literal` in `name`'s body and is its last parameter, with
    `literal` as default (`default` words it as the shipped cases do: "default" in Python, "default value" in
    JavaScript)."""
    return {"kind": "add-parameter", "hinted": False, "before": src.text, "after": after,
            "instruction": f"Add a parameter `{p}` with {default} `{literal}` as the last parameter of `{name}`, and "
                           f"use it instead of the literal `{literal}` in the body."}


def python_rename_function(src: Source, rng: random.Random, ctx) -> dict | None:
    toks = _tokens(src.text)
    funcs = [q for q, _ in unique_defs(ast.parse(src.text)) if "." not in q and not q.startswith("__")]
    rng.shuffle(funcs)
    for old in funcs:
        uses = [k for k, t in enumerate(toks) if t.type == tokenize.NAME and t.string == old]
        # no mention in strings or comments, no attribute or keyword argument of that name
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


def python_add_docstring(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    funcs = [(q, n) for q, n in unique_defs(ast.parse(src.text)) if not n.name.startswith("__") and
             body_start(n) == n.body[0].lineno == n.lineno + 1 and n.end_lineno - n.lineno >= 3 and _words(n.name)]
    if not funcs:
        return None
    q, n = rng.choice(funcs)
    doc = f'"""{_words(n.name)}"""'
    after = "".join(lines[:n.lineno] + [re.match(r"\s*", lines[n.lineno])[0] + doc + "\n"] + lines[n.lineno:])
    return {"kind": "add-docstring", "hinted": False, "before": src.text, "after": after,
            "instruction": f"Add the docstring {doc} to `{q}` as the first line of its body."}


def _bound(code: str) -> set[str]:
    """Names a module binds at its top level."""
    names = set()
    for node in ast.parse(code).body:
        if isinstance(node, _DEFS):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def python_humanevalfix(src: Source, rng: random.Random, ctx) -> dict | None:
    if not ctx.runs_alone("python", src):
        return None
    tree, lines = ast.parse(src.text), split_lines(src.text)
    host = {t.string for t in _tokens(src.text) if t.type == tokenize.NAME}
    # after a definition that only blank lines separate from the next one
    slots = [a.end_lineno for a, b in zip(tree.body, tree.body[1:]) if isinstance(a, _DEFS) and isinstance(b, _DEFS)
             and first_line(b) - 1 > a.end_lineno and not "".join(lines[a.end_lineno:first_line(b) - 1]).strip()]
    return ctx.embed("python", rng, lines, slots, ["\n", "\n"], lambda c: bool(_bound(c.after) & host),
                     lambda c: c.extra["test"] + f"\n\ncheck({c.extra['entry_point']})\n")


# --------------------------------------------------------------------------------------- JavaScript cases

# A function declaration is a function of core/outline.py's outline whose header is one line of _JS_DECL's
# form: add-parameter rewrites that line's parameter list in place (_JS_DECL's groups).
_JS_DECL = re.compile(r"^(\s*)(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^()]*)\)\s*\{\s*$")


def _js_decls(lines: list[str]) -> list[tuple[int, int, str, str]]:
    """(header index, closing brace index, name, params) of function declarations whose lines are a block
    (js_block), names unique in the file."""
    found = []
    for s in js_outline("".join(lines)):
        k, e = s.header - 1, s.end - 1
        if (m := _JS_DECL.match(lines[k])) and m[2] == s.name and js_block(lines, k, e):
            found.append((k, e, s.name, m[3]))
    # written `function NAME` once in the whole text, comments and strings included, as the long-js corpus was drawn
    counts = Counter(re.findall(r"\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)", "".join(lines)))
    return [d for d in found if counts[d[2]] == 1]


def js_bug_case(src: Source, rng: random.Random, ctx) -> dict | None:
    snippets = js_functions([src.path])
    counts = Counter(s.name for s in snippets)
    rng.shuffle(snippets)
    for s in snippets:
        if counts[s.name] > 1:
            continue
        buggy = bugs.js_bug(s.text, rng.choice(bugs.BUG_TYPES), rng)
        if not buggy or not _tidy(hint := bugs.bug_hint(buggy, s.text) or ""):
            continue
        if (new := _splice(src.text, s.start, s.text, buggy)) and ctx.compiles(new):
            return {"kind": "bug", "hinted": True, "instruction": f"Fix the bug in `{s.name}`: {hint}.",
                    "before": new, "after": src.text}
    return None


def js_add_parameter(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    plain = re.compile(r"\s*(?:[A-Za-z_$][\w$]*\s*(?:,\s*[A-Za-z_$][\w$]*\s*)*)?")  # names only: no defaults
    decls = [d for d in _js_decls(lines) if plain.fullmatch(d[3]) and "`" not in "".join(lines[d[0]:d[1] + 1])]
    rng.shuffle(decls)
    for k, e, name, params in decls:
        toks = [(i + k + 1, a, b, s) for i, a, b, s in js_tokens(lines[k + 1:e])]
        nums = Counter(s for *_, s in toks if re.fullmatch(r"[2-9]|[1-9][0-9]{1,3}", s))
        body = "".join(lines[k:e + 1])
        # once in the code, and nowhere else in the function (strings, comments, lines the tokens skip)
        once = [t for t in toks if nums.get(t[3]) == 1 and len(re.findall(rf"(?<![\w$.]){t[3]}(?![\w$.])", body)) == 1]
        if not once:
            continue
        i, a, b, lit = rng.choice(once)
        if not (free := [c for c in ("limit", "size", "count", "width") if not re.search(rf"\b{c}\b", body)]):
            continue
        p = rng.choice(free)
        out = list(lines)
        out[i] = out[i][:a] + p + out[i][b:]
        m = _JS_DECL.match(lines[k])
        out[k] = lines[k][:m.start(3)] + (f"{params.rstrip()}, " if params.strip() else "") + f"{p} = {lit}" \
            + lines[k][m.end(3):]
        if ctx.compiles(after := "".join(out)):
            return _parameter_case(src, after, p, lit, name, "default value")
    return None


def js_rename_function(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    decls = [d for d in _js_decls(lines) if not re.match(r"\s", lines[d[0]])]
    rng.shuffle(decls)
    for _, _, old, _ in decls:
        mention = word(old)
        hits = [i for i, x in enumerate(lines) for _ in mention.finditer(x)]
        # not a property or an export (renaming would change the module's interface), not in strings or comments
        if not 2 <= len(hits) <= 8 or re.search(rf"\.{re.escape(old)}\b|\b{re.escape(old)}\s*:", src.text) or any(
                "exports" in lines[i] or "`" in lines[i] or lines[i].lstrip().startswith("*")
                or len(mention.findall(js_code(lines[i]))) != len(mention.findall(lines[i])) for i in hits):
            continue
        new = rng.choice([f"{old}Impl", f"{old}Helper", f"{old}Inner"])
        if new not in src.text and ctx.compiles(after := "".join(mention.sub(new, x) for x in lines)):
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
    # a blank line after a top-level closing brace, before a top-level statement or comment
    slots = [i for i in range(1, len(lines) - 1) if lines[i - 1].rstrip() in ("}", "};", "})", "});")
             and not lines[i].strip() and re.match(r"[A-Za-z/]", next((x for x in lines[i:] if x.strip()), ""))]
    declared = r"(?m)^(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)"
    return ctx.embed("javascript", rng, lines, slots, ["\n"],
                     lambda c: bool(set(re.findall(declared, c.after + c.extra["test"])) & host),
                     lambda c: JS_ASSERT + c.extra["test"])


# ----------------------------------------------------------------------------------------- Markdown cases

def _in_fence(lines: list[str]) -> list[bool]:
    """Per line: part of a fenced code block, its fences included."""
    out, fence = [], None
    for x in lines:
        s = x.strip()
        out.append(fence is not None or s.startswith(("```", "~~~")))
        if fence and s.startswith(fence):
            fence = None
        elif not fence and s.startswith(("```", "~~~")):
            fence = s[:3]
    return out


def _sections(lines: list[str]) -> list[tuple[int, int, str]]:
    """(heading index, index where the next heading starts, title) per heading whose title is unique."""
    heads = [(i, m[2]) for i, (x, fenced) in enumerate(zip(lines, _in_fence(lines)))
             if not fenced and (m := re.match(r"(#{1,6}) +(.+?)\s*#*\s*$", x))]
    counts = Counter(t for _, t in heads)
    ends = [i for i, _ in heads[1:]] + [len(lines)]
    return [(i, e, t) for (i, t), e in zip(heads, ends) if counts[t] == 1]


def _prose(line: str) -> bool:
    return bool(re.match(r"[A-Za-z(\"']", line)) and re.search(r"[a-z]{3} [a-z]{3}", line) is not None


def _first_paragraph(lines: list[str], head: int, end: int) -> tuple[int, int] | None:
    """(first, last) line index of the section's first block when it is a paragraph of prose."""
    i = head + 1
    while i < end and not lines[i].strip():
        i += 1
    j = i
    while j < end and lines[j].strip() and _prose(lines[j]):
        j += 1
    return (i, j - 1) if j > i and (j >= end or not lines[j].strip()) else None


def text_typo(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    fenced = _in_fence(lines)
    spots = []
    for head, end, title in _sections(lines):
        for i in range(head + 1, end):
            if fenced[i] or not (_prose(lines[i]) or re.match(r"[*-] [A-Za-z]", lines[i])):
                continue
            # words of the text, not of code spans, links, tags or type annotations
            masked = re.sub(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|\[[^\]]*\]|\{[^}]*\}", lambda m: " " * len(m[0]), lines[i])
            spots += [(title, i, m) for m in re.finditer(r"(?<![\w.-])[a-z]{6,12}(?![\w-])", masked)]
    rng.shuffle(spots)
    for title, i, m in spots:
        bad = typo(m[0], rng)
        if bad != m[0] and not re.search(rf"\b{bad}\b", src.text) and '"' not in title:
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
    new = rng.choice([f"{old} in detail", f"About {old}", f"{old} explained"])
    return {"kind": "rename-heading", "hinted": False, "before": src.text,
            "after": "".join(lines[:i] + [lines[i].replace(old, new, 1)] + lines[i + 1:]),
            "instruction": f'Rename the heading "{old}" to "{new}".'}


def text_add_sentence(src: Source, rng: random.Random, ctx) -> dict | None:
    lines = split_lines(src.text)
    spots = [(t, p) for h, e, t in _sections(lines) if (p := _first_paragraph(lines, h, e)) and '"' not in t]
    if not spots:
        return None
    title, (_, last) = rng.choice(spots)
    sentence = rng.choice(_SENTENCES)
    return {"kind": "add-sentence", "hinted": False, "before": src.text,
            "after": "".join(lines[:last + 1] + ["\n", sentence + "\n"] + lines[last + 1:]),
            "instruction": f'Add the sentence "{sentence}" as a new paragraph right after the first paragraph of '
                           f'the section "{title}".'}


MAKERS = {
    "python": {"bug": python_bug_case, "humanevalfix": python_humanevalfix, "add-parameter": python_add_parameter,
               "rename-function": python_rename_function, "add-docstring": python_add_docstring},
    "javascript": {"bug": js_bug_case, "humanevalfix": js_humanevalfix, "add-parameter": js_add_parameter,
                   "rename-function": js_rename_function, "add-jsdoc": js_add_jsdoc},
    "markdown": {"typo": text_typo, "rename-heading": text_rename_heading, "add-sentence": text_add_sentence},
}
SOURCES = {"python": python_sources, "javascript": js_sources, "markdown": markdown_sources}


# ------------------------------------------------------------------------------------------------ assembly

class Context:
    """What the makers share: a node binary, which hosts run by themselves, the HumanEvalFix tasks not used yet."""

    def __init__(self, seed: int):
        from copy_as_decode.cases.corpora import load, node
        self.node = node()
        if self.node is None:
            raise SystemExit("node is needed to check the JavaScript cases")
        self.tasks = {"python": load("humanevalfix-python"),  # string_to_md5 needs an npm package
                      "javascript": [c for c in load("humanevalfix-js") if "require(" not in c.after + c.extra["test"]]}
        for language, tasks in self.tasks.items():
            random.Random(f"{seed}:{language}:tasks").shuffle(tasks)
        self._alone: dict[Path, bool] = {}

    def compiles(self, text: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".js", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            return subprocess.run([self.node, "--check", f.name], capture_output=True).returncode == 0

    def runs_alone(self, language: str, src: Source) -> bool:
        """The file runs by itself within a few seconds and is a module, not a script (no main block, no
        command line read), so that running it only defines things."""
        from copy_as_decode.cases.corpora import run_tests
        if src.path not in self._alone:
            script = r"^if __name__ == .__main__.:|\bsys\.argv\b" if language == "python" else \
                r"^#!|require\.main|\bprocess\.(?:argv|exit|stdin|stdout)\b"
            self._alone[src.path] = not re.search(script, src.text, re.M) and bool(run_tests(language, src.text, "", 5))
        return self._alone[src.path]

    def embed(self, language, rng, lines, slots, gap, collides, tests_of) -> dict | None:
        """A HumanEvalFix task inserted, after `gap`, at one of `slots` (line indices), kept when its gold
        passes its tests and its buggy file fails them."""
        from copy_as_decode.cases.corpora import run_tests, user_file
        for task in [t for t in self.tasks[language] if not collides(t)][:3] if slots else []:
            at = rng.choice(slots)
            before, after = ("".join(lines[:at] + gap + split_lines(code.strip("\n") + "\n") + lines[at:])
                             for code in user_file(task))
            tests = tests_of(task)
            if bucket_of(len(split_lines(before))) and run_tests(language, after, tests) \
                    and run_tests(language, before, tests) is False:
                self.tasks[language].remove(task)
                return {"kind": "humanevalfix", "hinted": False, "instruction": task.instruction,
                        "before": before, "after": after, "tests": tests, "task": task.id}
        return None


def _localized(case: dict) -> bool:
    ops = difflib.SequenceMatcher(None, split_lines(case["before"]), split_lines(case["after"]), autojunk=False)
    changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops.get_opcodes() if tag != "equal")
    return 0 < changed <= MAX_CHANGED


def _plan(language: str) -> dict[int, list[str]]:
    features = itertools.cycle(FEATURES[language])
    rounds = itertools.cycle(ROUND[language])
    return {b: [next(rounds) or next(features) for _ in range(n)] for b, n in CASES.items()}


def _candidates(language: str) -> list[Source]:
    """The language's usable files: not another version of a training file, each content once."""
    index = training_lines(language)
    out, seen = [], set()
    for s in SOURCES[language]():
        if s.sha256 not in seen and shared(s, index) <= MAX_SHARED:
            seen.add(s.sha256)
            out.append(s)
    return out


def _fill(language: str, bucket: int, kinds: list[str], files: list[Source], seed: int,
          ctx) -> list[tuple[Source, dict]]:
    """One case per planned kind (another kind where no file offers it), from files in their drawn order."""
    uses: Counter = Counter()
    done: set = set()
    limit = max(PER_FILE, -(-len(kinds) // max(len(files), 1)))  # few long files: more cases each
    out = []
    for n, kind in enumerate(kinds):
        for k in [kind] + [k for k in MAKERS[language] if k != kind]:
            # a file not yet used for this kind first, then one already in use, then a new one
            order = sorted((s for s in files if uses[s.path] < limit),
                           key=lambda s: ((k, s.path) in done, not uses[s.path]))
            made = next(((s, c) for s in order if (c := MAKERS[language][k](
                s, random.Random(f"{seed}:{DRAWN_AS.get(language, language)}:{bucket}:{n}:{k}:{s.path}"), ctx))
                and _localized(c) and bucket_of(len(split_lines(c["before"]))) == bucket), None)
            if made:
                break
        else:
            raise RuntimeError(f"no {kind} case for {language} bucket {bucket}")
        uses[made[0].path] += 1
        done.add((k, made[0].path))
        out.append(made)
    return out


def build(seed: int = 0, log=print) -> tuple[dict[str, list[dict]], list[Source]]:
    """The cases of each language, sorted by bucket and kind, and the source files they use."""
    ctx = Context(seed)
    corpora, used = {}, {}
    for language in SOURCES:
        pool = _candidates(language)
        log(f"{language}: {len(pool)} candidate files")
        cases, ids = [], Counter()
        for bucket, kinds in _plan(language).items():
            files = [s for s in pool if bucket_of(s.lines) == bucket]
            random.Random(f"{seed}:{DRAWN_AS.get(language, language)}:{bucket}").shuffle(files)
            for src, case in _fill(language, bucket, kinds, files, seed, ctx):
                used[src.path] = src
                rec = _record(language, bucket, src, case)
                ids[rec["id"]] += 1  # a file's second bug fix, say
                cases.append(dict(rec, id=f"{rec['id']}-{ids[rec['id']]}") if ids[rec["id"]] > 1 else rec)
        corpora[language] = sorted(cases, key=lambda c: (c["bucket"], c["kind"], c["id"]))
    return corpora, sorted(used.values(), key=lambda s: str(s.path))


def _record(language: str, bucket: int, src: Source, case: dict) -> dict:
    from copy_as_decode.core.oracle import line_oracle
    from copy_as_decode.core.program import format_program
    from copy_as_decode.core.resolver import resolve
    program = format_program(line_oracle(case["before"], case["after"]))
    if resolve(program, case["before"]) != case["after"]:  # the oracle is exact; a failure is a bug in it
        raise AssertionError(f"the gold program does not resolve for {src.path}")
    short = languages.named(language).suffixes[0].lstrip(".")  # py, js, md
    rec = {"id": f"{short}-{bucket}-{case['kind']}-{src.label}", "language": language, "bucket": bucket,
           "lines": len(split_lines(case["before"])), "kind": case["kind"], "hinted": case["hinted"],
           "source": str(src.path), "instruction": case["instruction"], "before": case["before"],
           "after_program": program}
    if "tests" in case:
        rec.update(tests=case["tests"], task=case["task"])
    return rec


# ---------------------------------------------------------------------------------------------- writing

def write(corpora: dict[str, list[dict]], sources: list[Source], out: Path = DATA) -> None:
    """The JSONL files, long_sources.json, and the generated part of the note (between its markers)."""
    for language, cases in corpora.items():
        with open(out / CORPUS_FILES[language], "w", encoding="utf-8") as f:
            f.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    by_source: dict[str, list[str]] = {}
    for c in (c for cs in corpora.values() for c in cs):
        by_source.setdefault(c["source"], []).append(c["id"])
    files = [{"path": str(s.path), "sha256": s.sha256, "package": s.package, "version": s.version,
              "license": s.license, "lines": s.lines, "cases": by_source[str(s.path)]} for s in sources]
    (out / BENCHMARK_FILES.name).write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
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
    p = argparse.ArgumentParser(prog="python -m copy_as_decode.synthesis.long_corpus", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DATA, help="where the JSONL files, long_sources.json and the note go")
    args = p.parse_args(argv)
    corpora, sources = build(args.seed)
    write(corpora, sources, args.out)
    for language, cases in corpora.items():
        print(f"{language}: {len(cases)} cases, buckets {dict(Counter(c['bucket'] for c in cases))}, "
              f"kinds {dict(Counter(c['kind'] for c in cases))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
