"""The windowed edit: `verified` on the windows of a document the instruction is about (core/windows.py), every
other line copied without a forward pass, so an edit of one function costs about the same in a 3,000-line
file as in the function alone. A place found before the edit (EditRequest's `place`, engine/locate.py) is
taken as it is, not found again.

Each window is rewritten as a file of its own (dedented to its common indent, so a method reads like a
function), with the prompt of a whole-file rewrite: its size follows the window, not the document. Nothing
else of the file is shown: with the file's imports and the enclosing class header before the window, the 0.5B
more often copied the window unchanged. The windows' rewrites and copies of everything else make one
copy/gen program over the whole document, which the resolver turns into the edited document: nothing outside
the windows can change. Every window must finish, and none may drop its own head or tail, or nothing changes.
A window moved out of its class (core/windows.py `Window.to`) is rewritten the same way, as a function, and
goes after the class at the top level: its unchanged lines are moved copies with their new indentation.

`once` reads each window once: the model writes a copy/gen program over the window it was just shown
(numbered), and its copies feed nothing into the cache, since the prompt holds those lines. A rewrite reads
the window twice, as its prompt and as its checked draft, and on a CPU a checked token costs about half a
decode step. It is for a model trained to write such programs: untrained, or trained with the copied lines
spliced, the 1.5B copies most windows unchanged (docs/benchmarks.md, "Reading the window once").
"""
import re
import time
from dataclasses import replace

from copy_as_decode.core import windows
from copy_as_decode.core.contract import Hooks, IncompleteEdit
from copy_as_decode.core.document import dedent, indent_of, reindent, split_lines
from copy_as_decode.core.oracle import line_oracle, merged
from copy_as_decode.core.program import Copy, Gen, Item, format_program
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult
from copy_as_decode.engine.selectors import Front, Run, Selector
from copy_as_decode.engine.selectors.rewrite import VERIFIED


class _Clock:
    """When a windowed edit sampled its first token and streamed its first whole line, from its start."""

    def __init__(self):
        self.start, self.token, self.line = time.perf_counter(), 0.0, 0.0

    def since(self) -> float:
        return time.perf_counter() - self.start

    def decoded(self, began: float, stats) -> None:
        """A decode that began `began` seconds in has run: its first token was sampled when its prefill ended."""
        if not self.token and stats is not None:
            self.token = began + stats.prefill_s


class _Labelled(Hooks):
    """Progress of one window, with which window it is; for a rewrite of `lines` (shown dedented by `indent`,
    in a block closed by `fence`), its new text so far in whole lines, indented as it will be written
    (Hooks.partial), each time it grows."""

    def __init__(self, hooks: Hooks, label: str, clock: _Clock | None = None, lines: tuple[int, int] | None = None,
                 indent: str = "", fence: str = "```"):
        self.hooks, self.label, self.clock = hooks, label, clock
        self.lines, self.indent, self.fence, self.shown = lines, indent, fence, 0

    def check(self) -> None:
        self.hooks.check()

    def progress(self, stats, text: str) -> None:
        stats.windows = self.label
        self.hooks.progress(stats, text)
        if self.lines is not None:
            done = prompt.fenced_text(text[:text.rfind("\n") + 1], self.fence)
            if done.count("\n") > self.shown:
                self.shown = done.count("\n")
                if self.clock is not None and not self.clock.line:
                    self.clock.line = self.clock.since()
                self.hooks.partial({"lines": list(self.lines), "text": reindent(done, self.indent)})

    def place(self, place: dict) -> None:
        self.hooks.place(place)

    def partial(self, partial: dict) -> None:
        self.hooks.partial(partial)


def _trailing_blanks(text: str) -> int:
    lines = split_lines(text)
    return next((k for k, line in enumerate(reversed(lines)) if line.strip()), len(lines))


def _program(front: Front, part: EditRequest) -> EditResult:
    return front.program(part, None, splice=False)


