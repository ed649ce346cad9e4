"""A chat's answer as pasted: its prose set aside, its fenced code blocks read, and the blocks that change the
file told apart from those that do not.

Every door that applies an answer reads it here (engine/apply.py: the CLI's file or stdin, the worker's and the
language server's apply, the editors' apply-from-clipboard). An answer is Markdown (markdown-it-py finds the
fences: ```lang path, ```lang, ~~~, fences indented in a list) or a bare code block without fences (one block,
as it is). Each block is one of:
  change   a block for this file: all of them are merged as one change, in the answer's order;
  other    a block for another file (its fence's path, a `path:` or file name line right above it, or a first
           line that is a comment naming a file) or in another language: listed, not merged;
  usage    a block that defines nothing the change needs and only uses it: a shell command, console output, a
           REPL session, a usage example (calls, no definition, none of its lines in the file), a test of it:
           listed, not merged.
The prose right above a block may say where a new definition goes ("right after `like()`", "before `parse`"):
read as `hints`, (relation, name) pairs, for core/block_merge.py.
"""
import ast
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .document import split_lines
from .languages import LANGUAGES, kin, of_suffix
from .languages import named as named_language
from .outline import outline

CHANGE, OTHER, USAGE = "change", "other", "usage"

# fence tags that name a language (besides the languages' own names and suffixes: core/languages.py)
_TAGS = {"py": "python", "python3": "python", "py3": "python", "js": "javascript", "node": "javascript",
         "jsx": "javascript", "mjs": "javascript", "cjs": "javascript", "md": "markdown",
         "ts": "typescript", "tsx": "typescript", "golang": "go", "rs": "rust", "c++": "cpp", "cc": "cpp",
         "hpp": "cpp", "h": "c", "kt": "kotlin", "rb": "ruby", "cs": "csharp", "shell": "bash", "zsh": "bash"}
# tags of what is run or shown, never merged
_SHELL = {"sh", "bash", "shell", "console", "zsh", "fish", "powershell", "ps1", "bat", "cmd", "text", "txt",
          "output", "log", "pycon", "pytb", "terminal", "plaintext", "diff", "patch"}
# a file name: a known suffix (a dotted name such as `Version.minor` is not one)
_PATH = (r"[\w.\-/\\@]*\.(?:py|pyi|js|cjs|mjs|jsx|ts|tsx|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|md|json|"
         r"ya?ml|toml|ini|cfg|sh|txt|html|css|scss|sql|lua|vue|svelte)")
_PATH_LINE = re.compile(rf"^[^\w@.]*(?:(?:path|file(?:name)?)\s*[:=]\s*)?[`*_]*(?P<path>{_PATH})[`*_]*\s*:?\s*$", re.I)
_PATH_IN = re.compile(rf"`(?P<path>{_PATH})`")
_COMMENT_PATH = re.compile(rf"^\s*(?:#|//|/\*|<!--|--)\s*(?:(?:file|path)\s*:\s*)?(?P<path>{_PATH})\s*(?:\*/|-->)?\s*$", re.I)
# "after `f`", "right after the state constants (`A` ... `F`)": the place, and the names that give it (the last
# of a range for "after", the first for "before")
_HINT = re.compile(r"\b(right after|just after|directly after|immediately after|after|below|following|next to|"
                   r"beside|alongside|"
                   r"right before|just before|directly before|immediately before|before|above)\b"
                   r"(?:\s+(?:the|your|its|existing|current))*\s+(?:(?:method|function|class|definition)\s+|"
                   r"[a-z][\w -]{0,30}\(|)"
                   r"`(?:(?:impl|extension)(?:<[^>`]*>)?\s+(?P<header>[\w:.<>'&]+(?: [\w:.<>'&]+){1,4})|"
                   r"(?:(?:class|def|fn|func|function|struct|enum|interface|module|impl) )?(?P<name>[#\w.$]+?[!?]?))"
                   r"(?:\(\))?`"
                   r"(?P<more>(?:\s*(?:…|\.\.\.|,|and|or|to|through|-|–|/)\s*`[#\w.$]+?[!?]?(?:\(\))?`)*)", re.I)
