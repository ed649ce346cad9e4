"""Which engine runs the edits: the local model (engine.Engine) or an inference engine over HTTP
(engine.remote.RemoteEngine). Both expose the same `edit()`; the worker, the CLI and the benchmarks take either."""
import os

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
    p.add_argument("--request-timeout", type=float, default=300.0,
                   help="remote: seconds to wait for one completion request (default 300)")
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
        return RemoteEngine(getattr(args, "endpoint", None), model, api=getattr(args, "api", None) or "auto",
                            timeout=getattr(args, "request_timeout", None) or 300.0,
                            verify_tokenizer=getattr(args, "tokenizer_check", True))
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    from .engine import Engine
    return Engine(model, getattr(args, "device", None), getattr(args, "dtype", None), getattr(args, "threads", None),
                  getattr(args, "prompt_cache_mb", None) or 1024, getattr(args, "grammar_rule", None) or "default",
                  getattr(args, "prefill_dtype", None), getattr(args, "quant", None) or "auto")
