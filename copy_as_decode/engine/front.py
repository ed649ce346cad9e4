"""The one `edit()` that both engines share: the request, the selector (engine/selectors/), prompt, output budget,
context check, timing and stop reasons. An engine supplies only the decodes.

An edit either finishes (stop reason `eos` or `fence`) and returns the edited document, or raises and
changes nothing: a decode cut off by its budget or the context is never resolved into deletions. A finished
result passes these checks here (`checked`), whatever selector and engine made it and whichever door asked (the
command line, the worker and so the language server, an apply's parts the model places), before anything is
written: no window's rewrite holds the lines around its window (core/outside_window.py; else stop `outside`); it
parses where the document did (core/syntax_check.py; else stop `unparsed`), and it drops no run of lines nor any
statement the instruction did not ask to delete, in the file nor in any window a windowed edit rewrote
(core/deletions.py; else stop `skipped`); those two carry the refused text for review.
"""
import threading
import time
from dataclasses import replace

from copy_as_decode.core import contract
from copy_as_decode.core.budget import Budget, output_budget, program_bound, rewrite_bound
from copy_as_decode.core.contract import (
    CAP,
    CONTEXT,
    NORMAL_STOPS,
    OUTSIDE,
    PARTIAL,
    SKIPPED,
    UNPARSED,
    Hooks,
    IncompleteEdit,
)
from copy_as_decode.core.deletions import deleted_lines, unasked
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import outline
from copy_as_decode.core.outside_window import repeated
from copy_as_decode.core.program import Item, format_item, format_program
from copy_as_decode.core.resolver import resolve
from copy_as_decode.core.syntax_check import new_errors
from copy_as_decode.engine import selectors
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.request import DecodePlan, EditRequest
from copy_as_decode.engine.result import EditResult


