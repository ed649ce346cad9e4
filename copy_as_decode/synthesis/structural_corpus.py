"""The structural corpora (`move-method`, `add-parameter`): edits that move a whole method or touch every call.

The long corpora change at most 12 lines in one place. A structural edit moves many lines at once (a method
out of its class, dedented, to the top level) or changes lines spread over the file (every call of a
function): what copies out of order, and a model's laziness ("... rest of the method unchanged ..."), cost.

    move-method    Aider's refactoring benchmark (github.com/Aider-AI/refactor-benchmark), its method on other
                   files: a method of a top-level class that never uses `self` (undecorated, not a dunder, no
                   super() or __class__), of MIN_NODES AST nodes or more, in a class at least twice its size,
                   whose name is used nowhere else in the file but as `self.NAME(...)` inside its class; its
                   instruction is the benchmark's own (MOVE), and so is its check: the edited file parses, a
                   top-level function of that name has the method's AST node count within 10%, and the class
                   shrank by the method's node count within 10% of it. `self_calls` counts the calls to
                   update; its rows in `bench edit` add `self_calls_left`, those the edit left as `self.NAME(`.
    add-parameter  a top-level function or a method (undecorated, no *args or **kwargs) called two times or
                   more in its file, by name (a function) or as `self.NAME(...)` (a method), and used nowhere
                   else; the instruction (PARAMETER) asks for `verbose=False` last and `verbose=True` at every
                   call. The check: the file parses, the def's last parameter is `verbose` with default
                   False, every call passes `verbose=True`, there are as many calls as before, and nothing
                   else changed (the module's AST with that parameter and those keywords taken out is the
                   original's).
Each case's `after` is a reference edit (move: the method cut, dedented, `self` dropped, put right after its
class, `self.NAME(` made `NAME(`; add-parameter: the parameter and the keywords appended), which the check
accepts: `exact` compares with it, though other placements are as right (the check is `passed`). `bench edit`
counts lost lines with `lines_lost` here, for which a line moved and dedented is kept (core.deletions' diff in
place would count the move as a deletion).

Files are real, permissively licensed Python files of 100 to 3,000 lines: subpackages of the standard
library (its top-level modules feed the training data, synthesis/sources.py, and long-corpus files are left
out) and well-known pure-Python packages (PROJECTS; vendored copies left out). Cases are stored with their
files in cases/data/structural_sources.json (each file once, with project, path, version, licence, lines,
sha256), so loading never depends on what is installed;

    python -m copy_as_decode.synthesis.structural_corpus [--seed 0]

rebuilds it from what is installed here: files in sorted order, one candidate a file drawn by the seed, the
projects taken in turn (within one, each subpackage's files before a second file of any, and for move-method
the methods that have `self.NAME(` callers first), COUNTS cases of each corpus from files of 100..1,000 lines
(bucket 1000) and of 1,001..3,000 (bucket 3000); no file serves two cases.
"""
import argparse
import ast
import hashlib
import json
import random
import re
import sys
import sysconfig
from collections import Counter
from pathlib import Path

from copy_as_decode.cases import corpora
from copy_as_decode.cases.corpora import Case

DATA = corpora.DATA / "structural_sources.json"
CORPORA = ("move-method", "add-parameter")
MOVE = ("Refactor the `{m}` method in the `{c}` class to be a stand alone, top level function. Name the new "
        "function `{m}`, exactly the same name as the existing method. Update any existing `self.{m}` calls to "
        "work with the new `{m}` function.")
PARAMETER = ("Add a parameter `verbose=False` to `{q}` (last, keyword with default) and update every call of "
             "`{f}` in this file to pass `verbose=True`.")
