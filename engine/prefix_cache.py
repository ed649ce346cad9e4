"""The KV caches of recent prompts, so an edit prefills only what differs from one the engine has seen.

Prompts put the document before the instruction (engine/prompt.py), so a second edit of the same file
shares everything up to the instruction, and an edit after the first was applied shares everything up to
the first changed line. Each entry holds a prompt's cache without its last token (the decode loop's first
forward feeds that token and gets the first logits); a new prompt starts from a copy of the entry with the
longest common token prefix, cropped to it. Least recently used entries go when the total passes
`max_bytes`.

The same prompt always starts from the same state, so repeating an edit repeats its result exactly; two
prompts that share a prefix compute it in different chunks, which agrees to float rounding (fp32: ~1e-6).
"""
import copy
from collections import OrderedDict

from transformers import DynamicCache

from .decode import forward


def common_prefix(a: tuple, b: list) -> int:
    n = min(len(a), len(b))
    return next((k for k in range(n) if a[k] != b[k]), n)


class PrefixCache:
    def __init__(self, max_bytes: int = 1 << 30):
        self.max_bytes = max_bytes
        self.entries: OrderedDict[tuple, DynamicCache] = OrderedDict()
        self.model_id = None

    def start(self, model, ids: list[int]) -> tuple[DynamicCache, int]:
        """A cache holding ids[:-1] for decoding, and how many of those tokens came from an earlier prompt."""
        if self.model_id != id(model):  # another model's keys and values mean nothing here
            self.entries.clear()
            self.model_id = id(model)
        prompt = tuple(ids[:-1])
        best, reused = None, 0
        for key in self.entries:
            if (n := common_prefix(key, ids[:-1])) > reused:
                best, reused = key, n
        if best == prompt:
            self.entries.move_to_end(prompt)
            return copy.deepcopy(self.entries[prompt]), reused
        if best is None:
            cache = DynamicCache(config=model.config)
        else:
            cache = copy.deepcopy(self.entries[best])
            if len(best) > reused:
                cache.crop(reused - len(best))
        if reused < len(prompt):
            forward(model, cache, list(prompt[reused:]))
        self.entries[prompt] = cache
        self.entries.move_to_end(prompt)
        per_token = _bytes_per_token(model)
        while len(self.entries) > 1 and sum(map(len, self.entries)) * per_token > self.max_bytes:
            self.entries.popitem(last=False)
        if len(prompt) * per_token > self.max_bytes:  # too large to keep even alone: decode in it directly
            del self.entries[prompt]
            return cache, reused
        return copy.deepcopy(cache), reused


def _bytes_per_token(model) -> int:
    c = model.config
    heads = getattr(c, "num_key_value_heads", None) or c.num_attention_heads
    head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
    return 2 * c.num_hidden_layers * heads * head_dim * next(model.parameters()).element_size()
