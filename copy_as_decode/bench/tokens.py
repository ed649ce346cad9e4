"""Qwen token counts and token pieces, the units every benchmark measures in."""
from functools import lru_cache


class Tokens:
    def __init__(self, tokenizer):
        self.tok = tokenizer
        self.count = lru_cache(maxsize=1 << 16)(self._count)

    def _count(self, text: str) -> int:
        return len(self.tok.encode(text, add_special_tokens=False)) if text else 0

    def pieces(self, text: str) -> list[str]:
        """The text cut at token boundaries; pieces concatenate back to it exactly.

        A character split across byte-level tokens belongs to the first of them.
        """
        ends = [e for _, e in self.tok(text, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]]
        out, prev = [], 0
        for end in ends + [len(text)]:
            if end > prev:
                out.append(text[prev:end])
                prev = end
        return out
