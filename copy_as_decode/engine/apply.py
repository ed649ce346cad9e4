"""Applying a chat's answer to a file: its blocks read (core/chat_answer.py), merged by the parser
(core/block_merge.py), the model only for the parts whose place the blocks do not say, and one guarantee checked
on the result before anything is written.

`apply(request, engine)` is the one entry point: the CLI, the worker (the language server's and the editors'
apply) and the HTTP apply endpoint each read an engine.request.EditRequest whose `block` is what the user
pasted: a chat's whole answer (prose, several fenced blocks, usage examples, blocks for other files) or one bare
block. The answer is read, merged and checked here once, with "\n" line endings (the request's `lf`); the
result gets the document's endings back at the end.

Each part the merge leaves pending is a windowed edit of the merged file: the lines the part belongs to (the
function or class it sits in, found again by name in the merged file) are rewritten by the model with the
part, markers and all, as its instruction, and every other line is copied (engine/selectors/windowed.py). The
rewrite drafts from the window's lines and from the part's (engine/decoding/drafter.py), so the block's new
lines are checked in one forward each run, not written token by token. A block the parser places whole costs
no forward pass.

The guarantee (`guarantee`), whatever wrote the result: every code line of every merged block is in it, in the
block's order; no file line changes outside the definitions the blocks name, the import lines and the top-level
assignments they assign; every line it adds is a block's line or a file's line; no lazy marker lands, and no file
line a marker stands for is dropped; a file that parsed still parses; no run of blank lines the file and the
blocks lack; a block's `return` that ends it or comes before a marker not followed by more of its body; no file
line the block replaces (between two of its lines, with no marker between them) left beside its replacement. A result that
fails it is not written: IncompleteEdit (stop SKIPPED, the CLI's exit code 3) with the reason and the result for
review. A result equal to the file is `unchanged` (the block is
already there): AppliedResult.unchanged, the CLI's exit code 4.
"""
import difflib
import re
import time
from collections import Counter
from collections.abc import Callable

from copy_as_decode.core import block_merge, chat_answer, lazy_block
from copy_as_decode.core.contract import EOS, SKIPPED, Cancelled, IncompleteEdit
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import Symbol, outline
from copy_as_decode.core.syntax_check import errors, new_errors
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult

MERGE = "merge"  # the selector name stats report for an apply the parser placed whole
NO_MODEL = "and no model was given"  # how a MergeError says that only the model could place a part
ALREADY = "no change: the block is already in the file"
# the seconds the model may take to place one part (a tie between definitions, a run the parser cannot
# place): an answer a user waits for within 10 s, the forward pass in flight when it runs out included; past it
# nothing is written and the message names the places
MODEL_S = 8.0
NEW_SHOWN = 6  # the lines of a new definition the model sees when it picks the one it goes after
NEIGHBOUR_SURE = 0.9  # the least probability of the model's pick of that place for it to be taken


class AppliedResult(EditResult):
    """An apply's result: the merged text, and what the answer held that was not merged (`left_out`: one line
    each, why), what the model placed (`model_parts`), and where a part that matched several definitions alike
    could have gone (`candidates`: {qualname, lines [first, last], chosen}; the model chose), for an editor to
    offer the others."""

    def __init__(self, text: str, stats: Stats, before: str, left_out: list[str], model_parts: list[str],
                 candidates: list[dict] = ()):
        super().__init__(text, stats, before=before)
        self.document, self.left_out, self.model_parts = before, left_out, model_parts
        self.candidates = list(candidates)

    @property
    def unchanged(self) -> bool:
        return self.text == self.document


def instruction(part: str) -> str:
    """What the model is asked for a pending part: the block's lines, lazy markers meaning "as it is"."""
    return ("Apply this change, given as a code block in which comments like `# ... existing code ...` stand for "
            "lines that stay as they are; change nothing else:\n```\n" + part.rstrip("\n") + "\n```")


