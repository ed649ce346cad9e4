"""The one `edit()` that both engines share: selector check, prompt, output budget, context check, timing,
stop reasons, and the document's line endings. An engine supplies only the two decodes.

An edit either finishes (stop reason `eos` or `fence`) and returns the edited document, or raises and
changes nothing: a decode cut off by its budget or the context is never resolved into deletions.
"""
import time
from dataclasses import dataclass, field

from copy_as_decode.core import contract
from copy_as_decode.core.contract import (CAP, CONTEXT, NORMAL_STOPS, PARTIAL, SKIPPED, Budget, Hooks,
                                          IncompleteEdit)
from copy_as_decode.core.deletions import asks_deletion, deleted_lines, skipped_end
from copy_as_decode.core.document import split_lines, with_line_endings
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Item, format_item, format_program, parse
from copy_as_decode.core.resolver import resolve

from . import prompt, windowed
from .stats import Stats


@dataclass
class EditResult:
    text: str
    program: str
    stats: Stats
    tokens: list[int] = field(default_factory=list)  # the rewrite's output ids (verified/full), for exactness checks


class EditFront:
    """Base of engine.Engine and engine.remote.RemoteEngine; they set `tok`, `context` and `tok_lock`."""

    layout = prompt.DEFAULT_LAYOUT  # where a rewrite prompt puts the instruction (engine/prompt.py LAYOUTS)

    def edit(self, document: str, instruction: str, selector: str = contract.DEFAULT_SELECTOR, *,
             program: str | None = None, max_new_tokens: int | str | None = None, temperature: float = 0.0,
             hooks: Hooks = Hooks(), lines: tuple[int, int] | None = None,
             language: str | None = None) -> EditResult:
        """lines: the editor's selection (1-based, inclusive), the window a `windowed` edit rewrites;
        language: python, javascript or markdown, else read from the document."""
        if contract.check_selector(selector) == contract.AUTO:
            selector = self.auto_selector()
        explicit = contract.parse_budget(max_new_tokens)
        start = time.perf_counter()
        try:
            if selector in ("grammar", "forced"):
                if selector == "forced" and program is None:
                    raise ValueError("selector `forced` needs a program")
                result = self._program(document, instruction, parse(program) if program is not None else None,
                                       explicit, temperature, hooks)
            elif selector == "windowed":
                result = windowed.edit(self, document, instruction, explicit, hooks, lines, language)
            else:
                result = self._rewrite(document, instruction, selector == "verified", explicit, hooks)
            if selector != "forced" and (end := skipped_end(document, result.text)) and not asks_deletion(instruction):
                raise IncompleteEdit(SKIPPED, result.stats.budget, result.stats,
                                     f"the model's answer leaves out the file's {end} unasked")
        except IncompleteEdit as e:  # what ran, and for how long, is part of the report
            e.stats.total_s, e.stats.selector = time.perf_counter() - start, e.stats.selector or selector
            raise
        result.stats.total_s, result.stats.selector = time.perf_counter() - start, result.stats.selector or selector
        result.stats.deleted_lines = deleted_lines(document, result.text)
        return result

    def auto_selector(self) -> str:
        """`auto`: the program selector only for a model trained to write programs (a LoRA adapter); any
        other model gets `windowed`: its own rewrite (`verified`, exactly what it would write, at copying
        speed) of the part of the file the instruction is about, or of the whole file when none is found.
        Untrained models write poor programs (0/12 exact for the 0.5B and the 1.5B, README "Teaching the
        model"), and on a long file the untrained 0.5B copies one line per tag."""
        return "grammar" if self.trained else "windowed"

    def encode(self, text: str) -> list[int]:
        with self.tok_lock:
            return prompt.text_ids(self.tok, text)

    def prompt_ids(self, document: str, instruction: str, selector: str) -> list[int]:
        """The prompt an edit of `document` with `selector` decodes after (what the prompt cache keys on)."""
        return self._prompt(document, instruction, selector in ("grammar", "forced"))[0]

    def _prompt(self, document: str, instruction: str, program: bool) -> tuple[list[int], str | None]:
        """(prompt ids, the rewrite's opening fence or None for a program); the rewrite reads and writes "\n"
        (with_line_endings restores the document's endings)."""
        with self.tok_lock:
            if program:
                return prompt.program_prompt(self.tok, split_lines(document), instruction), None
            return prompt.rewrite_prompt(self.tok, document.replace("\r\n", "\n"), instruction, self.layout)

    def _program(self, document, instruction, forced: list[Item] | None, explicit, temperature, hooks):
        lines = split_lines(document)
        ids, _ = self._prompt(document, instruction, True)
        tag = len(self.encode(f'<copy lines="{len(lines)}-{len(lines)}"/>\n'))
        if forced is not None:  # each item alone, so every copy tag ends on a token boundary; then the end
            n = sum(len(self.encode(format_item(item))) for item in forced) + 1
            plan = contract.budget(n, n, len(ids), self.context, None)
        else:
            bound = contract.program_bound(len(self.encode(document)), len(lines), tag)
            plan = contract.budget(bound, tag, len(ids), self.context, explicit)
        items, stats = self._decode_program(ids, lines, plan, forced, temperature, hooks)
        _finished(stats, plan)
        new = with_line_endings(document, resolve(items, lines))
        return EditResult(new, format_program(items, sep=""), stats)

    def _rewrite(self, document, instruction, verified: bool, explicit, hooks):
        lf = document.replace("\r\n", "\n")
        ids, fence = self._prompt(document, instruction, False)
        n = len(self.encode(lf))
        plan = contract.budget(contract.rewrite_bound(n), n, len(ids), self.context, explicit)
        tokens, text, stats = self._decode_rewrite(ids, fence, lf, verified, plan, hooks)
        if stats.stop in NORMAL_STOPS and not prompt.rewrite_finished(text, fence, lf):
            stats.stop = PARTIAL
        _finished(stats, plan)
        new = with_line_endings(document, prompt.fenced_text(text, fence))
        return EditResult(new, format_program(line_oracle(document, new)), stats, tokens)

    # the engine's part

    def _decode_program(self, ids: list[int], lines: list[str], plan: Budget,
                        forced: list[Item] | None, temperature: float, hooks: Hooks) -> tuple[list[Item], Stats]:
        """Decode (or feed `forced`) a program after prompt `ids`; `stats.stop` says why it ended."""
        raise NotImplementedError

    def _choose(self, ids: list[int], options: list[str], hooks: Hooks) -> tuple[str, float] | None:
        """Greedy choice of one of `options` after prompt `ids`, with the probability the model gave it;
        None where the backend cannot constrain a choice (then a windowed edit takes the whole file)."""
        return None

    def _decode_rewrite(self, ids: list[int], fence: str, document: str, verified: bool, plan: Budget,
                        hooks: Hooks) -> tuple[list[int], str, Stats]:
        """Greedy rewrite after prompt `ids` (ending with the opening `fence`); `stats.stop` says why it ended."""
        raise NotImplementedError


def _finished(stats: Stats, plan: Budget) -> None:
    """Raise IncompleteEdit unless the decode ended normally; a cap set by the context is a `context` stop."""
    if stats.stop == CAP and plan.by_context:
        stats.stop = CONTEXT
    if stats.stop not in NORMAL_STOPS:
        raise IncompleteEdit(stats.stop, plan.limit, stats)
