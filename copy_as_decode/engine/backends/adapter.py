"""Base model + LoRA adapter specs: `BASE+ADAPTER_DIR`, e.g. `qwen2.5-coder-0.5b+results/adapters/n256`."""
from pathlib import Path

from copy_as_decode.core.contract import ModelError

SEPARATOR = "+"


def split_spec(spec: str) -> tuple[str, str | None]:
    """`base+adapter` -> (base, adapter); a spec without "+" has no adapter. The base never contains "+"
    (built-in names, .gguf files and model directories without one), the adapter path may."""
    if SEPARATOR not in spec:
        return spec, None
    base, adapter = spec.split(SEPARATOR, 1)
    return base, adapter


def load_adapter(model, path: str | Path, merge: bool = True):
    """Apply the PEFT adapter saved in `path` to `model`; merged (the default) it is a plain model again,
    as fast as the base at inference."""
    from peft import PeftModel
    path = Path(path)
    if not (path / "adapter_config.json").is_file():
        raise ModelError(f"no adapter in {path} (adapter_config.json missing); train one with "
                         f"`copy-as-decode train sft`")
    model = PeftModel.from_pretrained(model, str(path))
    return model.merge_and_unload() if merge else model
