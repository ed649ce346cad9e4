"""A native `llama-server` on a loopback port, for the tests, the benchmarks and the docs' recipes.

    with LlamaServer(default_server_binary(), gguf, parallel=4, ctx=16384) as server:
        RemoteEngine(server.url, ...)

It launches with the speculative decoding that makes `verified` fast on this backend (DRAFT_FROM_CONTEXT,
docs/scale-out.md): the engine drafts from n-grams of its own context, where the document being rewritten is,
and checks each draft against its own greedy choice. With or without drafts it keeps ggml's plain weight
layout (BATCH_INVARIANT): with one thread a greedy rewrite is then the same token for token either way.
"""
import ctypes
import http.client
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from .wire import EngineTimeout, RemoteError

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
    return Path(env) if env else Path(__file__).resolve().parent.parent / ".tools" / "llama-server" / "llama-server"


class LlamaServer:
    """One llama-server process; start() again after stop() brings it back on the same port."""

    def __init__(self, binary: str | Path, gguf: str | Path, *, port: int | None = None, parallel: int = 1,
                 ctx: int = 4096, threads: int | None = None, speculative: bool = True, extra: list[str] = (),
                 log: str | Path | None = None, ready_timeout: float = 180.0):
        self.binary, self.gguf, self.threads = Path(binary), Path(gguf), threads
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [str(self.binary), "-m", str(self.gguf), "--host", "127.0.0.1", "--port", str(self.port),
                     "-c", str(ctx), "--parallel", str(parallel), "--no-webui", *BATCH_INVARIANT,
                     *(DRAFT_FROM_CONTEXT if speculative else []), *extra]
        if threads:
            self.args += ["-t", str(threads), "-tb", str(threads)]
        self.log, self.ready_timeout, self.proc, self._out = log, ready_timeout, None, None

    def start(self) -> "LlamaServer":
        self._out = open(self.log, "ab") if self.log else None
        self.proc = subprocess.Popen(self.args, stdout=self._out or subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RemoteError(f"llama-server exited with code {self.proc.returncode}: {' '.join(self.args)}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (OSError, http.client.HTTPException):  # refused while it binds, 503 while it loads
                pass
            time.sleep(0.25)
        self.stop()
        raise EngineTimeout(f"llama-server not ready after {self.ready_timeout:g} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._out:
            self._out.close()
            self._out = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when the thread that started it ends (a crashed run leaves none behind;
    start servers from a thread that outlives them)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
