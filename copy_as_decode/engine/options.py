"""The engine's options, declared once (OPTIONS): the model, how its weights run, where it runs (here, or on an
inference server you run) and the knobs the benchmarks compare, each with its default, help and choices. The
command line's parsers (`edit`, `apply`, `worker`, every benchmark: add_arguments), the language server's
settings and the worker command it builds (server/settings.py) and the VS Code extension's settings
(extension-vscode/package.json, written by scripts/sync-vscode-settings.py) are made from it, and so is the
engine they choose (engine/make.py). Nothing here imports torch: the server checks its settings against these."""
import argparse
import os
from dataclasses import dataclass

from copy_as_decode.core.budget import parse_budget
from copy_as_decode.engine.prompts.prompt import DEFAULT_LAYOUT, LAYOUTS, PREPARED_LAYOUT
from copy_as_decode.engine.remote.dialects import APIS

# the 1.5B, because with the model run on the edit's window only it fixes far more of the HumanEvalFix bugs
# embedded in long files than the 0.5B, at a time per edit that stays usable on a CPU (docs/benchmarks.md,
# "Windows, measured")
DEFAULT_MODEL = "qwen2.5-coder-1.5b"
# how the weights run (engine/local.py): the GGUF as it ships on llama.cpp, dequantized on torch, or chosen
QUANTS = ("auto", "gguf", "none")
PROMPT_CACHE_MB = 1024   # the torch engine's KV caches of recent prompts
REQUEST_TIMEOUT = 300.0  # seconds an inference server may take for one completion request
# where the model runs: in this process; on the inference server at --endpoint, sent token ids
# (engine/remote/client.py); or behind the OpenAI-compatible chat API at --endpoint, sent text (engine/remote/chat.py)
INFERENCE = ("local", "remote", "chat")
INFERENCE_ENV = "COPY_AS_DECODE_INFERENCE"
ENDPOINT_ENV = "COPY_AS_DECODE_ENDPOINT"
SERVED_MODEL_ENV = "COPY_AS_DECODE_SERVED_MODEL"

# Who offers an option, from the fewest commands to the most: EDIT, every command that runs the engine (`edit`,
# `apply`, `worker`, the benchmarks); WORKER, the worker and the benchmarks; RESEARCH, the benchmarks only, which
# compare what an edit leaves at its measured default. An option a command does not offer still takes its
# environment variable, where it has one.
EDIT, WORKER, RESEARCH = range(3)


