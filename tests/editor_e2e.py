"""What the editor end-to-end tests share: the settings both sides use and the command line's result."""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from copy_as_decode.core.contract import EXIT_UNCHANGED

ROOT = Path(__file__).resolve().parents[1]
E2E = ROOT / "tests" / "e2e"
FIXTURES = E2E / "fixtures"
VENV_BIN = Path(sys.executable).parent

# The real offline model, greedy and verified: deterministic, and an edit worth looking at.
SETTINGS = {"model": "qwen2.5-coder-0.5b", "selector": "verified", "maxNewTokens": 256, "device": "cpu",
            "dtype": "float32"}
CLI_FLAGS = ["--model", "qwen2.5-coder-0.5b", "--selector", "verified", "--max-new-tokens", "256",
             "--device", "cpu", "--dtype", "float32", "--write"]
TIMEOUT_S = 900

# The cursor test: no selection, the cursor inside `variance` of a document long enough to be edited in
# windows (core/windows.py MIN_LINES) whose other functions use `total` too. An edit that did not get the
# cursor would rename the variable in the whole file, or in a function the search picked.
CURSOR_FIXTURE = "stats.py"
CURSOR_FUNCTION = "variance"
CURSOR = {"line": 21, "character": 8}  # the `total` of `total += (v - m) ** 2`; the line is ASCII
CURSOR_INSTRUCTION = "Rename the variable `total` to `acc`."
# `auto` edits at the cursor; `verified` and the other explicit selectors edit the whole file whatever the cursor.
CURSOR_SETTINGS = {**SETTINGS, "selector": "auto"}


def copy_as_decode_exe() -> str:
    """The `copy-as-decode` executable: $COPY_AS_DECODE_EXE, else the one beside this Python, else PATH."""
    exe = os.environ.get("COPY_AS_DECODE_EXE")
    if exe:
        return exe
    local = VENV_BIN / "copy-as-decode"
    if local.exists():
        return str(local)
    found = shutil.which("copy-as-decode")
    assert found, "copy-as-decode is not installed (run scripts/setup.sh)"
    return found


def cli_result(src: Path, instruction: str, workdir: Path, layout: str | None = None) -> str:
    """What the command line makes of the same file and instruction; `layout`: the prompt layout, for an
    editor's edit that read the window while the instruction was typed (engine/prompts/prompt.py PREPARED_LAYOUT)."""
    target = workdir / "cli" / src.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    proc = subprocess.run(
        [copy_as_decode_exe(), "edit", str(target), "--instruction", instruction, *CLI_FLAGS],
        capture_output=True, text=True, timeout=TIMEOUT_S,
        env={**os.environ, **({"COPY_AS_DECODE_LAYOUT": layout} if layout else {})},
    )
    # 0: written; EXIT_UNCHANGED: the model answered the file as it was, which the editor must show unchanged too
    assert proc.returncode in (0, EXIT_UNCHANGED), f"copy-as-decode edit failed:\n{proc.stdout}\n{proc.stderr}"
    assert "copied" in proc.stderr  # the stats line: the run really went through the engine
    return target.read_bytes().decode("utf-8")


def read_report(path: Path, log: str, returncode: int) -> dict:
    """The JSON report an editor driver wrote, which must say the run went as planned."""
    assert path.exists(), f"the driver wrote no report (exit {returncode})\n{log}"
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["ok"], f"{report.get('msg')}\n{log}"
    return report