PARAM, DEFAULT, PASSED = "verbose", False, True
MIN_NODES = 100
TOLERANCE = 0.1  # the published check's: node counts within 10% of the method's
MIN_LINES, SHORT_MAX, MAX_LINES = 100, 1000, 3000
COUNTS = {"move-method": (18, 6), "add-parameter": (12, 4)}  # (files of 100..1,000 lines, of 1,001..3,000)
MIN_CALLS = 2  # add-parameter: calls of the function in its file
# project: (its directory in site-packages, its dist-info's name, the licence its metadata states)
PROJECTS = {"anyio": ("anyio", "anyio", "MIT"), "attrs": ("attr", "attrs", "MIT"),
            "click": ("click", "click", "BSD-3-Clause"), "dateutil": ("dateutil", "python_dateutil", "BSD-3-Clause"),
            "h11": ("h11", "h11", "MIT"), "idna": ("idna", "idna", "BSD-3-Clause"),
            "jinja2": ("jinja2", "jinja2", "BSD-3-Clause"), "markdown-it-py": ("markdown_it", "markdown_it_py", "MIT"),
            "networkx": ("networkx", "networkx", "BSD-3-Clause"),
            "packaging": ("packaging", "packaging", "Apache-2.0 OR BSD-2-Clause"), "pip": ("pip", "pip", "MIT"),
            "pluggy": ("pluggy", "pluggy", "MIT"), "pygments": ("pygments", "pygments", "BSD-2-Clause"),
            "pyparsing": ("pyparsing", "pyparsing", "MIT"), "pytest": ("_pytest", "pytest", "MIT"),
            "pyyaml": ("yaml", "pyyaml", "MIT"), "requests": ("requests", "requests", "Apache-2.0"),
            "rich": ("rich", "rich", "MIT"), "setuptools": ("setuptools", "setuptools", "MIT"),
            "urllib3": ("urllib3", "urllib3", "MIT")}
CPYTHON = "cpython"
_SKIP_DIRS = {"test", "tests", "idle_test", "site-packages", "__pycache__", "_vendor", "vendor", "ensurepip",
              "lib2to3", "encodings"}


# ------------------------------------------------------------------------------------------------ loading

def load(name: str) -> list[Case]:
    """The cases of `move-method` or `add-parameter`, from the stored files, each with its reference edit."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for c in data[name]:
        f = data["files"][c["file"]]
        module = re.sub(r"(/__init__)?\.py$", "", f["path"]).replace("/", ".")
        extra = {"language": "python", "check": name, "project": f["project"], "source": f["path"],
                 "license": f["license"], "version": f["version"], "lines": f["lines"],
                 "bucket": 1000 if f["lines"] <= SHORT_MAX else 3000, **{k: v for k, v in c.items() if k != "file"}}
        if name == "move-method":
            ident = f"{c['class']}.{c['method']}"
            instruction, after = MOVE.format(m=c["method"], c=c["class"]), move_gold(f["text"], c["class"], c["method"])
        else:
            ident = f"{c['class']}.{c['function']}" if c["class"] else c["function"]
            instruction = PARAMETER.format(q=ident, f=c["function"])
            after = parameter_gold(f["text"], c["class"], c["function"])
        out.append(Case(f"{name}/{f['project']}/{module}:{ident}", name, instruction, f["text"], after, extra))
    return sorted(out, key=lambda case: case.id)


# ------------------------------------------------------------------------------------------------- checks

def check(case: Case, text: str) -> bool:
    """Whether `text` does what the case asks (move-method: the published rule; add-parameter: ours)."""
    e = case.extra
    if e["check"] == "move-method":  # the sizes counted again here: the AST's nodes vary across Python versions
        c = next(n for n in ast.parse(case.before).body if isinstance(n, ast.ClassDef) and n.name == e["class"])
        m = next(n for n in c.body if isinstance(n, ast.FunctionDef) and n.name == e["method"])
        return moved(text, e["class"], e["method"], nodes(m), nodes(c))
    return parameter_added(case.before, text, e["class"], e["function"])


def extra_metrics(case: Case, text: str) -> dict:
    """Columns a structural case adds to its row: move-method's `self.NAME(` calls left in the edited file."""
    if case.extra.get("check") != "move-method":
        return {}
    return {"self_calls_left": self_calls_left(text, case.extra["method"])}


def self_calls_left(text: str, method: str) -> int:
    return len(re.findall(rf"\bself\.{re.escape(method)}\(", text))


