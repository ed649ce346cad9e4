"""Set-up check: the built llama-server starts with the default model and answers one completion.

A binary that builds can still die at its first matrix multiply on another CPU (ggml's AMX path did, with
a general protection fault), so the suite must not rely on it unchecked. Exit 0 when it answers; else one line.
"""
import sys

from copy_as_decode.bench.llama_server import LlamaServer, default_server_binary
from copy_as_decode.engine.backends import models
from copy_as_decode.engine.options import DEFAULT_MODEL
from copy_as_decode.engine.remote.client import RemoteEngine, RemoteError


def main() -> int:
    binary = default_server_binary()
    gguf = models.gguf_file(DEFAULT_MODEL)
    try:
        with LlamaServer(binary, gguf, ctx=1024, threads=2, ready_timeout=120) as server:
            engine = RemoteEngine(server.url, DEFAULT_MODEL, timeout=120)
            c = engine.complete(engine.encode("def add(a, b):\n    return"), 4)
    except RemoteError as e:
        print(f"check-llama-server: {binary} does not run on this machine: {e}", file=sys.stderr)
        return 1
    if not c.tokens:
        print(f"check-llama-server: {binary} answered a completion with no tokens", file=sys.stderr)
        return 1
    print(f"check-llama-server: {binary.name} answered {len(c.tokens)} tokens: {c.text!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
