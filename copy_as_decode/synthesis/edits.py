"""Instructed edits of a function or of a run of paragraphs, each with its instruction as a user would
write it: delete, insert, replace (rename a name, a word) and move lines, functions or paragraphs, or fix
typos (the document is then the damaged text)."""
import ast
import random
import re
import tokenize

from copy_as_decode.core.document import split_lines

from .sources import Snippet
from .syntax import PyFunc, valid_python

# ------------------------------------------------------------------------------------------ code edits

def _tick(s: str) -> str:
    return f"`{s.strip()}`"


def python_edit(snippet: Snippet, rng: random.Random, kinds=None) -> tuple[str, str, str] | None:
    """(kind, instruction, after) for a multi-line edit of a Python function, or None."""
    f = PyFunc(snippet.text)
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
    """As python_edit, for a JavaScript function."""
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


def typo(word: str, rng: random.Random) -> str:
    """`word` misspelt past its first letter: two letters swapped, one dropped or one doubled."""
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
            out[i] = out[i][:m.start()] + typo(m.group(), rng) + out[i][m.end():]
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
