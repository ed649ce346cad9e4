"""The server's settings (section "copyAsDecode"), read from initializationOptions and configuration changes."""
import shlex
import sys
from dataclasses import dataclass, field, fields, replace
from urllib.parse import urlsplit

from copy_as_decode.core.contract import AUTO, DEFAULT_SELECTOR
from copy_as_decode.engine.backends.models import BUILTIN_CONTEXT, NAMES, TINY
from copy_as_decode.engine.options import DEFAULT_MODEL, OPTIONS, RENAMED
from copy_as_decode.engine.selectors import OFFERED

SECTION = "copyAsDecode"
BUILTIN_MODELS = (*NAMES, TINY)  # whose context is known before a worker runs
REVIEW = ("always", "never", "large")

# the engine's options that are settings (engine/options.py OPTIONS, by `setting`): each a field of the same name,
# appended to the worker's command as its flag when the value is not empty
ENGINE = {o.dest: o for o in OPTIONS if o.setting}
# camelCase setting name -> field name
_NAMES = {"selector": "selector", "maxNewTokens": "max_new_tokens", "timeout": "timeout",
          "workerCommand": "worker_command", "review": "review", "reviewLines": "review_lines",
          **{o.setting: name for name, o in ENGINE.items()}}


class SettingsError(ValueError):
    """A setting with a value of the wrong type or out of range; the message names it."""


@dataclass(frozen=True)
class Settings:
    model: str = DEFAULT_MODEL
    selector: str = DEFAULT_SELECTOR
    quant: str = ""  # empty: the worker's default (auto: the GGUF weights on llama.cpp where it can)
    device: str = ""  # empty: the worker's default (CUDA when present, else CPU)
    dtype: str = ""  # empty: the worker's default (float32 on CPU, bfloat16 on CUDA)
    max_new_tokens: int | None = None  # None: auto, the budget the worker derives from the document
    timeout: float = 600.0  # seconds; 0 means no limit
    worker_command: tuple[str, ...] = field(default=())  # empty: this Python's `copy-as-decode worker`
    review: str = "large"  # which edits go to review, in clients that can show one
    review_lines: int = 20  # "large": more changed lines than this
    # Where the model runs (engine/options.py); empty: the worker's default ($COPY_AS_DECODE_INFERENCE, else local).
    # With "remote" the edits decode on the inference server at `endpoint` and `model` names the local tokenizer;
    # with "chat" the model `served_model` names answers at the chat API `endpoint`.
    inference: str = ""
    endpoint: str = ""  # the remote engine's base URL; empty: the worker's default ($COPY_AS_DECODE_ENDPOINT)
    served_model: str = ""  # the model the server is asked for; empty: the worker's default (the one it lists)
    api: str = ""  # the remote engine's wire format; empty: the worker's default (auto)

    def command(self) -> list[str]:
        """The worker's command line: the program, then --model (never empty) and --quant, --device, --dtype,
        --inference, --endpoint, --served-model, --api when set."""
        program = list(self.worker_command) or [sys.executable, "-m", "copy_as_decode.cli", "worker"]
        for name, option in ENGINE.items():
            if getattr(self, name):
                program += [option.flag, getattr(self, name)]
        return program

    def merged(self, raw) -> tuple["Settings", list[str]]:
        """These settings updated from a client object ({"copyAsDecode": {...}} or the section itself),
        and one message per rejected value.

        Unknown keys are ignored, null values keep the current value, a bad value keeps it too.
        """
        if not isinstance(raw, dict):
            return self, []
        if isinstance(raw.get(SECTION), dict):
            raw = raw[SECTION]
        changes, errors = {}, []
        for key, value in raw.items():
            if key in RENAMED:  # set by the user (VS Code sends a declared, deprecated setting empty when it is not)
                if value not in (None, ""):
                    errors.append(f"{SECTION}.{key} is now {SECTION}.{RENAMED[key]}")
                continue
            name = _NAMES.get(key)
            if name is None or value is None:
                continue
            try:
                changes[name] = _check(key, name, value)
            except SettingsError as e:
                errors.append(str(e))
        new = replace(self, **changes)
        if new.max_new_tokens is not None and new.model in BUILTIN_MODELS and new.max_new_tokens > BUILTIN_CONTEXT:
            errors.append(f"{SECTION}.maxNewTokens must be at most {BUILTIN_CONTEXT}, the context of {new.model} "
                          f"(or \"{AUTO}\")")
            new = replace(new, max_new_tokens=self.max_new_tokens)
        return new, errors

    @property
    def budget(self):
        """`max_new_tokens` as the worker takes it."""
        return AUTO if self.max_new_tokens is None else self.max_new_tokens

    def reviews(self, changed_lines: int) -> bool:
        """Whether an edit that changes this many lines asks for review (see positions.Hunk.changed)."""
        return self.review == "always" or (self.review == "large" and changed_lines > self.review_lines)

    def restart_needed(self, other: "Settings") -> bool:
        """Whether going from these settings to `other` needs a new worker process."""
        return self.command() != other.command()


def _check(key: str, name: str, value):
    if name == "worker_command":
        if isinstance(value, str):
            value = shlex.split(value)
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise SettingsError(f"{SECTION}.{key} must be a list of strings or a command line")
        return tuple(value)
    if name == "max_new_tokens":
        if value == AUTO:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SettingsError(f"{SECTION}.{key} must be \"{AUTO}\" or a positive integer")
        return value
    if name == "review_lines":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SettingsError(f"{SECTION}.{key} must be a number of lines (0 or more)")
        return value
    if name == "timeout":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise SettingsError(f"{SECTION}.{key} must be a number of seconds (0: no limit)")
        return float(value)
    if not isinstance(value, str):
        raise SettingsError(f"{SECTION}.{key} must be a string")
    if name in ("model", "selector") and not value:
        raise SettingsError(f"{SECTION}.{key} must not be empty")
    if name == "selector" and value not in OFFERED:
        raise SettingsError(f"{SECTION}.{key} must be one of {', '.join(OFFERED)}")
    allowed = ENGINE[name].allowed() if name in ENGINE else None
    if allowed is not None and value not in ("", *allowed):
        raise SettingsError(f"{SECTION}.{key} must be one of {', '.join(allowed)} (or empty: the worker's default)")
    if name == "review" and value not in REVIEW:
        raise SettingsError(f"{SECTION}.{key} must be one of {', '.join(REVIEW)}")
    if name == "endpoint":
        return _endpoint(key, value)
    return value


def _endpoint(key: str, value: str) -> str:
    """An http(s) URL with a host (surrounding blanks dropped), or empty."""
    value = value.strip()
    if not value:
        return value
    try:
        url = urlsplit(value)
        url.port  # noqa: B018  (raises ValueError on a port that is not a number)
    except ValueError:
        url = None
    if url is None or url.scheme.lower() not in ("http", "https") or not url.hostname or any(c.isspace() for c in value):
        raise SettingsError(f"{SECTION}.{key} must be an http:// or https:// URL such as http://127.0.0.1:8080 "
                            "(or empty: the worker's default)")
    return value


FIELDS = tuple(f.name for f in fields(Settings))
KEYS = tuple(_NAMES)  # the settings' names as clients send them