_END = re.compile(r"\b(?:at|to) the (?:very )?(?:bottom|end)\b", re.I)  # "at the bottom of the file"
# "replace the `sleep(delay)` call": a line of the file the block takes the place of
_REPLACES = re.compile(r"\breplac(?:e|es|ing)\s+(?:the\s+)?(?:existing\s+|current\s+|old\s+)?`(?P<code>[^`]+)`")
_NAMED = re.compile(r"`(?P<name>#?[A-Za-z_$][\w$]*[!?]?)(?:\(\))?`")
_PROMPT = re.compile(r"^\s*(?:\$ |>>> |> |PS> |% )")
# a file's package (Go `package toml`, Java `package java.util;`): a block that declares another is another file
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;?\s*$", re.M)


@dataclass
class Block:
    text: str                   # the code, without its fences, "\n" line endings
    tag: str = ""               # the fence's language tag ("" for none)
    path: str | None = None     # the file it names, if any
    kind: str = CHANGE
    why: str = ""               # why it is not merged
    # where the prose puts a new definition: ("after" | "before", a name or Class.name), the names it
    # mentions, ("named", name), which tell a class apart, and the code it says the block replaces
    # ("replaces", a line of the file)
    hints: list[tuple[str, str]] = field(default_factory=list)
    line: int = 1               # where it starts in the answer (1-based)
    lead: str = ""              # the prose line right above it

    def describe(self) -> str:
        head = self.text.strip().splitlines()[0][:60] if self.text.strip() else ""
        return f"line {self.line}: {self.why} (`{head}`)"


@dataclass
class Answer:
    blocks: list[Block]
    fenced: bool                # whether the answer was Markdown with fences (else one bare block)

    @property
    def changes(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == CHANGE]

    @property
    def left_out(self) -> list[Block]:
        return [b for b in self.blocks if b.kind != CHANGE]


def language_of_tag(tag: str) -> str | None:
    tag = tag.lower()
    for lang in LANGUAGES:
        if tag == lang.name or "." + tag in lang.suffixes:
            return lang.name
    return _TAGS.get(tag, tag or None)


def language_of_path(path: str) -> str | None:
    language = of_suffix(PurePosixPath(path.replace("\\", "/")).suffix)
    return language.name if language else None


def language_of_answer(answer: str) -> str | None:
    """The outlined language the answer's first fence names by its tag or its path (a shell fence names none:
    it is run, not merged), or None."""
    for b in _fences(answer):
        for lang in (language_of_path(b.path) if b.path else None,
                     language_of_tag(b.tag) if b.tag and b.tag.lower() not in _SHELL else None):
            if named_language(lang) is not None:
                return lang
    return None


def same_file(named: str, path: str | None) -> bool:
    """Whether a path an answer names is the file `path` (one ends with the other, component by component)."""
    if path is None:
        return True
    a = PurePosixPath(named.replace("\\", "/").lstrip("./")).parts
    b = PurePosixPath(path.replace("\\", "/")).parts
    n = min(len(a), len(b))
    return n > 0 and a[-n:] == b[-n:]


def read(answer: str, document: str = "", language: str | None = None, path: str | None = None) -> Answer:
    """The answer's blocks, each told change / other / usage for `document` (in `language`, at `path`; either
    may be None: unknown); both texts with "\n" line endings (engine/request.py reads them)."""
    fences = [] if _is_code(answer, language) else _fences(answer)
    if not fences:
        return Answer([Block(answer)], fenced=False)
    own = Counter(line.strip() for line in split_lines(document) if line.strip())  # a line: how often the file has it
    top = {line.rstrip() for line in split_lines(document) if line.strip() and not line[0].isspace()}
    symbols = outline(document, language)[1] if language else []
    defined = {s.name for s in symbols}
    exported = {s.name for s in symbols if s.parent is None}
    blocks = _needed([_judged(b, own, top, language, path, defined, exported) for b in fences], language, document)
    for b in blocks:
        others = [c for c in blocks if c.kind == CHANGE and c is not b]
        if b.kind == CHANGE and _quoted(b, others, own, document):
            b.kind, b.why = USAGE, "a quote of the file's code as it is"
        elif b.kind == CHANGE and (why := _illustration(b, others, document, language, defined)):
            b.kind, b.why = USAGE, why
    return Answer(blocks, fenced=True)


# a note a quote puts after a line of the file, to point at it in the prose (`throw x   // (1)`, `# <- here`)
_ANNOTATION = re.compile(r"\s+(?://|#|--)\s*(?:\(\d+\)|\[\d+\]|<-+.*|←.*)$")