def apply(request: EditRequest, engine: Callable[[], object] | None = None) -> AppliedResult:
    """The request's document with its answer's (`block`'s) blocks for it merged in. `engine()` gives the
    model's engine (an engine.front.EditFront), called only when a part needs the model; without one such a
    block raises MergeError. The request's `path` (the file's, when known) tells an answer's blocks for other
    files apart; its `lines` (the editor's selection) are where a part goes whose place the block does not say;
    its `at` (the cursor's line), after which definition a new one goes that nothing else places;
    its `language`, `hooks` and `max_new_tokens` are the model's edit's; its `instruction`, when it has one (an
    endpoint's `<instruction>`), says where the blocks go whose own prose does not.

    Raises MergeError (no block for this file, nothing to place, a part whose place is not certain and no
    model), IncompleteEdit (stop SKIPPED: the result breaks the guarantee; `text` holds it for review) or what
    the model's edit raises (engine/front.py: IncompleteEdit when it does not finish or deletes unasked)."""
    start = time.perf_counter()
    document, language, hooks = request.lf, request.language, request.hooks
    read = chat_answer.read(request.block, document, language, request.path)
    left_out = [b.describe() for b in read.left_out]
    changes = read.changes
    said = chat_answer.said(request.instruction) if request.instruction else []
    for block in changes if said else ():  # what the request says of the place, for the blocks whose own prose
        if not any(rel in (*block_merge.PLACES, "end") for rel, _ in block.hints):  # says none
            block.hints = [*block.hints, *said]
    if not changes:
        raise block_merge.MergeError("the answer holds no code block for this file"
                                     + (" (" + "; ".join(left_out) + ")" if left_out else ""))
    language = language or block_merge.outlined(document, None)[0]
    stats = Stats(selector=MERGE, stop=EOS)
    placed: list[str] = []
    touched: set[str] = set()
    headers: set[str] = set()
    model_parts: list[str] = []
    candidates: list[dict] = []
    text = document
    front = None
    # the definition the block before changed, or first the one at the user's cursor: a new helper shown alone
    # goes after it
    symbols = block_merge.outlined(document, language)[1]
    last = next((f.qualname for f in sorted(symbols, key=lambda f: f.end - f.start)
                 if request.at is not None and f.start <= request.at <= f.end), None)
    ours = {f.qualname for f in symbols}
    for block in list(changes):
        merged = block_merge.merge(text, block.text, language, hints=block.hints, beside=last)
        within = None  # the block's MODEL_S, for all the model does for it, from its first use (not the load)
        if engine is not None and (new := next((p for p in merged.pending if p.places), None)) is not None:
            front = front or engine()
            within = _Within(hooks, MODEL_S)
            if after := _neighbour(front, text, new, within, model_parts, candidates):
                merged = block_merge.merge(text, block.text, language, hints=[*block.hints, ("after", after)],
                                           beside=last)
        added = {f.qualname: f.name for f in block_merge.outlined(text, language)[1] if f.qualname not in ours}
        if again := sorted(n for n in added.values() if n in merged.touched):
            # a second version of what an earlier block of the answer adds: the same method for another class
            # ("add the forwarding method there as well"), not a rewrite of the one just added
            block.kind, block.why = chat_answer.OTHER, f"defines `{again[0]}` again, which a block above adds here:" \
                                                       " for another class or file"
            left_out.append(block.describe())
            changes.remove(block)
            continue
        last = merged.last or last
        placed += merged.placed
        touched |= merged.touched | {p.symbol.rsplit(".", 1)[-1] for p in merged.pending if p.symbol}
        headers |= merged.headers
        text = merged.text
        if merged.pending and engine is None:
            raise block_merge.MergeError("the block's place in the file is not certain ("
                                         + "; ".join(p.why for p in merged.pending) + f") {NO_MODEL}")
        for part in merged.pending:
            hooks.check()
            front = front or engine()
            window = _window(text, part, merged.language) or request.lines
            within = within or _Within(hooks, MODEL_S)  # from here: the model's load is not the block's time
            try:
                result = front.edit(text, instruction(part.text), "windowed", lines=window, language=merged.language,
                                    hooks=within, max_new_tokens=request.max_new_tokens, drafts=part.text)
            except Cancelled:
                if not within.passed:
                    raise  # the user's cancel
                raise block_merge.MergeError(f"the model did not place the block within {MODEL_S:g} s ({part.why}"
                                             + "".join(f"; `{q}` lines {a}-{b}" for q, a, b in part.candidates)
                                             + "); say where it goes: --at LINE puts a new definition after the "
                                               "one at that line") from None
            stats.add(result.stats)
            stats.selector, stats.stop = f"{MERGE}+{result.stats.selector}", result.stats.stop
            took = result.stats.windows or window
            model_parts.append(f"{part.why}: the model took lines {took}" + "".join(
                f"; it might have been `{q}` (lines {a}-{b})" for q, a, b in part.candidates))
            first = re.match(r"\D*(\d+)", str(took))  # the first line the model rewrote
            candidates += [{"qualname": q, "lines": [a, b], "chosen": bool(first) and a <= int(first.group(1)) <= b}
                           for q, a, b in part.candidates]
            text = result.text
    stats.windows = "; ".join(placed + model_parts)
    stats.total_s = time.perf_counter() - start
    if why := guarantee(document, [b.text for b in changes], text, language, touched, headers):
        raise IncompleteEdit(SKIPPED, 0, stats, why=f"{why}; nothing was written", text=request.restore(text))
    stats.deleted_lines = sum(max(0, sum(bool(x.strip()) for x in old) - sum(bool(x.strip()) for x in new))
                              for old, new in _changed(split_lines(document), split_lines(text)))
    return AppliedResult(request.restore(text), stats, request.document, left_out, model_parts, candidates)


