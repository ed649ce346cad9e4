"""Kernel: copying N tokens by one parallel forward vs N autoregressive decode steps, after the same prefix;
and how far the two part in this device and dtype (the splice == stepwise claim, per N)."""
import json
import platform
import statistics
import sys
import time
from pathlib import Path

PAPER = {8: 6.8, 512: 303.0}  # A100, Liu 2026
SIZES = (8, 16, 32, 64, 128, 256, 512)
CURVE = Path(__file__).parent / "data" / "kernel_curve.json"


def add_arguments(p) -> None:
    from copy_as_decode.cli import add_engine_arguments
    add_engine_arguments(p)
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--prefix", type=int, default=256, help="tokens already in the cache")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", default="results/kernel.json")
    p.add_argument("--plot", default=None, help="PNG path (default: beside the JSON)")
    p.add_argument("--curve", default=None, help=f"also write the speedup curve here for `bench ceiling` (e.g. {CURVE})")


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def measure(engine, sizes, prefix: int, repeats: int) -> list[dict]:
    import torch
    from transformers import DynamicCache

    from copy_as_decode.engine.decode import forward
    sync = torch.cuda.synchronize if engine.device.startswith("cuda") else (lambda: None)
    text = Path(__file__).read_text() * 20  # real code tokens, so attention sees a realistic prefix
    ids = engine.tok.encode(text, add_special_tokens=False)
    cache = DynamicCache(config=engine.model.config)
    forward(engine.model, cache, ids[:prefix])
    points = []
    for n in sizes:
        copied = ids[prefix:prefix + n]

        def parallel():
            forward(engine.model, cache, copied)
            sync()
            cache.crop(-n)

        def stepwise():
            for t in copied:
                forward(engine.model, cache, [t])
            sync()
            cache.crop(-n)

        agree = agreement(engine.model, cache, copied)  # also the warm-up for this shape
        par = statistics.median(_timed(parallel) for _ in range(repeats))
        ar = statistics.median(_timed(stepwise) for _ in range(repeats))
        points.append({"n": n, "parallel_s": par, "autoregressive_s": ar, "speedup": ar / par, **agree})
        print(f"  N={n:4d}  parallel {par * 1e3:9.1f} ms  autoregressive {ar * 1e3:10.1f} ms  {ar / par:7.1f}x  "
              f"argmax agrees {agree['argmax_agree']:.3f}", file=sys.stderr)
    return points


def agreement(model, cache, copied: list[int]) -> dict:
    """Logits of the N positions from one parallel forward against N single steps: the largest difference
    relative to the largest logit, and the share of positions whose argmax (the greedy choice) is the same."""
    import torch

    from copy_as_decode.engine.decode import forward
    n = len(copied)
    parallel = forward(model, cache, copied, all_logits=True).float()
    cache.crop(-n)
    steps = torch.stack([forward(model, cache, [t])[-1] for t in copied]).float()
    cache.crop(-n)
    return {"max_rel_diff": float((parallel - steps).abs().max() / steps.abs().max()),
            "argmax_agree": float((parallel.argmax(-1) == steps.argmax(-1)).float().mean())}


def plot(points: list[dict], path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([p["n"] for p in points], [p["speedup"] for p in points], "o-", label="measured here")
    ax.plot(list(PAPER), list(PAPER.values()), "s--", label="paper (A100, endpoints)")
    ax.set(xscale="log", yscale="log", xlabel="copied tokens N", ylabel="speedup vs N decode steps", title=title)
    ax.set_xticks(SIZES, [str(s) for s in SIZES])
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args) -> int:
    import torch

    from copy_as_decode.cli import engine_from
    engine = engine_from(args)
    print(f"kernel: {args.model} on {engine.device} ({engine.dtype}, {torch.get_num_threads()} threads), "
          f"prefix {args.prefix} tokens, median of {args.repeats}", file=sys.stderr)
    points = measure(engine, args.sizes, args.prefix, args.repeats)
    report = {"model": args.model, "device": engine.device, "dtype": engine.dtype,
              "threads": torch.get_num_threads(), "prefix": args.prefix, "repeats": args.repeats,
              "machine": platform.processor() or platform.machine(), "points": points}
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    png = Path(args.plot) if args.plot else out.with_suffix(".png")
    plot(points, png, f"{args.model}, {engine.device} {engine.dtype}, {report['threads']} threads")
    if args.curve:
        Path(args.curve).write_text(json.dumps({"source": f"measured: bench kernel, {args.model} {engine.device} "
                                                f"{engine.dtype} {report['threads']} threads",
                                                "points": [{"n": p["n"], "speedup": round(p["speedup"], 2)}
                                                           for p in points]}, indent=2) + "\n")
    print(f"{'N':>5} {'parallel ms':>12} {'autoregr. ms':>13} {'speedup':>8} {'paper':>7} {'rel. diff':>10} "
          f"{'argmax same':>12}")
    for p in points:
        paper = f"{PAPER[p['n']]:.1f}x" if p["n"] in PAPER else ""
        print(f"{p['n']:>5} {p['parallel_s'] * 1e3:>12.1f} {p['autoregressive_s'] * 1e3:>13.1f} "
              f"{p['speedup']:>7.1f}x {paper:>7} {p['max_rel_diff']:>10.1e} {p['argmax_agree']:>12.3f}")
    print(f"wrote {out} and {png}")
    return 0
