"""LoRA fine-tuning (peft) on edit-program sequences, CPU or CUDA.

Each example is one sequence exactly as the engine decodes it (train/sequence.py); the loss is the mean
cross-entropy over the tokens the model samples. The LM head runs only at those positions.

Where the gradient flows (`grad_from`), a speed/fidelity trade-off for CPU runs:
- "all": full sequences, the exact gradient.
- "shared" (default): every sequence starts with the same system prompt and worked examples (~360 of
  ~700 tokens). Once per optimizer step that prefix goes through the model without gradients, under the
  current weights, and every example of the step continues from its key/value cache. The forward pass is
  exact (tests check the loss equals the full-sequence loss); the gradient leaves out the prefix
  positions' own dependence on the adapter. About half the cost of "all".
- "program": the whole prompt (with the document) is run without gradients; only the program part
  (sampled and copied tokens) is backpropagated. Cheapest; the document's keys and values still come from
  the adapted model but do not learn.

Long documents (a whole 1,000-line file is ~10k tokens) need `checkpointing`: each decoder layer keeps only its
input and is recomputed during backward, so activation memory grows with the sequence instead of with
sequence x layers (attention probabilities included). transformers drops a KV cache inside a checkpointed layer
(the recompute would append to it twice), so it goes with grad_from "all" only: full sequences, the exact gradient.
"""
import hashlib
import json
import math
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from copy_as_decode.engine.backends.prefix_cache import common_prefix
from copy_as_decode.engine.options import DEFAULT_MODEL

from .data import meta_path
from .sequence import IGNORE, Sequence, serialize_example

TARGET_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


@dataclass
class Config:
    model: str = DEFAULT_MODEL
    data: str = "results/train.jsonl"
    out: str = "results/adapters/run"
    examples: int | None = None      # first N examples of the file (None: all)
    epochs: float = 1.0
    batch: int = 4                   # examples per optimizer step (gradient accumulation)
    lr: float = 2e-4
    warmup: float = 0.1              # share of steps with a linear warm-up; then cosine decay to 0
    rank: int = 16
    alpha: int = 32
    dropout: float = 0.0
    first_layer: int = 0             # LoRA on decoder layers >= this (higher: faster backward on CPU)
    max_tokens: int = 1024           # longer sequences are skipped
    seed: int = 0
    device: str | None = None
    autocast: bool = True            # bf16 autocast (CPU with avx512_bf16 or CUDA); master weights stay fp32
    grad_from: str = "shared"        # all, shared or program (see the module docstring)
    threads: int | None = None
    checkpointing: bool = False      # recompute each layer in backward (long documents; needs grad_from "all")
    checkpoint_every: int = 25       # optimizer steps between checkpoints (out/checkpoint.pt); 0: none
    resume: bool = False             # continue from out/checkpoint.pt when it is there


def lora_config(cfg: Config, n_layers: int):
    from peft import LoraConfig
    layers = list(range(cfg.first_layer, n_layers)) if cfg.first_layer else None
    return LoraConfig(r=cfg.rank, lora_alpha=cfg.alpha, lora_dropout=cfg.dropout, target_modules=list(TARGET_MODULES),
                      layers_to_transform=layers, bias="none", task_type="CAUSAL_LM")


def shared_prompt_prefix(seqs: list[Sequence]) -> int:
    """Length of the token prefix shared by all sequences, within every prompt (never into a program)."""
    if not seqs:
        return 0
    first, n = seqs[0].input_ids, min(s.prompt_len for s in seqs)
    return min([n] + [common_prefix(first[:n], s.input_ids) for s in seqs[1:]])


def _autocast(device: torch.device, enabled: bool):
    return torch.autocast(device.type, dtype=torch.bfloat16, enabled=enabled)


GRAD_FROM = ("all", "shared", "program")


def _cache(model, kv):
    from transformers import DynamicCache
    cache = DynamicCache(config=model.config)
    for i, (k, v) in enumerate(kv or []):
        cache.update(k, v, i)
    return cache


def prefix_kv(model, ids: list[int], autocast: bool, past: list | None = None) -> list[tuple]:
    """Per-layer (key, value) of `ids` (continuing `past`), computed without gradients."""
    device = next(model.parameters()).device
    cache = _cache(model, past)
    with torch.no_grad(), _autocast(device, autocast):
        model(input_ids=torch.tensor([ids], device=device), cache=cache, use_cache=True, logits_to_keep=1)
    return [(layer.keys, layer.values) for layer in cache.layers]