class EditFront:
    """Base of engine.local.LocalEngine and engine.remote.client.RemoteEngine, which give it their tokenizer, context (None:
    unknown) and whether the model was trained to write programs.

    Selectors run an edit through three calls: program(), rewrite() and choose(); an engine implements the
    decodes behind them, `_decode_program`, `_decode_rewrite` and `_choose`.
    """

    layout = prompt.DEFAULT_LAYOUT  # where a rewrite prompt puts the instruction (engine/prompts/prompt.py LAYOUTS)

    def __init__(self, tok, context: int | None, trained: bool):
        self.tok, self.context, self.trained = tok, context, trained
        self.tok_lock = threading.Lock()  # HF fast tokenizers are not safe to call from several threads
        # The last decode when it was a finished rewrite: its conversation, ending with the answer as the model
        # wrote it (token ids), and the document that answer is. While the engine's cache still holds those
        # tokens (held()), a rewrite of that document (the answer accepted, then refined) continues the
        # conversation and prefills only its new instruction.
        self.said: tuple[list[dict], str] | None = None
        # The text whose rewrite prompt engine/read_ahead.py read ahead, in prompt.PREPARED_LAYOUT: a rewrite of
        # exactly that text uses that layout, so it finds the head in the cache.
        self.prepared: str | None = None

    def edit(self, *fields, **named) -> EditResult:
        """The edit engine.request.EditRequest's fields ask for (the document, the instruction, the selector,
        lines (the editor's selection), at (its cursor line), language, ...), its selector resolved."""
        return self.run(self.resolve(EditRequest(*fields, **named)))

    def resolve(self, request: EditRequest) -> EditRequest:
        """The request with the selector it runs (selector_for), which every door resolves once; an unknown
        name is a ValueError."""
        bounded = request.lines is not None or request.place is not None
        name = self.selector_for(request.selector, bounded, request.at)
        selectors.get(name)
        return replace(request, selector=name)

    def run(self, request: EditRequest) -> EditResult:
        """A resolved request's edit: its result, or IncompleteEdit (nothing changed) with what ran."""
        chosen, name = selectors.get(request.selector), request.selector
        start = time.perf_counter()
        try:
            result = chosen.run(self, request)
            checked(request, result, chosen.offered)
        except IncompleteEdit as e:  # what ran, and for how long, is part of the report
            e.stats.total_s, e.stats.selector = time.perf_counter() - start, e.stats.selector or name
            raise
        result.stats.total_s, result.stats.selector = time.perf_counter() - start, result.stats.selector or name
        result.stats.deleted_lines = deleted_lines(request.document, result.text)
        return result

    def selector_for(self, selector: str, bounded: bool, at: int | None) -> str:
        """The selector an edit runs: a selection, or a place found before the edit (`bounded`), is always the
        window of a windowed edit (only those lines may change: `windowed`, or `once` when asked); `auto` is
        `windowed` when the editor gives the cursor, else auto_selector()."""
        if selector == contract.AUTO and at is not None or \
                bounded and selector != "forced" and not selectors.edits_windows(selector):
            return "windowed"
        return self.auto_selector() if selector == contract.AUTO else selector

    def auto_selector(self) -> str:
        """`auto`: the program selector only for a model trained to write programs (a LoRA adapter); any
        other model gets `windowed`: its own rewrite (`verified`, exactly what it would write, at copying
        speed) of the part of the file the instruction is about, or of the whole file when none is found.
        Untrained models write poor programs: they pick the wrong spans, most often the worked examples' first
        copy (docs/training.md, "Results" and "Grammar rules"), and on a long file the untrained 0.5B copies
        one line per tag."""
        return "grammar" if self.trained else "windowed"

    def encode(self, text: str) -> list[int]:
        with self.tok_lock:
            return prompt.text_ids(self.tok, text)

    def prompt_ids(self, document: str, instruction: str, selector: str) -> list[int]:
        """The prompt an edit of `document` with `selector` decodes after (what the prompt cache keys on)."""
        return self._prompt(EditRequest(document, instruction, selector), selectors.get(selector).program)[0]

    def _prompt(self, request: EditRequest, program: bool) -> tuple[list[int], str | None]:
        """(prompt ids, the rewrite's opening fence or None for a program); a rewrite reads and writes "\n"."""
        with self.tok_lock:
            if program:
                return prompt.program_prompt(self.tok, split_lines(request.document), request.instruction), None
            return prompt.rewrite_prompt(self.tok, request.lf, request.instruction, self.layout)

    # the runner selectors call

    def program(self, request: EditRequest, forced: list[Item] | None, splice: bool = True) -> EditResult:
        """The model's copy/gen program for the request (or `forced` fed through the same loop); `splice`:
        whether copied lines are fed into the cache (False: the model read them in its prompt)."""
        self.said = None
        lines = split_lines(request.document)
        ids, _ = self._prompt(request, True)
        tag = len(self.encode(f'<copy lines="{len(lines)}-{len(lines)}"/>\n'))
        if forced is not None:  # each item alone, so every copy tag ends on a token boundary; then the end
            n = sum(len(self.encode(format_item(item))) for item in forced) + 1
            plan = output_budget(n, n, len(ids), self.context, None)
        else:
            bound = program_bound(len(self.encode(request.document)), len(lines), tag)
            plan = output_budget(bound, tag, len(ids), self.context, request.max_new_tokens)
        items, stats = self._decode_program(DecodePlan(request, ids, plan, lines=lines, forced=forced, splice=splice))
        _finished(stats, plan)
        return EditResult(request.restore(resolve(items, lines)), stats, program=format_program(items, sep=""))

    def rewrite(self, request: EditRequest, draft: bool) -> EditResult:
        """The model's rewrite of the request's document, drafted from it and checked when `draft` (`verified`),
        or decoded token by token (`full`): the same greedy output either way."""
        lf = request.lf
        prepared = lf == self.prepared
        layout = prompt.PREPARED_LAYOUT if prepared else self.layout
        with self.tok_lock:
            ids, fence, messages = prompt.rewrite_turn(self.tok, lf, request.instruction, layout)
            if self.said is not None and self.said[1].rstrip("\n") == lf.rstrip("\n"):
                turn = prompt.rewrite_turn(self.tok, lf, request.instruction, layout, self.said[0])
            else:
                turn = None
        # the conversation only when it costs less to prefill than a fresh prompt (its tokens are still held)
        follows = turn is not None and len(turn[0]) - self.held(turn[0]) < len(ids) - self.held(ids)
        if follows:
            ids, fence, messages = turn
        self.said = None
        n = len(self.encode(lf))
        plan = output_budget(rewrite_bound(n), n, len(ids), self.context, request.max_new_tokens)
        tokens, text, stats = self._decode_rewrite(DecodePlan(request, ids, plan, fence=fence, draft=draft))
        stats.follows, stats.prepared = int(follows), int(prepared)
        if stats.stop in NORMAL_STOPS and not prompt.rewrite_finished(text, fence, lf):
            stats.stop = PARTIAL
        _finished(stats, plan)
        body = prompt.fenced_text(text, fence)
        self.said = (messages + [{"role": "assistant", "content": self.encode(fence + "\n") + list(tokens)}], body)
        return EditResult(request.restore(body), stats, tokens, before=request.document)

    def held(self, ids: list[int]) -> int:
        """How many of `ids`' first tokens the engine's cache holds now (0: it cannot tell)."""
        return 0

    def choose(self, ids: list[int], options: list[str], hooks: Hooks) -> tuple[str, float] | None:
        """The model's greedy pick of one of `options` after prompt `ids`, with the probability it gave it;
        None where the engine cannot constrain a choice."""
        self.said = None
        return self._choose(ids, options, hooks)

    def choose_place(self, instruction: str, candidates: str, options: list[str],
                     hooks: Hooks) -> tuple[str, float] | None:
        """choose() after the prompt of a choice of the place an instruction is about, among `candidates` (their
        names and first lines: core/windows.py choice_text)."""
        with self.tok_lock:
            ids = prompt.choice_prompt(self.tok, instruction, candidates)
        return self.choose(ids, options, hooks)

    def choose_neighbour(self, new: str, candidates: str, options: list[str],
                         hooks: Hooks) -> tuple[str, float] | None:
        """choose() after the prompt of a choice of the definition that a `new` one goes right after, among
        `candidates` (their names and first lines, in the file's order)."""
        with self.tok_lock:
            ids = prompt.neighbour_prompt(self.tok, new, candidates)
        return self.choose(ids, options, hooks)

    # the engine's part

    def _decode_program(self, plan: DecodePlan) -> tuple[list[Item], Stats]:
        """Decode (or feed `plan.forced`) a program after prompt `plan.ids`; `stats.stop` says why it ended."""
        raise NotImplementedError

    def _choose(self, ids: list[int], options: list[str], hooks: Hooks) -> tuple[str, float] | None:
        """Greedy choice of one of `options` after prompt `ids`, with the probability the model gave it;
        None where the backend cannot constrain a choice (then a windowed edit takes the whole file)."""
        return None

    def _decode_rewrite(self, plan: DecodePlan) -> tuple[list[int], str, Stats]:
        """Greedy rewrite of `plan.request.lf` after prompt `plan.ids` (ending with the opening `plan.fence`),
        drafted from the document when `plan.draft`; `stats.stop` says why it ended."""
        raise NotImplementedError


