"""The program prompt's head (system prompt + worked examples, ~360 tokens) is the same for every edit: its
keys and values are computed once per engine and copied into each request's cache.

The head is always prefilled as its own forward, cached or not, so an edit's numbers do not depend on what
the engine decoded before. The engine's weights never change after loading, so the model object and the
head's ids identify the entry.
"""
import copy

from transformers import DynamicCache

from .decode import forward


class PrefixCache:
    def __init__(self):
        self.key, self.cache = None, None

    def start(self, model, head: list[int]) -> DynamicCache:
        """A new cache holding `head` (computed on the first call for this model and head, then copied)."""
        key = (id(model), tuple(head))
        if key != self.key:
            cache = DynamicCache(config=model.config)
            forward(model, cache, head)
            self.key, self.cache = key, cache
        return copy.deepcopy(self.cache)
