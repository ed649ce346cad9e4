"""What a decode backend does for the decode loops (engine/decoding/decode.py): one sequence of tokens held in a KV cache,
extended by forwards, cut back by crops, and started from the longest prefix an earlier prompt left behind.

Two backends implement it: llama.cpp running a GGUF as it ships (engine/backends/llama_cpp.py: numpy, no torch, the
default on a CPU) and torch running float32 or bfloat16 weights, trained LoRA adapters included, on a CPU or a GPU
(engine/backends/torch_backend.py). Logits cross the protocol as float32 numpy arrays; a verification returns only the
greedy choices, so a GPU sends back one id a position instead of a row of the vocabulary.
"""
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np


def common_prefix(a: Sequence, b: Sequence) -> int:
    """How many leading items (token ids) `a` and `b` share."""
    n = min(len(a), len(b))
    return next((k for k in range(n) if a[k] != b[k]), n)


class DecodeBackend(Protocol):
    n_vocab: int  # logits rows are this long (the model's vocabulary, which may pass the tokenizer's)
    context: int  # positions the model takes
    max_draft: int  # the longest verification worth one forward (engine/decoding/drafter.py)

    def start(self, ids: list[int], positions: int = 0, check: Callable[[], None] | None = None) -> int:
        """Make the sequence ids[:-1] (its last token is the decode's first forward), reusing the longest prefix
        an earlier prompt left; `positions`: how many more the decode may add; `check` is called between the
        pieces a long prompt is read in (a cancel raised there stops it within one). Returns how many were reused."""

    def length(self) -> int:
        """How many tokens the sequence holds."""

    def step(self, ids: list[int]) -> np.ndarray:
        """Append `ids` in one forward (a prefill, a sampled token, a splice of copied lines); the float32 logits
        that follow the last of them, shape (n_vocab,)."""

    def check(self, ids: list[int]) -> list[int]:
        """Append `ids` in one forward; the greedy token after each of them (a draft's verification)."""

    def rows(self, ids: list[int]) -> np.ndarray:
        """Append `ids` in one forward; the float32 logits after each, shape (len(ids), n_vocab) (benchmarks)."""

    def crop(self, n: int) -> None:
        """Keep the sequence's first `n` tokens (a rejected draft's tail goes)."""

    def held(self, ids: list[int]) -> int:
        """How many of `ids`' first tokens a `start` would reuse."""

    def snapshot(self) -> Any:
        """What the prompt cache holds now, for `restore`."""

    def restore(self, snapshot: Any = None) -> None:
        """The prompt cache as `snapshot` held it (None: empty, the next prompt is prefilled whole)."""

    def token_index(self, eos: int) -> Any:
        """llguidance's LLTokenizer of this model's vocabulary (engine/decoding/constraint.py)."""
