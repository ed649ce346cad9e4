"""torch's KV caches: the forward that fills one, and the caches of recent prompts, so an edit prefills only what
differs from one the engine has seen.

Prompts put the document before the instruction (engine/prompts/prompt.py), so a second edit of the same file
shares everything up to the instruction, and an edit after the first was applied shares everything up to
the first changed line. Each entry holds a prompt's cache without its last token (the decode loop's first
forward feeds that token and gets the first logits); a new prompt starts from a copy of the entry with the
longest common token prefix, cropped to it. Least recently used entries go when the total passes
`max_bytes`.

The same prompt always starts from the same state, so repeating an edit repeats its result exactly; two
prompts that share a prefix compute it in different chunks, which agrees to float rounding (fp32: ~1e-6).

Prompts may be prefilled by a second copy of the model in another dtype (`prefill_model`: bfloat16 prefills
~2x faster than float32 on a CPU with native bf16, engine/local.py): entries then stay in that dtype and each
edit gets its own copy in the decoding model's dtype. Every decode of one prompt starts from that same cache,
so `verified` and `full` still run the same numerics after it.
"""
import copy
from collections import OrderedDict

import torch
from transformers import DynamicCache

from copy_as_decode.engine.backends.decode_backend import common_prefix

__all__ = ["CHUNK", "PIECE", "PrefixCache", "common_prefix", "forward", "new_cache"]

CHUNK = 4096  # tokens per forward: a longer prompt or copy goes in pieces, so attention memory stays bounded
PIECE = 512  # tokens per forward of a prompt's prefill, with a cancel check between two (a CPU reads one in seconds)


def new_cache(model) -> DynamicCache:
    """An empty KV cache for `model`."""
    return DynamicCache(config=model.config)


@torch.inference_mode()
def forward(model, cache: DynamicCache, ids: list[int], all_logits: bool = False) -> torch.Tensor:
    """Append `ids` to `cache` through `model`; the logits after the last of them (all_logits: after each)."""
    while len(ids) > CHUNK and not all_logits:  # only the last piece's last logits are wanted
        model(input_ids=torch.tensor([ids[:CHUNK]], device=model.device), cache=cache, use_cache=True,
              logits_to_keep=1)
        ids = ids[CHUNK:]
    x = torch.tensor([ids], device=model.device)
    return model(input_ids=x, cache=cache, use_cache=True, logits_to_keep=0 if all_logits else 1).logits[0]


class PrefixCache:
    def __init__(self, max_bytes: int = 1 << 30):
        self.max_bytes = max_bytes
        self.entries: OrderedDict[tuple, DynamicCache] = OrderedDict()
        self.model_id = None

    def fork(self) -> "PrefixCache":
        """A cache that starts with this one's entries (they are never changed in place, so they are shared)."""
        other = PrefixCache(self.max_bytes)
        other.entries, other.model_id = OrderedDict(self.entries), self.model_id
        return other

    def held(self, ids: list[int]) -> int:
        """How many of `ids`' first tokens the longest matching entry holds."""
        return max((common_prefix(key, ids) for key in self.entries), default=0)

    def cold(self) -> "PrefixCache":
        """An empty cache of the same size: the next prompt is prefilled whole."""
        return PrefixCache(self.max_bytes)

    def start(self, model, ids: list[int], prefill_model=None, positions: int = 0,
              check=None) -> tuple[DynamicCache, int]:
        """A cache holding ids[:-1] for decoding (in `model`'s dtype), and how many of those tokens came from an
        earlier prompt; the rest is computed by `prefill_model` (default: `model`). `positions` (how many the
        decode may add) matters only to a cache allocated up front (engine/backends/llama_cpp.py), and is ignored.
        The prompt is read PIECE tokens a forward, `check` called before each."""
        prefill_model = prefill_model or model
        if self.model_id != (id(model), id(prefill_model)):  # another model's keys and values mean nothing here
            self.entries.clear()
            self.model_id = (id(model), id(prefill_model))
        prompt = tuple(ids[:-1])
        best, reused = None, 0
        for key in self.entries:
            if (n := common_prefix(key, ids[:-1])) > reused:
                best, reused = key, n
        dtype = next(model.parameters()).dtype
        if best == prompt:
            self.entries.move_to_end(prompt)
            return _copy(self.entries[prompt], dtype), reused
        if best is None:
            cache = new_cache(model)
        else:
            cache = copy.deepcopy(self.entries[best])
            if len(best) > reused:
                cache.crop(reused - len(best))
        for begin in range(reused, len(prompt), PIECE):  # a cancel raised by `check` ends it within one piece
            if check is not None:
                check()
            forward(prefill_model, cache, list(prompt[begin:begin + PIECE]))
        self.entries[prompt] = cache
        self.entries.move_to_end(prompt)
        per_token = _bytes_per_token(prefill_model)
        while len(self.entries) > 1 and sum(map(len, self.entries)) * per_token > self.max_bytes:
            self.entries.popitem(last=False)
        if len(prompt) * per_token > self.max_bytes:  # too large to keep even alone: decode in it directly
            del self.entries[prompt]
            return _copy(cache, dtype, shared=False), reused
        return _copy(cache, dtype), reused


def _copy(cache: DynamicCache, dtype, shared: bool = True) -> DynamicCache:
    """`cache` in `dtype`, for one decode to extend and crop (a copy when the original stays `shared`). A tensor
    in another dtype is converted once, and the conversion is its copy (deepcopy takes it from the memo)."""
    converted = {id(t): t.to(dtype) for layer in cache.layers if layer.is_initialized
                 for t in (layer.keys, layer.values) if t.dtype != dtype}
    if shared:
        return copy.deepcopy(cache, converted)
    for layer in cache.layers:
        if layer.is_initialized:
            layer.keys = converted.get(id(layer.keys), layer.keys)
            layer.values = converted.get(id(layer.values), layer.values)
    return cache


def _bytes_per_token(model) -> int:
    c = model.config
    heads = getattr(c, "num_key_value_heads", None) or c.num_attention_heads
    head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
    return 2 * c.num_hidden_layers * heads * head_dim * next(model.parameters()).element_size()
