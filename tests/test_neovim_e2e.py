"""End to end in a real Neovim: the plugin in nvim/ talks to `copy-as-decode serve`, the edit lands in the
buffer and on disk, and the text equals what `copy-as-decode edit ... --write` makes of the same input; with
the cursor in a function of a longer file, only that function changes.
(The review of a proposed change is tested in test_review.py.)"""
import json
import os
import shutil
import subprocess

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
    VENV_BIN,
    check_cursor_edit,
    cli_result,
    copy_as_decode_exe,
    read_report,
)


def nvim_exe():
    return shutil.which("nvim", path=os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")]))


def same_text(got: str, expected: str) -> bool:
    # Neovim holds a file as lines plus an end-of-line flag: a text that lost its final newline is
    # still written with one ('fixendofline'). Everything else must match byte for byte.
    return got == expected or (not expected.endswith("\n") and got == expected + "\n")


def run_neovim(tmp_path, name, mode, instruction, settings, **env) -> dict:
    """tests/e2e/neovim.lua on a copy of fixture `name`; returns its report (with `path`, the copy)."""
    nvim = nvim_exe()
    if not nvim:
        pytest.skip("nvim is not installed (scripts/setup-editors.sh installs Neovim 0.11.4 into .venv)")
    work = tmp_path / "editor"
    work.mkdir()
    target = work / name
    shutil.copyfile(FIXTURES / name, target)
    report_path = tmp_path / "report.json"
    env = dict(
        os.environ,
        CAD_PLUGIN=str(ROOT / "nvim"),
        CAD_CMD=json.dumps([copy_as_decode_exe(), "serve"]),
        CAD_SETTINGS=json.dumps(settings),
        CAD_FILE=str(target),
        CAD_MODE=mode,
        CAD_INSTRUCTION=instruction,
        CAD_REPORT=str(report_path),
        CAD_TIMEOUT_MS=str(TIMEOUT_S * 1000 // 2),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    ) | env  # the caller's settings win (a server command of its own)
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-l", str(E2E / "neovim.lua")],
        cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL,
    )
    log = f"--- nvim stdout\n{proc.stdout}\n--- nvim stderr\n{proc.stderr}"
    report = read_report(report_path, log, proc.returncode)
    assert proc.returncode == 0, log
    return {**report, "path": target, "log": log}


CASES = [
    ("calc.py", "command", "Rename the variable total to acc."),
    ("grüße.py", "code_action", "Rename the variable total to länge."),
]


@pytest.mark.editor
@pytest.mark.parametrize("name,mode,instruction", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_neovim_edit(tmp_path, name, mode, instruction):
    report = run_neovim(tmp_path, name, mode, instruction, SETTINGS)
    log = report["log"]
    # the code action asks for the instruction and sends a prepare first: the edit is then the command line's
    # with the file first in the prompt (engine/prompts/prompt.py PREPARED_LAYOUT); `:CopyAsDecode <instruction>` asks
    # nothing and prepares nothing
    prompted = mode == "code_action"
    assert ("prepare_arg" in report) == prompted, log
    if prompted:
        assert report["prepare_arg"]["uri"] == report["arg"]["uri"] and "prepared" in report["prepared"], log
    expected = cli_result(FIXTURES / name, instruction, tmp_path, layout="file-first" if prompted else None)
    if mode == "code_action":
        titles = [a["title"] for a in report["actions"]]
        assert any(a["kind"] == "refactor.rewrite" and a["title"].startswith("Edit with Copy-as-Decode")
                   for a in report["actions"]), titles
        assert "Fix with Copy-as-Decode: example problem" in titles, titles

    on_disk = report["path"].read_bytes().decode("utf-8")
    assert same_text(report["text"], expected), f"buffer differs from the CLI result\n{log}"
    assert same_text(on_disk, expected), f"file on disk differs from the CLI result\n{log}"


@pytest.mark.editor
def test_neovim_cursor(tmp_path):
    """`:CopyAsDecode` without a range sends the cursor (in the negotiated encoding) and no range; the server
    edits the function there and nothing else, and says so in its answer."""
    report = run_neovim(tmp_path, CURSOR_FIXTURE, "command", CURSOR_INSTRUCTION, CURSOR_SETTINGS,
                        CAD_CURSOR=json.dumps(CURSOR))
    log = report["log"]
    assert report["arg"]["position"] == CURSOR and "range" not in report["arg"], log
    assert report["result"]["status"] == "applied", log
    check_cursor_edit(report["result"]["stats"]["windows"], report["text"], log)
    assert same_text(report["path"].read_bytes().decode("utf-8"), report["text"]), log