def _quoted(b: Block, others: list[Block], own: set[str], document: str) -> bool:
    """Whether a block quotes the file's lines that another block of the answer rewrites ("this line panics:"
    above the fixed function; "Currently it is:" above the old function, the new one below): every line of it
    is the file's, and another block holds a line like each of them but none of them as it is; or it is a run
    of the file's lines as they stand, and another block rewrites it (holds its first line, half of its lines
    or a line like one of them, and not all of them in a row as they are)."""
    from difflib import SequenceMatcher
    lines = [_ANNOTATION.sub("", x).strip() for x in split_lines(b.text) if x.strip()]
    theirs = {x.strip() for c in others for x in split_lines(c.text) if x.strip()}
    if not lines or not others:
        return False
    if all(x in own and x not in theirs and any(
            SequenceMatcher(None, x, y, autojunk=False).ratio() >= QUOTE_LIKE for y in theirs) for x in lines):
        return True
    whole = [y.strip() for y in split_lines(document)]
    if all(len(x) > 10 and len(held := [y for y in whole if x in y and x != y]) == 1 and any(
            y != held[0] and SequenceMatcher(None, held[0], y, autojunk=False).ratio() >= QUOTE_LIKE for y in theirs)
           for x in lines):
        return True  # part of a line of the file ("It decides with: `(_VERSION ~= ...)`"), which another block rewrites
    code = _code_lines(b, document)
    if _NOW.search(b.lead) and code and all(x in own for x in code) and not all(x in theirs for x in code):
        return True  # "Right now the arm checks:" over the file's lines, elided between
    solid = [x.strip() for x in split_lines(document) if x.strip()]
    n = len(lines)
    verbatim = len(lines) > 1 and any(solid[k:k + n] == lines for k in range(len(solid) - n + 1) if solid[k] == lines[0])
    shared = sum(x in theirs for x in lines)
    kept = any(" ".join(lines) in " ".join(x.strip() for x in split_lines(c.text) if x.strip()) for c in others)
    return verbatim and not kept and (lines[0] in theirs or 2 * shared >= len(lines) or any(
        x not in theirs and any(SequenceMatcher(None, x, y, autojunk=False).ratio() >= QUOTE_LIKE for y in theirs
                                if y not in own) for x in lines))


# prose that runs on into the block ("for enums like", "so for", "e.g."): a case the answer talks about
_RUNS_ON = re.compile(r"\b(?:like|such as|for|e\.g\.|i\.e\.|for example|for instance|say|given)\s*,?$", re.I)
# prose that calls the block an example ("Example:", "## Usage", "To try it:")
_EXAMPLE_LEAD = re.compile(r"^(?:#+\s*|\W*)(?:\d+\.\s*)?(?:an? )?(?:example|usage|for example|for instance|e\.g\."
                           r"|quick (?:check|test)|sanity check|try it|to (?:try|test|use|verify|check)(?: it)?)\b", re.I)


