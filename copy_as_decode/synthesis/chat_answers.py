"""The chat-answer corpus: whole answers as a chat model writes them (prose, fenced blocks, lazy markers, usage
examples, blocks for other files), to be applied to real files (`copy-as-decode apply FILE ANSWER.md`,
engine/apply.py), each with the file the intended change makes.

Sources: files of installed packages that no other corpus uses (cases/data/long_sources.json,
structural_sources.json and the corpora synthesis/apply_blocks.py reads), stored with their text in
cases/data/chat_answer_sources.json (`python -m copy_as_decode.synthesis.chat_answers --sources` writes it from
the machine's copies). For each file, a generator seeded by its path picks the definitions to change and the
wording, and makes each kind of change it allows:

  fix        a function or method gets a guard at the top of its body; the answer shows it whole (methods
             indented as in the class, or at column 0), in a fence that may name the file's path
  lazy       a long function gets a guard in the middle; the answer shows its header, a marker, two lines of
             context, the new lines, two lines of context, a marker
  class      a method's fix shown inside its class: the class header, a marker, the method, a marker
  hinted     a new method that the prose places ("add this right after `like()`"), the block the method alone
  import     two blocks: "first add this import", then a new helper and the changed caller that uses it
  duplicate  a fix of a method whose name the file defines in several classes, the method alone
To any of them an answer may add a usage example, a shell command, console output or a test for another file,
and its fence style varies (```lang, ```lang path, a path line above, ~~~, fences indented in a list, a bare
block). The expected file is made here, by inserting the change's lines where it is meant to go (never by the
merger); the answer's code is cut from that file.

Each case: {id, language, file (its path in the package), before, answer, after, kind, lines, development,
batch}. The split is by file: the files at DEVELOPMENT positions of SOURCES are development files, the others
held out. Batch 1: the files whose failures were read while the rules were tuned; batch 2 (from FRESH on): added
after that, measured once, then their failures read and the general ones fixed; batch 3 (from UNSEEN on): added
once all rules were written, measured once, no failure of theirs read before.
"""
import json
import random
import re
from pathlib import Path

from copy_as_decode.cases import corpora
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import Symbol, outline