def _neighbour(front, text: str, part: block_merge.Pending, within: "_Within", model_parts: list[str],
               candidates: list[dict]) -> str | None:
    """The qualname of the definition the model puts a new one (`part`) right after, among the part's
    `places`: one short constrained choice over their names, no rewrite. None where the engine
    cannot constrain a choice (a chat API: the part's window is then rewritten). Raises MergeError naming the
    likeliest places when the model is unsure (under NEIGHBOUR_SURE) or passes the block's deadline (`within`)."""
    # names alone, the short ones where they are unique: a prompt this CPU prefills within MODEL_S
    labels = [q.rsplit(".", 1)[-1] for q, _, _ in part.places]
    labels = labels if len(set(labels)) == len(labels) else [q for q, _, _ in part.places]
    shown = "".join(split_lines(part.text)[:NEW_SHOWN]).rstrip("\n")
    start = time.perf_counter()
    try:
        picked = front.choose_neighbour(shown, "".join(f"{label}\n" for label in labels), labels, within)
    except Cancelled:
        if not within.passed:
            raise
        raise block_merge.MergeError(f"the model did not choose within {MODEL_S:g} s where the part goes "
                                     f"({part.why}); say where: --at LINE puts a new definition after the one at "
                                     "that line") from None
    if picked is None:
        return None
    label, p = picked
    took = time.perf_counter() - start
    after, a, b = part.places[labels.index(label)]
    if p < NEIGHBOUR_SURE:
        raise block_merge.MergeError(f"the block's place in the file is not certain ({part.why}; the model's "
                                     f"likeliest place, after `{after}` (lines {a}-{b}), at p {p:.2f}); say where: "
                                     "--at LINE puts a new definition after the one at that line")
    model_parts.append(f"{part.why}: the model put it after `{after}` (p {p:.2f}, {took:.1f} s)")
    candidates.append({"qualname": after, "lines": [a, b], "chosen": True})
    return after


class _Within:
    """The request's hooks with a deadline: past it, `check` cancels the model's edit (`passed` says so)."""

    def __init__(self, hooks, seconds: float):
        self.hooks, self.until, self.passed = hooks, time.perf_counter() + seconds, False

    def check(self) -> None:
        self.hooks.check()
        if time.perf_counter() > self.until:
            self.passed = True
            raise Cancelled(f"no place within {MODEL_S:g} s")

    def __getattr__(self, name):  # progress, place, partial: the request's own
        return getattr(self.hooks, name)


def _window(text: str, part: block_merge.Pending, language: str | None) -> tuple[int, int] | None:
    """The lines of the merged `text` a pending part belongs to: its symbol found again by name (the merge
    moved lines), else its window as given, else None (the model's windowed edit finds the place)."""
    if part.symbol is not None:
        found = [s for s in outline(text, language)[1] if s.qualname == part.symbol]
        if len(found) == 1:
            return found[0].start, found[0].end
    n = len(split_lines(text))
    return part.window if part.window is not None and part.window[1] <= n else None


# the names a block's lines define: after a keyword, or before the parameters of a line that opens a body
_MODIFIERS = r"(?:(?:export|default|async|static|get|set|public|private|protected|override|readonly|abstract|final|pub|" \
             r"unsafe|const|let|var)\s+)*"
