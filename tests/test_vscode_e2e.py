"""End to end in real VS Code (code-server + Chromium, driven by playwright-core): the packaged extension
starts `copy-as-decode serve`, "Edit with Copy-as-Decode" from the command palette edits the file, and the
saved file equals what `copy-as-decode edit ... --write` makes of the same input; with the cursor in a
function of a longer file, only that function changes.
(The review of a proposed change is tested in test_review.py.)

Screenshots and logs go to $COPY_AS_DECODE_ARTIFACTS (default /tmp/copy-as-decode-artifacts)."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from editor_e2e import (
    CURSOR,
    CURSOR_FIXTURE,
    CURSOR_INSTRUCTION,
    CURSOR_SETTINGS,
    E2E,
    FIXTURES,
    ROOT,
    SETTINGS,
    TIMEOUT_S,
    check_cursor_edit,
    cli_result,
    copy_as_decode_exe,
    read_report,
)

TOOLS = ROOT / ".tools"
CODE_SERVER = TOOLS / "code-server.sh"
NODE = TOOLS / "node24" / "node_modules" / ".bin" / "node"
VSIX = ROOT / "extension-vscode" / "copy-as-decode.vsix"
CHROMIUM = Path(os.environ.get("CAD_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(os.environ.get("COPY_AS_DECODE_ARTIFACTS", "/tmp/copy-as-decode-artifacts"))


def run_vscode(tmp_path, name, mode, instruction, settings, **env) -> dict:
    """tests/e2e/vscode.mjs on a copy of fixture `name` in a fresh workspace; returns its report (with `path`,
    the copy, and `log`)."""
    missing = [str(p) for p in (CODE_SERVER, NODE, CHROMIUM) if not p.exists()]
    if missing:
        pytest.skip(f"editor not installed: {', '.join(missing)} (scripts/setup-editors.sh installs them)")
    assert VSIX.exists(), f"{VSIX} missing: run scripts/setup-editors.sh (or `npm run package` in extension-vscode)"
    assert (E2E / "node_modules" / "playwright-core").exists(), "playwright-core missing: run scripts/setup-editors.sh"

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    target = workspace / name
    shutil.copyfile(FIXTURES / name, target)
    report_path = tmp_path / "report.json"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    from copy_as_decode.engine.backends import models

    env = dict(
        os.environ,
        # code-server runs with a HOME of its own: keep the installed models where the server finds them
        COPY_AS_DECODE_HOME=str(models.home()),
        CAD_CODE_SERVER=str(CODE_SERVER),
        CAD_VSIX=str(VSIX),
        CAD_WORKSPACE=str(workspace),
        CAD_FILE=name,
        CAD_INSTRUCTION=instruction,
        CAD_MODE=mode,
        CAD_CMD=json.dumps([copy_as_decode_exe(), "serve"]),
        CAD_SETTINGS=json.dumps(settings),
        CAD_PROFILE=str(tmp_path / "profile"),
        CAD_ARTIFACTS=str(ARTIFACTS),
        CAD_REPORT=str(report_path),
        CAD_TIMEOUT_MS=str(TIMEOUT_S * 1000 // 2),
        CAD_TAG=f"{Path(name).stem}-{mode}",
    ) | env  # the caller's settings win (a server command of its own)
    proc = subprocess.run(
        [str(NODE), str(E2E / "vscode.mjs")], cwd=E2E, env=env, capture_output=True, text=True,
        timeout=TIMEOUT_S + 120, stdin=subprocess.DEVNULL,
    )
    log = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}\n(screenshots in {ARTIFACTS})"
    report = read_report(report_path, log, proc.returncode)
    assert report["screenshots"], log
    return {**report, "path": target, "log": log}


CASES = [
    ("grüße.py", "palette", "Rename the variable total to länge."),
    ("calc.py", "refactor", "Rename the variable total to acc."),
]


@pytest.mark.editor
@pytest.mark.parametrize("name,mode,instruction", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_vscode_edit(tmp_path, name, mode, instruction):
    """palette: F1 "Edit with Copy-as-Decode"; refactor: the server's action in the Refactor menu."""
    report = run_vscode(tmp_path, name, mode, instruction, SETTINGS)
    # the instruction box opened with a prepare: the server's worker read the file before the instruction, so
    # the edit is the command line's with the file first in the prompt (engine/prompts/prompt.py PREPARED_LAYOUT)
    assert (report.get("prepare") or "").startswith("prepare: {"), report["log"]
    expected = cli_result(FIXTURES / name, instruction, tmp_path, layout="file-first")
    on_disk = report["path"].read_bytes().decode("utf-8")
    assert on_disk == expected, f"saved file differs from the CLI result\n{report['log']}"


@pytest.mark.editor
def test_vscode_cursor(tmp_path):
    """The palette command with the cursor inside a function and nothing selected: the extension sends the
    cursor, the server edits that function and nothing else, and its answer (which the extension sums up in
    its output channel) names the function's lines."""
    report = run_vscode(tmp_path, CURSOR_FIXTURE, "palette", CURSOR_INSTRUCTION, CURSOR_SETTINGS,
                        CAD_CURSOR=json.dumps(CURSOR))
    log = report["log"]
    assert report["cursor"] == f"Ln {CURSOR['line'] + 1}, Col {CURSOR['character'] + 1}", log
    last = re.match(r"last edit: (\w+), .*?\blines (\d+-\d+ \([^)]*\))", report.get("lastEdit") or "")
    assert last, f"no window in the extension's summary {report.get('lastEdit')!r}\n{log}"
    assert last[1] == "applied", log
    check_cursor_edit(last[2], report["path"].read_bytes().decode("utf-8"), log)