def checked(request: EditRequest, result: EditResult, offered: bool) -> None:
    """Raise IncompleteEdit when a finished result may not be written: a window's rewrite that holds the lines
    around its window (nothing to review: the model rewrote more than it was given); a window of a windowed edit
    that drops lines unasked, each window counted as a file of its own (its head, its tail); a result with parse
    errors the document did not have; a result that drops lines or statements unasked (these three with the
    result for review). A given program fed (`offered` False) is the caller's, not the model's: only its parse
    is checked."""
    language = request.language or outline(request.document)[0]
    lines = split_lines(request.lf) if result.rewrites else []
    if offered and (outside := [f"the rewrite of lines {at + 1}-{at + len(split_lines(old))} repeats {where}"
                                for at, old, new in result.rewrites if (where := repeated(lines, at, old, new))]):
        raise IncompleteEdit(OUTSIDE, result.stats.budget, result.stats, "; ".join(outside) + ": the model "
                             "rewrote more than its window")
    if offered and (dropped := [d.describe(at, "window") for at, old, new in result.rewrites
                                for d in unasked(old, new, request.instruction)]):
        raise IncompleteEdit(SKIPPED, result.stats.budget, result.stats, "the model's rewrite deletes "
                             + "; ".join(dropped) + " unasked", result.text)
    if broken := new_errors(request.document, result.text, language):
        raise IncompleteEdit(UNPARSED, result.stats.budget, result.stats, f"the result no longer parses "
                             f"as {language} ({broken[0].describe()})", result.text)
    if offered and (dropped := unasked(request.document, result.text, request.instruction, language)):
        raise IncompleteEdit(SKIPPED, result.stats.budget, result.stats, "the model's answer deletes "
                             + "; ".join(d.describe() for d in dropped) + " unasked", result.text)


def _finished(stats: Stats, plan: Budget) -> None:
    """Raise IncompleteEdit unless the decode ended normally; a cap set by the context is a `context` stop."""
    if stats.stop == CAP and plan.by_context:
        stats.stop = CONTEXT
    if stats.stop not in NORMAL_STOPS:
        raise IncompleteEdit(stats.stop, plan.limit, stats)