def sequence_loss(model, seq: Sequence, prefix: list | None = None, autocast: bool = False) -> tuple[torch.Tensor, int]:
    """(summed cross-entropy over the labelled tokens, their count); `prefix` from prefix_kv continues a cache."""
    device = next(model.parameters()).device
    start = prefix[0][0].shape[-2] if prefix else 0
    cache = _cache(model, prefix) if prefix else None
    if any(label != IGNORE for label in seq.labels[:start + 1]):
        raise ValueError("the cached prefix must end before the token that predicts the first label")
    ids = seq.input_ids[start:]
    # logits at position t predict token t+1: keep only the positions whose next token is labelled
    keep = [t for t in range(len(ids) - 1) if seq.labels[start + t + 1] != IGNORE]
    targets = torch.tensor([seq.labels[start + t + 1] for t in keep], device=device)
    with _autocast(device, autocast):
        out = model(input_ids=torch.tensor([ids], device=device), cache=cache, use_cache=cache is not None,
                    logits_to_keep=torch.tensor(keep, device=device))
    logits = out.logits[0].float()
    return torch.nn.functional.cross_entropy(logits, targets, reduction="sum"), len(keep)


def attach_lora(model, cfg: Config):
    from peft import get_peft_model
    if cfg.checkpointing and cfg.grad_from != "all":
        raise ValueError('checkpointing needs grad_from "all": a checkpointed layer ignores the prefix cache')
    model = get_peft_model(model, lora_config(cfg, model.config.num_hidden_layers))
    if cfg.checkpointing:  # non-reentrant: the frozen embeddings' output needs no gradient for it to work
        model.base_model.model.activation_checkpointing_enable({"use_reentrant": False})
    return model


def lr_at(step: int, total: int, cfg: Config) -> float:
    warm = max(1, round(cfg.warmup * total))
    if step < warm:
        return cfg.lr * (step + 1) / warm
    progress = (step - warm) / max(1, total - warm)
    return cfg.lr * 0.5 * (1 + math.cos(math.pi * progress))


def train_step(model, optimizer, batch: list[Sequence], cfg: Config, prefix_len: int) -> float:
    """One optimizer step over `batch`; returns the mean loss per labelled token. `prefix_len`: the shared
    prompt prefix (0 with grad_from "all")."""
    device = next(model.parameters()).device
    shared = prefix_kv(model, batch[0].input_ids[:prefix_len], cfg.autocast) if prefix_len else None
    n_tokens = sum(s.n_labels for s in batch)
    total = 0.0
    optimizer.zero_grad(set_to_none=True)
    for seq in batch:
        prefix = shared
        if cfg.grad_from == "program" and seq.prompt_len - 1 > prefix_len:
            # up to the prompt's last token: its logits predict the program's first token
            prefix = prefix_kv(model, seq.input_ids[prefix_len:seq.prompt_len - 1], cfg.autocast, shared)
        loss, _ = sequence_loss(model, seq, prefix, cfg.autocast)
        (loss / n_tokens).backward()
        total += loss.item()
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
    optimizer.step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return total / n_tokens


def load_sequences(tok, cfg: Config, log) -> list[Sequence]:
    from .data import read_jsonl
    examples = read_jsonl(Path(cfg.data))
    if cfg.examples is not None:
        if cfg.examples > len(examples):
            raise ValueError(f"{cfg.data} has {len(examples)} examples, fewer than the {cfg.examples} asked for")
        examples = examples[:cfg.examples]
    seqs = [serialize_example(tok, ex) for ex in examples]
    kept = [s for s in seqs if len(s.input_ids) <= cfg.max_tokens]
    if len(kept) < len(seqs):
        log(f"skipped {len(seqs) - len(kept)} of {len(seqs)} sequences longer than {cfg.max_tokens} tokens")
    return kept


