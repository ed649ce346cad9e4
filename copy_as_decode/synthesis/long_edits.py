"""Localized edits of a whole file (sources.long_files): one or several bugs injected into its functions and
spliced back, a code edit of one function, a top-level function renamed at its definition and every use,
or, in a Markdown document, a prose edit. The program of such an edit copies long ranges around a few short
gens (`localized`)."""
import difflib
import random
import re

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Gen

from .bugs import BUG_TYPES, bug_hint, fix_instruction, js_bug, python_bug
from .edits import js_edit, prose_edit, python_edit
from .sources import LongFile, Snippet
from .syntax import valid_python, word

# Share of edits per code file, among those it offers (LongFile.offers).
LONG_EDITS = {"bug": 0.4, "bugs": 0.2, "edit": 0.25, "rename-function": 0.15}
MULTI_HUNK = ("bugs", "rename-function")  # kinds that must change two places or more
LONG_MAX_GEN_LINES = 12  # a long edit stays localized: at most this many generated lines

# suffixes only: a leading "__" would be name-mangled inside a class body
_RENAMES = {"python": ("{}_impl", "{}_v2", "{}_base"), "javascript": ("{}Impl", "{}V2", "{}Base")}
_PRIVATE = r"#[A-Za-z_$][\w$]*"
_RENAME_ASKS = ("Rename the function `{old}` to `{new}` and update its uses.",
                "Rename `{old}` to `{new}` everywhere in this file.",
                "Rename the function `{old}` to `{new}` throughout the file.")


def long_edit(f: LongFile, rng: random.Random) -> tuple[str, str, str, str] | None:
    """(kind, instruction, before, after): a localized edit of the whole file; for bug fixes the document is
    the buggy file and the target the real one."""
    if f.language == "markdown":
        return prose_edit(Snippet(f.origin, "", f.text, "markdown"), rng)
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


def splice(text: str, start: int, old: str, new: str) -> str:
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
    bugs.sort(key=lambda b: b[0].start)
    before = f.text
    for s, buggy in reversed(bugs):  # from the bottom up, so the lines above keep their numbers
        before = splice(before, s.start, s.text, buggy)
    instr = fix_instruction([s.name for s, _ in bugs], [bug_hint(buggy, s.text) for s, buggy in bugs], rng)
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
    return kind, instr, f.text, splice(f.text, s.start, s.text, new)


def _long_rename(f: LongFile, rng: random.Random) -> tuple[str, str, str, str] | None:
    """A top-level function renamed at its definition and at every use: one hunk per place."""
    if not f.renamable:
        return None
    old = rng.choice(f.renamable)
    new = rng.choice(_RENAMES[f.language]).format(old)
    if word(new).search(f.text):
        return None
    return ("rename-function", rng.choice(_RENAME_ASKS).format(old=old, new=new), f.text,
            word(old).sub(new, f.text))


def localized(kind: str, items) -> bool:
    """A long edit generates at most LONG_MAX_GEN_LINES lines, and changes two places or more when its kind
    says so."""
    gens = [split_lines(i.text) for i in items if isinstance(i, Gen)]
    return sum(map(len, gens)) <= LONG_MAX_GEN_LINES and (kind not in MULTI_HUNK or len(gens) >= 2)