def edit(front: Front, request: EditRequest, decode: Run = VERIFIED.run) -> EditResult:
    """`decode` edits each window (a part request); the whole file (`verified`) when no window is found, and
    stats say why."""
    instruction, hooks, clock = request.instruction, request.hooks, _Clock()
    lines = split_lines(request.lf)
    plan = request.place if request.place is not None else \
        windows.find(request.lf, instruction, request.lines, request.language, at=request.at)
    if plan.candidates:
        plan = _model_choice(front, plan, lines, instruction, hooks)
    if not plan.windows:
        hooks.place({"lines": [1, len(lines)], "symbols": [], "window": 1, "of": 1, "reason": plan.reason,
                     "whole": True})
        whole = _Labelled(hooks, "", clock, (1, len(lines)), "", prompt.fence_for(request.lf))
        began = clock.since()
        try:
            result = VERIFIED.run(front, replace(request, hooks=whole))
        except IncompleteEdit as e:
            clock.decoded(began, e.stats)
            e.stats.selector, e.stats.windows = "verified", f"whole file: {plan.reason}"
            e.stats.first_token_s, e.stats.first_line_s = clock.token, clock.line
            raise
        clock.decoded(began, result.stats)
        result.stats.selector, result.stats.windows = "verified", f"whole file: {plan.reason}"
        result.stats.first_token_s, result.stats.first_line_s = clock.token, clock.line
        return result
    try:
        texts, total = _rewrites(front, request, plan, lines, decode, clock)
    except IncompleteEdit as e:
        e.stats.first_token_s, e.stats.first_line_s = clock.token, clock.line
        raise
    total.first_token_s, total.first_line_s = clock.token, clock.line
    moved = next((texts[w] for w in plan.windows if w.to is not None), "")
    items, after, rewrites = [], 1, []
    pending: tuple[int, list[Item]] | None = None  # a moved window's rewrite and the line it goes after
    for w in plan.windows:
        if pending and w.start > pending[0]:
            items, after, pending = _placed(items, after, *pending), pending[0] + 1, None
        old = "".join(lines[w.start - 1: w.end])
        if w.to is not None:  # moved: at the top level after line w.to, its lines copied with their new indent
            new, part = texts[w].strip("\n") + "\n", []
            pending = (w.to, [Gen("\n\n")] + [Copy(i.start + w.start - 1, i.end + w.start - 1, i.indent or 0)
                                               if isinstance(i, Copy) else i for i in line_oracle(old, new)])
        else:
            new = called(old, w.calls, moved) if w.calls is not None else _put_back(old, texts[w])
            part = _shifted(line_oracle(old, new), w.start - 1)
        rewrites.append((w.start - 1, old, new))
        items += ([Copy(after, w.start - 1)] if w.start > after else []) + part
        after = w.end + 1
    if pending:
        items, after = _placed(items, after, *pending), pending[0] + 1
    if after <= len(lines):
        items.append(Copy(after, len(lines)))
    # each window's rewrite goes with the result: its own head or tail counts as the file's would when the
    # result is checked for unasked deletions (engine/front.py checked)
    return EditResult(request.restore(resolve(items, lines)), total, program=format_program(merged(items)),
                      rewrites=rewrites)


def _rewrites(front: Front, request: EditRequest, plan, lines: list[str], decode: Run, clock: _Clock) -> tuple[dict, Stats]:
    """Each window's rewrite by the model (dedented, as the window was shown), the moved window's first: the
    function it writes says how the calls of a moved method read (core/windows.py `Window.calls`, which the
    model does not rewrite)."""
    texts, total, explicit = {}, Stats(selector=request.selector, windows=plan.describe()), request.max_new_tokens
    for k, w in sorted(enumerate(plan.windows, 1), key=lambda kw: kw[1].to is None):
        if w.calls is not None:
            continue
        old = "".join(lines[w.start - 1: w.end])
        label = f"window {k}/{len(plan.windows)}: lines {w.start}-{w.end} ({', '.join(w.names)})"
        left = None if explicit is None else max(1, explicit - total.sampled)
        shown = shown_text(lines, w)
        request.hooks.place({"lines": [w.start, w.end], "symbols": _symbols(plan, w, request.lf), "window": k,
                             "of": len(plan.windows), "reason": plan.reason})
        streams = decode is VERIFIED.run and w.to is None  # a moved window's text goes elsewhere: no preview
        labelled = _Labelled(request.hooks, label, clock, (w.start, w.end) if streams else None, indent_of(old),
                             prompt.fence_for(shown))
        part = request.part(shown, left, labelled, w.note)
        began = clock.since()
        try:
            r = decode(front, part)
        except IncompleteEdit as e:
            clock.decoded(began, e.stats)
            e.stats.windows = label
            raise
        clock.decoded(began, r.stats)
        total.add(r.stats)
        total.stop = r.stats.stop
        texts[w] = r.text
    return texts, total