DATA = corpora.DATA / "chat_answer_sources.json"
SITE = ".venv/lib/python3.11/site-packages"
NPM = "/usr/lib/node_modules/npm/node_modules"
# (package, path in it, where it is installed here, version, license)
SOURCES = (
    ("tqdm", "tqdm/std.py", SITE, "4.70.1", "MPL-2.0 AND MIT"),
    ("diskcache", "diskcache/core.py", SITE, "5.6.3", "Apache-2.0"),
    ("jinja2", "jinja2/lexer.py", SITE, "3.1.6", "BSD-3-Clause"),
    ("jinja2", "jinja2/nodes.py", SITE, "3.1.6", "BSD-3-Clause"),
    ("packaging", "packaging/version.py", SITE, "26.4", "Apache-2.0 OR BSD-2-Clause"),
    ("httpx2", "httpx2/_models.py", SITE, "2.17.0", "BSD-3-Clause"),
    ("cattrs", "cattrs/converters.py", SITE, "26.2.1", "MIT"),
    ("anyio", "anyio/_core/_fileio.py", SITE, "4.16.0", "MIT"),
    ("jinja2", "jinja2/runtime.py", SITE, "3.1.6", "BSD-3-Clause"),
    ("markdown-it-py", "markdown_it/renderer.py", SITE, "4.3.0", "MIT"),
    ("semver", "semver/classes/range.js", NPM, "7.8.5", "ISC"),
    ("semver", "semver/classes/semver.js", NPM, "7.8.5", "ISC"),
    ("npm-package-arg", "npm-package-arg/lib/npa.js", NPM, "13.0.2", "ISC"),
    ("nopt", "nopt/lib/nopt-lib.js", NPM, "9.0.0", "ISC"),
    ("@npmcli/arborist", "@npmcli/arborist/lib/node.js", NPM, "9.9.1", "ISC"),
    ("minimatch", "minimatch/dist/commonjs/index.js", NPM, "10.2.5", "BlueOak-1.0.0"),
    ("postcss-selector-parser", "postcss-selector-parser/dist/parser.js", NPM, "7.1.4", "MIT"),
    # added after the rules were tuned, and measured once (FRESH): held out from every look
    ("pygls", "pygls/protocol/json_rpc.py", SITE, "2.1.1", "Apache-2.0"),
    ("jinja2", "jinja2/compiler.py", SITE, "3.1.6", "BSD-3-Clause"),
    ("anyio", "anyio/_core/_sockets.py", SITE, "4.16.0", "MIT"),
    ("pydantic", "pydantic/networks.py", SITE, "2.14.4", "MIT"),
    ("@npmcli/arborist", "@npmcli/arborist/lib/shrinkwrap.js", NPM, "9.9.1", "ISC"),
    ("@npmcli/package-json", "@npmcli/package-json/lib/index.js", NPM, "7.0.5", "ISC"),
    ("ini", "ini/lib/ini.js", NPM, "6.0.0", "ISC"),
    # the tree-sitter languages, once core/outline.py read them (held out, measured once)
    ("rxjs", "rxjs/src/internal/Observable.ts", "/tmp/k_src/npm/rxjs-7.8.1/package/src/internal/Observable.ts",
     "7.8.1", "Apache-2.0"),
    ("rxjs", "rxjs/src/internal/ajax/ajax.ts", "/tmp/k_src/npm/rxjs-7.8.1/package/src/internal/ajax/ajax.ts",
     "7.8.1", "Apache-2.0"),
    ("gorilla/mux", "gorilla/mux/route.go", "/tmp/k_src/root/usr/share/gocode/src/github.com/gorilla/mux/route.go",
     "Debian golang-github-gorilla-mux-dev", "BSD-3-Clause"),
    ("spf13/pflag", "spf13/pflag/flag.go", "/tmp/k_src/root/usr/share/gocode/src/github.com/spf13/pflag/flag.go",
     "Debian golang-github-spf13-pflag-dev", "BSD-3-Clause"),
    ("serde_json", "serde_json/src/value/mod.rs",
     "/tmp/k_src/root/usr/share/cargo/registry/serde_json-1.0.87/src/value/mod.rs", "1.0.87", "MIT OR Apache-2.0"),
    ("openjdk", "java/util/TreeSet.java", "/tmp/k_fetch/src/jdk/src/java.base/java/util/TreeSet.java", "17",
     "GPL-2.0 WITH Classpath-exception-2.0"),
    ("openjdk", "java/util/Vector.java", "/tmp/k_fetch/src/jdk/src/java.base/java/util/Vector.java", "17",
     "GPL-2.0 WITH Classpath-exception-2.0"),
    # added once every rule above was written, and measured once (UNSEEN): no failure of theirs was read before
    ("rich", "rich/table.py", SITE, "15.0.0", "MIT"),
    ("sortedcontainers", "sortedcontainers/sortedlist.py", SITE, "2.4.0", "Apache-2.0"),
    ("python-dateutil", "dateutil/rrule.py", SITE, "4.0.0", "BSD-3-Clause"),
    ("pyyaml", "yaml/constructor.py", SITE, "6.0.4", "MIT"),
    ("pacote", "pacote/lib/fetcher.js", NPM, "21.5.1", "ISC"),
    ("cacache", "cacache/lib/entry-index.js", NPM, "20.0.4", "ISC"),
    ("make-fetch-happen", "make-fetch-happen/lib/cache/entry.js", NPM, "15.0.6", "ISC"),
    ("immer", "immer/src/plugins/patches.ts", "/tmp/k_src/npm/immer-10.1.1/package/src/plugins/patches.ts",
     "10.1.1", "MIT"),
    ("immer", "immer/src/core/proxy.ts", "/tmp/k_src/npm/immer-10.1.1/package/src/core/proxy.ts", "10.1.1", "MIT"),
    ("google/go-cmp", "google/go-cmp/cmp/compare.go",
     "/tmp/k_src/root/usr/share/gocode/src/github.com/google/go-cmp/cmp/compare.go", "Debian golang-github-google-go-cmp-dev",
     "BSD-3-Clause"),
    ("BurntSushi/toml", "BurntSushi/toml/decode.go",
     "/tmp/k_src/root/usr/share/gocode/src/github.com/BurntSushi/toml/decode.go", "Debian golang-github-burntsushi-toml-dev",
     "MIT"),
    ("smallvec", "smallvec/src/lib.rs", "/tmp/k_src/root/usr/share/cargo/registry/smallvec-1.9.0/src/lib.rs", "1.9.0",
     "MIT OR Apache-2.0"),
    ("openjdk", "java/util/LinkedList.java", "/tmp/k_fetch/src/jdk/src/java.base/java/util/LinkedList.java", "17",
     "GPL-2.0 WITH Classpath-exception-2.0"),
    ("openjdk", "java/util/ArrayList.java", "/tmp/k_fetch/src/jdk/src/java.base/java/util/ArrayList.java", "17",
     "GPL-2.0 WITH Classpath-exception-2.0"),
)
FRESH, UNSEEN = 17, 31  # SOURCES from these indexes on: batch 2, batch 3 (batch 1 before FRESH)
DEVELOPMENT = (0, 3, 10, 13)  # tqdm/std.py, jinja2/nodes.py, semver range.js, nopt-lib.js: the rules were tuned on these
KINDS = ("fix", "lazy", "class", "hinted", "import", "duplicate")

