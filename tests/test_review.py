"""Review before apply in the real editors, with tests/fake_worker.py as the model (its instruction is the
edit program, so every proposed hunk is known): the server sends hunks that need confirmation, and the
editor applies exactly those the user keeps, as one undo step. The server's side (which edits carry
change annotations, their labels, the setting) is tested in test_lsp_server.py."""
import json
import os
import subprocess
import sys

import pytest
from editor_e2e import E2E, FIXTURES, ROOT, copy_as_decode_exe, read_report
from test_neovim_e2e import nvim_exe, run_neovim
from test_vscode_e2e import run_vscode

FAKE_WORKER = [sys.executable, str(ROOT / "tests" / "fake_worker.py")]

# Hunks the fake worker proposes: (0-based line, lines replaced, new line)
HUNKS = {
    "calc.py": [(1, 1, "    total = 0.0\n"), (4, 1, "    return total / max(len(values), 1)\n"),
                (8, 0, '    """Largest minus smallest."""\n')],
    # a change after multi-byte characters: Neovim's positions are UTF-8 bytes, VS Code's UTF-16 units
    "grüße.py": [(1, 1, 'GREETING = "Grüß dich, 世界 🚀!"\n'), (5, 1, "    länge = len(name)\n")],
}


def fixture_lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines(keepends=True)


def program(name: str) -> str:
    """The edit program that makes all of the file's hunks, on one line (as typed)."""
    out, line = [], 1
    for at, replaced, new in HUNKS[name]:
        if at >= line:
            out.append(f'<copy lines="{line}-{at}"/>')
        out.append(f"<gen>{new}</gen>")
        line = at + replaced + 1
    out.append(f'<copy lines="{line}-{len(fixture_lines(name))}"/>')
    return "".join(out).replace("\n", "\\n")


def with_hunks(name: str, kept) -> str:
    lines = fixture_lines(name)
    for k in sorted(kept, reverse=True):
        at, replaced, new = HUNKS[name][k]
        lines[at:at + replaced] = [new]
    return "".join(lines)


NEOVIM = {
    # the cursor on the second hunk in the proposed text, accept it, reject the rest
    "accept-hunk": ("calc.py", [{"win": "proposal", "line": 5, "keys": "gh"},
                                {"win": "proposal", "line": 1, "keys": "gr"}], (1,), "applied"),
    # the third hunk from the buffer's side (the line above the insertion), the first from the proposal,
    # then the rest: three changes, one undo step
    "accept-all": ("calc.py", [{"win": "buffer", "line": 8, "keys": "gh"}, {"win": "proposal", "line": 2, "keys": "gh"},
                               {"win": "proposal", "line": 1, "keys": "ga"}], (0, 1, 2), "applied"),
    "reject-all": ("calc.py", [{"win": "proposal", "line": 2, "keys": "gr"}], (), "rejected"),
    "utf-8": ("grüße.py", [{"win": "buffer", "line": 2, "keys": "gh"}, {"win": "proposal", "line": 6, "keys": "gr"}],
              (0,), "applied"),
}


@pytest.mark.editor
@pytest.mark.parametrize("case", NEOVIM)
def test_neovim_review(tmp_path, case):
    """`:CopyAsDecode` with review "always": the keys leave exactly the accepted hunks, and one `u` the original."""
    name, steps, kept, status = NEOVIM[case]
    vertical = case == "accept-hunk"
    settings = {"workerCommand": FAKE_WORKER, "model": "fake", "review": "always"}
    report = run_neovim(tmp_path, name, "command", program(name), settings, CAD_REVIEW=json.dumps(steps),
                        CAD_DIFFOPT="internal,filler,closeoff" + (",vertical" if vertical else ""))
    log = report["log"]
    assert (report["status"], report["reviewed"]) == (status, True), log
    assert report["text"] == with_hunks(name, kept), log
    assert report["undone"] == "".join(fixture_lines(name)), log  # one `u` takes the whole edit back
    assert report["tabs"] == 1, log  # the review closed
    assert report["layout"] == ("row" if vertical else "col"), log  # 'diffopt' decides, as for :diffsplit


@pytest.mark.editor
def test_vscode_review(tmp_path):
    """The palette command with review "large": the Refactor Preview lists the hunks by line, unticking one
    applies the others only, the saved file has exactly those, and one Ctrl+Z restores the original."""
    name = "calc.py"
    settings = {"workerCommand": FAKE_WORKER, "model": "fake", "review": "large", "reviewLines": 2}
    labels = ["line 2: replace 1 line", "line 5: replace 1 line", "line 9: insert 1 line"]
    report = run_vscode(tmp_path, name, "palette", "#slow 0.05 30\\n" + program(name), settings,
                        CAD_UNTICK=json.dumps(labels[1:2]))
    log = report["log"]
    # each change as VS Code lists it, unticked, and what was ticked before Apply
    assert [row[:4] + row[4:].partition(" - ")[0] for row in report["preview"][1:]] == [f"[ ] {x}" for x in labels], log
    assert [row[:4] + row[4:].partition(" - ")[0] for row in report["ticked"][1:]] == [
        f"[{' ' if x == labels[1] else 'x'}] {x}" for x in labels], log
    assert report["outcome"] == "applied", log
    assert report["saved"] == with_hunks(name, (0, 2)), log
    assert report["undone"] == "".join(fixture_lines(name)), log
    # the status bar while the model works, then while the preview is open
    assert any(s.startswith("(spin) Copy-as-Decode: ") and "tokens generated" in s for s in report["statuses"]), log
    assert "Copy-as-Decode: 3 edits to review" in report["statuses"], log


