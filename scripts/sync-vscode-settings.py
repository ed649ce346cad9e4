#!/usr/bin/env python3
"""Writes the selector registry (engine/selectors/) into the VS Code extension's `copyAsDecode.selector`
setting, so the editor offers what the engine has. `--check` only says whether the file is in step (the test
suite runs it)."""
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


def synced(text: str) -> str:
    package = json.loads(text)
    package["contributes"]["configuration"]["properties"]["copyAsDecode.selector"] = selector_setting()
    return json.dumps(package, indent=2) + "\n"


def main() -> int:
    text = PACKAGE.read_text()
    if synced(text) == text:
        return 0
    if "--check" in sys.argv:
        print(f"{PACKAGE} is not in step with engine/selectors/: run scripts/sync-vscode-settings.py", file=sys.stderr)
        return 1
    PACKAGE.write_text(synced(text))
    print(f"wrote {PACKAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