_LANGUAGE = {".py": "python", ".js": "javascript", ".ts": "typescript", ".go": "go", ".rs": "rust", ".java": "java"}
_MARKERS = {"python": ("# ... existing code ...", "# ... rest of the method unchanged ...", "# ...",
                       "# ... (unchanged) ...", "# rest of the function stays the same"),
            "javascript": ("// ... existing code ...", "// ... rest unchanged ...", "// ...", "/* ... */",
                           "// (rest of the method is the same)")}
for _lang in ("typescript", "go", "rust", "java"):
    _MARKERS[_lang] = _MARKERS["javascript"]
_TAG = {"python": ("python", "py"), "javascript": ("javascript", "js"), "typescript": ("typescript", "ts"),
        "go": ("go", "golang"), "rust": ("rust", "rs"), "java": ("java",)}
_OPENERS = ("Good catch — the problem is that `{name}` never checks its input.",
            "You're right, `{name}` should fail early on a missing `{param}`.",
            "The crash comes from `{name}`: when `{param}` is missing it falls through and fails much later.",
            "Here's the fix. `{name}` needs to validate `{param}` before doing anything else.",
            "The simplest fix is to add a guard in `{name}`.",
            "I'd handle this in `{name}` itself rather than at every call site.")
_CLOSERS = ("With this change, a missing `{param}` raises immediately with a clear message.",
            "Nothing else in the file needs to change.",
            "Let me know if you also want a test for it.",
            "This keeps the existing behaviour for every valid input.",
            "")


def sources() -> list[dict]:
    """The stored files: {package, path, version, license, text}."""
    return json.loads(DATA.read_text())["files"]


def write_sources(root: Path) -> None:
    """Store each of SOURCES' files with its text (run once, from the checkout, where they are installed)."""
    files = []
    for package, path, where, version, license_ in SOURCES:
        base = Path(where) if Path(where).is_absolute() else root / where
        files.append({"package": package, "path": path, "version": version, "license": license_,
                      "text": (base if base.is_file() else base / path).read_text()})
    DATA.write_text(json.dumps({"about": "Files of the chat-answer corpus (synthesis/chat_answers.py).",
                                "files": files}, indent=1) + "\n")


def build() -> list[dict]:
    out = []
    for k, f in enumerate(sources()):
        language = _LANGUAGE[Path(f["path"]).suffix]
        for kind in KINDS:
            case = _case(kind, f["path"], language, f["text"], random.Random(f"{f['path']}/{kind}"))
            if case is not None:
                before, after, answer = case
                out.append({"id": f"{f['path']}/{kind}", "language": language, "file": f["path"], "before": before,
                            "answer": answer, "after": after, "kind": kind, "lines": len(split_lines(before)),
                            "development": k in DEVELOPMENT, "batch": 1 + (k >= FRESH) + (k >= UNSEEN)})
    return out