def lines_lost(old: str, new: str, gold: str | None) -> int:
    """Non-blank lines of `old` that `new` has nowhere, with any indentation, beyond those `gold` has nowhere
    (lines counted with their repeats). core.deletions.lines_lost diffs in place: a method moved out of its
    class and dedented is a deleted block there and an inserted one elsewhere, so it counts the gold's move
    as deleted too, and a method deleted instead of moved loses nothing beyond the gold; here the moved lines
    are kept and the deleted method's lines are lost."""
    def missing(other: str) -> int:
        have = Counter(line.strip() for line in other.splitlines() if line.strip())
        want = Counter(line.strip() for line in old.splitlines() if line.strip())
        return sum(max(0, n - have[line]) for line, n in want.items())
    return max(0, missing(new) - (missing(gold) if gold is not None else 0))


def nodes(node: ast.AST) -> int:
    return len(list(ast.walk(node)))


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):  # ValueError: a null byte
        return None


def moved(text: str, cls: str, method: str, method_nodes: int, class_nodes: int) -> bool:
    """The refactoring benchmark's check: `text` parses, a top-level function `method` has the method's node
    count within TOLERANCE of it, and class `cls` has shrunk by the method's node count, within the same."""
    tree = _parse(text)
    if tree is None:
        return False
    slack = TOLERANCE * method_nodes
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == method]
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    return any(abs(nodes(f) - method_nodes) <= slack for f in functions) and \
        any(abs(nodes(c) - (class_nodes - method_nodes)) <= slack for c in classes)


def _definition(tree: ast.Module, cls: str | None, function: str):
    body = tree.body if cls is None else next((n.body for n in tree.body if isinstance(n, ast.ClassDef)
                                               and n.name == cls), [])
    return next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == function), None)


def _calls(tree: ast.AST, function: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
        isinstance(n.func, ast.Name) and n.func.id == function
        or isinstance(n.func, ast.Attribute) and n.func.attr == function)]


def parameter_added(before: str, text: str, cls: str | None, function: str) -> bool:
    """`text` parses; `function`'s last parameter is PARAM with default DEFAULT; every call of it passes
    PARAM=PASSED, and there are as many as in `before`; with those taken out, its AST is `before`'s."""
    tree, old = _parse(text), _parse(before)
    if tree is None or old is None:
        return False
    d = _definition(tree, cls, function)
    if d is None:
        return False
    a = d.args
    if a.kwonlyargs:
        last, default = a.kwonlyargs[-1], a.kw_defaults[-1]
    elif a.args and a.defaults:
        last, default = a.args[-1], a.defaults[-1]
    else:
        return False
    if last.arg != PARAM or not (isinstance(default, ast.Constant) and default.value is DEFAULT):
        return False
    calls = _calls(tree, function)
    if len(calls) != len(_calls(old, function)):
        return False
    for call in calls:
        passed = [k for k in call.keywords if k.arg == PARAM]
        if len(passed) != 1 or not (isinstance(passed[0].value, ast.Constant) and passed[0].value.value is PASSED):
            return False
        call.keywords.remove(passed[0])
    if a.kwonlyargs:
        a.kwonlyargs.pop()
        a.kw_defaults.pop()
    else:
        a.args.pop()
        a.defaults.pop()
    return ast.dump(tree) == ast.dump(old)


# ------------------------------------------------------------------------------------------ reference edits

def _offset(lines: list[str], lineno: int, col: int) -> int:
    """The string offset of an AST position (1-based line, UTF-8 byte column)."""
    line = lines[lineno - 1]
    return sum(map(len, lines[:lineno - 1])) + len(line.encode("utf-8")[:col].decode("utf-8"))


