"""Functional correctness of an edited HumanEvalFix file: run the dataset's own tests in a subprocess."""
import os
import shutil
import subprocess
import sys
import tempfile


def passes(corpus: str, program_text: str, test: str, entry_point: str, timeout: float = 20.0) -> bool | None:
    """True/False when the tests ran; None when the runtime is missing (node for JavaScript)."""
    if corpus == "humanevalfix-python":
        source, cmd = f"{program_text}\n\n{test}\n\ncheck({entry_point})\n", [sys.executable]
    elif corpus == "humanevalfix-js":
        if shutil.which("node") is None:
            return None
        # console.assert only prints; make a failed assertion fail the process.
        source = ("console.assert = (c, ...m) => { if (!c) { console.error('assertion failed', ...m); "
                  "process.exit(1); } };\n" + program_text + "\n" + test + "\n")
        cmd = ["node"]
    else:
        raise ValueError(f"no functional tests for corpus {corpus!r}")
    with tempfile.NamedTemporaryFile("w", suffix=".py" if cmd[0] != "node" else ".js", delete=False) as f:
        f.write(source)
    try:
        done = subprocess.run(cmd + [f.name], capture_output=True, timeout=timeout)
        return done.returncode == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        os.unlink(f.name)