# what the changes write


def _unit(lines: list[str]) -> str:
    leads = [len(x) - len(x.lstrip(" ")) for x in lines if x.strip() and x.startswith(" ")
             and not x.lstrip().startswith(("*", "/*", "//"))]  # a doc comment's ` * ` is not an indent
    return " " * (min(leads) if leads else 4)


def _semi(lines: list[str]) -> str:
    return ";" if sum(x.rstrip().endswith(";") for x in lines) > len(lines) // 20 else ""


def _guard(language: str, param: str, indent: str, unit: str, semi: str) -> list[str]:
    if language == "python":
        return [f"{indent}if {param} is None:\n", f'{indent}{unit}raise ValueError("{param} must not be None")\n']
    if language == "go":
        return [f"{indent}if {param} == nil {{\n", f'{indent}{unit}panic("{param} is required")\n', f"{indent}}}\n"]
    if language == "rust":
        return [f"{indent}assert!(!{param}.is_empty(), \"{param} is required\");\n"]
    if language == "java":
        return [f"{indent}if ({param} == null) {{\n",
                f'{indent}{unit}throw new IllegalArgumentException("{param} is required");\n', f"{indent}}}\n"]
    return [f"{indent}if ({param} === undefined) {{\n", f"{indent}{unit}throw new TypeError('{param} is required'){semi}\n",
            f"{indent}}}\n"]


def _params(header: str, language: str) -> list[str]:
    m = re.search(r"\(([^)]*)", header)
    if not m:
        return []
    out = []
    for p in m.group(1).split(","):
        p = p.strip()
        if language == "java":  # `final Type name`
            p = p.split()[-1] if p.split() else ""
        elif language == "go":  # `name Type`
            p = p.split()[0] if p.split() else ""
        elif language == "rust":  # `mut name: Type`
            p = p.removeprefix("mut ")
        p = re.split(r"[:=?]", p)[0].strip().lstrip("*&")
        if re.fullmatch(r"[A-Za-z_$][\w$]*", p) and p not in ("self", "cls", "this"):
            out.append(p)
    return out


def _body_start(lines: list[str], s: Symbol, language: str) -> int | None:
    """The 0-based line the body's first statement is on (after a Python docstring), or None."""
    k = s.header - 1
    end = ":" if language == "python" else "{"
    while k < s.end and not lines[k].split("#")[0].rstrip().endswith(end):
        k += 1
    k += 1
    if k >= s.end:
        return None
    if language == "python" and lines[k].strip().startswith(('"""', "'''", 'r"""')):
        q = lines[k].strip()[:3] if not lines[k].strip().startswith("r") else '"""'
        if lines[k].strip().count(q) < 2 or lines[k].strip() in (q,):
            k += 1
            while k < s.end and q not in lines[k]:
                k += 1
        k += 1
    while k < s.end and not lines[k].strip():
        k += 1
    if language == "java" and re.match(r"\s*(this|super)\s*\(", lines[k]) and lines[k].rstrip().endswith(";"):
        k += 1  # a constructor's call of another comes first: a guard before it would not compile
    return k if k < s.end - (language != "python") else None


def _fixable(lines: list[str], s: Symbol, language: str, lo: int = 6, hi: int = 80) -> tuple[str, int] | None:
    """(the parameter to guard, the line the guard goes before) for a function of lo..hi lines."""
    if s.kind == "class" or not lo <= s.end - s.start + 1 <= hi:
        return None
    header = "".join(lines[s.header - 1:s.header + 2])
    params = _params(header, language)
    at = _body_start(lines, s, language)
    if not params or at is None or lines[s.header - 1].lstrip().startswith(("@", "get ", "set ", "static get")):
        return None
    if language == "python" and any(lines[k].strip().startswith("@overload") for k in range(s.start - 1, s.header - 1)):
        return None
    return params[0], at


