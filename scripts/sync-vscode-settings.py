#!/usr/bin/env python3
"""Writes the selector registry (engine/selectors/) into the VS Code extension's `copyAsDecode.selector`
setting, and the engine's options that are settings (engine/options.py OPTIONS) into theirs: the values each
takes and its default (the server's, server/settings.py), with what each choice of `copyAsDecode.inference` and
`copyAsDecode.api` means, so the editor offers what the engine has; a renamed setting stays, deprecated.
`--check` only says whether the file is in step (the test suite runs it)."""
import json
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "extension-vscode" / "package.json"


def selector_setting() -> dict:
    from copy_as_decode.core.contract import AUTO, DEFAULT_SELECTOR
    from copy_as_decode.engine.selectors import AUTO_HELP, OFFERED, SELECTORS
    return {"type": "string", "enum": list(OFFERED),
            "enumDescriptions": [AUTO_HELP if n == AUTO else SELECTORS[n].help for n in OFFERED],
            "default": DEFAULT_SELECTOR, "markdownDescription": "How the edit program is chosen."}


# What each place the model runs and each wire format means, for the settings editor; a name missing here fails
# the sync.
INFERENCE_HELP = {"local": "the model runs in the worker, on this machine",
                "remote": "edits decode on the inference server at `copyAsDecode.endpoint` (llama-server, vLLM, SGLang)",
                "chat": "each window goes to the model `copyAsDecode.servedModel` of the OpenAI-compatible chat API at "
                        "`copyAsDecode.endpoint` (Ollama, LM Studio, llama-server, vLLM, a hosted API)"}
API_HELP = {"auto": "asked from the server (llama.cpp's own API when it is llama-server)",
            "llama.cpp": "llama-server's native `/completion` (token ids back, prefix-cache figures)",
            "openai": "OpenAI-style `/v1/completions` (vLLM, SGLang, other servers)"}


def choice_setting(names, help: dict, default_help: str, description: str) -> dict:
    """A string setting whose empty value means the worker's default."""
    return {"type": "string", "enum": ["", *names], "markdownEnumDescriptions": [default_help, *(help[n] for n in names)],
            "default": "", "markdownDescription": description}


def inference_setting() -> dict:
    from copy_as_decode.engine.options import INFERENCE, INFERENCE_ENV
    return choice_setting(INFERENCE, INFERENCE_HELP, f"the worker's default (`${INFERENCE_ENV}`, else `local`)",
                          "Where the model runs. `remote`: on an inference server you run (llama-server, vLLM, "
                          "SGLang) at `#copyAsDecode.endpoint#`; `#copyAsDecode.model#` then names the local "
                          "tokenizer, which must be the served model's. `chat`: the model "
                          "`#copyAsDecode.servedModel#` of the chat API at `#copyAsDecode.endpoint#` rewrites each "
                          "window (no local model or tokenizer). Changing it restarts the model worker.")


def api_setting() -> dict:
    from copy_as_decode.engine.remote.dialects import APIS
    return choice_setting(APIS, API_HELP, "the worker's default (`auto`)",
                          "With `#copyAsDecode.inference#` `remote`: the server's wire format.")


def engine_settings(properties: dict) -> None:
    """Each engine option's setting takes the option's choices (or empty: the worker's default) and starts at the
    server's default."""
    from copy_as_decode.server.settings import ENGINE, SECTION, Settings
    for name, option in ENGINE.items():
        entry = properties[f"{SECTION}.{option.setting}"]
        if option.allowed() is not None:
            entry["enum"] = ["", *option.allowed()]
        entry["default"] = getattr(Settings(), name)


def synced(text: str) -> str:
    package = json.loads(text)
    properties = package["contributes"]["configuration"]["properties"]
    properties["copyAsDecode.selector"] = selector_setting()
    properties["copyAsDecode.inference"] = inference_setting()
    properties["copyAsDecode.api"] = api_setting()
    engine_settings(properties)
    renamed_settings(properties)
    return json.dumps(package, indent=2) + "\n"


def renamed_settings(properties: dict) -> None:
    """A setting the engine renamed (engine/options.py RENAMED) stays declared, deprecated, so VS Code strikes it
    through in settings.json and names the new one: the extension no longer reads it."""
    from copy_as_decode.engine.options import RENAMED
    from copy_as_decode.server.settings import SECTION
    for old, new in RENAMED.items():
        if old.isidentifier() and old.islower():  # a setting (the others are an option and a variable)
            properties[f"{SECTION}.{old}"] = {"type": "string", "default": "",
                                              "markdownDeprecationMessage": f"Renamed: `#{SECTION}.{new}#`."}


def main() -> int:
    text = PACKAGE.read_text()
    if synced(text) == text:
        return 0
    if "--check" in sys.argv:
        print(f"{PACKAGE} is not in step with the engine (selectors, the engine's options): "
              "run scripts/sync-vscode-settings.py", file=sys.stderr)
        return 1
    PACKAGE.write_text(synced(text))
    print(f"wrote {PACKAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
