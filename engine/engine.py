"""The engine: a loaded model plus the three ways to produce an edit, all returning a copy/gen program."""
import re
import time
from dataclasses import dataclass, field

import torch

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_item, format_program, parse
from copy_as_decode.core.resolver import resolve

from . import models, prompt
from .constraint import ProgramConstraint
from .decode import Hooks, decode_program, decode_rewrite
from .drafter import LineDrafter
from .prefix_cache import PrefixCache
from .stats import Stats
from .tracker import ProgramTracker

SELECTORS = ("grammar", "verified", "full", "forced")
_FENCE = re.compile(r"(?:^|\n)```")


class ContextError(ValueError):
    """The prompt plus the output budget does not fit the model's context."""


@dataclass
class EditResult:
    text: str
    program: str
    stats: Stats
    tokens: list[int] = field(default_factory=list)  # the rewrite's output ids (verified/full), for exactness checks


def fenced_text(text: str) -> str:
    """The file part of a rewrite: everything before the closing ``` line."""
    m = _FENCE.search(text)
    return text if m is None else text[: m.start() + (1 if m.group().startswith("\n") else 0)]


def with_line_endings_of(document: str, new: str) -> str:
    """A rewrite (written with "\\n", as the prompt showed the file) with the document's CRLF endings back."""
    return new.replace("\r\n", "\n").replace("\n", "\r\n") if "\r\n" in document else new


class Engine:
    def __init__(self, model: str = models.DEFAULT_MODEL, device: str | None = None, dtype: str | None = None,
                 threads: int | None = None):
        if threads:
            torch.set_num_threads(threads)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.dtype = dtype or ("bfloat16" if self.device.startswith("cuda") else "float32")
        self.model_name = model
        self.model, self.tok = models.load(model, self.device, self.dtype)
        self.eos = models.eos_id(self.tok)
        self.n_vocab = self.model.config.vocab_size
        self.context = getattr(self.model.config, "max_position_embeddings", 32768)
        self.prefix = PrefixCache()

    def edit(self, document: str, instruction: str, selector: str = "verified", *, program: str | None = None,
             max_new_tokens: int = 2048, temperature: float = 0.0, hooks: Hooks = Hooks()) -> EditResult:
        if selector not in SELECTORS:
            raise ValueError(f"unknown selector {selector!r}; choose one of {', '.join(SELECTORS)}")
        start = time.perf_counter()
        if selector in ("grammar", "forced"):
            result = self._program(document, instruction, program if selector == "forced" else None,
                                   max_new_tokens, temperature, hooks)
        else:
            result = self._rewrite(document, instruction, selector == "verified", max_new_tokens, hooks)
        result.stats.total_s = time.perf_counter() - start
        return result

    def _check_context(self, prompt_ids: list[int], max_new_tokens: int) -> None:
        if len(prompt_ids) + max_new_tokens > self.context:
            raise ContextError(f"document too long: prompt {len(prompt_ids)} + {max_new_tokens} new tokens "
                               f"exceeds the model's context of {self.context} tokens")

    def _program(self, document, instruction, program, max_new_tokens, temperature, hooks) -> EditResult:
        lines = split_lines(document)
        messages = prompt.program_messages(lines, instruction)
        ids = prompt.prompt_ids(self.tok, messages)
        head = prompt.shared_head(self.tok, ids, messages)
        forced = None
        if program is not None:  # each item tokenized alone, so every copy tag ends on a token boundary
            forced = [t for item in parse(program) for t in self.tok.encode(format_item(item), add_special_tokens=False)]
            forced.append(self.eos)
            max_new_tokens = len(forced)
        self._check_context(ids, max_new_tokens)
        tracker = ProgramTracker()
        start = time.perf_counter()
        cache = self.prefix.start(self.model, ids[:head]) if head else None
        head_s = time.perf_counter() - start
        stats = decode_program(self.model, self.tok, ids, lines, ProgramConstraint(self.tok, self.n_vocab, len(lines)),
                               tracker, self.eos, max_new_tokens=max_new_tokens, temperature=temperature,
                               forced=forced, cache=cache, hooks=hooks)
        stats.prefill_s += head_s  # the head's forward when not cached yet, else copying its cache
        # A program cut off by the token cap keeps its complete items; an unfinished tail is dropped.
        text = format_program(tracker.items, sep="")
        return EditResult(resolve(tracker.items, lines), text, stats)

    def _rewrite(self, document, instruction, verified, max_new_tokens, hooks) -> EditResult:
        lf = document.replace("\r\n", "\n")
        ids = prompt.prompt_ids(self.tok, prompt.rewrite_messages(lf, instruction), prompt.REWRITE_PREFIX)
        self._check_context(ids, max_new_tokens)
        drafter = LineDrafter(self.tok, lf) if verified else None
        out, text, stats = decode_rewrite(self.model, self.tok, ids, self.eos, lambda t: _FENCE.search(t) is not None,
                                          drafter=drafter, max_new_tokens=max_new_tokens, hooks=hooks)
        new = with_line_endings_of(document, fenced_text(text))
        return EditResult(new, format_program(line_oracle(document, new)), stats, out)