def budget(value: str):
    """argparse type of a token budget: N or auto (core/budget.py parse_budget)."""
    try:
        return parse_budget(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _grammar_rules() -> tuple[str, ...]:
    from copy_as_decode.core.grammar import RULES  # llguidance: imported only by a parser that offers the option
    return tuple(RULES)


@dataclass(frozen=True)
class Option:
    flag: str
    help: str
    default: object = None
    type: object = None
    choices: object = None  # the values allowed (a tuple, or a function giving them); None: any
    env: str | None = None  # the environment variable whose value is the default
    setting: str | None = None  # the editors' setting (copyAsDecode.<setting>) the server passes to the worker as this flag
    offered: int = EDIT
    store_false: bool = False  # a switch that turns `dest` off

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--no-" if self.store_false else "--").replace("-", "_")

    def allowed(self) -> tuple | None:
        return self.choices() if callable(self.choices) else self.choices

    def from_env(self):
        """The environment's value, checked against the choices; None where it gives none."""
        value = os.environ.get(self.env) if self.env else None
        allowed = self.allowed()
        if value is not None and allowed is not None and value not in allowed:
            raise ValueError(f"${self.env}={value!r}: choose one of {', '.join(allowed)}")
        return value


def _grammar_rule_default() -> str:
    from copy_as_decode.core.grammar import DEFAULT_RULE
    return DEFAULT_RULE


OPTIONS = (
    Option("--model", "built-in name (qwen2.5-coder-0.5b, qwen2.5-coder-1.5b, tiny), .gguf file, HF id or directory",
           DEFAULT_MODEL, setting="model"),
    Option("--quant", "gguf: the model's GGUF weights as they ship (Q4_K_M), on llama.cpp; none: dequantized, on torch "
                      "(--dtype); auto: gguf on a CPU when the model has GGUF weights and no --dtype is given (default; "
                      "measured in docs/benchmarks.md, \"Quantized weights, measured\")",
           "auto", choices=QUANTS, setting="quant"),
    Option("--device", "cpu or cuda (default: cuda when present)", setting="device"),
    Option("--dtype", "float32 or bfloat16 (default: float32 on CPU, bfloat16 on CUDA)", setting="dtype"),
    Option("--threads", "CPU threads (default: torch's, all cores)", type=int),
    Option("--inference", "where the model runs: local, here; remote, on the inference server at --endpoint; "
                          "chat, the model an OpenAI-compatible chat API at --endpoint serves (Ollama, LM Studio, "
                          f"llama-server, vLLM, a hosted API) (default: ${INFERENCE_ENV} or local)",
           "local", choices=INFERENCE, env=INFERENCE_ENV, setting="inference"),
    Option("--endpoint", "remote: the server's base URL, e.g. http://127.0.0.1:8080 (llama-server, vLLM, SGLang); "
                         "chat: the API's base URL, e.g. http://localhost:11434/v1; "
                         f"API key from $COPY_AS_DECODE_API_KEY (default: ${ENDPOINT_ENV})",
           env=ENDPOINT_ENV, setting="endpoint"),
    Option("--served-model", "remote and chat: the model name the server is asked for, e.g. qwen2.5-coder:7b "
                             f"(default: ${SERVED_MODEL_ENV}, else the one model the server lists)",
           env=SERVED_MODEL_ENV, setting="servedModel"),
    Option("--api", "remote: wire format, llama.cpp native /completion or OpenAI /v1/completions (default: auto)",
           "auto", choices=APIS, setting="api"),
    Option("--request-timeout", f"remote and chat: seconds to wait for one completion request, or for the next "
                                f"piece of a streamed answer (default {REQUEST_TIMEOUT:g})",
           REQUEST_TIMEOUT, type=float),
    Option("--no-stream", "chat: ask for the whole answer at once instead of streaming it (for a proxy that holds "
                          "server-sent events back); no progress, and a cancel waits for the answer",
           True, offered=WORKER, store_false=True),
    Option("--no-tokenizer-check", "remote: do not compare the server's tokenizer with the local one (for servers "
                                   "without /tokenize; prompts are token ids, so a different tokenizer gives garbage)",
           True, offered=WORKER, store_false=True),
    Option("--layout", f"where a rewrite prompt puts the instruction (default {DEFAULT_LAYOUT}, by measurement: "
                       f"docs/benchmarks.md, \"Prompt layout\"); an editor's edit whose window was read while its "
                       f"instruction was typed uses {PREPARED_LAYOUT}, which $COPY_AS_DECODE_LAYOUT={PREPARED_LAYOUT} "
                       f"reproduces from the command line",
           DEFAULT_LAYOUT, choices=LAYOUTS, env="COPY_AS_DECODE_LAYOUT", offered=RESEARCH),
    Option("--prefill-dtype", "dtype of the prompt's prefill (a second copy of the weights); decoding stays in --dtype "
                              "(default: --dtype)",
           choices=("float32", "bfloat16"), offered=RESEARCH),
    Option("--prompt-cache-mb", "torch engine: memory for the KV caches of recent prompts, reused by later edits "
                                f"(default {PROMPT_CACHE_MB})",
           PROMPT_CACHE_MB, type=int, offered=RESEARCH),
    Option("--grammar-rule", "the program grammar's variant (core/grammar.py)", _grammar_rule_default,
           choices=_grammar_rules, offered=RESEARCH),
)

# Spellings renamed since: each is refused with a message naming the new one, never read as it. Flags on the
# command line (add_arguments), environment variables (engine/make.py), settings keys (server/settings.py).
RENAMED = {"--backend": "--inference", "COPY_AS_DECODE_BACKEND": INFERENCE_ENV, "backend": "inference"}


class _Renamed(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is now {RENAMED[option_string]}")


def add_arguments(p, offered: int = EDIT, several_quants: bool = False) -> None:
    """The engine's options a command offers (EDIT: `edit`, `apply`; WORKER: `worker`; RESEARCH: the benchmarks).
    several_quants: `--quant` takes a list (a benchmark runs each)."""
    for o in OPTIONS:
        if o.offered > offered:
            continue
        if o.store_false:
            p.add_argument(o.flag, dest=o.dest, action="store_false", help=o.help)
        elif o.flag == "--quant" and several_quants:
            p.add_argument(o.flag, choices=o.allowed(), nargs="+", default=["none", "gguf"],
                           help=o.help + "; several: each in turn")
        else:
            default = o.default() if callable(o.default) else o.default
            p.add_argument(o.flag, type=o.type, choices=o.allowed(), default=os.environ.get(o.env, default) if o.env
                           else default, help=o.help)
    for old in RENAMED:
        if old.startswith("--"):
            p.add_argument(old, action=_Renamed, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
