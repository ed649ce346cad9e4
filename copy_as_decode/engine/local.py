"""The local engine: a loaded model behind a decode backend (engine/backends/decode_backend.py) and its decodes;
`edit()` is engine.front's. The default, a GGUF on llama.cpp, imports neither torch nor transformers."""
import functools
import importlib.util
import json
import os
import time
from pathlib import Path

from copy_as_decode.core import grammar
from copy_as_decode.core.codec import forced_script
from copy_as_decode.core.contract import Hooks
from copy_as_decode.engine.backends import models
from copy_as_decode.engine.backends.decode_backend import DecodeBackend
from copy_as_decode.engine.decoding.constraint import Constraint, ProgramConstraint
from copy_as_decode.engine.decoding.decode import decode_choice, decode_program, decode_rewrite
from copy_as_decode.engine.decoding.drafter import LineDrafter
from copy_as_decode.engine.decoding.tracker import ProgramTracker
from copy_as_decode.engine.front import EditFront
from copy_as_decode.engine.options import DEFAULT_MODEL, PROMPT_CACHE_MB, QUANTS
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.request import DecodePlan


def cuda_present() -> bool:
    """Whether torch can run on a GPU here, asked of torch only where torch and an NVIDIA driver both are (torch
    costs seconds to import)."""
    if importlib.util.find_spec("torch") is None or not Path("/proc/driver/nvidia").exists():
        return False
    import torch
    return torch.cuda.is_available()