def shown_text(lines: list[str], w: windows.Window) -> str:
    """The text a window's rewrite prompt shows: its lines dedented to their common indent. engine/read_ahead.py
    reads the head of that prompt ahead of the instruction, so both take the text from here."""
    old = "".join(lines[w.start - 1: w.end])
    return dedent(old, indent_of(old))


def _symbols(plan, w, document: str) -> list[str]:
    """The symbols a window holds by name; for a selection, the functions, methods or sections inside it, else
    the innermost one around its first line."""
    if w.names != ("selection",):
        return list(w.names)
    from copy_as_decode.core.outline import outline
    try:
        _, symbols = outline(document, plan.language)
    except Exception:  # an outline is a label here: a document that does not parse has none
        return []
    units = windows.units(symbols)
    inside = [s for s in units if w.start <= s.start and s.end <= w.end]
    inside = [s for s in inside if not any(o is not s and o.start <= s.start and s.end <= o.end for o in inside)]
    around = min((s for s in units if s.start <= w.start <= s.end), key=lambda s: s.end - s.start, default=None)
    return [s.qualname for s in inside] or ([around.qualname] if around is not None else [])


def _put_back(old: str, rewrite: str) -> str:
    """A window's rewrite indented as the window was, ending as it did."""
    new = reindent(rewrite, indent_of(old))
    if not old.endswith("\n"):
        new = new.removesuffix("\n")
    elif new and not new.endswith("\n"):  # else the line after the window would join its last line
        new += "\n"
    # the blank lines that end a window separate it from what follows; models close their block before them
    return new + "\n" * max(0, _trailing_blanks(old) - _trailing_blanks(new))


def _model_choice(front: Front, plan, lines: list[str], instruction: str, hooks: Hooks):
    """The model picks one of the plan's candidates (a short constrained decode over their names and first
    lines), weighed against the search's first (core/windows.py choose); the whole file is edited when it
    cannot choose."""
    choice = windows.choose(plan, *(model_choice(front, plan.candidates, lines, instruction, hooks) or (None, None)))
    if choice.taken is None:
        return windows.Plan([], f"{plan.reason}, and {choice.why}", plan.language)
    return windows.chosen(plan, lines, choice)


def model_choice(front: Front, candidates: list, lines: list[str], instruction: str, hooks: Hooks):
    """(the candidate symbol the model chooses, the probability it gave it), or None where the engine cannot
    constrain a choice."""
    picked = front.choose_place(instruction, windows.choice_text(candidates, lines), [s.qualname for s in candidates],
                                _Labelled(hooks, "choosing where to edit"))
    if picked is None:
        return None
    name, p = picked
    return next(s for s in candidates if s.qualname == name), p


def called(text: str, name: str, function: str) -> str:
    """`text` with its uses of the method `name` made uses of the top-level function the model wrote for it
    (`function`): `self.name(a)` becomes `name(a)`, or `name(self, a)` when the function still takes `self`.
    This is what a refactoring tool does with the references; given such a line alone, the untrained 1.5B
    dropped its assignment, and given the method around it, it wrote a stub of the moved method there."""
    if not re.search(rf"\bdef\s+{re.escape(name)}\s*\(\s*self\b", function):
        return re.sub(rf"\bself\.{re.escape(name)}\b", name, text)
    text = re.sub(rf"\bself\.{re.escape(name)}\(\s*\)", f"{name}(self)", text)
    return re.sub(rf"\bself\.{re.escape(name)}\(", f"{name}(self, ", text)


def _shifted(items: list[Item], by: int) -> list[Item]:
    return [Copy(i.start + by, i.end + by, i.indent) if isinstance(i, Copy) else i for i in items]


def _placed(items: list[Item], after: int, to: int, moved: list[Item]) -> list[Item]:
    """`items` with the copies up to line `to` and then a moved window's rewrite."""
    return items + ([Copy(after, to)] if to >= after else []) + moved


def once(front: Front, request: EditRequest) -> EditResult:
    return edit(front, request, _program)


WINDOWED = Selector("windowed", "`verified` on the functions, classes or sections the instruction names; the rest "
                                "is copied without a forward pass", edit, windows=True)
ONCE = Selector("once", "the windows of `windowed`, each as a copy/gen program whose copies cost nothing: for a "
                        "model trained to write them", once, program=True, windows=True)
