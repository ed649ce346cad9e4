"""The edit engine the options choose (engine/options.py): the local one (engine/local.py), one over an inference
server's completion routes (engine/remote/client.py) or one over a chat API (engine/remote/chat.py), which expose
the same `edit()`; the worker, the CLI and the benchmarks take any of them."""
import os

from copy_as_decode.engine.options import DEFAULT_MODEL, INFERENCE, OPTIONS, RENAMED


def make_engine(args):
    """An engine from parsed options (any object with the attributes; an option it lacks takes its environment
    variable, else the engine's own default).

    With `--inference remote`, `--model` names the local tokenizer the prompts are built with (a built-in,
    a .gguf file or an HF id/directory); it must tokenize like the served model, which is checked at start-up.
    With `--inference chat` no tokenizer is loaded: `--served-model` (or the one model the server lists) answers.
    """
    for old, new in RENAMED.items():
        if old.isupper() and old in os.environ:
            raise ValueError(f"${old} is now ${new}")
    given = {o.dest: getattr(args, o.dest) if hasattr(args, o.dest) else o.from_env() for o in OPTIONS}
    given = {k: v for k, v in given.items() if v is not None}
    model = given.get("model") or DEFAULT_MODEL
    inference = given.get("inference", "local")
    if inference not in INFERENCE:
        raise ValueError(f"unknown inference {inference!r}; choose one of {', '.join(INFERENCE)}")
    if inference == "remote":
        from copy_as_decode.engine.remote.client import RemoteEngine
        engine = RemoteEngine(given.get("endpoint"), model,
                              **_given(given, api="api", timeout="request_timeout", verify_tokenizer="tokenizer_check",
                                       served_model="served_model"))
    elif inference == "chat":
        from copy_as_decode.engine.remote.chat import ChatEngine
        engine = ChatEngine(given.get("endpoint"), given.get("served_model"),
                            **_given(given, timeout="request_timeout", stream="stream"))
    else:
        from copy_as_decode.engine.local import LocalEngine
        engine = LocalEngine(model, **_given(given, device="device", dtype="dtype", threads="threads",
                                             prompt_cache_mb="prompt_cache_mb", grammar_rule="grammar_rule",
                                             prefill_dtype="prefill_dtype", quant="quant"))
    engine.layout = given.get("layout") or engine.layout
    return engine


def _given(given: dict, **names) -> dict:
    """The keyword arguments the options give a value for (option names by keyword): what they leave out takes
    the engine's own default, written once, in its signature."""
    return {k: given[a] for k, a in names.items() if a in given}
