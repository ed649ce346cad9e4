"""What the editor end-to-end tests share: the settings both sides use and the command line's result."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

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
    assert "copied" in proc.stderr  # the stats line: the run really went through the engine
    return target.read_bytes().decode("utf-8")


def read_report(path: Path, log: str, returncode: int) -> dict:
    """The JSON report an editor driver wrote, which must say the run went as planned."""
    assert path.exists(), f"the driver wrote no report (exit {returncode})\n{log}"
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["ok"], f"{report.get('msg')}\n{log}"
    return report