def move_gold(text: str, cls: str, method: str) -> str:
    """`method` cut from `cls`, dedented, `self` dropped from its parameters, put right after the class (two
    blank lines between), and every `self.method(` of the file made `method(`."""
    tree = ast.parse(text)
    c = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    m = next(n for n in c.body if isinstance(n, ast.FunctionDef) and n.name == method)
    lines = text.splitlines(True)
    start, end = m.lineno - 1, m.end_lineno  # the method's lines [start, end)
    if m is c.body[-1]:  # the last of its class: the blank lines before it go with it
        while start > 0 and not lines[start - 1].strip():
            start -= 1
    else:  # else those after it
        while end < len(lines) and not lines[end].strip():
            end += 1
    indent = lines[m.lineno - 1][:m.col_offset]
    body = "".join(line[len(indent):] if line.startswith(indent) else line if line.strip() else "\n"
                   for line in lines[m.lineno - 1:m.end_lineno])
    head = len(f"def {method}(")
    first = re.match(r"(\s*)self\b[ \t]*,?[ \t]*", body[head:])  # `self` and its comma; a line of its own goes
    if first:
        rest = body[head + first.end():]
        body = body[:head] + ("" if rest.startswith("\n") else first[1]) + rest
    body = body.rstrip("\n") + "\n"
    out = "".join(lines[:start] + lines[end:c.end_lineno]) + "\n\n" + body + "".join(lines[c.end_lineno:])
    return re.sub(rf"\bself\.{re.escape(method)}\(", f"{method}(", out)


def parameter_gold(text: str, cls: str | None, function: str) -> str:
    """`, verbose=False` after `function`'s last parameter (`verbose=False` in empty parentheses), and
    `, verbose=True` after the last argument of every call of it."""
    tree = ast.parse(text)
    lines = text.splitlines(True)
    d = _definition(tree, cls, function)
    params = d.args.posonlyargs + d.args.args + d.args.kwonlyargs
    inserts = []
    if params:
        ends = [(p.end_lineno, p.end_col_offset) for p in params] + \
            [(v.end_lineno, v.end_col_offset) for v in d.args.defaults + d.args.kw_defaults if v is not None]
        inserts.append((_offset(lines, *max(ends)), f", {PARAM}={DEFAULT}"))
    else:
        head = _offset(lines, d.lineno, d.col_offset)
        inserts.append((text.index("(", head) + 1, f"{PARAM}={DEFAULT}"))
    for call in _calls(tree, function):
        args = call.args + [k.value for k in call.keywords]
        if args:
            inserts.append((_offset(lines, *max((a.end_lineno, a.end_col_offset) for a in args)), f", {PARAM}={PASSED}"))
        else:
            inserts.append((_offset(lines, call.end_lineno, call.end_col_offset) - 1, f"{PARAM}={PASSED}"))
    for at, what in sorted(inserts, reverse=True):
        text = text[:at] + what + text[at:]
    return text


# ----------------------------------------------------------------------------------------------- building

def _names(tree: ast.AST) -> tuple[Counter, Counter, list[ast.Attribute], set[int]]:
    """(defined names, Name ids and other bindings, every ast.Attribute, ids of the nodes that are a call's
    func) of a module."""
    defined, used, attributes, called = Counter(), Counter(), [], set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined[n.name] += 1
        elif isinstance(n, ast.Name):
            used[n.id] += 1
        elif isinstance(n, ast.arg):
            used[n.arg] += 1
        elif isinstance(n, ast.alias):
            used[(n.asname or n.name).split(".")[0]] += 1
        elif isinstance(n, ast.Attribute):
            attributes.append(n)
        elif isinstance(n, ast.Call):
            called.add(id(n.func))
    return defined, used, attributes, called


def _plain(f, text: str, defined: Counter, used: Counter) -> bool:
    """An undecorated, non-dunder function whose name is defined once in the file, bound nowhere else, and
    never quoted."""
    return isinstance(f, ast.FunctionDef) and not f.decorator_list and not (
        f.name.startswith("__") and f.name.endswith("__")) and defined[f.name] == 1 and not used[f.name] \
        and not re.search(rf"[\"']{re.escape(f.name)}[\"']", text)


def _self_calls(c: ast.ClassDef, name: str, attributes, called) -> int | None:
    """How many `self.name(...)` calls the file has, all inside class `c`; None when `.name` is used any other
    way (another object's, uncalled, outside the class)."""
    uses = [a for a in attributes if a.attr == name]
    if any(not (isinstance(a.value, ast.Name) and a.value.id == "self" and id(a) in called
                and c.lineno <= a.lineno <= c.end_lineno) for a in uses):
        return None
    return len(uses)