_DEFINED = re.compile(rf"^\s*{_MODIFIERS}(?:def|class|function\*?|fn|func(?:\s*\([^)]*\))?|struct|enum|trait|impl|"
                      rf"interface|type|module|namespace)\s+([A-Za-z_$][\w$]*)|^\s*{_MODIFIERS}([A-Za-z_$][\w$]*)\s*"
                      r"(?:=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)|:\s*(?:async\s*)?function\b|"
                      r"\([^;]*\)\s*(?:->[^:{]*|:[^{]*)?[:{]\s*$)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_IMPORTISH = re.compile(r"^\s*(?:import\b|from\s+\S+\s+import\b|(?:const|let|var)\s+[^=]+=\s*require\(|#include\b|"
                        r"use\s|package\s|export\s+\*?\s*\{?[^=]*\bfrom\b)")
_ASSIGNED = re.compile(r"^(?:export\s+)?(?:const\s+|let\s+|var\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)")


def guarantee(doc: str, blocks: list[str], new: str, language: str | None,
              touched: set[str] = frozenset(), headers: set[str] = frozenset()) -> str | None:
    """Why `new` may not be written as `doc` with `blocks` merged (see the module's docstring), or None; the
    three with "\\n" line endings (the request's, engine/request.py). `touched`: names of the file's definitions
    the merge replaced or changed in (a renamed one: the block does not name it); `headers`: the block's header
    lines of definitions the merge placed parts into, which the file's own header stands for."""
    reads = [lazy_block.read(b, doc) for b in blocks]
    code = [[line for k, line in enumerate(split_lines(r.text)) if k not in r.markers and line.strip()
             and line.strip() not in headers] for r in reads]
    have = [line.strip() for line in split_lines(new)]
    for lines in code:
        if missing := _unmatched([x.strip() for x in lines], have):
            return f"the block's line `{missing[0][:60]}` is not in the result"
    own = {line.strip() for line in split_lines(doc)}
    markers = {split_lines(r.text)[k].strip() for r in reads for k in r.markers}
    if leaked := [x for x in have if x in markers and x not in own]:
        return f"the result would hold the lazy marker `{leaked[0]}`"
    written = {x.strip() for lines in code for x in lines}
    names = {n for lines in code for x in lines for n in _names(x, language)} | set(touched)
    assigned = {m.group(1) for lines in code for x in lines if x == x.lstrip() and (m := _ASSIGNED.match(x))}
    symbols = block_merge.outlined(doc, language)[1] if language else []
    a, b = split_lines(doc), split_lines(new)
    kept = _kept(a, b)
    shown = _shown(a, reads, b, kept)
    respaced = {" ".join(x.split()) for x in written}  # a line the block shows realigned (gofmt's columns)
    for i1, old, new_lines in _changed(a, b, where=True):
        if added := [x.strip() for x in new_lines if x.strip() and x.strip() not in written | own]:
            return f"the result adds the line `{added[0][:60]}`, which neither the block nor the file has"
        for k in range(i1, i1 + len(old)):
            if a[k].strip() and k not in shown and " ".join(a[k].split()) not in respaced \
                    and not _may_change(k, a, symbols, names, assigned):
                return f"the result changes line {k + 1} (`{a[k].strip()[:60]}`), outside what the block changes"
    # a definition the file has, which the block shows again, is replaced, not added beside it (a name every
    # class has, `__init__`, `constructor`, may be a new class's own)
    block_names = {n for lines in code for x in lines for n in _names(x, language)} - touched
    fresh = None
    for name in sorted(n for n in block_names if not n.startswith("__") and n != "constructor"):
        was = sum(name in _names(x, language) for x in a if name in x)
        if not was or sum(name in _names(x, language) for x in b if name in x) <= was:
            continue
        if fresh is None:  # a new class or `impl` brings its own members (`type Output` of a new `impl Sub for T`)
            fresh = {k for f in (block_merge.outlined(new, language)[1] if language else []) if f.kind == "class"
                     and b[f.header - 1].strip() not in own for k in range(f.header - 1, f.end)}
        if sum(name in _names(x, language) for k, x in enumerate(b) if name in x and k not in fresh) > was:
            return f"the result defines `{name}` once more beside the file's own"
    if twice := _twice(a, code, b, lambda: block_merge.outlined(new, language)[1] if language else []):
        return f"the result has the line `{twice[:60]}` twice: the block's beside the file's, which it stands for"
    # a result that parses needs no look at the file's own errors (most results parse)
    if errors(new, language) and (broken := new_errors(doc, new, language)):
        return f"the result would no longer parse as {(language or '').capitalize()} ({broken[0].describe()})"
    return (_blank_lines(doc, reads, new, language) or _runs_on(doc, reads, new, language)
            or _elided(a, reads, b, kept) or _survives(a, reads, b, kept, symbols) or _split(a, reads, b))


def _twice(a: list[str], code: list[list[str]], b: list[str], defined: Callable[[], list]) -> str | None:
    """A line the file has once, which a block shows once after the line the file has before it (that one the
    file's once too), that the result has twice in one definition of the result's (`defined()`, its outline), or
    outside any (the block's lines placed beside the file's they stand for, the old ones kept): that line, or
    None. Twice in two definitions is a new one that repeats the file's lines (`flattenByPath` after
    `flatten`)."""
    solid = [x.strip() for x in a if x.strip()]
    once = {x for x, n in Counter(solid).items() if n == 1 and len(x) > 12}
    after = {x: p for p, x in zip(solid, solid[1:]) if x in once}
    where: dict[str, list[int]] = {}
    at_line = [k for k, y in enumerate(b) if y.strip()]  # the result's line of each non-blank line
    for k, x in enumerate(b[j].strip() for j in at_line):
        where.setdefault(x, []).append(k)

    read: list[list] = []  # the result's outline, read once, when a line is found twice

    def inner(k: int) -> str | None:  # the innermost definition holding the result's k-th non-blank line
        if not read:
            read.append(defined())
        around = [f for f in read[0] if f.start - 1 <= at_line[k] < f.end]
        return min(around, key=lambda f: f.end - f.start).qualname if around else None
    counts = Counter(x.strip() for lines in code for x in lines)  # (a block that quotes another's lines: not once)
    for lines in code:
        shown = [x.strip() for x in lines]
        for p, x in zip(shown, shown[1:]):
            at = where.get(x, [])  # two of it, within the block's length of each other: beside, not elsewhere
            if x in once and p in once and after[x] == p and counts[x] == 1 and len(at) == 2 \
                    and at[1] - at[0] <= 2 * len(shown) and inner(at[0]) == inner(at[1]):
                return x
    return None


def _blank_lines(doc: str, reads: list[lazy_block.Block], new: str, language: str | None) -> str | None:
    """Why the result's blank lines are not the file's and the blocks' (a run of them longer than any either
    has: spacing the merge made up; Python's top level may have PEP 8's two, core/block_merge.py), or None."""
    most = max(_longest_blank(doc), *(_longest_blank(r.text) for r in reads), 2 if language == "python" else 0)
    if (made := _longest_blank(new)) > most:
        return f"the result holds {made} blank lines in a row, more than the file or the block has"
    return None


def _longest_blank(text: str) -> int:
    longest = run = 0
    for line in split_lines(text):
        run = run + 1 if not line.strip() else 0
        longest = max(longest, run)
    return longest


_LEAVES = re.compile(r"^\s*(?:return|raise|throw|break|continue)\b")


def _runs_on(doc: str, reads: list[lazy_block.Block], new: str, language: str | None) -> str | None:
    """Why the result goes on in a body past a line of a block that leaves it, or None. A block line that
    leaves its body (`return`, `raise`, `throw`, ...) and is the block's last, or the last before a marker (the
    block "ends" there), ends what runs there: when the result follows it with another statement of the same body (the file's old
    `return` after the block's new one: code that never runs), the block's lines were placed beside the file's
    rather than in their place. A pair of lines the file itself has in a row is the file's. (A block line that
    does not leave its body may well be followed by the file's: a class attribute changed, the class's others
    after it.)"""
    have = split_lines(new)
    solid_doc = [x.strip() for x in split_lines(doc) if x.strip()]
    pairs = set(zip(solid_doc, solid_doc[1:]))
    for r in reads:
        text, code, found = _located(r, have)
        solid = [k for k, line in enumerate(text) if line.strip()]
        for k, at in zip(code, found or []):
            after = next((j for j in solid if j > k), None)
            if after is not None and after not in r.markers or not block_merge._lead(text[k]) \
                    or not _LEAVES.match(text[k]):
                continue  # the block shows what follows it, or it does not leave its body
            nxt = next((x for x in have[at + 1:] if x.strip()), None)
            if nxt is not None and block_merge._lead(nxt) == block_merge._lead(have[at]) and not _names(nxt, language) \
                    and nxt.strip()[:1] not in ")]}@#/*" and not nxt.strip().startswith(("case ", "default")) \
                    and (have[at].strip(), nxt.strip()) not in pairs:
                return f"the block ends with `{text[k].strip()[:60]}`, but the result goes on in its body with " \
                       f"`{nxt.strip()[:60]}`"
    return None


def _elided(a: list[str], reads: list[lazy_block.Block], b: list[str], kept: dict[int, int]) -> str | None:
    """Why the result drops file lines that a block's marker keeps, or None. A marker stands for the file's
    lines between the nearest block lines around it that the result kept as file lines: those stay, but for as
    many as the block's new lines between them may replace. A marker after the block's last such line (before
    its first), indented into a body, keeps the rest (the start) of that body. (Within the definitions the
    blocks name the other checks let any line change: a merge that put a marker's span in the block's place
    would lose those lines silently.) `b`: the result's lines, `kept`: _kept(a, b)."""
    once = Counter(x.strip() for x in a)
    for r in reads:
        lines, code, found = _located(r, b)
        if found is None:
            return None  # the block's lines are not all in order: the first check says so
        pos = dict(zip(code, found))
        shown = Counter(x.strip() for k, x in enumerate(lines) if k not in r.markers)
        for m in sorted(r.markers):
            (u, du, new_before), (v, dv, new_after) = (_anchor(m, step, len(lines), r.markers, pos, kept)
                                                       for step in (-1, 1))
            depth = len(block_merge._lead(lines[m]))
            if du is not None and (arm := _arm_shown(a, lines, m, u, du, depth)) is not None:
                # a marker among branches stands for the other branches: the one the block shows before it (its
                # head kept, its body the block's) is not the marker's
                du, new_before = arm, 0
            if du is not None and dv is not None:
                span = range(du + 1, dv)
            elif du is not None and v is None and depth:
                span = _body(a, range(du + 1, len(a)), depth)
            elif dv is not None and u is None and depth:
                span = _body(a, range(dv - 1, -1, -1), depth)
            else:
                continue
            lo, hi = (pos[u] + 1 if u is not None else 0), (pos[v] if v is not None else len(b))
            lost = _unmatched([a[k].strip() for k in sorted(span) if a[k].strip()], [x.strip() for x in b[lo:hi]])
            # a line the file has once and the block shows elsewhere was moved by the block, not dropped
            lost = [x for x in lost if not (shown[x] and once[x] == 1)]
            if len(lost) > new_before + new_after:
                return f"the result drops `{lost[0][:60]}`, which the block's marker `{lines[m].strip()[:40]}` keeps"
    return None


def _arm_shown(a: list[str], lines: list[str], m: int, u: int, du: int, depth: int) -> int | None:
    """When the block's last branch head before marker m, at the marker's indentation, is its line u kept as
    file line du: the last file line of that branch (0-based), the marker's span starting after it; else
    None."""
    head = next((k for k in range(m - 1, -1, -1) if lines[k].strip() and len(block_merge._lead(lines[k])) <= depth), None)
    if head != u or not block_merge._arm(lines[u].strip()) or len(block_merge._lead(lines[u])) != depth:
        return None
    return block_merge.arm_end(a, du) - 1


SLACK_LINES = 2  # file lines between two block lines beyond the block's own there, for them to be neighbours


def _survives(a: list[str], reads: list[lazy_block.Block], b: list[str], kept: dict[int, int],
              symbols: list[Symbol]) -> str | None:
    """Why the result keeps a file line that a block replaces, or None. Between two of a block's lines that the
    result kept as file lines of one function's body or of the top level (the block's new lines between them),
    with no marker between them, the block shows all that
    stands there: a file line from between the two that the block does not show is one it replaced (an
    `else if` whose condition it rewrote), and it may not stay beside its replacement. (Between a class's
    header and a method the block shows, the class's other members and the method's comments stay: a class
    shown in part stands for the rest.) `b`: the result's lines, `kept`: _kept(a, b)."""
    own = {x.strip() for x in a}
    for r in reads:
        lines, code, found = _located(r, b)
        if found is None:
            return None  # the block's lines are not all in order: the first check says so
        anchors = [(k, p) for k, p in zip(code, found) if kept.get(p) is not None]
        for (k1, p1), (k2, p2) in zip(anchors, anchors[1:]):
            d1, d2 = kept[p1], kept[p2]
            if d2 <= d1 or any(m in r.markers for m in range(k1, k2)):
                continue
            between = [x.strip() for x in lines[k1 + 1:k2] if x.strip()]
            if not any(x not in own for x in between) or d2 - d1 - 1 > len(between) + SLACK_LINES:
                continue  # nothing new between them, or far more file lines: the two are not neighbours there
            around = [f for f in symbols if f.start - 1 <= d1 and d2 < f.end]
            if around and min(around, key=lambda f: f.end - f.start).kind not in ("function", "method") \
                    or any(d1 < f.start - 1 <= d2 for f in symbols):
                continue  # in a class's body: its members the block does not show stay
            shown = {x.strip() for x in lines[k1 + 1:k2]}
            for p in range(p1 + 1, p2):
                if (d := kept.get(p)) is not None and d1 < d < d2 and b[p].strip() and b[p].strip() not in shown:
                    return f"the result keeps line {d + 1} (`{a[d].strip()[:60]}`), which the block replaces"
    return None


def _split(a: list[str], reads: list[lazy_block.Block], b: list[str]) -> str | None:
    """Why the result keeps a file branch beside a block's new branch that takes some of its values (the file's
    `case A, B, C:` left above the block's `case A:` and `case B, C:`, an empty branch that catches them
    first), or drops one of the values of a file branch the block's new branches split (`case A:` and
    `case B:` in place of `case A, B, C:`: C now goes to `default`), or None."""
    own = {x.strip() for x in a}
    left = {x.strip() for x in b}
    mine = [block_merge.arm_values(label) for r in reads for x in split_lines(r.text)
            if x.strip() not in own and (label := block_merge._arm(x.strip()))]
    taken = set().union(*mine) if mine else set()
    for x in a:
        label = block_merge._arm(x.strip())
        if label and x.strip() not in left and any(block_merge.arm_values(label) > v for v in mine) \
                and (lost := block_merge.arm_values(label) - taken):
            return f"the result drops `{sorted(lost)[0]}` of the file's `{x.strip()[:60]}`, which no branch of " \
                   "the block takes"
    for r in reads:
        lines, code, found = _located(r, b)
        heads = {p for c, p in zip(code, found or []) if block_merge._arm(lines[c].strip())}  # the block's own
        for k, at in zip(code, found or []):
            label = block_merge._arm(lines[k].strip())
            if label is None or lines[k].strip() in own:
                continue
            lead = block_merge._lead(b[at])
            for walk in (range(at - 1, -1, -1), range(at + 1, len(b))):
                for p in walk:
                    if b[p].strip() and len(block_merge._lead(b[p])) < len(lead):
                        break  # out of the switch
                    theirs = block_merge._arm(b[p].strip()) if block_merge._lead(b[p]) == lead else None
                    if theirs and p not in heads and b[p].strip() in own and \
                            block_merge.arm_values(theirs) & block_merge.arm_values(label):
                        return f"the result keeps the branch `{b[p].strip()[:60]}` beside the block's " \
                               f"`{lines[k].strip()[:60]}`, which takes its place"
    return None


def _shown(a: list[str], reads: list[lazy_block.Block], b: list[str], kept: dict[int, int]) -> set[int]:
    """The file lines (0-based) a block shows in full, so that it may change them: those between two of its
    lines that the result kept as file lines, with no marker between the two and no more statements between
    them in the file than in the block, past SLACK_LINES (what stands there is what the block shows); and at a
    run's edge, those its new lines past its outer kept line rewrite (edited lines, each like the file's line
    it replaces: core/block_merge.py `like_run`). Only lines the file has once count as kept (a `fi` or a `}`
    the block shows may close its own new lines). `a`, `b`: the file's and the result's lines, `kept`:
    _kept(a, b)."""
    out = set()
    once = Counter(x.strip() for x in a)
    for r in reads:
        lines, code, found = _located(r, b)
        if found is None:
            continue
        anchors = [(k, kept[p]) for k, p in zip(code, found) if kept.get(p) is not None and once[b[p].strip()] == 1]
        for (k1, d1), (k2, d2) in zip(anchors, anchors[1:]):
            if d1 < d2 and not any(m in r.markers for m in range(k1, k2)) and block_merge.statements(
                    [x.strip() for x in a[d1 + 1:d2]]) <= block_merge.statements(
                    [x.strip() for x in lines[k1 + 1:k2]]) + SLACK_LINES:  # neighbours in the file as in the block
                out.update(range(d1 + 1, d2))
        where = dict(zip(code, found))
        for k, d, step in ([(anchors[0] + (-1,))] + [anchors[-1] + (1,)]) if anchors else ():
            made, j = [], k + step  # the block's new lines past its outer kept line, outward
            while 0 <= j < len(lines) and j not in r.markers and (j not in where or kept.get(where[j]) is None):
                made += [lines[j].strip()] if j in where else []
                j += step
            outward = [x.strip() for x in (a[d + 1:] if step > 0 else a[:d][::-1])]
            like = block_merge.like_run(made, outward)  # edited lines: each like the file's it replaces
            out.update(range(d + step, d + step * (like + 1), step))
        # a branch head whose values the block's new branches split (`case A, B:` made `case A:` and `case B:`)
        split = [block_merge.arm_values(label) for k in code if lines[k].strip() not in once
                 and (label := block_merge._arm(lines[k].strip()))]
        out.update(d for d, x in enumerate(a) if split and (label := block_merge._arm(x.strip()))
                   and any(block_merge.arm_values(label) > v for v in split))
    return out


def _anchor(m: int, step: int, n: int, markers: frozenset, pos: dict[int, int],
            kept: dict[int, int]) -> tuple[int | None, int | None, int]:
    """From marker m, walking the block's lines one way (`step`) up to another marker or the block's end: the
    first code line the result kept as a file line (its block index and file index, or None and None), and
    how many new lines (the block's, not the file's) lie before it."""
    made, k = 0, m + step
    while 0 <= k < n and k not in markers:
        if k in pos:
            if (d := kept.get(pos[k])) is not None:
                return k, d, made
            made += 1
        k += step
    return None, None, made


def _located(r: lazy_block.Block, have: list[str]) -> tuple[list[str], list[int], list[int] | None]:
    """A block's lines, the indexes of its code lines (not blank, no marker), and where each of those is in
    `have`, matched in order (None: not all are)."""
    lines = split_lines(r.text)
    code = [k for k, line in enumerate(lines) if line.strip() and k not in r.markers]
    return lines, code, _placed([lines[k] for k in code], have)


def _unmatched(want: list[str], have: list[str]) -> list[str]:
    """The lines of `want` that `have` does not hold, matched in order (each line of `have` used once)."""
    out, at = [], 0
    for w in want:
        try:
            at = have.index(w, at) + 1
        except ValueError:
            out.append(w)
    return out


def _body(a: list[str], walk: range, depth: int) -> list[int]:
    """The file lines from `walk`'s start on (either way) indented at least `depth`: a body's rest or start."""
    out = []
    for k in walk:
        if a[k].strip() and len(block_merge._lead(a[k])) < depth:
            break
        out.append(k)
    return out


def _kept(a: list[str], b: list[str]) -> dict[int, int]:
    """Result line index -> the file line index it is (lines equal when stripped, aligned as _changed aligns)."""
    head, tail, matcher = _aligned(a, b)
    out = {k: k for k in range(head)} | {len(b) - 1 - t: len(a) - 1 - t for t in range(tail)}
    for i, j, n in matcher.get_matching_blocks():
        out.update({head + j + t: head + i + t for t in range(n)})
    return out


def _placed(want: list[str], have: list[str]) -> list[int] | None:
    """The index in `have` of each of `want`'s lines, `want` matched in order (stripped), or None."""
    out, at = [], -1
    for w in want:
        at = next((k for k in range(at + 1, len(have)) if have[k].strip() == w.strip()), None)
        if at is None:
            return None
        out.append(at)
    return out


def _changed(a: list[str], b: list[str], where: bool = False) -> list[tuple]:
    """The changed runs from lines `a` to `b` (compared stripped): (old lines, new lines), or with `where`
    (the first old line's index, old lines, new lines)."""
    head, tail, matcher = _aligned(a, b)
    x, y = a[head:len(a) - tail], b[head:len(b) - tail]
    return [((head + i1,) if where else ()) + (x[i1:i2], y[j1:j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _aligned(a: list[str], b: list[str]) -> tuple[int, int, difflib.SequenceMatcher]:
    """Lines `a` and `b` aligned (compared stripped): the common head's and tail's lengths, and a matcher of
    what lies between. The head and tail are cut first, so a long file costs a short diff."""
    head = 0
    while head < min(len(a), len(b)) and a[head].strip() == b[head].strip():
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail].strip() == b[-1 - tail].strip():
        tail += 1
    x, y = a[head:len(a) - tail], b[head:len(b) - tail]
    return head, tail, difflib.SequenceMatcher(None, [s.strip() for s in x], [s.strip() for s in y], autojunk=False)


_KEYWORDS = {"if", "for", "while", "switch", "catch", "with", "elif", "else", "return", "function", "try", "except", "when",
             "match", "case", "await", "async", "new", "typeof", "super", "print", "assert", "not", "and", "or", "in"}


def _names(line: str, language: str | None) -> set[str]:
    if language == "markdown":
        m = _HEADING.match(line.strip())
        return {m.group(1)} if m else set()
    return {g for m in _DEFINED.finditer(line) for g in m.groups() if g and g not in _KEYWORDS}


def _may_change(k: int, lines: list[str], symbols: list[Symbol], names: set[str], assigned: set[str]) -> bool:
    """Whether file line k (0-based) lies where the blocks may change the file: in a function they name (or
    one inside it), in a class they name but outside its functions (a class shown with a marker stands for the
    members it does not show), on an import line, or in a top-level assignment of a name they assign."""
    around = [s for s in symbols if s.start - 1 <= k < s.end]
    for s in around:
        if s.name in names and (s.kind in ("function", "method") or not any(
                f.kind in ("function", "method") and f.start > s.start for f in around)):
            return True
    if _IMPORTISH.match(lines[k]):
        return True
    j = k
    while j > 0 and (lines[j][:1].isspace() or lines[j].strip()[:1] in ")]}" or not lines[j].strip()):
        j -= 1
    if _IMPORTISH.match(lines[j]):  # a line of an import that spans several
        return True
    m = _ASSIGNED.match(lines[j])
    return m is not None and m.group(1) in assigned
