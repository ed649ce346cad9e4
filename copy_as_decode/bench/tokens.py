"""Qwen token counts and token pieces, the units every benchmark measures in.

Any tokenizer the engine loads serves: Hugging Face's (with torch's stack) or the GGUF's own vocabulary
(engine/backends/llama_vocab.py, the runtime install's, which has no offsets): pieces are read from the tokens'
byte-level spellings, which both give alike. Every built-in model is a Qwen2.5-Coder model with the same
vocabulary, so the counts are the same whichever built-in's tokenizer is loaded (`installed`).
"""
import bisect
from functools import lru_cache


@lru_cache(maxsize=1)
def _byte_of() -> dict[str, int]:
    """Byte-level BPE's spelling of each byte (GPT-2's table, which Qwen's vocabulary uses): char -> byte."""
    shown = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    hidden = [b for b in range(256) if b not in shown]
    return {**{chr(b): b for b in shown}, **{chr(256 + k): b for k, b in enumerate(hidden)}}


class Tokens:
    def __init__(self, tokenizer, source: str = ""):
        self.tok, self.source = tokenizer, source  # source: the model whose tokenizer it is, as reports name it
        self.count = lru_cache(maxsize=1 << 16)(self._count)

    @classmethod
    def installed(cls) -> "Tokens":
        """The tokenizer of the default model, which every install has (`./run edit`'s too), else of any
        installed built-in; none installed: the error that says how to install the default."""
        from copy_as_decode.engine.backends import models
        from copy_as_decode.engine.options import DEFAULT_MODEL
        name = next((n for n in (DEFAULT_MODEL, *models.BUILTINS) if models.is_installed(n)), DEFAULT_MODEL)
        return cls(models.load_tokenizer(name), name)

    def _count(self, text: str) -> int:
        return len(self.tok.encode(text, add_special_tokens=False)) if text else 0

    def pieces(self, text: str) -> list[str]:
        """The text cut at token boundaries; pieces concatenate back to it exactly.

        A character split across byte-level tokens belongs to the first of them.
        """
        byte_of = _byte_of()
        starts, at = [], 0  # each character's first byte
        for ch in text:
            starts.append(at)
            at += len(ch.encode())
        out, prev, end = [], 0, 0
        for spelled in self.tok.convert_ids_to_tokens(self.tok.encode(text, add_special_tokens=False)):
            end += sum(1 for c in spelled if c in byte_of) if all(c in byte_of for c in spelled) else \
                len(spelled.encode())  # a special token's text is spelled as itself
            cut = bisect.bisect_left(starts, end)  # characters begun before this token's end
            if cut > prev:
                out.append(text[prev:cut])
                prev = cut
        if prev < len(text):
            out.append(text[prev:])
        return out
