"""Applying a code block from the real editors, and the editors' settings for a model on an inference server.

Apply (code-server + Chromium, and headless Neovim; the server's `copyAsDecode.apply`): the block goes to the
clipboard or a register, the editor's command sends it with the cursor or the selection, and the saved file
equals what `copy-as-decode apply FILE BLOCK --write` makes of the same file. The blocks name the functions they
replace, so the parser places them without a model call (`tiny` keeps the worker's start short). An empty
clipboard or register sends nothing and says so.

Remote (a real llama-server on a loopback port, the Qwen2.5-Coder-0.5B GGUF): with the settings `inference`
"remote" and `endpoint` its URL, an edit from the editor decodes on that server: the answer's stats count its
completion requests, and the server's log shows them. An endpoint where nothing listens fails the edit with one
line that names it.

Screenshots and logs of VS Code go to $COPY_AS_DECODE_ARTIFACTS (default /tmp/copy-as-decode-artifacts)."""
import ast
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from editor_e2e import FIXTURES, SETTINGS, TIMEOUT_S, copy_as_decode_exe
from test_neovim_e2e import run_neovim, same_text
from test_vscode_e2e import run_vscode

from copy_as_decode.bench import llama_server
from copy_as_decode.bench.engine_process import free_port
from copy_as_decode.engine.backends import models

pytestmark = pytest.mark.editor

FIXTURE = "stats.py"
# `variance` (lines 18-23) replaced whole; `spread` changed and a function added after it, between lazy markers
BLOCKS = {"whole": "variance.block", "lazy": "spread-lazy.block"}
LINES = {"whole": (18, 23), "lazy": (34, 35)}  # the lines of the function each block replaces (1-based)
APPLY_SETTINGS = {"model": "tiny", "device": "cpu"}


