"""A native `llama-server` on a loopback port, for the tests, the benchmarks and the docs' recipes.

    with LlamaServer(default_server_binary(), gguf, parallel=4, ctx=16384) as server:
        RemoteEngine(server.url, ...)

It launches with the speculative decoding that makes `verified` fast on this backend (DRAFT_FROM_CONTEXT,
docs/scale-out.md): the engine drafts from n-grams of its own context, where the document being rewritten is,
and checks each draft against its own greedy choice. With or without drafts it keeps ggml's plain weight
layout (BATCH_INVARIANT): with one thread a greedy rewrite is then the same token for token either way.
"""
import os
from pathlib import Path

from copy_as_decode import CHECKOUT

from .engine_process import EngineProcess, free_port

SERVER_ENV = "COPY_AS_DECODE_LLAMA_SERVER"
# A drafted token gets exactly the numbers of a decode step from ggml's CPU kernels only in the plain weight
# layout (repacked weights take another kernel for batches), with one thread (above 512 cached tokens a decode
# step's attention is split over the threads) and under 64 tokens a batch (from 64 query rows attention takes
# a tiled kernel). Outside that, greedy rewrites with and without drafts part where two tokens nearly tie
# (docs/scale-out.md).
BATCH_INVARIANT = ["--no-repack"]
# llama.cpp's n-gram drafter at its defaults: after the last 12 tokens, the 48 that followed their latest
# earlier occurrence (a batch of 49).
DRAFT_FROM_CONTEXT = ["--spec-type", "ngram-simple", "--spec-ngram-simple-size-n", "12",
                      "--spec-ngram-simple-size-m", "48"]


def default_server_binary() -> Path:
    """Where scripts/build-llama-server.sh puts llama-server (override with $COPY_AS_DECODE_LLAMA_SERVER)."""
    env = os.environ.get(SERVER_ENV)
    return Path(env) if env else CHECKOUT / ".tools" / "llama-server" / "llama-server"


class LlamaServer(EngineProcess):
    """One llama-server process."""
    name = "llama-server"

    def __init__(self, binary: str | Path, gguf: str | Path, *, port: int | None = None, parallel: int = 1,
                 ctx: int = 4096, threads: int | None = None, speculative: bool = True, extra: list[str] = (),
                 log: str | Path | None = None, ready_timeout: float = 180.0, batch_invariant: bool = True):
        """batch_invariant=False, speculative=False: llama-server as a user starts it (its default options)."""
        self.binary, self.gguf, self.threads = Path(binary), Path(gguf), threads
        port = port or free_port()
        args = [str(self.binary), "-m", str(self.gguf), "--host", "127.0.0.1", "--port", str(port),
                "-c", str(ctx), "--parallel", str(parallel), "--no-webui", *(BATCH_INVARIANT if batch_invariant else []),
                *(DRAFT_FROM_CONTEXT if speculative else []), *extra]
        if threads:
            args += ["-t", str(threads), "-tb", str(threads)]
        super().__init__(args, port=port, log=log, ready_timeout=ready_timeout)
