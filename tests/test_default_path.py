"""The default path (`./run edit`: a built-in GGUF on llama.cpp) imports neither torch nor transformers, which the
default install leaves out (requirements.txt; requirements-torch.txt has them). Each check runs in a fresh
interpreter whose `import` refuses both."""
import subprocess
import sys
from pathlib import Path

import pytest

from copy_as_decode.engine.backends import models

ROOT = Path(__file__).resolve().parent.parent
BLOCK = """
import builtins
_import = builtins.__import__
def _refuse(name, *args, **kwargs):
    if name.split(".")[0] in ("torch", "transformers"):
        raise ImportError(f"the default path imported {name}")
    return _import(name, *args, **kwargs)
builtins.__import__ = _refuse
"""

# every module the default edit loads, the llama.cpp backend and the tokenizer on its vocabulary included
MODULES = ["copy_as_decode.cli", "copy_as_decode.engine.local", "copy_as_decode.engine.worker",
           "copy_as_decode.engine.selectors", "copy_as_decode.engine.backends.llama_cpp",
           "copy_as_decode.engine.backends.llama_vocab", "copy_as_decode.engine.backends.decode_backend",
           "copy_as_decode.engine.backends.models", "copy_as_decode.engine.decoding.decode",
           "copy_as_decode.engine.decoding.constraint"]


def run(code: str, timeout: int = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def test_the_default_paths_modules_import_without_torch_or_transformers():
    done = run(f"import importlib, sys\nfor m in {MODULES!r}:\n    importlib.import_module(m)\n"
               "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers')))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_torch_engine_without_torch_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(models, "has_torch", lambda: False)
    with pytest.raises(models.ModelError, match=r"pip install -r requirements-torch\.txt"):
        models.require_torch("--quant none")


@pytest.mark.slow
@pytest.mark.skipif(not models.is_installed("qwen2.5-coder-0.5b"), reason="qwen2.5-coder-0.5b not installed")
def test_a_default_edit_runs_without_torch_or_transformers(tmp_path):
    f = tmp_path / "buggy.py"
    f.write_text((ROOT / "examples" / "buggy.py").read_text())
    argv = ["copy-as-decode", "edit", str(f), "-i", "Fix the bug: the mean divides by the wrong count.",
            "--model", "qwen2.5-coder-0.5b", "--threads", "2"]
    done = run(f"import sys\nsys.argv = {argv!r}\nfrom copy_as_decode.cli import main\ntry:\n    main()\nfinally:\n"
               "    print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers')))", timeout=600)
    assert "the default path imported" not in done.stderr
    assert done.returncode in (0, 3), done.stderr  # an edit, or a stop that changes nothing: never an import
    assert "qwen2.5-coder-0.5b (q4_k_m)" in done.stderr and done.stdout.rstrip().endswith("[]")
