"""The torch backend (engine/backends/decode_backend.py's DecodeBackend): a transformers model in float32 or bfloat16, with a
trained LoRA adapter merged in, on a CPU or a GPU, and the prompt cache of recent prompts (engine/backends/prefix_cache.py).

Prompts may be prefilled by a second copy of the model in a faster dtype (`prefill_model`); every decode after the
prompt runs in the model's own dtype, so the exactness of `verified` against `full` is that dtype's.
"""
import numpy as np

from copy_as_decode.engine.backends.prefix_cache import PrefixCache, forward, new_cache
from copy_as_decode.engine.decoding.constraint import token_index
from copy_as_decode.engine.decoding.drafter import K_MAX


class TorchBackend:
    def __init__(self, model, tok, prefill_model=None, prompt_cache_bytes: int = 1 << 30):
        self.model, self.tok, self.prefill_model = model, tok, prefill_model or model
        self.prefix = PrefixCache(prompt_cache_bytes)
        self.cache = None  # the sequence: a DynamicCache from the prompt cache (or a new one), extended by decodes
        self.n_vocab = model.config.vocab_size
        self.context = getattr(model.config, "max_position_embeddings", 32768)
        self.max_draft = K_MAX

    def start(self, ids: list[int], positions: int = 0, check=None) -> int:
        self.cache, reused = self.prefix.start(self.model, ids, self.prefill_model, positions, check)
        return reused

    def length(self) -> int:
        return 0 if self.cache is None else self.cache.get_seq_length()

    def _forward(self, ids: list[int], all_logits: bool):
        if self.cache is None:
            self.cache = new_cache(self.model)
        return forward(self.model, self.cache, ids, all_logits)

    def step(self, ids: list[int]) -> np.ndarray:
        return self._forward(ids, False)[-1].float().cpu().numpy()

    def check(self, ids: list[int]) -> list[int]:
        return self._forward(ids, True).argmax(-1).tolist()  # on the model's device: one id a position comes back

    def rows(self, ids: list[int]) -> np.ndarray:
        return self._forward(ids, True).float().cpu().numpy()

    def crop(self, n: int) -> None:
        if n < self.length():
            self.cache.crop(n - self.length())  # transformers' convention: a negative n drops the last -n

    def held(self, ids: list[int]) -> int:
        return self.prefix.held(ids)

    def snapshot(self) -> PrefixCache:
        return self.prefix.fork()

    def restore(self, snapshot: PrefixCache | None = None) -> None:
        self.prefix = self.prefix.cold() if snapshot is None else snapshot.fork()

    def token_index(self, eos: int):
        return token_index(self.tok, self.n_vocab)
