"""Which engine runs the edits: the local model (engine.Engine) or an inference engine over HTTP
(engine.remote.RemoteEngine). Both expose the same `edit()`; the worker, the CLI and the benchmarks take either."""
import argparse
import os

from copy_as_decode.core.budget import parse_budget
from copy_as_decode.engine import defaults

BACKENDS = ("local", "remote")
BACKEND_ENV = "COPY_AS_DECODE_BACKEND"


def budget(value: str):
    """argparse type of a token budget: N or auto (core/budget.py parse_budget)."""
    try:
        return parse_budget(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(p, several_quants: bool = False, research: bool = False) -> None:
    """The engine's options (their default values are engine/defaults.py's), for the CLI's `edit` and `worker`
    and every benchmark: the model and the backend. several_quants: `--quant` takes a list (a benchmark runs
    each); research: also the knobs that benchmarks compare and an edit has no use for (the prefill dtype, the
    prompt cache, the grammar variant), which `edit` and `worker` leave at their measured defaults."""
    p.add_argument("--model", default=defaults.DEFAULT_MODEL,
                   help="built-in name (qwen2.5-coder-0.5b, qwen2.5-coder-1.5b, tiny), .gguf file, HF id or directory")
    p.add_argument("--quant", choices=defaults.QUANTS, nargs="+" if several_quants else None,
                   default=["none", "gguf"] if several_quants else "auto",
                   help="gguf: the model's GGUF weights as they ship (Q4_K_M), on llama.cpp; none: dequantized, on "
                        "torch (--dtype); auto: gguf on a CPU when the model has GGUF weights and no --dtype is given "
                        "(default; measured in docs/benchmarks.md, \"Quantized weights, measured\")"
                        + ("; several: each in turn" if several_quants else ""))
    p.add_argument("--device", help="cpu or cuda (default: cuda when present)")
    p.add_argument("--dtype", help="float32 or bfloat16 (default: float32 on CPU, bfloat16 on CUDA)")
    p.add_argument("--threads", type=int, help="CPU threads (default: torch's, all cores)")
    from copy_as_decode.engine.remote.engine import APIS, ENDPOINT_ENV
    p.add_argument("--backend", choices=BACKENDS, default=os.environ.get(BACKEND_ENV, "local"),
                   help="local: run the model here; remote: decode on an inference engine at --endpoint "
                        f"(default: ${BACKEND_ENV} or local)")
    p.add_argument("--endpoint", default=os.environ.get(ENDPOINT_ENV),
                   help="remote: the engine's base URL, e.g. http://127.0.0.1:8080 (llama-server, vLLM, SGLang); "
                        f"API key from $COPY_AS_DECODE_API_KEY (default: ${ENDPOINT_ENV})")
    p.add_argument("--api", choices=APIS, default="auto",
                   help="remote: wire format, llama.cpp native /completion or OpenAI /v1/completions (default: auto)")
    p.add_argument("--request-timeout", type=float, default=defaults.REQUEST_TIMEOUT,
                   help=f"remote: seconds to wait for one completion request (default {defaults.REQUEST_TIMEOUT:g})")
    p.add_argument("--no-tokenizer-check", dest="tokenizer_check", action="store_false",
                   help="remote: do not compare the engine's tokenizer with the local one (for engines without "
                        "/tokenize; prompts are token ids, so a different tokenizer gives garbage)")
    from copy_as_decode.engine.prompts.prompt import DEFAULT_LAYOUT, LAYOUTS, PREPARED_LAYOUT
    p.add_argument("--layout", choices=LAYOUTS, default=DEFAULT_LAYOUT,
                   help=f"where a rewrite prompt puts the instruction (default {DEFAULT_LAYOUT}, by measurement: "
                        f"docs/benchmarks.md, \"Prompt layout\"); an editor's edit whose window was read while its "
                        f"instruction was typed uses {PREPARED_LAYOUT}, which reproduces it here")
    if not research:
        return
    p.add_argument("--prefill-dtype", choices=["float32", "bfloat16"],
                   help="dtype of the prompt's prefill (a second copy of the weights); decoding stays in --dtype "
                        "(default: --dtype)")
    p.add_argument("--prompt-cache-mb", type=int, default=defaults.PROMPT_CACHE_MB,
                   help="torch engine: memory for the KV caches of recent prompts, reused by later edits "
                        f"(default {defaults.PROMPT_CACHE_MB})")
    from copy_as_decode.core.grammar import DEFAULT_RULE, RULES
    p.add_argument("--grammar-rule", default=DEFAULT_RULE, choices=RULES,
                   help="the program grammar's variant (core/grammar.py)")


def make_engine(args):
    """An engine from parsed options (any object with the attributes; missing ones take their defaults).

    With the remote backend `--model` names the local tokenizer the prompts are built with (a built-in,
    a .gguf file or an HF id/directory); it must tokenize like the served model, which is checked at start-up.
    """
    backend = getattr(args, "backend", None) or "local"
    model = getattr(args, "model", None) or defaults.DEFAULT_MODEL
    engine = _engine(args, backend, model)
    engine.layout = getattr(args, "layout", None) or engine.layout
    return engine


def _engine(args, backend: str, model: str):
    if backend == "remote":
        from copy_as_decode.engine.remote.engine import RemoteEngine
        return RemoteEngine(getattr(args, "endpoint", None), model,
                            **_given(args, api="api", timeout="request_timeout", verify_tokenizer="tokenizer_check"))
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    from copy_as_decode.engine.engine import Engine
    return Engine(model, **_given(args, device="device", dtype="dtype", threads="threads",
                                  prompt_cache_mb="prompt_cache_mb", grammar_rule="grammar_rule",
                                  prefill_dtype="prefill_dtype", quant="quant"))


def _given(args, **names) -> dict:
    """The keyword arguments `args` gives a value for (attribute names by keyword): what it leaves out takes the
    engine's own default, written once, in its signature."""
    return {k: getattr(args, a) for k, a in names.items() if getattr(args, a, None) is not None}
