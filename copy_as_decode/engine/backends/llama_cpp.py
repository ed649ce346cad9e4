"""The local engine's default backend: the shipped GGUF weights run in-process by llama.cpp (llama-cpp-python's
bindings to libllama), as engine/backends/decode_backend.py's DecodeBackend. No torch: logits are numpy arrays read from
llama.cpp's own buffers.

On a CPU a decode step reads every weight once, so its speed is the weights' size: Q4_K_M reads ~0.6 bytes a
weight where float32 reads 4, and on a CPU llama.cpp's kernels get that gain where torch's own weight-only
kernels do not (docs/benchmarks.md, "Quantized weights, measured"). Nothing else changes: the grammar masks,
the splice (copied tokens in one batched `llama_decode`) and the verification (that batch's per-position
logits) run in engine/decoding/decode.py as they do for torch.

One llama_context holds one sequence; a new prompt reuses the longest common prefix with what the context
already holds, as llama-server's `cache_prompt` does. Batched and one-token forwards agree to quantized
rounding, not bit for bit: `bench edit` prints how often verified and full still give the same edit.
"""
import ctypes
import warnings
from pathlib import Path

import numpy as np

from copy_as_decode.engine.backends.decode_backend import common_prefix

BATCH = 512  # tokens per llama_decode: longer prompts and copies go in pieces
OUTPUTS = 128  # logits rows per llama_decode: a longer verification goes in pieces (each row is 0.6 MB)
# tokens per llama_decode of a prompt: past ~128 a batch costs the same per token on a CPU, and a cancel waits
# at most one such piece (a second or two for the 1.5B on 2 cores)
PIECE = 128
GROW = 1024  # the context is allocated in steps of this many positions, as edits need them