def move_candidates(text: str) -> list[dict]:
    """The methods of `text` that move-method may ask to move (the module docstring's rule), whose reference
    edit its check accepts."""
    tree = _parse(text)
    if tree is None:
        return []
    defined, used, attributes, called = _names(tree)
    out = []
    for c in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        size = nodes(c)
        for m in c.body:
            if not _plain(m, text, defined, used) or m.args.posonlyargs or not m.args.args \
                    or m.args.args[0].arg != "self" or m.args.args[0].annotation is not None:
                continue
            n = nodes(m)
            inside = [x.id for x in ast.walk(m) if isinstance(x, ast.Name)]
            if n < MIN_NODES or size < 2 * n or {"self", "super", "__class__"} & set(inside):
                continue
            calls = _self_calls(c, m.name, attributes, called)
            if calls is None:
                continue
            case = {"class": c.name, "method": m.name, "nodes": n, "class_nodes": size, "self_calls": calls}
            after = move_gold(text, c.name, m.name)
            gold = _parse(after)
            if gold is None or not moved(after, c.name, m.name, n, size) or len(_calls(gold, m.name)) != calls \
                    or self_calls_left(after, m.name):
                continue
            g = next(f for f in gold.body if isinstance(f, ast.FunctionDef) and f.name == m.name)
            if ast.dump(g.args) != ast.dump(ast.arguments(posonlyargs=[], args=m.args.args[1:], vararg=m.args.vararg,
                                                          kwonlyargs=m.args.kwonlyargs, kw_defaults=m.args.kw_defaults,
                                                          kwarg=m.args.kwarg, defaults=m.args.defaults)):
                continue
            out.append(case)
    return out


def parameter_candidates(text: str) -> list[dict]:
    """The functions and methods of `text` that add-parameter may ask to extend, whose reference edit its check
    accepts."""
    tree = _parse(text)
    if tree is None or PARAM in text:
        return []
    defined, used, attributes, called = _names(tree)
    out = []
    owners = [(None, tree.body)] + [(c, c.body) for c in tree.body if isinstance(c, ast.ClassDef)]
    for c, body in owners:
        for f in body:
            if not isinstance(f, ast.FunctionDef) or f.args.vararg or f.args.kwarg or f.args.posonlyargs:
                continue
            name = f.name
            if c is None:  # a function: called by name, never as an attribute, and never named otherwise
                if not (f.decorator_list == [] and not (name.startswith("__") and name.endswith("__"))
                        and defined[name] == 1 and not re.search(rf"[\"']{re.escape(name)}[\"']", text)) \
                        or any(a.attr == name for a in attributes):
                    continue
                names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
                if any(id(n) not in called for n in names) or used[name] != len(names):
                    continue
            else:  # a method: called as self.name() inside its class only
                if not _plain(f, text, defined, used) or not f.args.args or f.args.args[0].arg != "self" \
                        or _self_calls(c, name, attributes, called) is None:
                    continue
            calls = _calls(tree, name)
            if len(calls) < MIN_CALLS or any(isinstance(a, ast.Starred) for call in calls for a in call.args) \
                    or any(k.arg is None for call in calls for k in call.keywords):
                continue
            cls = None if c is None else c.name
            try:
                gold = parameter_gold(text, cls, name)
            except (SyntaxError, StopIteration):
                continue
            if parameter_added(text, gold, cls, name):
                out.append({"class": cls, "function": name, "calls": len(calls)})
    return out


