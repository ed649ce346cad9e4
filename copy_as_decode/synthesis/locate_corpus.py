"""The locate corpora (`locate-python`, `locate-js`): where an edit lands, asked as users ask.

Each one-function bug of the long corpora (cases/data/LONG_CORPUS.md: a synthetic bug in a real function, or a
HumanEvalFix function embedded in a real module) in a file of 300 lines or more gets four instructions:

    a  names the target, as the long corpus does ("Fix the bug in `quoteattr`: ...", "Fix bugs in tri.")
    b  names the target and a helper: a symbol the target uses, else its nearest neighbour in the file
    c  names nothing and says what is wrong: the hint without the name, or what the function should do
       (its HumanEvalFix docstring's first sentence, its examples left out)
    d  the same words as c, with the cursor on the line the fix changes (what an editor sends)

Every case keeps `target` (the lines of the function that holds the fix: the one `a` names, else the
innermost) so a benchmark can count changed lines outside it, `at` for d, and `base` (the long-corpus case).
`alone` makes each case's function alone, under the same instruction: the comparison that says what finding
the place cost, apart from what the words cost.
"""
import dataclasses
import re

from copy_as_decode.cases.corpora import Case, load, spread

KINDS = ("a", "b", "c", "d")
ALONE = "locate-alone"
MIN_BUCKET = 300
_NAMED = re.compile(r"^Fix the bug in `([^`]+)`: (.*)$", re.S)
_HEF = re.compile(r"^Fix bugs in ([\w$]+)\.$")
# b: the helper named as users name one, in words that differ from case to case
_WITH_HELPER = (
    "Fix the bug in `{t}` (it uses `{h}`): {why}",
    "Fix {t}: {why} It must keep calling {h} as it does now.",
    "In `{t}`, {why} Leave `{h}` as it is.",
    "{t} is wrong: {why} Compare with how {h} is written.",
)


def build(language: str) -> list[Case]:
    from copy_as_decode.core.deletions import hunks
    from copy_as_decode.core.outline import outline
    long = load("long-python" if language == "python" else "long-js")
    tasks = {c.id: c for c in load("humanevalfix-python" if language == "python" else "humanevalfix-js")}
    out = []
    for k, case in enumerate(c for c in long if c.extra["kind"] in ("bug", "humanevalfix")
                             and c.extra["bucket"] >= MIN_BUCKET):
        _, symbols = outline(case.before, language)
        i1, i2, _, _ = hunks(case.before, case.after)[0]
        line = i1 + 1 if i2 > i1 else max(1, i1)  # an insertion: the line before it
        if case.extra["kind"] == "bug":
            name, why = _NAMED.match(case.instruction).groups()
            what = f"Fix the bug: {why}"
        else:
            name = _HEF.match(case.instruction).group(1)
            doc = _first_sentence(tasks[case.extra["task"]].extra["prompt"], name)
            why = f"it should {doc[0].lower()}{doc[1:]}"
            what = f"Fix the bug in the code that should do this: {doc}"
        # the function that holds the fix: the one the `a` instruction names, else the innermost
        around = [s for s in symbols if s.start <= line <= s.end and s.kind != "class"]
        target = next((s for s in around if name in (s.name, s.qualname)), None) or \
            min(around, key=lambda s: s.end - s.start, default=None)
        if target is None:
            continue
        helper = _helper(case.before, symbols, target)
        said = {"a": case.instruction, "b": _WITH_HELPER[k % len(_WITH_HELPER)].format(t=name, h=helper, why=why),
                "c": what, "d": what}
        for kind in KINDS:
            extra = dict(case.extra, kind=kind, base=case.id, base_kind=case.extra["kind"],
                         target=[target.start, target.end], helper=helper)
            if kind == "d":
                extra["at"] = line
            out.append(dataclasses.replace(case, id=f"{case.id}/{kind}", corpus=f"locate-{_short(language)}",
                                           instruction=said[kind], extra=extra))
    return out


def _short(language: str) -> str:
    return "python" if language == "python" else "js"


def _first_sentence(prompt: str, name: str) -> str:
    """What a HumanEvalFix function should do, in its docstring's first sentence (its examples left out), its
    name said as "it"."""
    text = re.sub(r"\s+", " ", re.split(r"\n\s*(>>>|For example|Example|\*/)", prompt.split('"""' if '"""' in prompt
                                                                                           else "/*", 1)[-1])[0])
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s", text) if s.strip()]
    first = next((s for s in sentences if "*" not in s), "return the right result.").replace(name, "it")
    return first.rstrip(" .") + "."


def _helper(document: str, symbols, target) -> str:
    """A symbol the target's body uses (not itself or what holds it), else the function nearest to it."""
    body = "".join(document.splitlines(True)[target.start - 1:target.end])
    used = set(re.findall(r"[A-Za-z_$][\w$]*", body))
    others = [s for s in symbols if s.kind != "class" and s.name != target.name
              and not (s.start <= target.start and target.end <= s.end)]
    calls = [s for s in others if s.name in used]
    pick = calls[0] if calls else min(others, key=lambda s: abs(s.start - target.start))
    return pick.name


def alone(cases: list[Case]) -> list[Case]:
    """Each case's target function alone, dedented, with the case's own instruction: what a user who selects
    the function by hand has rewritten (as its own document), under the same words. `within` puts a result
    back into the file; the id is the case's, in corpus ALONE."""
    from copy_as_decode.core.document import dedent, indent_of, split_lines
    out = []
    for case in cases:
        before, after = split_lines(case.before), split_lines(case.after)
        start, end = case.extra["target"]
        old = "".join(before[start - 1:end])
        new = "".join(after[start - 1:end + len(after) - len(before)])
        indent = indent_of(old)
        extra = {k: v for k, v in case.extra.items() if k != "at"}
        extra["within"] = {"start": start, "end": end, "indent": indent, "before": case.before, "after": case.after}
        out.append(dataclasses.replace(case, corpus=ALONE, before=dedent(old, indent), after=dedent(new, indent),
                                       extra=extra))
    return out


def within(case: Case, text: str) -> str:
    """The whole file with an `alone` case's edited function `text` in its place."""
    from copy_as_decode.core.document import reindent, split_lines
    w = case.extra["within"]
    lines = split_lines(w["before"])
    return "".join(lines[:w["start"] - 1]) + reindent(text, w["indent"]) + "".join(lines[w["end"]:])


def unasked_lines(case: Case, before: str, text: str) -> int:
    """Changed lines of the result outside the function that holds the fix (`target`): old lines replaced or
    removed there, and lines inserted there."""
    from copy_as_decode.core.deletions import hunks
    start, end = case.extra["target"]
    out = 0
    for i1, i2, j1, j2 in hunks(before, text):
        if i2 > i1:
            out += sum(1 for k in range(i1 + 1, i2 + 1) if not start <= k <= end)
        elif not start <= i1 <= end:  # an insertion after old line i1, outside the function
            out += j2 - j1
    return out


def spread_bases(cases: list[Case], limit: int) -> list[Case]:
    """All four kinds of `limit` bugs spread evenly over the corpus (cases/corpora.py spread)."""
    picked = set(spread(list(dict.fromkeys(c.extra["base"] for c in cases)), limit))
    return [c for c in cases if c.extra["base"] in picked]
