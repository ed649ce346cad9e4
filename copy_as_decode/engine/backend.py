"""Which engine runs the edits: the local model (engine.Engine) or an inference engine over HTTP
(engine.remote.RemoteEngine). Both expose the same `edit()`; the worker, the CLI and the benchmarks take either."""
import os

from copy_as_decode.core.contract import REQUEST_TIMEOUT

BACKENDS = ("local", "remote")
BACKEND_ENV = "COPY_AS_DECODE_BACKEND"


def add_arguments(p) -> None:
    """The backend options, added next to the model options by copy_as_decode.cli.add_engine_arguments."""
    from .remote import APIS, ENDPOINT_ENV
    p.add_argument("--backend", choices=BACKENDS, default=os.environ.get(BACKEND_ENV, "local"),
                   help="local: run the model here; remote: decode on an inference engine at --endpoint "
                        f"(default: ${BACKEND_ENV} or local)")
    p.add_argument("--endpoint", default=os.environ.get(ENDPOINT_ENV),
                   help="remote: the engine's base URL, e.g. http://127.0.0.1:8080 (llama-server, vLLM, SGLang); "
                        f"API key from $COPY_AS_DECODE_API_KEY (default: ${ENDPOINT_ENV})")
    p.add_argument("--api", choices=APIS, default="auto",
                   help="remote: wire format, llama.cpp native /completion or OpenAI /v1/completions (default: auto)")
    p.add_argument("--request-timeout", type=float, default=REQUEST_TIMEOUT,
                   help=f"remote: seconds to wait for one completion request (default {REQUEST_TIMEOUT:g})")
    p.add_argument("--no-tokenizer-check", dest="tokenizer_check", action="store_false",
                   help="remote: do not compare the engine's tokenizer with the local one (for engines without "
                        "/tokenize; prompts are token ids, so a different tokenizer gives garbage)")


def make_engine(args):
    """An engine from parsed options (any object with the attributes; missing ones take their defaults).

    With the remote backend `--model` names the local tokenizer the prompts are built with (a built-in,
    a .gguf file or an HF id/directory); it must tokenize like the served model, which is checked at start-up.
    """
    from copy_as_decode.core.contract import DEFAULT_MODEL
    backend = getattr(args, "backend", None) or "local"
    model = getattr(args, "model", None) or DEFAULT_MODEL
    engine = _engine(args, backend, model)
    engine.layout = getattr(args, "layout", None) or engine.layout
    return engine


def _engine(args, backend: str, model: str):
    if backend == "remote":
        from .remote import RemoteEngine
        return RemoteEngine(getattr(args, "endpoint", None), model,
                            **_given(args, api="api", timeout="request_timeout", verify_tokenizer="tokenizer_check"))
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    from .engine import Engine
    return Engine(model, **_given(args, device="device", dtype="dtype", threads="threads",
                                  prompt_cache_mb="prompt_cache_mb", grammar_rule="grammar_rule",
                                  prefill_dtype="prefill_dtype", quant="quant"))


def _given(args, **names) -> dict:
    """The keyword arguments `args` gives a value for (attribute names by keyword): what it leaves out takes the
    engine's own default, written once, in its signature."""
    return {k: getattr(args, a) for k, a in names.items() if getattr(args, a, None) is not None}