def _stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def _site() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def sources() -> list[dict]:
    """Every candidate file: (project, path under its root, file) in sorted order, with version and licence;
    the standard library's subpackages (its top-level modules feed the training data) less the long corpora's
    files, and PROJECTS' packages less vendored copies and tests."""
    long_files = {f["path"] for f in json.loads((DATA.parent / "long_sources.json").read_text())["files"]}
    roots = [(CPYTHON, _stdlib(), _stdlib(), "PSF-2.0", ".".join(map(str, sys.version_info[:3])),
              _stdlib() / "LICENSE.txt")]
    for project, (package, dist, licence) in sorted(PROJECTS.items()):
        infos = sorted(_site().glob(f"{dist}-*.dist-info"))
        if not infos or not (_site() / package).is_dir():
            continue
        version = infos[0].name[len(dist) + 1:-len(".dist-info")]
        notice = next(iter(sorted(p for p in infos[0].rglob("*") if re.match(r"(?i)(licen[sc]e|copying)", p.name))), None)
        roots.append((project, _site() / package, _site(), licence, version, notice))
    out = []
    for project, root, base, licence, version, notice in roots:
        if notice is None:  # no licence file shipped with it: not used
            continue
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(base)
            if _SKIP_DIRS & set(rel.parts[:-1]) or (project == CPYTHON and len(rel.parts) == 1) \
                    or str(path) in long_files:
                continue
            out.append({"project": project, "path": rel.as_posix(), "file": path, "license": licence,
                        "version": version})
    return out


def build(seed: int = 0) -> dict:
    """The stored data: {"files": {key: file}, "move-method": [...], "add-parameter": [...]} (module docstring)."""
    rng = random.Random(seed)
    pools: dict = {(name, bucket): {} for name in CORPORA for bucket in (0, 1)}
    texts = {}
    for src in sources():
        try:
            text = src["file"].read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        n = len(text.splitlines())
        if not MIN_LINES <= n <= MAX_LINES or "\r" in text:
            continue
        key = f"{src['project']}/{src['path']}"
        bucket = int(n > SHORT_MAX)
        for name, found in (("move-method", move_candidates(text)), ("add-parameter", parameter_candidates(text))):
            if found:
                texts[key] = dict(src, lines=n, text=text)
                pools[(name, bucket)].setdefault(src["project"], []).append((key, found))
    chosen: dict = {name: [] for name in CORPORA}
    used: set = set()
    for name in CORPORA:
        for bucket, want in enumerate(COUNTS[name]):
            by_project = {}
            for project, files in sorted(pools[(name, bucket)].items()):
                picks = [(key, rng.choice(found)) for key, found in files]
                rng.shuffle(picks)
                seen = Counter()  # each subpackage's first file before any second one
                rank = {key: seen.update([_package(key)]) or seen[_package(key)] for key, _ in picks}
                # then, for move-method, methods with callers to update
                picks.sort(key=lambda kc: (rank[kc[0]], name == "move-method" and kc[1]["self_calls"] == 0))
                by_project[project] = picks
            taken = 0
            while taken < want and any(by_project.values()):
                for project in sorted(by_project):
                    picks = by_project[project]
                    while picks and picks[0][0] in used:
                        picks.pop(0)
                    if picks and taken < want:
                        key, case = picks.pop(0)
                        used.add(key)
                        chosen[name].append({"file": key, **case})
                        taken += 1
    files = {}
    for key in sorted(used):
        t = texts[key]
        files[key] = {"project": t["project"], "path": t["path"], "license": t["license"], "version": t["version"],
                      "lines": t["lines"], "sha256": hashlib.sha256(t["text"].encode()).hexdigest(), "text": t["text"]}
    return {"about": "Files and cases of the move-method and add-parameter corpora (synthesis/structural_corpus.py); "
                     f"built with --seed {seed}.", "files": files,
            **{name: sorted(cases, key=lambda c: c["file"]) for name, cases in chosen.items()}}


def _package(key: str) -> str:
    """A file's subpackage: the standard library's top directory, a project's first under its package."""
    project, *parts = key.split("/")
    return "/".join(parts[:-1][:1 if project == CPYTHON else 2])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m copy_as_decode.synthesis.structural_corpus",
                                description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DATA)
    args = p.parse_args(argv)
    data = build(args.seed)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for name in CORPORA:
        lines = [data["files"][c["file"]]["lines"] for c in data[name]]
        print(f"{name}: {len(lines)} cases, {sum(n <= SHORT_MAX for n in lines)} of 100..1,000 lines, projects "
              f"{dict(Counter(data['files'][c['file']]['project'] for c in data[name]))}")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