def train(cfg: Config, log=lambda msg: print(msg, file=sys.stderr), model=None, tok=None) -> dict:
    """Fine-tune and save the adapter to cfg.out; returns the run's record (also written to out/train.json)."""
    from tqdm import tqdm

    from copy_as_decode.engine.backends import models
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    device = cfg.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if model is None:
        model, tok = models.load(cfg.model, device, "float32")
    seqs = load_sequences(tok, cfg, log)
    if not seqs:
        raise ValueError("no training sequences")
    torch.manual_seed(cfg.seed)
    model = attach_lora(model, cfg)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    if cfg.grad_from not in GRAD_FROM:
        raise ValueError(f"grad_from must be one of {', '.join(GRAD_FROM)}")
    prefix_len = 0 if cfg.grad_from == "all" else shared_prompt_prefix(seqs)
    rng = random.Random(cfg.seed)
    order: list[int] = []
    while len(order) < round(cfg.epochs * len(seqs)):
        epoch = list(range(len(seqs)))
        rng.shuffle(epoch)
        order += epoch
    order = order[:max(1, round(cfg.epochs * len(seqs)))]
    batches = [order[i:i + cfg.batch] for i in range(0, len(order), cfg.batch)]
    log(f"{len(seqs)} sequences, {len(batches)} steps of {cfg.batch}, shared prefix {prefix_len} tokens, "
        f"{sum(p.numel() for p in params):,} trainable parameters, {device}")
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / "checkpoint.pt"
    done, losses, spent = 0, [], 0.0
    if cfg.resume and ckpt.exists():  # the batch order is a function of the seed, so it continues exactly
        state = torch.load(ckpt, weights_only=False)
        if state["data_sha256"] != _sha256(cfg.data) or state["steps"] != len(batches):
            raise ValueError(f"{ckpt} was written for other data or another schedule; remove it to start over")
        model.load_state_dict(state["adapter"], strict=False)
        optimizer.load_state_dict(state["optimizer"])
        done, losses, spent = state["step"], state["losses"], state["seconds"]
        log(f"resuming at step {done} of {len(batches)} from {ckpt}")
    start = time.perf_counter() - spent
    bar = tqdm(batches, desc="sft", unit="step", file=sys.stderr, dynamic_ncols=True, initial=done)
    for step, batch in enumerate(batches[done:], done):
        for group in optimizer.param_groups:
            group["lr"] = lr_at(step, len(batches), cfg)
        loss = train_step(model, optimizer, [seqs[i] for i in batch], cfg, prefix_len)
        losses.append(loss)
        recent = losses[-10:]
        bar.update()
        bar.set_postfix(loss=f"{loss:.3f}", avg10=f"{sum(recent) / len(recent):.3f}",
                        lr=f"{optimizer.param_groups[0]['lr']:.1e}")
        if cfg.checkpoint_every and (step + 1) % cfg.checkpoint_every == 0 and step + 1 < len(batches):
            torch.save({"adapter": {k: v for k, v in model.state_dict().items() if "lora_" in k},
                        "optimizer": optimizer.state_dict(), "step": step + 1, "steps": len(batches),
                        "losses": losses, "seconds": time.perf_counter() - start,
                        "data_sha256": _sha256(cfg.data)}, ckpt.with_suffix(".tmp"))
            ckpt.with_suffix(".tmp").replace(ckpt)  # a run killed mid-write keeps the previous checkpoint
    bar.close()
    model.save_pretrained(str(out))
    meta = meta_path(Path(cfg.data))
    record = {"config": asdict(cfg), "command": sys.argv, "data_sha256": _sha256(cfg.data),
              "data": json.loads(meta.read_text()) if meta.exists() else None, "device": device,
              "sequences": len(seqs), "steps": len(batches), "prefix_tokens": prefix_len, "losses": losses,
              "seconds": time.perf_counter() - start, "threads": torch.get_num_threads()}
    (out / "train.json").write_text(json.dumps(record, indent=1))
    ckpt.unlink(missing_ok=True)
    log(f"saved adapter to {out} ({record['seconds']:.0f} s, final loss {losses[-1]:.3f})")
    return record


def _sha256(path: str) -> str:
    """The data version recorded beside the adapter and checked on resume."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@torch.no_grad()
def evaluate_loss(model, seqs: list[Sequence], autocast: bool = False) -> float:
    """Mean loss per labelled token (full sequences, no prefix cache)."""
    model.eval()
    total = count = 0
    for s in seqs:
        loss, n = sequence_loss(model, s, None, autocast)
        total, count = total + loss.item(), count + n
    return total / max(count, 1)