class LocalEngine(EditFront):
    def __init__(self, model: str = DEFAULT_MODEL, device: str | None = None, dtype: str | None = None,
                 threads: int | None = None, prompt_cache_mb: int = PROMPT_CACHE_MB, grammar_rule: str = grammar.DEFAULT_RULE,
                 prefill_dtype: str | None = None, quant: str = "auto"):
        """quant: `gguf` runs the model's GGUF weights as they ship (Q4_K_M for the built-ins) on llama.cpp;
        `none` dequantizes them for torch (float32 by default: the path the exactness tests prove);
        `auto` is `gguf` on a CPU for a model that has GGUF weights, unless a torch dtype is asked for
        (docs/benchmarks.md, "Quantized weights, measured")."""
        grammar.rule(grammar_rule)  # an unknown name fails before the model loads
        if quant not in QUANTS:
            raise ValueError(f"unknown quant {quant!r}; choose one of {', '.join(QUANTS)}")
        self.grammar_rule = grammar_rule
        if quant == "auto":
            gguf = (device or "cpu") == "cpu" and models.has_gguf(model) and not (dtype or prefill_dtype)
            quant = "gguf" if gguf and not (device is None and cuda_present()) else "none"
        self.quant, self.model_name = quant, model
        self.trained = models.is_trained(model)
        self.backend: DecodeBackend
        if quant == "gguf":
            from copy_as_decode.engine.backends.llama_cpp import LlamaCppBackend
            self.device = device or "cpu"
            self.dtype = self.prefill_dtype = "q4_k_m" if model in models.BUILTINS else "gguf"
            self.model, self.tok = models.load_quantized(model, threads or len(os.sched_getaffinity(0)))
            self.prefill_model, self.backend = self.model, LlamaCppBackend(self.model)
        else:
            models.require_torch(f"--quant none (model {model})")
            import torch

            from copy_as_decode.engine.backends.torch_backend import TorchBackend
            if threads:
                torch.set_num_threads(threads)
            self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
            self.dtype = dtype or ("bfloat16" if self.device.startswith("cuda") else "float32")
            self.model, self.tok = models.load(model, self.device, self.dtype)
            # Prompts may be prefilled by a second copy in a faster dtype (engine/backends/torch_backend.py)
            self.prefill_dtype = prefill_dtype or self.dtype
            self.prefill_model = (self.model if self.prefill_dtype == self.dtype else
                                  models.load(model, self.device, self.prefill_dtype)[0])
            self.backend = TorchBackend(self.model, self.tok, self.prefill_model, prompt_cache_mb << 20)
        super().__init__(self.tok, self.backend.context, self.trained)
        self.eos = models.eos_id(self.tok)
        self.n_vocab, self.max_draft = self.backend.n_vocab, self.backend.max_draft

    @functools.cached_property
    def token_index(self):
        """llguidance's index of the vocabulary, built on the first grammar: on llama.cpp from the model's own
        vocabulary, which saves a second copy of the tokenizer (~130 MB)."""
        return self.backend.token_index(self.eos)

    def _decode_program(self, plan: DecodePlan):
        ids, lines, hooks = plan.ids, plan.lines, plan.hooks
        script = None if plan.forced is None else forced_script(self.encode, plan.forced, self.eos)
        tracker = ProgramTracker()
        # the copies fill positions too: at most the prompt's lines
        reused, prefill_s = self._start(ids, hooks, plan.budget.limit + len(ids))
        constraint = ProgramConstraint(self.tok, self.n_vocab, len(lines), self.grammar_rule, self.token_index)
        stats = decode_program(self.backend, self.tok, ids, lines, constraint, tracker, self.eos,
                               max_new_tokens=plan.budget.limit, temperature=plan.request.temperature,
                               forced=script, context=self.context, hooks=hooks, splice=plan.splice)
        stats.prefill_s, stats.prompt_cached = stats.prefill_s + prefill_s, reused
        return tracker.items, stats

    def _decode_rewrite(self, plan: DecodePlan):
        source = plan.request.lf + ("\n" if plan.request.drafts and not plan.request.lf.endswith("\n") else "")
        drafter = LineDrafter(self.tok, source + plan.request.drafts, k_max=self.max_draft) if plan.draft else None
        reused, prefill_s = self._start(plan.ids, plan.hooks, plan.budget.limit + 1)
        out, text, stats = decode_rewrite(self.backend, self.tok, plan.ids, self.eos,
                                          lambda text: prompt.fence_closed(text, plan.fence), drafter=drafter,
                                          max_new_tokens=plan.budget.limit, hooks=plan.hooks)
        stats.prefill_s, stats.prompt_cached = stats.prefill_s + prefill_s, reused
        return out, text, stats

    def _choose(self, ids, options: list[str], hooks: Hooks) -> tuple[str, float]:
        grammar = "start: " + " | ".join(json.dumps(o) for o in options) + "\n"
        self._start(ids, hooks, 64)
        constraint = Constraint(self.tok, self.n_vocab, grammar, self.token_index)
        out, p = decode_choice(self.backend, ids, constraint, self.eos, hooks=hooks)
        return self.tok.decode(out), p

    def _start(self, ids: list[int], hooks: Hooks, positions: int) -> tuple[int, float]:
        """The backend's sequence made the prompt (all but its last token), from the prompt cache: how many tokens
        were reused and the seconds it took; `positions`: how many the decode after the prompt may fill."""
        hooks.check()
        start = time.perf_counter()
        reused = self.backend.start(ids, positions, hooks.check)
        return reused, time.perf_counter() - start

    # the prompt cache, for benchmarks that time a first and a second edit of a file

    def prefill(self, ids: list[int], positions: int = 0) -> int:
        """Prefill prompt `ids` (all but the last) into the prompt cache, with room for `positions` more; how many
        of its tokens were there already."""
        return self.backend.start(ids, positions)

    def cache_snapshot(self):
        """What the prompt cache holds now, for `restore_cache`."""
        return self.backend.snapshot()

    def restore_cache(self, snapshot=None) -> None:
        """The prompt cache as `snapshot` held it (None: empty); the last rewrite's conversation and prepared
        window are forgotten."""
        self.backend.restore(snapshot)
        self.said = self.prepared = None

    def held(self, ids: list[int]) -> int:
        return self.backend.held(ids)
