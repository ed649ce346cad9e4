"""The locate corpora of other languages (`locate-ts`, `locate-go`, `locate-rust`, `locate-java`, `locate-c`,
`locate-cpp`): a one-token bug in one function of a real file of 300 to 3,000 lines, asked about as users ask
(cases/data/LANG_CORPUS.md).

    python -m copy_as_decode.synthesis.lang_corpus --sources DIR [--fetch] [--seed 0]

`--fetch` first brings the pinned packages into DIR with their own clients (apt-get download + dpkg -x,
npm pack, pip download, the JDK's src.zip); the output depends only on the seed and on those packages.
Each bug (synthesis/bugs.py tree_bug: an operator flipped, an off-by-one, a wrong constant or flag) gets three
instructions that describe what goes wrong and never the change:

    named    names the function (`Type.method` for a method, else its name)
    cursor   a vague request, with the cursor (`at`) on a line inside the function
    symptom  names nothing: what the code should do (its doc comment's first sentence, where it has one) and
             what it does wrong

Cases keep what synthesis/locate_corpus.py's keep (`target`, the function's lines with its doc comment, `at`,
`base`), so `bench edit --alone --pick` runs them as it runs locate-python. The shipped files store each
source file once, with its bugs as (line, buggy text): `load` makes the cases. Development and held-out
cases come from different files (`split`, which cases/heldout.py reads).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from copy_as_decode.cases.corpora import DATA, LANG_CORPORA, Case
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.parsers import parse

from .bugs import tree_bug

NOTE = DATA / "LANG_CORPUS.md"
KINDS = ("named", "cursor", "symptom")
CORPORA = dict(zip(LANG_CORPORA, ("typescript", "go", "rust", "java", "c", "cpp")))  # name -> language
MIN_LINES, MAX_LINES = 300, 3000
FUNCTION_LINES = (6, 40)  # a function a user would select by hand, short enough for the peer to rewrite
FILES = 9                 # per language; a third of them are development files
BUGS_PER_FILE = 2


@dataclass(frozen=True)
class Package:
    language: str
    client: str    # apt, npm, pypi or jdk
    name: str
    version: str
    license: str
    pattern: str   # the files used, a glob under the unpacked package
    root: str      # where the package's files are, under DIR/client/


PACKAGES = (
    Package("typescript", "npm", "rxjs", "7.8.1", "Apache-2.0", "src/internal/**/*.ts", "rxjs-7.8.1/package"),
    Package("typescript", "npm", "immer", "10.1.1", "MIT", "src/**/*.ts", "immer-10.1.1/package"),
    Package("typescript", "npm", "mobx", "6.13.5", "MIT", "src/**/*.ts", "mobx-6.13.5/package"),
    Package("typescript", "npm", "@tanstack/query-core", "5.59.0", "MIT", "src/**/*.ts",
            "tanstack-query-core-5.59.0/package"),
    Package("go", "apt", "golang-github-spf13-cobra-dev", "1.6.1-1", "Apache-2.0", "**/*.go",
            "usr/share/gocode/src/github.com/spf13/cobra"),
    Package("go", "apt", "golang-github-spf13-pflag-dev", "1.0.6~git20210604-d5e0c0615ace-1", "BSD-3-clause",
            "**/*.go", "usr/share/gocode/src/github.com/spf13/pflag"),
    Package("go", "apt", "golang-github-google-go-cmp-dev", "0.5.9-1", "BSD-3-clause", "**/*.go",
            "usr/share/gocode/src/github.com/google/go-cmp"),
    Package("go", "apt", "golang-github-gorilla-mux-dev", "1.8.0-1", "BSD-3-clause", "**/*.go",
            "usr/share/gocode/src/github.com/gorilla/mux"),
    Package("go", "apt", "golang-github-burntsushi-toml-dev", "1.2.0-2", "Expat", "**/*.go",
            "usr/share/gocode/src/github.com/BurntSushi/toml"),
    Package("go", "apt", "golang-github-pelletier-go-toml-dev", "1.9.4-1", "Expat", "**/*.go",
            "usr/share/gocode/src/github.com/pelletier/go-toml"),
    Package("rust", "apt", "librust-regex-syntax-dev", "0.6.27-1", "MIT or Apache-2.0", "src/**/*.rs",
            "usr/share/cargo/registry/regex-syntax-0.6.27"),
    Package("rust", "apt", "librust-serde-json-dev", "1.0.87-1", "MIT or Apache-2.0", "src/**/*.rs",
            "usr/share/cargo/registry/serde_json-1.0.87"),
    Package("rust", "apt", "librust-semver-dev", "1.0.14-1", "MIT or Apache-2.0", "src/**/*.rs",
            "usr/share/cargo/registry/semver-1.0.14"),
    Package("rust", "apt", "librust-toml-dev", "0.5.11-1", "MIT or Apache-2.0", "src/**/*.rs",
            "usr/share/cargo/registry/toml-0.5.11"),
    Package("rust", "apt", "librust-bytes-dev", "1.2.1-1", "MIT", "src/**/*.rs",
            "usr/share/cargo/registry/bytes-1.2.1"),
    Package("rust", "apt", "librust-smallvec-dev", "1.9.0-1", "MIT or Apache-2.0", "src/**/*.rs",
            "usr/share/cargo/registry/smallvec-1.9.0"),
    Package("java", "jdk", "openjdk-17-source", "17.0.21.1+2-1~deb12u1", "GPL-2.0 with Classpath-exception-2.0",
            "java.base/java/util/*.java", "src"),
    Package("c", "pypi", "cffi", "1.17.1", "MIT", "src/c/*.c", "cffi-1.17.1"),
    Package("cpp", "pypi", "greenlet", "3.1.1", "MIT", "src/greenlet/*.cpp", "greenlet-3.1.1"),
    Package("cpp", "pypi", "kiwisolver", "1.4.7", "BSD-3-Clause", "py/src/*.cpp", "kiwisolver-1.4.7"),
)
_SUFFIXES = {"typescript": ".ts", "go": ".go", "rust": ".rs", "java": ".java", "c": ".c", "cpp": ".cpp"}


def fetch(root: Path) -> None:
    """Each package of PACKAGES unpacked under root/CLIENT/, with its own client."""
    for client in ("apt", "npm", "pypi", "jdk"):
        (root / client).mkdir(parents=True, exist_ok=True)
    for p in PACKAGES:
        where = root / p.client
        if p.client == "apt":
            subprocess.run(["apt-get", "download", f"{p.name}={p.version}"], cwd=where, check=True)
            deb = next(where.glob(f"{p.name}_*.deb"))
            subprocess.run(["dpkg", "-x", deb.name, "."], cwd=where, check=True)
        elif p.client == "npm":
            tgz = subprocess.run(["npm", "pack", f"{p.name}@{p.version}"], cwd=where, check=True,
                                 capture_output=True, text=True).stdout.split()[-1]
            (where / p.root).parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["tar", "xzf", tgz, "-C", str((where / p.root).parent)], cwd=where, check=True)
        elif p.client == "pypi":
            # a download only: this environment's install constraints do not apply
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
                            f"{p.name}=={p.version}"], cwd=where, check=True, env={**os.environ, "PIP_CONSTRAINT": ""})
            subprocess.run(["tar", "xzf", f"{p.name}-{p.version}.tar.gz"], cwd=where, check=True)
        else:
            subprocess.run(["apt-get", "download", f"{p.name}={p.version}"], cwd=where, check=True)
            subprocess.run(["dpkg", "-x", next(where.glob(f"{p.name}_*.deb")).name, "."], cwd=where, check=True)
            with zipfile.ZipFile(next(where.glob("usr/lib/jvm/*/lib/src.zip"))) as z:
                z.extractall(where / p.root, [n for n in z.namelist() if n.startswith("java.base/java/util/")])


# ----------------------------------------------------------------------------------------- functions

@dataclass(frozen=True)
class Function:
    name: str      # as a user names it: `Type.method` (`Type::method` in Rust and C++) for a method
    start: int     # first line, the doc comment and attributes right above it included
    header: int    # the line its definition starts on
    body: int      # the line its body opens on
    end: int
    doc: str       # its doc comment's first sentence ("" without one)


_DEFINITIONS = {
    "typescript": {"function_declaration", "method_definition", "generator_function_declaration"},
    "go": {"function_declaration", "method_declaration"},
    "rust": {"function_item"},
    "java": {"method_declaration", "constructor_declaration"},
    "c": {"function_definition"},
    "cpp": {"function_definition"},
}
_TYPES = {"class_declaration", "abstract_class_declaration", "class", "impl_item", "trait_item",
          "interface_declaration", "enum_declaration", "record_declaration", "class_specifier", "struct_specifier"}
_WRAPPERS = {"export_statement", "template_declaration", "decorated_definition"}
_LEADS = {"comment", "line_comment", "block_comment", "attribute_item", "decorator"}
_SEP = {"rust": "::", "cpp": "::"}


def functions(document: str, language: str) -> list[Function]:
    """The functions and methods of `document` whose name says which one it is (named once in the file)."""
    tree = parse(document, language)
    found = []
    stack = [(tree.root_node, None)]
    while stack:
        node, owner = stack.pop()
        if node.type in _DEFINITIONS[language]:
            name = _name(node, language)
            body = node.child_by_field_name("body")
            if name and body is not None:
                outer = node
                while outer.parent is not None and outer.parent.type in _WRAPPERS:
                    outer = outer.parent
                lead = outer
                while lead.prev_sibling is not None and lead.prev_sibling.type in _LEADS and \
                        lead.prev_sibling.end_point[0] >= lead.start_point[0] - 1:
                    lead = lead.prev_sibling
                sep = _SEP.get(language, ".")
                full = name if owner is None or sep in name else f"{owner}{sep}{name}"
                found.append(Function(full, lead.start_point[0] + 1, node.start_point[0] + 1,
                                      body.start_point[0] + 1, node.end_point[0] + 1,
                                      _doc(document, lead, outer, name.split(sep)[-1])))
            continue  # what is nested in a function belongs to it
        inner = owner
        if node.type in _TYPES:
            named = node.child_by_field_name("name") or node.child_by_field_name("type")
            # `impl<'a, R> Deserializer<R>` is Deserializer's, as a user names it
            words = re.findall(r"[A-Za-z_]\w*", re.sub(r"<.*", "", named.text.decode(), flags=re.S)) \
                if named is not None else []
            inner = words[-1] if words else owner
        stack += [(c, inner) for c in reversed(node.children)]
    counts: dict[str, int] = {}
    for f in found:
        counts[f.name] = counts.get(f.name, 0) + 1
    return [f for f in found if counts[f.name] == 1]


def _name(node, language: str) -> str | None:
    """A definition's name; a Go method's with its receiver's type (`Type.Method`), a C++ one's as written."""
    if language in ("c", "cpp"):
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type not in ("function_declarator",):
            decl = decl.child_by_field_name("declarator")
        inner = decl.child_by_field_name("declarator") if decl is not None else None
        return inner.text.decode() if inner is not None and "\n" not in inner.text.decode() else None
    name = node.child_by_field_name("name")
    if name is None:
        return None
    if node.type == "method_declaration" and language == "go":
        receiver = re.findall(r"[A-Za-z_]\w*", node.child_by_field_name("receiver").text.decode())
        return f"{receiver[-1]}.{name.text.decode()}" if receiver else None
    return name.text.decode()


def _doc(document: str, lead, outer, name: str) -> str:
    """The first sentence of the comment right above a definition, its own name left out ("" without one)."""
    lines = split_lines(document)[lead.start_point[0]:outer.start_point[0]]
    text = " ".join(re.sub(r"^\s*(/\*\*?|\*/|\*|///?!?|#\[.*)", "", line).strip() for line in lines)
    text = re.sub(r"\{@\w+\s+([^}]*)\}", r"\1", re.sub(r"<[^>]+>|\*/", "", text)).strip()
    sentence = re.split(r"(?<=\.)\s", text, maxsplit=1)[0].strip()
    if not re.match(r"[A-Za-z]", sentence) or len(sentence) > 100 or re.search(r"://|eslint|@|TODO|:$", sentence) \
            or re.match(r"(Not|Note|NOTE|Internal|Private|Deprecated|See|Safety|Copied|A|An|The|This|Used)\b", sentence):
        return ""  # no sentence that says what it does
        return ""
    sentence = re.sub(rf"^(The\s+)?`?{re.escape(name)}`?\s+(function\s+|method\s+)?(?=\w+s\b)", "", sentence)
    verb, _, rest = sentence.partition(" ")
    said = f"{_base_form(verb.lower())} {rest}".strip().rstrip(".")
    return "" if re.search(rf"\b{re.escape(name)}\b", said, re.I) else said  # it would name the function


def _base_form(verb: str) -> str:
    """A doc comment's opening verb as it follows "should": returns -> return, matches -> match."""
    if verb in ("does", "is", "has"):
        return {"does": "do", "is": "be", "has": "have"}[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


# ------------------------------------------------------------------------------------------ instructions

# what each class of bug does, said without the change: (with the function named, without it)
_SYMPTOM = {
    "boundary": ("is off by one: it gets the case where `{a}` equals `{b}` wrong.",
                 "When `{a}` is exactly `{b}`, the wrong thing happens: the edge case is off by one."),
    "inverted": ("does the opposite of what it should when it compares `{a}` with `{b}`.",
                 "The comparison of `{a}` with `{b}` works the wrong way round: it acts exactly when it should not."),
    "logic": ("gets the combined condition on `{a}` and `{b}` wrong.",
              "The condition on `{a}` and `{b}` together is wrong: it lets through cases it should not, or stops "
              "ones it should let through."),
    "arithmetic": ("computes `{a}` the wrong way: it moves it in the wrong direction.",
                   "`{a}` comes out wrong: it is changed in the wrong direction."),
    "constant": ("uses a wrong number for `{a}`: the result is off by one.",
                 "The value used for `{a}` is off by one."),
    "boolean": ("gets the flag for `{a}` backwards.",
                "The flag for `{a}` is set the wrong way round."),
}
_NAMED = ("Fix `{f}`: it {s}", "{f} {s} Please fix it.", "There's a bug in `{f}`: it {s}", "In {f}, it {s} Fix that.")
_CURSOR = {
    "boundary": ("Something here is off by one, fix it.", "This fails on the edge case. Fix it."),
    "inverted": ("This check is backwards, fix it.", "This does the opposite of what it should."),
    "logic": ("The condition here is wrong, fix it.", "This lets the wrong cases through; fix it."),
    "arithmetic": ("The arithmetic here is wrong, fix it.", "This computes the wrong value. Fix it."),
    "constant": ("Something here is off by one, fix it.", "This uses the wrong value somewhere; fix it."),
    "boolean": ("A flag here is the wrong way round, fix it.", "This behaves backwards. Fix it."),
}
_GENERIC_CURSOR = ("Fix the bug here.", "This function is broken, please fix it.")


def instructions(f: Function, kind: str, a: str, b: str, rng: random.Random) -> dict[str, str]:
    named, unnamed = _SYMPTOM[kind]
    a, b = a or "it", b or "its limit"
    said = named.format(a=a, b=b)
    symptom = unnamed.format(a=a, b=b)
    if f.doc:
        symptom = f"The code that should {f.doc} is wrong. {symptom}"
    return {"named": rng.choice(_NAMED).format(f=f.name, s=said),
            "cursor": rng.choice(_CURSOR[kind] + _GENERIC_CURSOR),
            "symptom": f"{symptom} Fix it."}


# ------------------------------------------------------------------------------------------------- build

def sources(root: Path, language: str) -> list[tuple[Package, str]]:
    """(package, path under the package) of every file of `language` of MIN_LINES..MAX_LINES lines."""
    out = []
    for p in PACKAGES:
        if p.language != language:
            continue
        base = root / p.client / p.root
        for path in sorted(base.glob(p.pattern)):
            if path.suffix != _SUFFIXES[language] or re.search(r"(_test\.go|\.spec\.ts|\.test\.ts|^tests\.rs)$",
                                                                path.name):
                continue
            n = len(split_lines(path.read_text(encoding="utf-8", errors="replace")))
            if MIN_LINES <= n <= MAX_LINES:
                out.append((p, str(path.relative_to(base))))
    return out


def build(root: Path, language: str, seed: int = 0) -> list[dict]:
    """One record per source file: the file, its package, and its bugs with their instructions."""
    from copy_as_decode.core.syntax_check import errors
    rng = random.Random(f"{seed}-{language}")
    candidates = sources(root, language)
    rng.shuffle(candidates)
    records = []
    for p, rel in candidates:
        if len(records) == FILES:
            break
        text = (root / p.client / p.root / rel).read_text(encoding="utf-8")
        # a function the grammar misreads (macros) cannot say whether a bug keeps it parsing
        unread = {e.line for e in errors(text, language)}
        bugs = []
        pool = [f for f in functions(text, language) if FUNCTION_LINES[0] <= f.end - f.header <= FUNCTION_LINES[1]
                and not f.name.split(_SEP.get(language, "."))[-1].startswith("test")
                and not any(f.start <= k <= f.end for k in unread)]
        for f in rng.sample(pool, len(pool)):
            if len(bugs) == BUGS_PER_FILE:
                break
            made = tree_bug(text, language, (f.body + 1, f.end - 1), rng)
            if made is None:
                continue
            buggy, bug = made
            said = instructions(f, bug.kind, bug.subject, bug.other, rng)
            if re.search(rf"\b{re.escape(re.split(r'[.:]', f.name)[-1])}\b", said["symptom"]):
                continue  # the symptom would name the function (a call of itself, a flag of its name)
            bugs.append({"function": f.name, "target": [f.start, f.end], "line": bug.line,
                         "buggy": split_lines(buggy)[bug.line - 1], "bug": bug.kind,
                         "at": rng.randint(f.header, f.end), "instructions": said})
        if bugs:
            records.append({"language": language, "package": p.name, "version": p.version, "license": p.license,
                            "source": f"{p.name}/{rel}", "lines": len(split_lines(text)), "text": text,
                            "bugs": sorted(bugs, key=lambda b: b["line"])})
    development = len(records) // 3  # whole files: no held-out case shares a file with a development one
    for k, r in enumerate(records):
        r["split"] = "development" if k < development else "heldout"
    return records


def load(name: str) -> list[Case]:
    """A shipped corpus's cases: each bug's file with the buggy line, the real file as gold, once per kind."""
    out = []
    for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        lines = split_lines(r["text"])
        for bug in r["bugs"]:
            before = "".join(lines[:bug["line"] - 1] + [bug["buggy"]] + lines[bug["line"]:])
            base = f"{r['source']}:{bug['function']}"
            for kind in KINDS:
                extra = {"language": r["language"], "kind": kind, "base": base, "target": bug["target"],
                         "bug": bug["bug"], "split": r["split"], "source": r["source"], "package": r["package"],
                         "version": r["version"], "license": r["license"], "lines": r["lines"], "bucket": None}
                if kind == "cursor":
                    extra["at"] = bug["at"]
                out.append(Case(f"{base}/{kind}", name, bug["instructions"][kind], before, r["text"], extra))
    return out


def write(corpora: dict[str, list[dict]], out: Path = DATA) -> None:
    for name, records in corpora.items():
        with open(out / f"{name}.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    rows = [f"| {name} | {r['split']} | `{r['source']}` | {r['package']} | {r['version']} | {r['license']} | "
            f"{r['lines']} | {len(r['bugs'])} |" for name, records in corpora.items() for r in records]
    note = NOTE.read_text(encoding="utf-8").split(_GENERATED)[0] if NOTE.exists() else _HEAD
    NOTE.write_text(note + _GENERATED + "\n\n| corpus | split | file | package | version | license | lines | bugs |\n"
                    "|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n", encoding="utf-8")


_GENERATED = "## Files (generated)"
_HEAD = "# The locate corpora of other languages\n\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sources", type=Path, required=True, help="where the packages are (or go, with --fetch)")
    ap.add_argument("--fetch", action="store_true", help="download and unpack the pinned packages first")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--corpora", nargs="+", default=list(CORPORA), choices=list(CORPORA))
    args = ap.parse_args(argv)
    if args.fetch:
        fetch(args.sources)
    corpora = {name: build(args.sources, CORPORA[name], args.seed) for name in args.corpora}
    for name, records in corpora.items():
        print(f"{name}: {len(records)} files, {sum(len(r['bugs']) for r in records)} bugs")
    write(corpora)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