def check_cursor_edit(windows: str, text: str, log: str = "") -> None:
    """The edit of CURSOR_FIXTURE by CURSOR_INSTRUCTION with the cursor at CURSOR: the server's `stats.windows`
    names CURSOR_FUNCTION alone, the instruction was carried out there, and no line outside the function changed."""
    original = (FIXTURES / CURSOR_FIXTURE).read_text(encoding="utf-8")
    func = next(n for n in ast.parse(original).body if isinstance(n, ast.FunctionDef) and n.name == CURSOR_FUNCTION)
    assert func.lineno <= CURSOR["line"] + 1 <= func.end_lineno  # the fixture still fits the test
    window = re.fullmatch(r"(\d+)-(\d+) \(([^)]*)\)", windows or "")
    assert window, f"not a window of the cursor's function: {windows!r}\n{log}"
    assert window[3] == CURSOR_FUNCTION and int(window[1]) == func.lineno, f"window {windows!r}\n{log}"
    old, new = original.splitlines(keepends=True), text.splitlines(keepends=True)
    before, after = old[:func.lineno - 1], old[func.end_lineno:]
    assert new[:len(before)] == before, f"lines before {CURSOR_FUNCTION} changed\n{log}"
    assert new[len(new) - len(after):] == after, f"lines after {CURSOR_FUNCTION} changed\n{log}"
    body = "".join(new[len(before):len(new) - len(after)])
    assert "acc" in body and "total" not in body, f"{CURSOR_FUNCTION} was not edited as asked:\n{body}\n{log}"


# -- while it decodes: place, pick, preview (tests/e2e/standin_server.py plays the server's side) ------------------

STANDIN = E2E / "standin_server.py"
PREVIEW_FIXTURE = "stats.py"
PREVIEW_INSTRUCTION = "Document mean and let it take an empty list."
# Two places the server is unsure between: the cursor's function and the one the instruction names.
PREVIEW_CANDIDATES = [
    {"label": "variance", "detail": "lines 18-23, at the cursor", "first": 17, "last": 22,
     "new": "def variance(values):\n    m = mean(values)\n    acc = 0\n    for v in values:\n"
            "        acc += (v - m) ** 2\n    return acc / len(values)\n"},
    {"label": "mean", "detail": "lines 4-8, named in the instruction", "first": 3, "last": 7,
     "new": 'def mean(values):\n    """The arithmetic mean of `values`; 0.0 when there are none."""\n    total = 0\n'
            "    for v in values:  # ints or floats\n        total += v\n    return total / max(len(values), 1)\n"},
]
PREVIEW_PICK = 1  # `mean`
# The hunks of `mean`'s edit, top to bottom: (0-based line, lines replaced, new lines)
PREVIEW_HUNKS = [(4, 0, ['    """The arithmetic mean of `values`; 0.0 when there are none."""\n']),
                 (5, 1, ["    for v in values:  # ints or floats\n"]),
                 (7, 1, ["    return total / max(len(values), 1)\n"])]


def standin_script(tmp_path: Path, review: bool = True, steps: int = 4, step_s: float = 0.4) -> dict:
    """The stand-in server's script (written to tmp_path/standin.json) and the environment that points the
    server at it: {env, sync, log}."""
    sync = tmp_path / "sync"
    sync.mkdir(exist_ok=True)
    log = tmp_path / "standin-events.jsonl"
    script = {"candidates": PREVIEW_CANDIDATES, "steps": steps, "step_s": step_s, "review": review,
              "sync": str(sync), "log": str(log)}
    path = tmp_path / "standin.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return {"env": {"CAD_STANDIN": str(path)}, "sync": sync, "log": log,
            "cmd": [sys.executable, str(STANDIN)]}


def standin_events(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def with_preview_hunks(kept) -> str:
    """PREVIEW_FIXTURE with the hunks `kept` (indexes into PREVIEW_HUNKS) applied."""
    lines = (FIXTURES / PREVIEW_FIXTURE).read_text(encoding="utf-8").splitlines(keepends=True)
    for k in sorted(kept, reverse=True):
        at, replaced, new = PREVIEW_HUNKS[k]
        lines[at:at + replaced] = new
    return "".join(lines)


def keep_screenshots(files: dict[str, Path]) -> None:
    """With $COPY_AS_DECODE_DOC_IMG set to a folder (docs/img), the screenshots go there under their names."""
    folder = os.environ.get("COPY_AS_DECODE_DOC_IMG")
    if folder:
        for name, src in files.items():
            shutil.copyfile(src, Path(folder) / name)
