"""The local engine: a loaded model (torch + transformers) and its two decodes; `edit()` is engine.front's."""
import json
import threading
import time

import torch

from copy_as_decode.core import grammar
from copy_as_decode.core.contract import DEFAULT_MODEL, Budget, Hooks
from copy_as_decode.core.program import Item, format_item

from . import models, prompt
from .constraint import Constraint, ProgramConstraint
from .decode import decode_choice, decode_program, decode_rewrite
from .drafter import LineDrafter
from .llama_cpp import ResidentPrefix
from .front import EditFront
from .prefix_cache import PrefixCache
from .tracker import ProgramTracker


QUANTS = ("auto", "gguf", "none")


class Engine(EditFront):
    def __init__(self, model: str = DEFAULT_MODEL, device: str | None = None, dtype: str | None = None,
                 threads: int | None = None, prompt_cache_mb: int = 1024, grammar_rule: str = "default",
                 prefill_dtype: str | None = None, quant: str = "auto"):
        """quant: `gguf` runs the model's GGUF weights as they ship (Q4_K_M for the built-ins) on llama.cpp;
        `none` dequantizes them for torch (float32 by default: the path the exactness tests prove);
        `auto` is `gguf` on a CPU for a model that has GGUF weights, unless a torch dtype is asked for
        (README "Quantized weights")."""
        grammar.rule(grammar_rule)  # an unknown name fails before the model loads
        if quant not in QUANTS:
            raise ValueError(f"unknown quant {quant!r}; choose one of {', '.join(QUANTS)}")
        self.grammar_rule = grammar_rule
        if threads:
            torch.set_num_threads(threads)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        if quant == "auto":
            quant = "gguf" if self.device == "cpu" and models.has_gguf(model) and not (dtype or prefill_dtype) else "none"
        self.quant, self.model_name = quant, model
        self.trained = models.is_trained(model)
        if quant == "gguf":
            self.dtype = self.prefill_dtype = "q4_k_m" if model in models.BUILTINS else "gguf"
            self.model, self.tok = models.load_quantized(model, threads or torch.get_num_threads())
            self.prefill_model, self.prefix = self.model, ResidentPrefix(self.model)
        else:
            self.dtype = dtype or ("bfloat16" if self.device.startswith("cuda") else "float32")
            self.model, self.tok = models.load(model, self.device, self.dtype)
            # Prompts may be prefilled by a second copy in a faster dtype (engine/prefix_cache.py); every decode
            # after the prompt runs in `dtype`, so the exactness of `verified` against `full` is `dtype`'s.
            self.prefill_dtype = prefill_dtype or self.dtype
            self.prefill_model = (self.model if self.prefill_dtype == self.dtype else
                                  models.load(model, self.device, self.prefill_dtype)[0])
            self.prefix = PrefixCache(prompt_cache_mb << 20)
        self.tok_lock = threading.Lock()
        self.eos = models.eos_id(self.tok)
        self.n_vocab = self.model.config.vocab_size
        self.context = getattr(self.model.config, "max_position_embeddings", 32768)

    def _decode_program(self, ids, lines, plan: Budget, forced: list[Item] | None, temperature, hooks: Hooks):
        script = None
        if forced is not None:  # each item tokenized alone, so every copy tag ends on a token boundary
            script = [t for item in forced for t in prompt.text_ids(self.tok, format_item(item))] + [self.eos]
        tracker = ProgramTracker()
        cache, reused, prefill_s = self._start(ids, hooks, plan.limit + len(ids))  # copies: at most the prompt's lines
        stats = decode_program(self.model, self.tok, ids, lines, ProgramConstraint(self.tok, self.n_vocab, len(lines), self.grammar_rule),
                               tracker, self.eos, max_new_tokens=plan.limit, temperature=temperature,
                               forced=script, cache=cache, context=self.context, hooks=hooks)
        stats.prefill_s, stats.prompt_cached = stats.prefill_s + prefill_s, reused
        return tracker.items, stats

    def _decode_rewrite(self, ids, fence, document, verified, plan: Budget, hooks: Hooks):
        drafter = LineDrafter(self.tok, document) if verified else None
        cache, reused, prefill_s = self._start(ids, hooks, plan.limit + 1)
        out, text, stats = decode_rewrite(self.model, self.tok, ids, self.eos,
                                          lambda text: prompt.fence_closed(text, fence), drafter=drafter,
                                          max_new_tokens=plan.limit, cache=cache, hooks=hooks)
        stats.prefill_s, stats.prompt_cached = stats.prefill_s + prefill_s, reused
        return out, text, stats

    def _choose(self, ids, options: list[str], hooks: Hooks) -> tuple[str, float]:
        grammar = "start: " + " | ".join(json.dumps(o) for o in options) + "\n"
        cache, _, _ = self._start(ids, hooks, 64)
        out, p = decode_choice(self.model, ids, Constraint(self.tok, self.n_vocab, grammar), self.eos, cache=cache,
                               hooks=hooks)
        return self.tok.decode(out), p

    def _start(self, ids: list[int], hooks: Hooks, positions: int):
        """The prompt's cache (all but its last token) from the prompt cache, and the seconds it took;
        `positions`: how many the decode after the prompt may fill."""
        hooks.check()
        start = time.perf_counter()
        cache, reused = self.prefix.start(self.model, ids, self.prefill_model, positions)
        return cache, reused, time.perf_counter() - start