def _illustration(b: Block, others: list[Block], document: str, language: str | None,
                  defined: set[str]) -> str | None:
    """Why a block is a case the prose speaks of ("for enums like" a new enum) rather than code for the file:
    the sentence above it runs on into it, and it only defines names the file lacks, which neither the file nor
    the answer's other blocks use; or None."""
    example = bool(_EXAMPLE_LEAD.search(b.lead))
    if not language or not example and not _RUNS_ON.search(b.lead):
        return None
    names = {s.name for s in outline(b.text, language)[1] if s.parent is None}
    used = "\n".join([document] + [c.text for c in others])
    if not names and not example or names & defined or any(
            re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", used) for n in names):
        return None
    if not names:
        return "an example, as the prose says: it defines nothing"
    return f"a case the prose speaks of: it defines only {', '.join(f'`{n}`' for n in sorted(names))}, which " \
           "nothing in the file or the change uses"


# prose that says the block shows the code as it stands
_NOW = re.compile(r"\b(?:right now|currently|at the moment|today|the current code|the existing code|as it stands)\b",
                  re.I)


def _code_lines(b: Block, document: str) -> list[str]:
    """A block's lines but blank ones and lazy markers, stripped."""
    from .lazy_block import read
    r = read(b.text, document)
    return [x.strip() for k, x in enumerate(split_lines(r.text)) if x.strip() and k not in r.markers]


QUOTE_LIKE = 0.6  # the least difflib ratio of a quoted line to its rewrite
COMMON = 2  # a line the file has more often than this is anyone's (`if err != nil {`), not a sign of the file's code


def _needed(blocks: list[Block], language: str | None, document: str) -> list[Block]:
    """The blocks, those read as usage examples that define a name a change uses, which neither the change nor
    the file defines (an import block with `LOG = logging.getLogger(...)` beside the method that logs with LOG),
    made changes: the change needs them."""
    changes = "\n".join(b.text for b in blocks if b.kind == CHANGE)
    free = set(_FREE.findall(changes)) - set(_ASSIGNED.findall(changes)) - set(_FREE.findall(document))
    for b in blocks:
        if b.kind == USAGE and b.why == _EXAMPLE and _definitions(b.text, language) & free:
            b.kind, b.why = CHANGE, ""
    return blocks


# the names an import lists: `import {A, B} from 'm'`, `use m::{A, B};`, `from m import A, B`
_CRATE_USE = re.compile(r"^\s*use\s+([A-Za-z_]\w*)::(.+);")  # Rust's `use ansi_term::Colour::Red;`
_RUST_OWN = {"crate", "self", "super", "std", "core", "alloc"}  # paths a crate's own file uses
_NAMES_IMPORTED = re.compile(r"\{(?P<names>[^}]*)\}|^\s*from\s+\S+\s+import\s+(?P<from>.+)$")
_SETS = re.compile(r"^(?:(?:local|const|let|var|val|export|readonly|declare)\s+)?([A-Za-z_$][\w$.]*)\s*=(?!=)")
_FREE = re.compile(r"(?<![\w$.>:])[A-Za-z_$][\w$]*")  # a name used as it is, not as a member (`x.name`)
_ASSIGNED = re.compile(r"([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)")
_GROUP = re.compile(r"^(?:const|var)\s*\($")  # a group of declarations (Go): its lines are the top level's
_EXAMPLE = "a usage example: it defines nothing the file has or needs"
# a macro at C's top level that defines its first argument: `PyDoc_STRVAR(name, "...")`
_MACRO_DEFINES = re.compile(r"^[A-Z]\w*\(\s*([A-Za-z_]\w*)\s*,")
_IMPORTS_FILE = "a usage example: it imports the file itself"


def _module(path: str) -> str:
    """The name code that uses a file imports it by: its stem, or its folder's for a package's own file
    (`pybreaker/__init__.py`, `lib/index.js`, `src/mod.rs`)."""
    p = PurePosixPath(path)
    return p.parent.name if p.stem in ("__init__", "index", "mod") and p.parent.name else p.stem


def _definitions(text: str, language: str | None) -> set[str]:
    """The names a block defines at its top level: its outline's, and the names it assigns there."""
    names = {s.name for s in outline(text, language)[1] if s.parent is None} if language else set()
    lines = [x for x in split_lines(text) if x.strip()]
    least = min((len(x) - len(x.lstrip()) for x in lines), default=0)
    top, group = [], False  # the top level's lines, and those of a group of constants there (Go's `const (`)
    for x in lines:
        depth = len(x) - len(x.lstrip())
        if depth == least:
            group = bool(_GROUP.match(x.strip()))
        if depth == least or group:
            top.append(x)
    macros = {m.group(1) for x in top if (m := _MACRO_DEFINES.match(x.strip()))} if language in ("c", "cpp") else set()
    return names | macros | {m.group(1) for x in top
                             if (m := _ASSIGNED.match(re.sub(r"^(?:export\s+)?(?:const|let|var|val)\s+", "", x.strip())))}


def _example(text: str, language: str | None, defined: set[str]) -> str | None:
    """Why a block is an example of use rather than part of the file, by what it defines (its outline), or
    None: a program's `main` the file has none of, a test, or (Java) another public top-level class, which
    Java keeps in a file of its own."""
    if not language or language == "markdown":
        return None
    symbols = outline(text, language)[1]
    tops = [s for s in symbols if s.parent is None]
    lines = split_lines(text)
    if any(s.name in ("main", "Main") and s.name not in defined for s in symbols if s.kind != "class") \
            and not any(s.name in defined for s in tops):
        return "a program's `main`, not part of this file"
    if tops and all(s.name.lower().startswith("test") or s.name.endswith(("Test", "Tests")) for s in tops) \
            and not any(n.lower().startswith("test") for n in defined):
        return "a test of the change"
    if language == "java" and any(s.kind == "class" and s.name not in defined and
                                  re.match(r"\s*public\b", lines[s.header - 1]) for s in tops):
        return "another public class: Java keeps each in a file of its own"
    return None


def _is_code(text: str, language: str | None) -> bool:
    """A bare block that is code as it is (a Python file with ``` in a docstring, a Markdown section with
    code examples): no fence of the file's own language opens it."""
    solid = [line for line in text.splitlines() if line.strip()]
    if not solid:
        return True
    if language == "markdown":  # a section may hold fences itself: an answer fences it as markdown
        return not re.match(r"^\s*(```+|~~~+)\s*(markdown|md)\b", solid[0], re.I)
    if language == "python" and not re.match(r"^\s*(```|~~~)", solid[0]):
        try:
            ast.parse(text)
            return True
        except (SyntaxError, ValueError):
            return False
    return False


def _fences(text: str) -> list[Block]:
    from markdown_it import MarkdownIt
    lines = text.splitlines()
    out: list[Block] = []
    for tok in MarkdownIt("commonmark").parse(text):
        if tok.type != "fence" or tok.map is None:
            continue
        words = tok.info.split()
        tag = words[0].strip("{}.") if words else ""
        named = next((w.removeprefix("title=").strip("\"'") for w in words[1:] if re.fullmatch(_PATH, w.removeprefix(
            "title=").strip("\"'"))), None)
        if named is None and re.fullmatch(_PATH, tag) and language_of_tag(tag) == tag.lower():
            named, tag = tag, PurePosixPath(tag).suffix.lstrip(".")  # ```pkg/config.py
        above = _prose_above(lines, tok.map[0])
        if named is None and above and (m := _PATH_LINE.match(above[-1])):
            named = m.group("path")
        elif named is None and above and (above[-1].rstrip().endswith(":") or above[-1].startswith("#")) \
                and (m := _PATH_IN.search(above[-1])):  # "In `lib/a.js`:", "## 2. `lib/a.js`: allow it"
            named = m.group("path")
        elif named is None and (m := next((m for x in reversed(above) if x.startswith("#")
                                           and (m := _PATH_LINE.match(x))), None)):
            named = m.group("path")  # a heading that is a path ("### `psutil/_psutil_common.h`"), prose under it
        code = split_lines(tok.content)
        if named and any(_IMPORT.match(x) and PurePosixPath(named).name in x for x in code):
            named = None  # "Include `utf8.h`:" above the `#include` the block adds: a file it imports, not its own
        if code and (m := _COMMENT_PATH.match(code[0])) and language_of_path(m.group("path")):
            named = named or m.group("path")
            code = code[1:]
        prose = " ".join(above)
        # the place the paragraph nearest the block gives ("above `f()` (right after `g()` is fine)"), not an
        # earlier one's talk of the code; a block right under another one (no prose of its own) goes where the
        # prose above that one said ("a constant at the top of the class, plus a helper below `g`")
        hints = next((h for line in reversed(above) if (h := _places(line))), [])
        if not above and out:
            hints = [(rel, name) for rel, name in out[-1].hints if rel in ("after", "before", "end")]
        hints += [("named", m.group("name")) for m in _NAMED.finditer(prose)]
        hints += [("replaces", m.group("code")) for m in _REPLACES.finditer(prose)]
        out.append(Block("".join(code), tag, named, hints=hints, line=tok.map[0] + 1, lead=above[-1] if above else ""))
    return out


def said(prose: str) -> list[tuple[str, str]]:
    """What prose that comes with a bare block says of its place (Morph's `<instruction>`: "I will add a helper
    below `getSubnet`"): the places its lines give, and the names it gives (the hints of `Block`)."""
    return [p for line in prose.splitlines() for p in _places(line)] + [
        ("named", m.group("name")) for m in _NAMED.finditer(prose)] + [
        ("replaces", m.group("code")) for m in _REPLACES.finditer(prose)]


def _places(prose: str) -> list[tuple[str, str]]:
    """The places a line of prose gives: ("after" | "before", a name), the last of a range for "after"; ("end",
    "") for "at the bottom of the file"."""
    return [("before", h.group("name") or h.group("header")) if h.group(1).lower().split()[-1] in ("before", "above")
            else ("after", ([h.group("name") or h.group("header")]
                            + re.findall(r"`([#\w.$]+?[!?]?)(?:\(\))?`", h.group("more")))[-1])
            for h in _HINT.finditer(prose)] + [("end", "")] * bool(_END.search(prose))


def _prose_above(lines: list[str], k: int) -> list[str]:
    """The prose above line k since the fence before it, blank lines left out (its last line is the one
    right above the block)."""
    out = []
    j = k - 1
    while j >= 0 and not re.match(r"^\s*(```|~~~)", lines[j]):
        if lines[j].strip():
            out.insert(0, lines[j].strip())
        j -= 1
    return out


def _judged(b: Block, own: set[str], top: set[str], language: str | None, path: str | None,
            defined: set[str], exported: set[str]) -> Block:
    tagged = language_of_tag(b.tag) if b.tag else None
    if b.path is not None and not same_file(b.path, path):
        b.kind, b.why = OTHER, f"for {b.path}"
    elif b.tag.lower() in _SHELL and not (language == "bash" and language_of_tag(b.tag) == "bash") \
            or any(_PROMPT.match(x) for x in b.text.splitlines()[:1]):  # a shell script's own code is no command
        b.kind, b.why = USAGE, "a command or its output"
    elif _ELSEWHERE.search(b.lead):  # "In `Manager.add` (a separate file, shown only for context) ...:"
        b.kind, b.why = OTHER, "for another file, as the prose above it says"
    elif (mine := _PACKAGE.search(b.text)) and (theirs := next(
            (m for x in own if (m := _PACKAGE.match(x))), None)) and mine.group(1) != theirs.group(1):
        b.kind, b.why = OTHER, f"in package {mine.group(1)}, not {theirs.group(1)}"
    elif tagged and language and tagged != language and tagged not in kin(language) and not (b.path and path):
        b.kind, b.why = OTHER, f"in {tagged}, not {language}"
    elif b.path is not None and path is None and language and language_of_path(b.path) not in (None, language):
        b.kind, b.why = OTHER, f"for {b.path}"
    elif not b.tag and language and _output(b.text, own, language):
        b.kind, b.why = USAGE, "output, not code"
    elif why := _example(b.text, language, defined):  # what it is (a `main`, a test) before how it uses the file
        b.kind, b.why = USAGE, why
    elif language and language != "markdown" and (why := _uses_only(b.text, own, top, language,
                                                                     path and _module(path), exported)):
        b.kind, b.why = USAGE, why
    return b


# the prose line right above a block that says the block is for a file other than this one
_ELSEWHERE = re.compile(r"\b(?:a separate|another|a different) file\b|\bonly for context\b", re.I)


def _output(text: str, own: set[str], language: str) -> bool:
    """An untagged block that is not code of the file's language and holds none of its lines (but brackets): what
    a run prints."""
    from .syntax_check import errors
    lines = [x.strip() for x in split_lines(text) if x.strip()]
    return bool(lines) and not any(x in own for x in lines if re.search(r"\w", x)) and bool(errors(text, language))


_DEFINES = {"python": re.compile(r"^\s*(?:async\s+def|def|class)\s+(\w+)|^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)"),
            "javascript": re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:function\*?\s+([\w$]+)|class\s+([\w$]+)|"
                                     r"(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s*)?(?:function|\())|"
                                     r"^\s*(?:static\s+|async\s+|get\s+|set\s+)*([\w$]+)\s*\([^)]*\)\s*\{\s*$")}
