"""What one decode did and where its time went."""
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass


@dataclass
class Stats:
    selector: str = ""    # the selector that ran (what `auto` chose)
    stop: str = ""        # why the decode ended: core.contract's EOS, FENCE, CAP, CONTEXT
    budget: int = 0       # the most tokens it could sample (core/budget.py output_budget)
    prompt_tokens: int = 0
    prompt_cached: int = 0  # of which came from the engine's prefix cache (engine/backends/prefix_cache.py)
    sampled: int = 0      # tokens chosen by the model, one forward each
    spliced: int = 0      # tokens fed without sampling: copied lines (grammar) or accepted drafts (verified)
    forced: int = 0       # tokens the grammar forced (no choice, fed with the next forward)
    forwards: int = 0
    drafted: int = 0      # draft tokens proposed to the verifier
    windows: str = ""     # the windows a windowed edit rewrote ("40-58 (fib)"), or why it took the whole file
    follows: int = 0      # rewrites that continued the last one's conversation (engine/front.py `said`)
    prepared: int = 0     # rewrites whose prompt head was read before the instruction (engine/read_ahead.py)
    deleted_lines: int = 0  # non-blank lines of the document the finished edit deletes (core/deletions.py)
    # Remote engine only (engine/remote/client.py), from the inference engine's own figures:
    requests: int = 0              # completion requests sent
    remote_prompt_tokens: int = 0  # prompt tokens the engine actually prefilled (not served from its prefix cache)
    remote_cached_tokens: int = 0  # prompt tokens the engine reused from its prefix cache
    prefill_s: float = 0.0
    decode_s: float = 0.0
    splice_s: float = 0.0
    mask_s: float = 0.0
    total_s: float = 0.0
    # a windowed edit's: seconds from its start to its first sampled token (the end of its first decode's
    # prefill), and to the first whole line of new text it streamed (Hooks.partial); 0 when none
    first_token_s: float = 0.0
    first_line_s: float = 0.0

    @contextmanager
    def timed(self, field: str):
        t = time.perf_counter()
        try:
            yield
        finally:
            setattr(self, field, getattr(self, field) + time.perf_counter() - t)

    def add(self, other: "Stats") -> None:
        """Fold in the counts and seconds of another decode of the same edit (a windowed edit's windows)."""
        for k, v in asdict(other).items():
            if isinstance(v, (int, float)):
                setattr(self, k, getattr(self, k) + v)

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}