def run_stock_neovim(tmp_path, instruction: str, answer: str = "") -> dict:
    """tests/e2e/neovim_stock.lua on a copy of calc.py: Neovim's own LSP client, no plugin."""
    nvim = nvim_exe()
    if not nvim:
        pytest.skip("nvim is not installed (scripts/setup-editors.sh installs Neovim 0.11.4 into .venv)")
    target, report_path = tmp_path / "calc.py", tmp_path / "report.json"
    target.write_text("".join(fixture_lines("calc.py")), encoding="utf-8")
    env = dict(os.environ, CAD_CMD=json.dumps([copy_as_decode_exe(), "serve"]), CAD_FILE=str(target),
               CAD_SETTINGS=json.dumps({"workerCommand": FAKE_WORKER, "model": "fake"}), CAD_INSTRUCTION=instruction,
               CAD_ANSWER=answer, CAD_REPORT=str(report_path), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([nvim, "--headless", "--clean", "-l", str(E2E / "neovim_stock.lua")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    log = f"--- nvim stdout\n{proc.stdout}\n--- nvim stderr\n{proc.stderr}"
    report = read_report(report_path, log, proc.returncode)
    assert proc.returncode == 0, log
    return {**report, "log": log}


@pytest.mark.editor
@pytest.mark.parametrize("answer", ["Apply", "Discard", ""])
def test_stock_neovim_is_asked_before_a_refused_result(tmp_path, answer):
    """Neovim 0.11 without the plugin shows no change annotations: a result the worker refused for new parse
    errors is put to the user first (window/showMessageRequest, through Neovim's own vim.ui.select) naming its
    hunk, and reaches the buffer only on Apply; Discard, or closing the question, leaves it as it was."""
    lines = fixture_lines("calc.py")
    broken = f'#refuse unparsed\n<copy lines="1-1"/><gen>    total = (0\n</gen><copy lines="3-{len(lines)}"/>'
    report = run_stock_neovim(tmp_path, broken, answer)
    log = report["log"]
    [asked] = report["asked"]
    assert asked["items"] == ["Apply", "Discard"], log
    assert "Apply it anyway? Its 1 change: line 2: replace 1 line" in asked["prompt"], log
    assert "no longer parses where the document did" in asked["prompt"], log
    yes = answer == "Apply"
    assert (report["status"], report["result"]["reviewed"]) == ("applied" if yes else "rejected", True), log
    assert report["applied"] == yes, log  # nothing is sent before the yes
    assert report["text"] == "".join(lines[:1] + ["    total = (0\n"] + lines[2:]) if yes else "".join(lines), log


@pytest.mark.editor
def test_stock_neovim_is_told_when_nothing_changes(tmp_path):
    report = run_stock_neovim(tmp_path, f'<copy lines="1-{len(fixture_lines("calc.py"))}"/>')
    log = report["log"]
    assert (report["status"], report["applied"], report["asked"]) == ("unchanged", 0, []), log
    assert report["messages"] == ["Copy-as-Decode: No change: the model answered the text as it was"], log


@pytest.mark.editor
def test_the_neovim_plugin_says_no_change(tmp_path):
    """An edit whose result is the buffer as it was: the plugin's line says `no change`, not `done`."""
    settings = {"workerCommand": FAKE_WORKER, "model": "fake"}
    report = run_neovim(tmp_path, "calc.py", "command", f'<copy lines="1-{len(fixture_lines("calc.py"))}"/>', settings,
                        CAD_EXPECT_STATUS="unchanged")
    assert report["text"] == "".join(fixture_lines("calc.py")), report["log"]
    assert any(n.startswith("Copy-as-Decode: no change (") for n in report["notes"]), report["log"]


@pytest.mark.editor
def test_vscode_says_no_change(tmp_path):
    """An edit whose result is the file as it was: the server's notification says why, the status bar flashes
    `unchanged` and the extension's output line keeps the message."""
    said = "No change: the model answered the text as it was"
    report = run_vscode(tmp_path, "calc.py", "palette", f'<copy lines="1-{len(fixture_lines("calc.py"))}"/>',
                        {"workerCommand": FAKE_WORKER, "model": "fake"})
    log = report["log"]
    assert (report["outcome"], report["changed"]) == ("unchanged", False), log
    assert report["lastEdit"].startswith("last edit: unchanged, 0 edits, " + said), log
    assert f"Copy-as-Decode: {said}" in log, log  # the notification, as the run's end lists them
    assert report["path"].read_text(encoding="utf-8") == "".join(fixture_lines("calc.py")), log


@pytest.mark.editor
def test_vscode_reviews_a_refused_result(tmp_path):
    """A one-line result the worker refused for new parse errors, under the default `review` (large edits
    only): it still opens in the Refactor Preview, its hunk described by the refusal, and lands on Apply."""
    lines = fixture_lines("calc.py")
    broken = f'#refuse unparsed\\n<copy lines="1-1"/><gen>    total = (0\\n</gen><copy lines="3-{len(lines)}"/>'
    report = run_vscode(tmp_path, "calc.py", "palette", broken, {"workerCommand": FAKE_WORKER, "model": "fake"},
                        CAD_UNTICK="[]")
    log = report["log"]
    assert [row[:4] + row[4:].partition(" - ")[0] for row in report["preview"][1:]] == [
        "[ ] line 2: replace 1 line"], log
    assert report["outcome"] == "applied" and report["saved"] == "".join(lines[:1] + ["    total = (0\n"] + lines[2:]), log
