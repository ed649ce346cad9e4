"""The apply corpus: for each gold edit of the shipped corpora, the code block a chat model would write for it,
in the styles chats use, to be merged into the file (`copy-as-decode apply`, core/block_merge.py).

Sources: the long corpora long-python, long-js and long-text (Markdown; 80-3,000-line files) and the two
HumanEvalFix corpora (short files: the task's prompt with the buggy body, as a user has it open). For each
gold edit (before, after) the changed symbols are the innermost functions, methods, classes or Markdown
sections of `after` (core/outline.py) that hold a changed line (core/deletions.py `hunks`); an edit with a
changed line outside every symbol is left out. The block is written from `after`, in each style the edit
allows, its marker wording and context sizes drawn from a generator seeded by the source case's id:

  whole     the changed symbols whole, one after the other
  markers   the changed symbols with a lazy marker line before, between and after them, in the language's
            comment style (`# ... existing code ...`, `// ... rest unchanged ...`, `<!-- ... -->`, `...`)
  class     the enclosing class: its header, a marker, the changed method(s), a marker (methods only)
  column0   one changed method pasted dedented, at column 0 (methods only)
  lazy      one changed function or section whose unchanged lines before (and after) the change are elided
            with a marker, one or two context lines kept on each side
  fenced    `whole` inside a Markdown code fence (```python ... ```)
  added     a function the gold adds: the long corpora's humanevalfix cases insert a HumanEvalFix function
            into a module, so the module without it and the gold make an edit that adds a function; the block
            is the function with the definition before it (or after it) as its anchor, between markers.
            Functions whose inserted text starts with imports are left out: the gold keeps those imports
            where they were inserted, in the middle of the module, where no apply would put them.
No gold edit of these corpora changes an import line, so the corpus has no import case (tests/test_block_merge.py
covers imports).

Each case: {id, language (python | javascript | markdown), before, block, after (the gold), style, source
(the source case's corpus/id), lines (of before), development (bool)}.

The split: a case is a development case when its source case is, and held out otherwise. For the long
corpora the development source cases are those from every DEVELOPMENT_EVERY-th distinct source file of each
corpus in its order (the 1st, 4th, 7th, ... file by the case's `source` path); for HumanEvalFix, the development cases named in
cases/data/development_cases.json (the project's split for that corpus). Figures on the two are reported apart.
"""
import random
from collections.abc import Iterable

from copy_as_decode.core.deletions import hunks
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import Symbol, outline

SOURCES = ("long-python", "long-js", "long-text", "humanevalfix-python", "humanevalfix-js")
STYLES = ("whole", "markers", "class", "column0", "lazy", "fenced", "added")
DEVELOPMENT_EVERY = 3  # per long corpus: every third distinct source file (the 1st, 4th, 7th, ...) is a development file
_FENCE_TAG = {"python": "python", "javascript": "javascript", "markdown": "markdown"}
_MARKERS = {
    "python": ("# ... existing code ...", "# ... rest of the code unchanged ...", "# ...", "..."),
    "javascript": ("// ... existing code ...", "// ... rest unchanged ...", "/* ... */", "// ..."),
    "markdown": ("<!-- ... -->", "<!-- ... existing content ... -->", "...", "<!-- rest of the section unchanged -->"),
}


def build(sources: Iterable[str] = SOURCES) -> list[dict]:
    """Every case of the corpus, in source order (deterministic)."""
    from copy_as_decode.cases.corpora import load, user_file
    from copy_as_decode.cases.heldout import development_ids
    out = []
    for name in sources:
        cases = load(name)
        if name.startswith("humanevalfix"):
            dev = development_ids(name)
            for c in cases:
                before, after = user_file(c)
                language = "python" if name.endswith("python") else "javascript"
                out += blocks(f"{name}/{c.id}", language, before, after, c.id in dev)
            continue
        files: list[str] = []
        for c in cases:
            if c.extra["source"] not in files:
                files.append(c.extra["source"])
        dev_files = set(files[::DEVELOPMENT_EVERY])
        for c in cases:
            language, development = c.extra["language"], c.extra["source"] in dev_files
            out += blocks(f"{name}/{c.id}", language, c.before, c.after, development)
            if c.extra.get("kind") == "humanevalfix":
                out += added(f"{name}/{c.id}", language, c, development)
    return out


