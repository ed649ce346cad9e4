"""The built-in trained model `qwen2.5-coder-1.5b-copy`: the pinned Qwen2.5-Coder-1.5B plus the LoRA adapter that
ships in engine/backends/adapters/. The adapter is the one this version pins, loads onto its base, and its programs resolve."""
import json
import shutil
from pathlib import Path

import pytest

from copy_as_decode.engine.backends import models

pytestmark = pytest.mark.model

NAME = "qwen2.5-coder-1.5b-copy"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "buggy.py"


def test_the_shipped_adapter_is_the_pinned_one_and_fits_in_the_repository():
    path = models.adapter_dir(NAME)  # raises unless the weights have the pinned sha256
    assert (path / "adapter_model.safetensors").stat().st_size <= 30 * 2**20
    config = json.loads((path / "adapter_config.json").read_text())
    assert config["peft_type"] == "LORA" and config["r"] <= 16
    card = (path / "README.md").read_text()
    assert "held out" in card and "train sft" in card  # the card says how it was made and how it scores
    assert models.is_trained(NAME) and models.ADAPTED[NAME].base in models.BUILTINS and NAME in models.NAMES


def test_an_adapter_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    shutil.copytree(models.ADAPTERS / NAME, tmp_path / NAME)
    weights = tmp_path / NAME / "adapter_model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 1
    weights.write_bytes(bytes(data))
    monkeypatch.setattr(models, "ADAPTERS", tmp_path)
    with pytest.raises(models.ModelError, match="not the one this version pins"):
        models.install(NAME)


def test_settings_know_the_trained_model():
    from copy_as_decode.server.settings import Settings
    s, errors = Settings().merged({"model": NAME, "maxNewTokens": 40000})
    assert s.model == NAME and "32768" in errors[0]  # a built-in: its context is known before a worker runs


@pytest.mark.slow
def test_the_trained_model_writes_programs_that_resolve():
    from copy_as_decode.core.program import parse
    from copy_as_decode.core.resolver import resolve
    from copy_as_decode.engine.local import LocalEngine
    engine = LocalEngine(NAME, device="cpu", dtype="float32")
    assert engine.trained and engine.auto_selector() == "grammar"
    document = EXAMPLE.read_text()
    result = engine.edit(document, "Fix the bug: the mean divides by the wrong count.", "auto")
    assert result.stats.selector == "grammar" and result.stats.stop == "eos"
    assert result.text == resolve(parse(result.program), document)
    # the trained shape: copies around a short gen, most of the file copied rather than written (whether the
    # fix is right is the model's quality, measured by `bench edit`, not asserted here)
    assert result.program.startswith("<copy") and "<gen>" in result.program
    assert result.stats.spliced > result.stats.sampled