class LlamaCppLM:
    def __init__(self, path: Path, *, threads: int, max_context: int | None = None):
        import llama_cpp as C
        self.C = C
        quiet(C)
        params = C.llama_model_default_params()
        # Read, not mmap: llama.cpp repacks most weights into its own memory for its batched kernels, and with
        # mmap the file pages it read to repack them stay resident beside the copy (+590 MB for the 1.5B).
        params.load_mode = C.LLAMA_LOAD_MODE_NONE
        self.model = C.llama_model_load_from_file(str(path).encode(), params)
        if not self.model:
            raise RuntimeError(f"llama.cpp could not load {path}")
        self.n_vocab = C.llama_vocab_n_tokens(C.llama_model_get_vocab(self.model))
        self.threads = threads
        self.max_context = max_context or C.llama_model_n_ctx_train(self.model)
        self.ctx, self.allocated, self.resident = None, 0, []  # resident: the tokens the KV holds, in order
        self.batch = C.llama_batch_init(BATCH, 0, 1)

    def reserve(self, positions: int, check=None) -> None:
        """Make room for `positions` tokens. llama.cpp allocates the KV up front, so it grows in steps as edits
        need it (a short edit keeps a small footprint); the tokens it held are fed again into the larger one,
        in pieces with `check` before each (as `feed`)."""
        if positions <= self.allocated:
            return
        C, held = self.C, self.resident
        if self.ctx:
            C.llama_free(self.ctx)
        params = C.llama_context_default_params()
        params.n_ctx = self.allocated = min(self.max_context, -(-positions // GROW) * GROW)
        params.n_batch = params.n_ubatch = BATCH
        params.n_threads = params.n_threads_batch = self.threads
        params.no_perf = True
        self.ctx = C.llama_init_from_model(self.model, params)
        if not self.ctx:
            raise RuntimeError(f"llama.cpp could not allocate a {self.allocated}-token context")
        self.memory, self.resident = C.llama_get_memory(self.ctx), []
        self.feed(held, check)

    def feed(self, ids: list[int], check=None) -> None:
        """Append `ids` without logits (a prompt), PIECE tokens a llama_decode, `check` called before each: a
        cancel raised there ends a long prefill within one piece, and what was read by then stays resident
        for the next prompt that shares it."""
        for start in range(0, len(ids), PIECE):
            if check is not None:
                check()
            self._decode(ids[start:start + PIECE], 0)

    def forward(self, ids: list[int], keep: int = 1) -> np.ndarray:
        """Append `ids` to the sequence; the logits of its last `keep` positions (0: all), float32, one row each.
        Pieces that give logits hold at most OUTPUTS of them, so llama.cpp's output and compute buffers stay
        small; each piece's rows are copied once, into the result."""
        self.reserve(len(self.resident) + len(ids))
        first = 0 if keep == 0 else max(0, len(ids) - keep)  # the first position kept
        logits, start = np.empty((len(ids) - first, self.n_vocab), dtype=np.float32), 0
        while start < len(ids):
            end = min(start + BATCH, len(ids), max(start, first) + OUTPUTS)
            rows = max(0, end - max(start, first))
            self._decode(ids[start:end], rows)
            if rows:
                logits[end - rows - first:end - first] = np.ctypeslib.as_array(self.C.llama_get_logits(self.ctx),
                                                                               shape=(rows, self.n_vocab))
            start = end
        return logits

    def _decode(self, piece: list[int], keep: int) -> None:
        """One llama_decode of `piece` after the resident tokens; logits for its last `keep` positions."""
        b, n = self.batch, len(self.resident)
        b.n_tokens = len(piece)
        for i, token in enumerate(piece):
            b.token[i], b.pos[i], b.n_seq_id[i], b.seq_id[i][0] = token, n + i, 1, 0
            b.logits[i] = i >= len(piece) - keep
        if (rc := self.C.llama_decode(self.ctx, b)) != 0:
            raise RuntimeError(f"llama_decode failed ({rc}) at position {n}")
        self.resident += piece

    def token_index(self, n_vocab: int, eos: int):
        """llguidance's index of this model's vocabulary (engine.local.LocalEngine.token_index)."""
        import llguidance.llamacpp
        with warnings.catch_warnings():  # it asks each token's attributes by a name the bindings call deprecated
            warnings.simplefilter("ignore", DeprecationWarning)
            return llguidance.llamacpp.lltokenizer_from_vocab(self.C.llama_model_get_vocab(self.model),
                                                              n_vocab=n_vocab, eos_token=eos)

    def crop(self, n: int) -> None:
        """Keep the first n resident tokens."""
        if n < len(self.resident):
            self.C.llama_memory_seq_rm(self.memory, 0, n, -1)
            del self.resident[n:]


class LlamaCppBackend:
    """engine/backends/decode_backend.py DecodeBackend on one resident sequence: a new prompt reuses the longest prefix it
    shares with whatever the context holds (the last prompt and its answer)."""

    def __init__(self, lm: LlamaCppLM):
        self.lm, self.n_vocab, self.context = lm, lm.n_vocab, lm.max_context
        # past ~128 tokens llama.cpp's batches cost the same per token, and each verified row holds 0.6 MB
        self.max_draft = OUTPUTS
        self.kept: list[int] | None = None  # what a snapshot keeps: the tokens held at the first snapshot

    def start(self, ids: list[int], positions: int = 0, check=None) -> int:
        """The context is allocated once, for the prompt and the `positions` after it, before the prompt goes in
        (what the context held beyond the prompt's shared prefix is dropped first, so a larger context reads
        again only that prefix); the prompt is read in pieces, `check` before each (LlamaCppLM.feed)."""
        lm, prompt = self.lm, ids[:-1]
        reused = common_prefix(lm.resident, prompt)
        lm.crop(reused)
        lm.reserve(max(len(ids) + positions, 1), check)
        lm.feed(prompt[reused:], check)
        return reused

    def length(self) -> int:
        return len(self.lm.resident)

    def step(self, ids: list[int]) -> np.ndarray:
        return self.lm.forward(ids, 1)[-1]

    def check(self, ids: list[int]) -> list[int]:
        return self.lm.forward(ids, 0).argmax(-1).tolist()

    def rows(self, ids: list[int]) -> np.ndarray:
        return self.lm.forward(ids, 0)

    def crop(self, n: int) -> None:
        self.lm.crop(n)

    def held(self, ids: list[int]) -> int:
        return common_prefix(self.lm.resident, ids)

    def snapshot(self) -> list[int]:
        """The context cut back to what it shares with the tokens it held at the first snapshot (the benchmark's
        prompt heads), as a torch snapshot holds only the prompts of then."""
        kept = list(self.lm.resident) if self.kept is None else self.kept
        self.lm.crop(common_prefix(self.lm.resident, kept))
        return kept

    def restore(self, snapshot: list[int] | None = None) -> None:
        self.kept = snapshot
        self.lm.crop(0 if snapshot is None else common_prefix(self.lm.resident, snapshot))

    def token_index(self, eos: int):
        return self.lm.token_index(self.n_vocab, eos)


def quiet(C) -> None:
    """llama.cpp initialised, its log silenced: it logs every load to stderr, which is the CLI's progress channel."""
    C.llama_log_set(_QUIET, None)
    C.llama_backend_init()


@ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
def _QUIET(level, text, user_data):
    pass