# the answers' wording


def _fence(rng: random.Random, language: str, code: str, path: str, style: str) -> str:
    tag = rng.choice(_TAG[language])
    if style == "path":
        return f"```{tag} {path}\n{code}```\n"
    if style == "above":
        return f"{rng.choice(['**`' + path + '`**', 'File: `' + path + '`', '`' + path + '`:'])}\n```{tag}\n{code}```\n"
    if style == "comment":
        c = "#" if language == "python" else "//"
        return f"```{tag}\n{c} {path}\n{code}```\n"
    if style == "tilde":
        return f"~~~{tag}\n{code}~~~\n"
    return f"```{tag}\n{code}```\n"


def _extras(rng: random.Random, language: str, name: str, path: str) -> str:
    """What a chat adds after the code: a usage example, a command, output, or a test for another file."""
    pick = rng.randrange(5)
    stem = Path(path).stem
    if language in _TEST_COMMAND:
        return f"\nThen run the tests:\n\n```sh\n{_TEST_COMMAND[language]}\n```\n" if pick < 2 else ""
    if pick == 0 and language == "python":
        return (f"\nYou can check it quickly:\n\n```python\nfrom {path[:-3].replace('/', '.')} import *\n\n"
                f"result = {name}(None)  # now raises ValueError\nprint(result)\n```\n")
    if pick == 0:
        return (f"\nFor example:\n\n```js\nconst {stem.replace('-', '_')} = require('./{stem}')\n\n"
                f"try {{\n  {stem.replace('-', '_')}.{name}()\n}} catch (err) {{\n  console.error(err.message)\n}}\n```\n")
    if pick == 1:
        cmd = "python -m pytest -q" if language == "python" else "npm test"
        return f"\nThen run the tests again:\n\n```bash\n{cmd}\n```\n"
    if pick == 2:
        return ("\nYou should now see:\n\n```\n" + (f"ValueError: {name} argument must not be None\n" if language == "python"
                                                  else "TypeError: argument is required\n") + "```\n")
    if pick == 3 and language == "python":
        test = f"tests/test_{stem}.py"
        return (f"\nAnd a regression test, in `{test}`:\n\n```python {test}\nimport pytest\n\n\n"
                f"def test_{name.strip('_')}_rejects_none():\n    with pytest.raises(ValueError):\n"
                f"        {name}(None)\n```\n")
    if pick == 3:
        test = f"test/{stem}.test.js"
        return (f"\nA test for it (`{test}`):\n\n```js {test}\nconst t = require('tap')\n\n"
                f"t.test('{name} rejects a missing argument', async t => {{\n  t.throws(() => {name}())\n}})\n```\n")
    return ""


_TEST_COMMAND = {"typescript": "npx jest", "go": "go test ./...", "rust": "cargo test", "java": "mvn -q test"}


def _opening(rng: random.Random, name: str, param: str) -> str:
    return rng.choice(_OPENERS).format(name=name, param=param)


def _closing(rng: random.Random, param: str) -> str:
    text = rng.choice(_CLOSERS).format(param=param)
    return f"\n{text}\n" if text else ""


def _dedent(lines: list[str], by: str) -> list[str]:
    return [x[len(by):] if x.startswith(by) else x.lstrip(" ") if not x.strip() else x for x in lines]


