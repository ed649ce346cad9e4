"""Ship a trained adapter inside the package: `train export ADAPTER_DIR --name NAME` writes engine/backends/adapters/NAME/
(the LoRA weights in bfloat16, half the bytes of float32, their peft config and the run's train.json) and
prints the sha256 that engine/backends/models.py pins for the built-in NAME. The model card (README.md there) is
written by hand from the held-out evaluation."""
import json
import shutil
from pathlib import Path

WEIGHTS, CONFIG, RECORD = "adapter_model.safetensors", "adapter_config.json", "train.json"


def export(adapter: Path, out: Path, dtype: str = "bfloat16") -> dict:
    """Write the shipped form of `adapter` to `out`; returns {"sha256", "bytes", "tensors"}."""
    import torch
    from safetensors.torch import load_file, save_file

    from copy_as_decode.engine.backends.models import sha256
    if not (adapter / CONFIG).is_file():
        raise ValueError(f"no adapter in {adapter} ({CONFIG} missing)")
    tensors = load_file(adapter / WEIGHTS)
    out.mkdir(parents=True, exist_ok=True)
    save_file({k: v.to(getattr(torch, dtype)).contiguous() for k, v in tensors.items()}, out / WEIGHTS,
              metadata={"format": "pt"})
    config = json.loads((adapter / CONFIG).read_text())
    config["base_model_name_or_path"] = None  # a local path of the machine that trained it; the base is pinned
    (out / CONFIG).write_text(json.dumps(config, indent=1, sort_keys=True) + "\n")
    if (adapter / RECORD).is_file():
        shutil.copy(adapter / RECORD, out / RECORD)
    return {"sha256": sha256(out / WEIGHTS), "bytes": (out / WEIGHTS).stat().st_size, "tensors": len(tensors)}
