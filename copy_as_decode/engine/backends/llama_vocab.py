"""The quantized engine's tokenizer: the vocabulary and chat template its GGUF carries, read by llama.cpp.

A Hugging Face tokenizer beside llama.cpp's model would be a second copy of the same vocabulary (130 MB of a
0.5B edit's ~1 GB). This answers the few calls the engine makes of one (engine/prompts/prompt.py, engine/decoding/text_stream.py,
engine/decoding/constraint.py, models.eos_id) with llama.cpp's own tokenizer, which gives the same ids on every document
the corpora hold (tests/test_llama_cpp.py compares them). The chat template is rendered by jinja2 as transformers
renders it (a sandbox, trimmed blocks), without importing transformers.
"""
import ctypes
import datetime
import functools
import json
from pathlib import Path


def vocab_only(path: Path) -> "VocabTokenizer":
    """The tokenizer of a GGUF file without its weights (llama.cpp's vocab_only load: ~1 s, a few MB)."""
    import llama_cpp as C

    from copy_as_decode.engine.backends.llama_cpp import quiet
    quiet(C)
    params = C.llama_model_default_params()
    params.vocab_only = True
    model = C.llama_model_load_from_file(str(path).encode(), params)
    if not model:
        raise RuntimeError(f"llama.cpp could not read the vocabulary of {path}")
    return VocabTokenizer(C, model)


@functools.lru_cache(maxsize=4)
def _template(source: str):
    from jinja2.ext import loopcontrols
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message):
        from jinja2.exceptions import TemplateError
        raise TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):  # no HTML escaping
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals.update(raise_exception=raise_exception,
                       strftime_now=lambda fmt: datetime.datetime.now().strftime(fmt))
    return env.from_string(source)


class VocabTokenizer:
    def __init__(self, C, model):
        self.C, self.vocab = C, C.llama_model_get_vocab(model)
        self.n = C.llama_vocab_n_tokens(self.vocab)
        self.chat_template = C.llama_model_chat_template(model, None).decode()
        self.eos_token_id, self.pad_token_id = C.llama_vocab_eos(self.vocab), C.llama_vocab_pad(self.vocab)

    def __len__(self) -> int:
        return self.n

    def __call__(self, text: str, add_special_tokens: bool = False, split_special_tokens: bool = False) -> dict:
        return {"input_ids": self._tokenize(text, add_special_tokens, parse_special=not split_special_tokens)}

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return self._tokenize(text, add_special_tokens, parse_special=True)

    def _tokenize(self, text: str, add_special: bool, parse_special: bool) -> list[int]:
        data = text.encode()
        room = len(data) + 8  # a token is at least one byte, plus what add_special may add
        ids = (self.C.llama_token * room)()
        n = self.C.llama_tokenize(self.vocab, data, len(data), ids, room, add_special, parse_special)
        if n < 0:
            raise RuntimeError(f"llama.cpp could not tokenize {len(data)} bytes")
        return list(ids[:n])

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        """The ids' text; bytes of a character cut at the end decode as U+FFFD, as Hugging Face's do."""
        tokens = (self.C.llama_token * max(len(ids), 1))(*ids)
        room = 16 * len(ids) + 16
        while True:
            out = ctypes.create_string_buffer(room)
            n = self.C.llama_detokenize(self.vocab, tokens, len(ids), out, room, skip_special_tokens,
                                        not skip_special_tokens)
            if n >= 0:
                return out.raw[:n].decode("utf-8", errors="replace")
            room = -n  # llama.cpp says how much room it needs

    def convert_tokens_to_ids(self, token: str) -> int:
        ids = self.encode(token)
        if len(ids) != 1:
            raise KeyError(f"{token!r} is not one token")
        return ids[0]

    def convert_ids_to_tokens(self, ids: list[int]) -> list[str]:
        """The vocabulary's own spelling of each id (byte-level BPE: "Ġ" for a space), as Hugging Face's."""
        return [self.C.llama_vocab_get_text(self.vocab, i).decode("utf-8", errors="replace") for i in ids]

    def apply_chat_template(self, messages: list[dict], tokenize: bool = False,
                            add_generation_prompt: bool = False) -> str:
        assert not tokenize, "the engine tokenizes the rendered prompt itself (engine/prompts/prompt.py)"
        return _template(self.chat_template).render(messages=[dict(m) for m in messages], tools=None, documents=None,
                                                    add_generation_prompt=add_generation_prompt)