def changed_symbols(before: str, after: str, language: str) -> list[Symbol] | None:
    """The innermost symbols of `after` holding each changed line, in order, each once; None when a changed
    line lies outside every symbol (or `after` has no outline)."""
    _, symbols = outline(after, language)
    if not symbols:
        return None
    found: list[Symbol] = []
    for _, _, j1, j2 in hunks(before, after):
        lo, hi = (j1 + 1, j2) if j2 > j1 else (j1, j1 + 1)  # a deletion: the lines around it
        holding = [s for s in symbols if s.start <= lo and hi <= s.end]
        if not holding:
            return None
        inner = max(holding, key=lambda s: (s.start, -s.end))
        if inner not in found:
            found.append(inner)
    # a symbol inside another changed one is written with it
    return [s for s in found if not any(o is not s and o.start <= s.start and s.end <= o.end for o in found)]


def blocks(source: str, language: str, before: str, after: str, development: bool) -> list[dict]:
    """The cases of one gold edit, one per style it allows."""
    if before == after:
        return []
    symbols = changed_symbols(before, after, language)
    if not symbols:
        return []
    rng = random.Random(source)
    lines = split_lines(after)
    texts = [_text(lines, s) for s in symbols]
    gap = "\n" if language == "markdown" or any(s.parent for s in symbols) else "\n\n"
    marker = lambda indent: indent + rng.choice(_MARKERS[language]) + "\n"  # noqa: E731
    styles: dict[str, str] = {}
    styles["whole"] = gap.join(texts)
    parts = [marker(_lead(lines[symbols[0].header - 1]))]
    for s, t in zip(symbols, texts):
        parts += ["\n", t, "\n", marker(_lead(lines[s.header - 1]))]
    styles["markers"] = "".join(parts)
    methods = [s for s in symbols if s.parent is not None and s.parent.kind == "class"]
    if methods and len(methods) == len(symbols) and len({m.parent for m in methods}) == 1:
        cls = methods[0].parent
        head = _opening(lines, cls, language)
        body_lead = _lead(lines[methods[0].header - 1])
        parts = head + [marker(body_lead)]
        for s in methods:
            parts += ["\n", _text(lines, s), "\n", marker(body_lead)]
        if language == "javascript":
            parts.append(lines[cls.end - 1])
        styles["class"] = "".join(parts)
        if len(methods) == 1:
            styles["column0"] = _dedent(_text(lines, methods[0]))
    if len(symbols) == 1 and (lazy := _lazy(before, after, lines, symbols[0], language, rng, marker)):
        styles["lazy"] = lazy
    fence = "````" if "```" in styles["whole"] else "```"
    styles["fenced"] = f"{fence}{_FENCE_TAG[language]}\n{styles['whole']}{fence}\n"
    n = len(split_lines(before))
    return [{"id": f"{source}/{style}", "language": language, "before": before, "block": block, "after": after,
             "style": style, "source": source, "lines": n, "development": development}
            for style, block in styles.items()]


def added(source: str, language: str, case, development: bool) -> list[dict]:
    """A long-corpus humanevalfix case as an edit that adds its function: the module without the inserted
    function (the host), and the gold; the block anchors the new function on the definition before it
    (or after it, drawn by the seed)."""
    from copy_as_decode.cases.corpora import load, user_file
    task = next(c for name in ("humanevalfix-python", "humanevalfix-js") for c in load(name) if c.id == case.extra["task"])
    buggy = split_lines(user_file(task)[0].strip("\n") + "\n")
    b = split_lines(case.before)
    at = next((k for k in range(len(b) - len(buggy) + 1) if b[k:k + len(buggy)] == buggy), None)
    if at is None or any(line.startswith(("import ", "from ", "const ", "let ", "var ", "require("))
                         and "=>" not in line for line in buggy[:1]):
        return []
    gap = 0
    while at - gap - 1 >= 0 and not b[at - gap - 1].strip():
        gap += 1
    host = "".join(b[:at - gap] + b[at + len(buggy):])
    if host == case.after:
        return []
    _, symbols = outline(case.after, language)
    a = split_lines(case.after)
    new = next((s for s in symbols if s.parent is None and s.header - 1 >= at - gap and
                a[s.header - 1] == b[next(k for k in range(at, at + len(buggy)) if b[k].strip() and
                                          not b[k].lstrip().startswith(("#", "//", "/*", "*", "@")))]), None)
    if new is None:
        return []
    tops = [s for s in symbols if s.parent is None]
    if sum(at <= s.header - 1 < at + len(buggy) for s in tops) != 1:
        return []  # the task's code defines more than one function: a block of one would not make the gold
    k = tops.index(new)
    rng = random.Random(source + "/added")
    prev = tops[k - 1] if k > 0 else None
    nxt = tops[k + 1] if k + 1 < len(tops) else None
    anchor_before = prev is not None and (nxt is None or rng.random() < 0.5)
    if not anchor_before and nxt is None:
        return []
    m = rng.choice(_MARKERS[language]) + "\n"
    sep = "".join(a[new.end:nxt.start - 1]) if nxt else "\n\n"
    if anchor_before:
        pre_gap = "".join(a[prev.end:new.start - 1])
        block = m + "\n" + _text(a, prev) + pre_gap + _text(a, new) + "\n" + m
    else:
        block = m + "\n" + _text(a, new) + sep + _text(a, nxt) + "\n" + m
    return [{"id": f"{source}/added", "language": language, "before": host, "block": block, "after": case.after,
             "style": "added", "source": source, "lines": len(split_lines(host)), "development": development}]


