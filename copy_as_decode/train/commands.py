"""Train: generate edit-program examples, fine-tune a LoRA adapter, draw a learning curve."""
import json
import sys
from pathlib import Path

from copy_as_decode.core.grammar import RULES
from copy_as_decode.engine.options import DEFAULT_MODEL


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="action", required=True)

    s = sub.add_parser("data", help="generate training examples (JSONL) from code and prose on this machine")
    s.add_argument("--out", default="results/train.jsonl")
    s.add_argument("-n", "--examples", type=int, default=3000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--python-root", help="directory of Python sources (default: this interpreter's stdlib)")
    s.add_argument("--js-root", action="append", help="directory searched for .js files (repeatable)")
    s.add_argument("--prose-root", action="append", help="directory searched for README/.md/.txt (repeatable)")
    s.add_argument("--no-decontaminate", action="store_true",
                   help="keep snippets that share a line with the evaluation corpora (not recommended)")

    s = sub.add_parser("export", help="write an adapter in its shipped form (bfloat16) to engine/backends/adapters/NAME")
    s.add_argument("adapter", help="adapter directory written by `train sft`")
    s.add_argument("--name", required=True, help="the built-in trained model's name, e.g. qwen2.5-coder-1.5b-copy")
    s.add_argument("--out", help="target directory (default: engine/backends/adapters/NAME)")

    for name, help_ in (("sft", "LoRA fine-tuning; saves a peft adapter usable as --model BASE+ADAPTER_DIR"),
                        ("curve", "learning curve: train on the first N examples for each N, score on HumanEvalFix")):
        s = sub.add_parser(name, help=help_)
        s.add_argument("--model", default=DEFAULT_MODEL, help="base model spec (built-in name, directory, ...)")
        s.add_argument("--data", default="results/train.jsonl")
        s.add_argument("--epochs", type=float, default=1.0)
        s.add_argument("--batch", type=int, default=4, help="examples per optimizer step")
        s.add_argument("--lr", type=float, default=2e-4)
        s.add_argument("--rank", type=int, default=16)
        s.add_argument("--alpha", type=int, default=32)
        s.add_argument("--first-layer", type=int, default=0, help="LoRA only on decoder layers >= this")
        s.add_argument("--max-tokens", type=int, default=1024, help="skip longer sequences")
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--device", help="cpu or cuda (default: cuda when present)")
        s.add_argument("--threads", type=int, help="CPU threads for torch")
        s.add_argument("--no-autocast", action="store_true", help="train in float32 instead of bf16 autocast")
        s.add_argument("--grad-from", default="shared", choices=("all", "shared", "program"),
                       help="backpropagate through everything, all but the shared prompt prefix (default), "
                            "or the program only (cheapest); see train/sft.py")
        s.add_argument("--checkpointing", action="store_true",
                       help="recompute each layer during backward: long documents fit in memory (--grad-from all)")
        if name == "sft":
            s.add_argument("--out", default="results/adapters/run", help="adapter directory")
            s.add_argument("--checkpoint-every", type=int, default=25, help="steps between checkpoints (0: none)")
            s.add_argument("--resume", action="store_true",
                           help="continue from OUT/checkpoint.pt, so one run can span several sessions")
            s.add_argument("-n", "--examples", type=int, help="use the first N examples (default: all)")
        else:
            s.add_argument("--out", default="results/curve", help="adapters, evaluations, curve.json, curve.png")
            s.add_argument("--sizes", type=int, nargs="+", default=[0, 64, 256])
            s.add_argument("--limit", type=int, default=12, help="HumanEvalFix cases (spread evenly)")
            s.add_argument("--corpus", default="humanevalfix-python")
            s.add_argument("--max-new-tokens", type=int, default=256)
            s.add_argument("--dtype", help="inference dtype (default: float32 on CPU, bfloat16 on CUDA)")
            s.add_argument("--grammar-rule", default="default", choices=RULES,
                           help="grammar variant for the evaluation (core/grammar.py)")
            s.add_argument("--skip-eval", type=int, nargs="*", default=[], help="sizes to train but not score")


def _config(args):
    from .sft import Config
    return Config(model=args.model, data=args.data, out=args.out, examples=getattr(args, "examples", None),
                  epochs=args.epochs, batch=args.batch, lr=args.lr, rank=args.rank, alpha=args.alpha,
                  first_layer=args.first_layer, max_tokens=args.max_tokens, seed=args.seed, device=args.device,
                  autocast=not args.no_autocast, grad_from=args.grad_from, threads=args.threads,
                  checkpointing=args.checkpointing,
                  checkpoint_every=getattr(args, "checkpoint_every", 0), resume=getattr(args, "resume", False))


def run_data(args) -> int:
    from tqdm import tqdm

    from copy_as_decode.synthesis import sources as harvest

    from . import data
    root = Path(args.python_root) if args.python_root else harvest.PYTHON_ROOT
    js = harvest.js_files([Path(r) for r in args.js_root] if args.js_root else harvest.JS_ROOTS)
    prose = harvest.prose_files([Path(r) for r in args.prose_root] if args.prose_root else harvest.PROSE_ROOTS)
    sources = data.Sources(harvest.python_functions(root), harvest.js_functions(js), harvest.prose_chunks(prose),
                           harvest.long_files(root, js, prose), decontaminate_against=not args.no_decontaminate)
    long = {k: len(v) for k, v in sources.long.items()}
    print(f"sources: {len(sources.python)} Python functions, {len(sources.javascript)} JavaScript functions, "
          f"{len(sources.prose)} prose chunks, long files {long}", file=sys.stderr)
    bar = tqdm(total=args.examples, desc="examples", file=sys.stderr)
    examples = data.generate(args.examples, args.seed, sources, progress=lambda k: bar.update(1))
    bar.close()
    data.write_jsonl(examples, Path(args.out))
    counts: dict[str, int] = {}
    for ex in examples:
        counts[ex.source] = counts.get(ex.source, 0) + 1
    # how the set was made, read by `train sft` into the adapter's train.json
    data.meta_path(Path(args.out)).write_text(json.dumps(
        {"data_version": data.DATA_VERSION, "seed": args.seed, "examples": len(examples), "sources": counts,
         "command": sys.argv}, indent=1))
    print(f"wrote {len(examples)} examples (data v{data.DATA_VERSION}) to {args.out} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})")
    return 0


def run(args) -> int:
    if args.action == "data":
        return run_data(args)
    if args.action == "export":
        from copy_as_decode.engine.backends.models import ADAPTERS

        from .export import export
        out = Path(args.out) if args.out else ADAPTERS / args.name
        shipped = export(Path(args.adapter), out)
        print(f"wrote {out}: {shipped['tensors']} tensors, {shipped['bytes'] / 2**20:.1f} MiB, "
              f"sha256 {shipped['sha256']} (pin it in engine/backends/models.py ADAPTED[{args.name!r}])")
        return 0
    if args.action == "sft":
        from .sft import train
        train(_config(args))
        print(f"adapter: {args.out}  (use --model {args.model}+{args.out})")
        return 0
    from .curve import run_curve
    cfg = _config(args)
    result = run_curve(args, cfg)
    for p in result["points"]:
        print(f"N={p['examples']:>5}  exact {p['exact']}/{p['cases']}  tests {p['passed']}/{p['cases']}  "
              f"(replace repair: exact {p['exact_repaired']}, tests {p['passed_repaired']})  "
              f"unchanged {p['unchanged']}  sampled {p['sampled']}  copied {p['spliced']}  "
              f"eval {p['seconds']:.0f} s  train {p['train_seconds']:.0f} s")
    return 0