def cli_apply(src: Path, block: Path, workdir: Path) -> str:
    """What `copy-as-decode apply FILE BLOCK --write` makes of the same file and block."""
    target = workdir / "cli" / src.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    proc = subprocess.run([copy_as_decode_exe(), "apply", str(target), str(block), "--write", "--model", "tiny"],
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, f"copy-as-decode apply failed:\n{proc.stdout}\n{proc.stderr}"
    text = target.read_text(encoding="utf-8")
    assert text != src.read_text(encoding="utf-8")  # the block changes the file
    return text


# -- apply: VS Code ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("block,where", [("whole", "cursor"), ("lazy", "selection")])
def test_vscode_apply_from_clipboard(tmp_path, block, where):
    """"Copy-as-Decode: Apply Code Block from Clipboard" with the cursor in the function (a position is sent)
    or the function's lines selected (a range): the saved file equals the command line's."""
    first, last = LINES[block]
    env = {"CAD_BLOCK": str(FIXTURES / BLOCKS[block]), "CAD_CURSOR": f'{{"line": {first}, "character": 4}}'}
    if where == "selection":
        env = {**env, "CAD_CURSOR": f'{{"line": {first - 1}, "character": 0}}', "CAD_SELECT_LINES": str(last - first + 1)}
    report = run_vscode(tmp_path, FIXTURE, "apply", "", APPLY_SETTINGS, **env)
    log = report["log"]
    if where == "selection":
        assert report["cursor"].startswith(f"Ln {last + 1}, Col 1 ("), log  # "(N selected)"
    assert report["outcome"] == "applied", log
    # the extension's summary of the answer names where the block went
    function = "variance" if block == "whole" else "spread"
    assert re.match(rf"last edit: applied, \d+ edits?, replaced `{function}` \(lines {first}-{last}\)",
                    report.get("lastEdit") or ""), log
    expected = cli_apply(FIXTURES / FIXTURE, FIXTURES / BLOCKS[block], tmp_path)
    assert report["path"].read_text(encoding="utf-8") == expected, f"saved file differs from the CLI result\n{log}"


def test_vscode_apply_empty_clipboard(tmp_path):
    """An empty clipboard: a message says so, nothing is sent, the file stays as it was."""
    empty = tmp_path / "empty.block"
    empty.write_text("\n  \n")
    report = run_vscode(tmp_path, FIXTURE, "apply", "", APPLY_SETTINGS, CAD_BLOCK=str(empty))
    log = report["log"]
    assert "clipboard holds no text" in report["notice"], log
    assert not report["changed"], log
    assert report["statuses"] == ["Copy-as-Decode"], log  # no edit ran
    assert report["path"].read_bytes() == (FIXTURES / FIXTURE).read_bytes(), log


# -- apply: Neovim -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("block,register,ranged", [("whole", "", False), ("lazy", "a", True)])
def test_neovim_apply_from_register(tmp_path, block, register, ranged):
    """`:CopyAsDecodeApply` (the unnamed register, the cursor in the function) and `:34,35CopyAsDecodeApply a`
    (a named register, a range): the written file equals the command line's."""
    first, last = LINES[block]
    env = {"CAD_BLOCK": str(FIXTURES / BLOCKS[block]), "CAD_REGISTER": register,
           "CAD_CURSOR": f'{{"line": {first}, "character": 4}}'}
    if ranged:
        env["CAD_LINES"] = f"{first},{last}"
    report = run_neovim(tmp_path, FIXTURE, "apply", "", APPLY_SETTINGS, **env)
    log = report["log"]
    assert report["command"] == "copyAsDecode.apply", log
    arg = report["arg"]
    assert arg["block"] == (FIXTURES / BLOCKS[block]).read_text(encoding="utf-8"), log
    if ranged:  # whole lines: up to the start of the line after the range
        assert arg["range"] == {"start": {"line": first - 1, "character": 0}, "end": {"line": last, "character": 0}}, log
        assert "position" not in arg, log
    else:
        assert arg["position"] == {"line": first, "character": 4} and "range" not in arg, log
    assert report["result"]["status"] == "applied", log
    expected = cli_apply(FIXTURES / FIXTURE, FIXTURES / BLOCKS[block], tmp_path)
    assert same_text(report["text"], expected), f"buffer differs from the CLI result\n{log}"
    assert same_text(report["path"].read_text(encoding="utf-8"), expected), f"file differs from the CLI result\n{log}"


def test_neovim_apply_empty_register(tmp_path):
    """An empty register: a warning says so and nothing is sent."""
    empty = tmp_path / "empty.block"
    empty.write_text("")
    report = run_neovim(tmp_path, FIXTURE, "apply", "", APPLY_SETTINGS, CAD_BLOCK=str(empty), CAD_REGISTER="b",
                        CAD_EXPECT_NOTHING="1")
    log = report["log"]
    assert report["sent"] == 0, log
    assert any("register b is empty" in n for n in report["notes"]), log
    assert report["text"] == (FIXTURES / FIXTURE).read_text(encoding="utf-8"), log


# -- the model on an inference server ----------------------------------------------------------------------------

REMOTE_MODEL = "qwen2.5-coder-0.5b"
REMOTE_FIXTURE = "calc.py"
REMOTE_INSTRUCTION = "Rename the variable `total` to `acc`."  # (the 0.5B leaves it without the backticks)


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    """llama-server with the 0.5B model (the tokenizer the editor's `model` setting names) on a loopback port;
    yields (server, its log file)."""
    binary = llama_server.default_server_binary()
    if not binary.exists():
        pytest.skip(f"llama-server not built ({binary}); run scripts/build-llama-server.sh")
    gguf = models.gguf_file(REMOTE_MODEL)
    if not gguf.exists():
        pytest.skip(f"{REMOTE_MODEL} GGUF not installed; run `copy-as-decode models install {REMOTE_MODEL}`")
    log = tmp_path_factory.mktemp("llama") / "llama-server.log"
    threads = max(1, min(4, (os.cpu_count() or 2) - 1))  # a spare core: llama.cpp threads stall when one is taken
    with llama_server.LlamaServer(binary, gguf, ctx=4096, threads=threads, log=log) as server:
        yield server, log


def remote_settings(url: str) -> dict:
    return {**SETTINGS, "model": REMOTE_MODEL, "inference": "remote", "endpoint": url}


def completions_logged(log: Path, since: int) -> int:
    """Completion requests llama-server logged after byte `since` of its log: a slot takes each one up ("slot
    launch_slot_: id 0 | task 12 | processing task")."""
    with open(log, "rb") as f:
        f.seek(since)
        text = f.read().decode("utf-8", "replace")
    return len(re.findall(r"launch_slot_: .*\bprocessing task\b", text))


def check_remote_edit(text: str, requests: int, server_log: Path, since: int, log: str) -> None:
    """The edit sent `requests` completion requests (from the answer's stats), the server logged them after
    byte `since` of its log, the instruction was carried out (the 0.5B model renames the variable) and the file
    still parses."""
    assert requests > 0, f"no completion requests in the answer's stats\n{log}"
    assert completions_logged(server_log, since) >= requests, f"llama-server logged fewer requests\n{log}"
    ast.parse(text)
    assert "acc" in text and "total" not in text, f"not edited as asked:\n{text}\n{log}"


def test_neovim_unreachable_endpoint(tmp_path):
    """An endpoint where no server listens: the edit fails with one line that names it, the buffer is as it was."""
    url = f"http://127.0.0.1:{free_port()}"
    settings = {**APPLY_SETTINGS, "inference": "remote", "endpoint": url}  # (the tiny model's tokenizer)
    report = run_neovim(tmp_path, REMOTE_FIXTURE, "command", REMOTE_INSTRUCTION, settings, CAD_EXPECT_STATUS="error")
    log = report["log"]
    assert any(f"cannot reach the inference engine at {url}" in n for n in report["notes"]), log
    assert report["text"] == (FIXTURES / REMOTE_FIXTURE).read_text(encoding="utf-8"), log


@pytest.mark.slow
def test_neovim_remote_endpoint(tmp_path, llama):
    """`:CopyAsDecode` with the settings inference = "remote", endpoint = the server's URL."""
    server, server_log = llama
    since = server_log.stat().st_size
    report = run_neovim(tmp_path, REMOTE_FIXTURE, "command", REMOTE_INSTRUCTION, remote_settings(server.url))
    log = report["log"]
    assert report["result"]["status"] == "applied", log
    check_remote_edit(report["text"], report["result"]["stats"].get("requests", 0), server_log, since, log)
    assert same_text(report["path"].read_text(encoding="utf-8"), report["text"]), log


@pytest.mark.slow
def test_vscode_remote_endpoint(tmp_path, llama):
    """The palette's edit with copyAsDecode.inference "remote" and copyAsDecode.endpoint the server's URL; the
    extension's summary of the answer counts the requests."""
    server, server_log = llama
    since = server_log.stat().st_size
    report = run_vscode(tmp_path, REMOTE_FIXTURE, "palette", REMOTE_INSTRUCTION, remote_settings(server.url))
    log = report["log"]
    assert report["outcome"] == "applied", log
    requests = re.search(r"\brequests (\d+)", report.get("lastEdit") or "")
    check_remote_edit(report["path"].read_text(encoding="utf-8"), int(requests[1]) if requests else 0, server_log,
                      since, log)