def _text(lines: list[str], s: Symbol) -> str:
    text = "".join(lines[s.start - 1:s.end])
    return text if text.endswith("\n") else text + "\n"


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dedent(text: str) -> str:
    lead = _lead(next(line for line in split_lines(text) if line.strip()))
    return "".join(line[len(lead):] if line.startswith(lead) else line.lstrip(" \t") for line in split_lines(text))


def _opening(lines: list[str], s: Symbol, language: str) -> list[str]:
    """A definition's lines from its header to the line that opens its body (a section: its heading)."""
    k = s.header - 1
    out = [lines[k]]
    if language == "markdown":
        return out
    while k < s.end - 1 and not lines[k].rstrip().endswith((":", "{")):
        k += 1
        out.append(lines[k])
    return out


def _lazy(before: str, after: str, lines: list[str], s: Symbol, language: str, rng: random.Random, marker) -> str | None:
    """The symbol with its unchanged lines before the change, and after it, elided by a marker, one or two
    context lines kept each side; None when nothing would be elided."""
    head = _opening(lines, s, language)
    body_start = s.header - 1 + len(head)  # 0-based first body line
    body_end = s.end - (1 if language == "javascript" and lines[s.end - 1].strip().startswith("}") else 0)
    changed = [k for _, _, j1, j2 in hunks(before, after) for k in (range(j1, j2) if j2 > j1 else [j1])]
    changed = [k for k in changed if s.start - 1 <= k < s.end]
    if not changed or min(changed) < body_start:
        return None
    first, last = min(changed), max(changed)
    ctx_before, ctx_after = rng.choice((1, 2)), rng.choice((1, 2))
    keep_from, keep_to = max(body_start, first - ctx_before), min(body_end, last + 1 + ctx_after)
    if keep_from - body_start < 2:
        return None  # too little before the change to elide
    out = [lines[k] for k in range(s.start - 1, body_start)]
    elided = next((lines[k] for k in range(body_start, keep_from) if lines[k].strip()), lines[keep_from])
    first = marker(_lead(elided))
    while first.strip() == "..." and out[-1].rstrip().endswith(":"):  # after `def f():` a bare `...` is its body
        first = marker(_lead(elided))
    out.append(first)
    out += lines[keep_from:keep_to]
    if body_end - keep_to >= 2:
        rest = next((lines[k] for k in range(keep_to, body_end) if lines[k].strip()), None)
        if rest is not None:
            last = marker(_lead(rest))
            while last.strip() == "..." and out[-1].rstrip().endswith(":"):
                last = marker(_lead(rest))  # after a line that opens a block, a bare `...` is its body
            out.append(last)
    else:
        out += lines[keep_to:body_end]
    out += lines[body_end:s.end]
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


def counts(cases: list[dict]) -> dict:
    """Cases per language and style, development and held out."""
    out: dict = {}
    for c in cases:
        k = out.setdefault(c["language"], {}).setdefault(c["style"], {"development": 0, "heldout": 0})
        k["development" if c["development"] else "heldout"] += 1
    return out


if __name__ == "__main__":
    import json
    cs = build()
    print(len(cs), json.dumps(counts(cs), indent=1))