# a block that opens with an entry whose value is a call (`getUsers: builder.query<...>({`), or with an element
# (`<Stack.Screen`), of something: when the file does not know that name, the block is code that uses the file
_FOREIGN = re.compile(r"^(?:[\w$]+\s*:\s*|<)(?P<of>[A-Za-z_$][\w$]*)[\w$.]*\s*(?:<[^>]*>)?\s*[(\s/>]")
_ELEMENT = re.compile(r"^<[A-Z][\w.]*[\s>/]")  # a JSX element: `<Stack.Screen`
_IMPORT = re.compile(r"^\s*(?:import\b|from\s+\S+\s+import\b|(?:const|let|var|local)\s+.*\brequire\b|require(?:_relative)?\b|"
                     r"#include\b|use\s|using\s)")


def _uses_only(text: str, own: Counter, top: set[str], language: str | None, stem: str | None,
               exported: set[str] = frozenset()) -> str | None:
    """Why a block is a usage example (calls and prints, maybe importing what the change defines, or the file
    itself) or a test of the change, defining nothing new or changed for the file and holding none of its
    lines; None when it is code of the file. (Python and
    JavaScript blocks are read for definitions line by line, so a method pasted alone counts; in the other
    languages a block its grammar reads alone is read by its outline, and one it cannot is code of the file.)"""
    from .lazy_block import read
    from .syntax_check import errors
    lines = [line for line in split_lines(text) if line.strip()]
    if not lines or not own:
        return None
    block = read(text, "\n".join(own))
    if block.markers:
        return None
    if language in _DEFINES:
        defines = _DEFINES[language]
        least = min(len(x) - len(x.lstrip()) for x in lines)
        found = [m for line in lines if (m := defines.match(line))
                 and (m.lastindex != 2 or len(line) - len(line.lstrip()) == least)]
        # an assignment defines only a name the file assigns itself (else it is the example's own variable)
        names = [next(g for g in m.groups() if g) for m in found if not (m.lastindex == 2 and language == "python")
                 or any(x.startswith((m.group(2) + " =", m.group(2) + ":")) for x in top)]
    elif (m := _FOREIGN.match(lines[0])) and not re.search(rf"(?<![\w$]){re.escape(m.group('of'))}(?![\w$])",
                                                          "\n".join(own)):
        return f"a usage example: it uses `{m.group('of')}`, which the file does not know"
    elif errors(text, language) and errors(named_language(language).statements.replace("{}", text), language) \
            or min(len(x) - len(x.lstrip()) for x in lines) > 0:
        return None  # a fragment its grammar reads neither alone nor as statements (a method without its class),
        # or shown indented as it stands in the file (statements of a method's body), is code of the file
    else:
        names = [s.name for s in outline(text, language)[1]]
    tests = [n for n in names if n.lower().startswith("test")]
    if names and len(tests) == len(names) and not any("def test" in x or "class Test" in x for x in own):
        return "a test of the change"  # written for a test file the answer does not name
    code = [line.strip() for line in lines if not line.lstrip().startswith(("#", "//"))]
    itself = re.compile(rf"[./'\"\s]{re.escape(stem)}(?:\.\w+)?(?:['\"\s)]|$)|\.{re.escape(stem)}\s+import\b") \
        if stem else None
    if itself and any(_IMPORT.match(x) and itself.search(x) for x in code):
        return _IMPORTS_FILE  # code that uses the file, not code of it
    if stem and code and all(re.match(rf"(?:sudo\s+|\w+=\S*\s+)*(?:\S*/)?{re.escape(stem)}(?:\.\w+)?(?:\s|$)", x)
                             for x in code):
        return "a command that runs the file"
    if any(_IMPORT.match(x) and (m := _NAMES_IMPORTED.search(x)) and set(re.findall(r"[A-Za-z_$][\w$]*", m.group(
            "names") or m.group("from") or "")) & exported for x in code):
        return "a usage example: it imports what the file defines"
    if language == "rust" and any((m := _CRATE_USE.match(x)) and m.group(1) not in _RUST_OWN
                                  and not any(re.match(rf"(?:pub\s+)?(?:use|extern\s+crate)\s+{m.group(1)}\b", t)
                                              for t in own)
                                  and set(re.findall(r"\w+", m.group(2))) & exported for x in code):
        return "a usage example: it imports what the file defines by its crate's name, from outside the crate"
    if any(_IMPORT.match(x) for x in code) and all(_IMPORT.match(x) for x in code):
        return None  # imports alone: the change's new imports
    if names and not tests:
        return None
    if any((m := _SETS.match(x)) and any(t.startswith((m.group(1) + "=", m.group(1) + " =")) for t in top)
           for x in lines if not x[:1].isspace()):
        return None  # it assigns a name the file assigns at its top level: an edit of that line
    # the file's own lines it holds but those it has everywhere: `return err` may be an example's too (their
    # inner spacing aside: gofmt realigns a group of constants one of which is new)
    spaced = Counter(" ".join(x.split()) for x in own.elements())
    held = sum(1 for x in code if len(x) > 3 and 0 < spaced[" ".join(x.split())] <= COMMON and not _IMPORT.match(x))
    if held and min(len(x) - len(x.lstrip()) for x in lines) > 0:
        return None  # lines of a body, indented as they stand in the file, one of them the file's
    # a run of the file's lines with a change shows them around it; an example may share a `} catch (e) {`; an
    # example calls (or renders an element)
    return _EXAMPLE if held * 3 < len(code) and any("(" in x or _ELEMENT.match(x) for x in code) else None