def _lead(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


# the cases


def _case(kind: str, path: str, language: str, text: str, rng: random.Random):
    lines = split_lines(text)
    symbols = outline(text, language)[1]
    unit, semi = _unit(lines), _semi(lines)
    return globals()["_" + kind](path, language, lines, symbols, unit, semi, rng)


def _with_guard(lines, s, language, unit, semi, at, param):
    indent = _lead(lines[at])
    new = _guard(language, param, indent, unit, semi)
    return lines[:at] + new + lines[at:], len(new)


def _fix(path, language, lines, symbols, unit, semi, rng, pick=None):
    fixable = [(s, f) for s in symbols if (f := _fixable(lines, s, language, 6, 40))]
    if not fixable:
        return None
    s, (param, at) = pick or rng.choice(fixable)
    after, n = _with_guard(lines, s, language, unit, semi, at, param)
    code = after[s.start - 1:s.end + n]
    while code and not code[-1].strip():
        code.pop()
    col0 = s.parent is not None and rng.random() < 0.4
    if col0:
        code = _dedent(code, _lead(lines[s.header - 1]))
    style = rng.choice(("plain", "path", "above", "comment", "tilde", "list", "bare"))
    body = "".join(code)
    if style == "bare":
        return "".join(lines), "".join(after), body
    verb = rng.choice(("Replace", "Update", "Here's the corrected", "Change"))
    where = f" in `{s.parent.name}`" if s.parent is not None else ""
    if style == "list":
        block = "".join("   " + x if x.strip() else x for x in _fence(rng, language, body, path, "plain").splitlines(True))
        answer = (f"{_opening(rng, s.name, param)}\n\n1. {verb} `{s.name}`{where}:\n\n{block}\n"
                  f"2. Nothing else changes.\n")
    else:
        answer = (f"{_opening(rng, s.name, param)}\n\n{verb} `{s.name}`{where} with this version:\n\n"
                  f"{_fence(rng, language, body, path, style)}{_closing(rng, param)}{_extras(rng, language, s.name, path)}")
    return "".join(lines), "".join(after), answer


def _lazy(path, language, lines, symbols, unit, semi, rng):
    long_ = [s for s in symbols if s.kind != "class" and s.end - s.start >= 30 and _params(
        "".join(lines[s.header - 1:s.header + 2]), language)]
    for s in rng.sample(long_, len(long_)):
        first = _body_start(lines, s, language)
        if first is None:
            continue
        indent = _lead(lines[first])
        spots = [k for k in range(first + 4, s.end - 6) if _lead(lines[k]) == indent and lines[k].strip()
                 and _lead(lines[k - 1]) == indent and lines[k - 1].rstrip()[-1:] not in "([{,\\:"
                 and not re.match(r"(else|elif|except|finally|catch|\)|\]|\}|\.|case |default)", lines[k].strip())
                 and (language == "python" or lines[k - 1].rstrip()[-1:] in ";}"
                      or language == "go" and lines[k - 1].rstrip()[-1:] not in "{(,+-*/&|=")
                 and lines[k - 2].strip() and lines[k + 1].strip()]
        if not spots:
            continue
        at = rng.choice(spots)
        param = _params("".join(lines[s.header - 1:s.header + 2]), language)[0]
        after, n = _with_guard(lines, s, language, unit, semi, at, param)
        marker = _lead(lines[at]) + rng.choice(_MARKERS[language]) + "\n"
        head = s.header - 1
        while not after[head].split("#")[0].rstrip().endswith(":" if language == "python" else "{"):
            head += 1
        code = after[s.header - 1:head + 1] + [marker] + after[at - 2:at + n + 2] + [marker]
        if language != "python":
            code.append(_lead(lines[s.header - 1]) + "}\n")
        if s.parent is not None and rng.random() < 0.5:
            code = _dedent(code, _lead(lines[s.header - 1]))
        answer = (f"In `{s.name}`, the value of `{param}` is used below without a check. "
                  f"{rng.choice(['Add the guard before it', 'Insert the check here', 'Only this part changes'])}:\n\n"
                  f"{_fence(rng, language, ''.join(code), path, rng.choice(('plain', 'path', 'tilde')))}"
                  f"{_closing(rng, param)}{_extras(rng, language, s.name, path)}")
        return "".join(lines), "".join(after), answer
    return None


def _class(path, language, lines, symbols, unit, semi, rng):
    fixable = [(s, f) for s in symbols if s.parent is not None and s.parent.kind == "class" and s.parent.parent is None
               and (f := _fixable(lines, s, language, 6, 40))]
    if not fixable:
        return None
    s, (param, at) = rng.choice(fixable)
    after, n = _with_guard(lines, s, language, unit, semi, at, param)
    cls = s.parent
    marker = rng.choice(_MARKERS[language])
    indent = _lead(lines[s.header - 1])
    method = after[s.start - 1:s.end + n]
    while method and not method[-1].strip():
        method.pop()
    code = [lines[cls.header - 1], indent + marker + "\n", "\n"] + method + ["\n", indent + marker + "\n"]
    if language != "python":
        code.append(_lead(lines[cls.header - 1]) + "}\n")
    answer = (f"{_opening(rng, s.name, param)} Here is the relevant part of `{cls.name}`:\n\n"
              f"{_fence(rng, language, ''.join(code), path, rng.choice(('plain', 'path', 'above')))}"
              f"{_closing(rng, param)}{_extras(rng, language, s.name, path)}")
    return "".join(lines), "".join(after), answer


def _hinted(path, language, lines, symbols, unit, semi, rng):
    classes = [c for c in symbols if c.kind == "class" and c.parent is None]
    pairs = []
    for c in classes:
        methods = [m for m in symbols if m.parent == c and m.kind != "class"]
        pairs += [(c, m, n) for m, n in zip(methods, methods[1:]) if n.start - 1 > m.end
                  and all(not x.strip() for x in lines[m.end:n.start - 1])
                  and m.name != n.name and all(not lines[x.start - 1].lstrip().startswith("@") for x in (m, n))
                  and not lines[m.header - 1].lstrip().startswith(("get ", "set ", "static"))]
    if not pairs:
        return None
    cls, m, nxt = rng.choice(pairs)
    indent = _lead(lines[m.header - 1])
    gap = lines[m.end:nxt.start - 1]
    name = rng.choice(("describe", "as_dict", "summary", "debug_repr")) if language == "python" else \
        rng.choice(("describe", "toJSON", "summary", "debugString"))
    if any(x.name == name for x in symbols):
        return None
    if language == "python":
        method = [f"{indent}def {name}(self):\n", f'{indent}{unit}"""A short description, for debugging."""\n',
                  f"{indent}{unit}return f\"{{type(self).__name__}}({{self!r}})\"\n"]
    elif language == "rust":
        method = [f"{indent}pub fn {name}(&self) -> String {{\n", f"{indent}{unit}String::from(\"{cls.name}\")\n",
                  f"{indent}}}\n"]
    elif language == "java":
        method = [f"{indent}public String {name}() {{\n", f"{indent}{unit}return getClass().getSimpleName();\n",
                  f"{indent}}}\n"]
    elif language == "go":
        return None  # Go's methods stand outside their type
    else:
        method = [f"{indent}{name} () {{\n", f"{indent}{unit}return `${{this.constructor.name}}(${{String(this)}})`{semi}\n",
                  f"{indent}}}\n"]
    after = lines[:m.end] + gap + method + lines[m.end:]
    code = method if rng.random() < 0.6 else _dedent(method, indent)
    where = rng.choice((f"right after `{m.name}()`", f"just below `{m.name}`", f"after the `{m.name}` method",
                        f"directly after `{cls.name}.{m.name}`"))
    answer = (f"To make `{cls.name}` easier to inspect, add a `{name}` method {where}:\n\n"
              f"{_fence(rng, language, ''.join(code), path, rng.choice(('plain', 'path', 'tilde')))}\n"
              f"It doesn't change any existing behaviour.\n{_extras(rng, language, name, path)}")
    return "".join(lines), "".join(after), answer


_NEW_IMPORT = {"python": ("warnings", "import warnings\n"), "javascript": ("util", "const util = require('util')")}


def _import(path, language, lines, symbols, unit, semi, rng):
    if language not in _NEW_IMPORT:
        return None
    module, statement = _NEW_IMPORT[language]
    text = "".join(lines)
    if language == "python" and re.search(r"^import warnings$", text, re.M) or \
            language == "javascript" and (re.search(r"require\('util'\)|from 'util'|^import ", text, re.M)
                                          or "require(" not in text):
        return None
    statement = statement if language == "python" else statement + semi + "\n"
    tops = [s for s in symbols if s.parent is None and s.kind != "class" and _fixable(lines, s, language, 6, 40)]
    if not tops:
        return None
    s = rng.choice(tops)
    param, at = _fixable(lines, s, language, 6, 40)
    indent = _lead(lines[at])
    helper_name = f"_warn_{param.lower()}"
    if language == "python":
        helper = [f"def {helper_name}(value):\n", f"{unit}if value is None:\n",
                  f'{unit}{unit}warnings.warn("{param} is None", stacklevel=3)\n', f"{unit}return value\n"]
        call = [f"{indent}{param} = {helper_name}({param})\n"]
        gap = ["\n", "\n"]
    else:
        helper = [f"function {helper_name} (value) {{\n", f"{unit}if (value === undefined) {{\n",
                  f"{unit}{unit}process.emitWarning(util.format('%s is undefined', '{param}')){semi}\n", f"{unit}}}\n",
                  f"{unit}return value{semi}\n", "}\n"]
        call = [f"{indent}{param} = {helper_name}({param}){semi}\n"]
        gap = ["\n"]
    # the import: among the top-level import statements of its kind (`import x`; `const x = require()`, one
    # line or several) above the file's first definition, if it has any there (the answer says "at the top of
    # the file": a later group, such as requires put off to break a cycle, is not it), at its sorted place when
    # they are sorted by module, else after the last of them
    statements, top = [], None  # (first line, end, module); how many of them come before the first definition
    k = 0
    while k < s.start - 1:
        first = lines[k]
        if language == "python" and (m := re.match(r"import ([\w.]+)", first)):
            statements.append((k, k + 1, m.group(1)))
        elif language == "javascript" and re.match(r"(const|let|var) ", first):
            e = k
            while e < s.start - 1 and "require(" not in lines[e] and not lines[e].rstrip().endswith(";") and e - k < 12:
                e += 1
            if (m := re.search(r"require\(\s*['\"]([^'\"]+)", lines[e])) and lines[e].rstrip().rstrip(";").endswith(")"):
                statements.append((k, e + 1, m.group(1)))
                k = e
        elif top is None and re.match(r"(async\s+)?(function|class|def)\b|module\.exports|exports\.", first):
            top = len(statements)
        k += 1
    statements = statements[:top] or statements
    keys = [key.lower() for _, _, key in statements]
    later = [first for first, _, key in statements if key.lower() > module]
    at_import = (later[0] if keys == sorted(keys) and later else statements[-1][1]) if statements else None
    if at_import is None:
        return None
    start = s.start - 1
    if lines[start - 1].strip():  # set apart from the line above it too
        helper = gap + helper
    after = lines[:at] + call + lines[at:]
    after = after[:start] + helper + gap + after[start:]
    after = after[:at_import] + [statement] + after[at_import:]
    cstart = start + 1 + len(helper) + len(gap)
    caller = after[cstart:cstart + s.end - s.start + 1 + len(call)]
    while caller and not caller[-1].strip():
        caller.pop()
    two = "".join(helper).lstrip("\n") + "".join(gap) + "".join(caller)
    style = rng.choice(("plain", "path", "above"))
    answer = (f"I'd keep accepting a missing `{param}` in `{s.name}`, but warn about it. Two small changes.\n\n"
              f"First, add the import at the top of the file:\n\n{_fence(rng, language, statement, path, style)}\n"
              f"Then add a helper and call it from `{s.name}`:\n\n{_fence(rng, language, two, path, style)}"
              f"{_extras(rng, language, s.name, path)}")
    return "".join(lines), "".join(after), answer


def _duplicate(path, language, lines, symbols, unit, semi, rng):
    counts: dict[str, int] = {}
    for s in symbols:
        if s.parent is not None and s.kind != "class":
            counts[s.name] = counts.get(s.name, 0) + 1
    fixable = [(s, f) for s in symbols if s.parent is not None and counts.get(s.name, 0) > 1
               and (f := _fixable(lines, s, language, 4, 40))]
    if not fixable:
        return None
    s, f = rng.choice(fixable)
    base = _fix(path, language, lines, symbols, unit, semi, random.Random(rng.random()), pick=(s, f))
    return base


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--sources"]:
        write_sources(Path.cwd())
    print(f"{len(build())} cases")
