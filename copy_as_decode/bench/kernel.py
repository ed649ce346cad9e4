"""Kernel: copying N tokens by one parallel forward vs N autoregressive decode steps, after the same prefix, for
each weight format (`--quant none gguf`: torch float32, llama.cpp on the shipped Q4_K_M); how far the two part
(the splice == stepwise claim, per N); and one decode step of each against llama-server's on the same GGUF
(`--peer`), all in one run."""
import argparse
import gc
import json
import platform
import statistics
import sys
import time
import urllib.request
from pathlib import Path

from copy_as_decode.bench import columns

PAPER = {8: 6.8, 512: 303.0}  # A100, Liu 2026
SIZES = (8, 16, 32, 64, 128, 256, 512)
CURVE = Path(__file__).parent / "data" / "kernel_curve.json"
PEER = "llama-server"
STEPS = 32  # decode steps a decode-step time is the median of
COLUMNS = [("weights", "<10"), ("N", ">5"), ("parallel ms", ">12"), ("autoregr. ms", ">13"), ("speedup", ">8"),
           ("paper", ">7"), ("rel. diff", ">10"), ("argmax same", ">12")]


def add_arguments(p) -> None:
    from copy_as_decode.engine.options import RESEARCH, add_arguments
    add_arguments(p, RESEARCH, several_quants=True)
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--prefix", type=int, default=256, help="tokens already in the cache")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--peer", action="store_true",
                   help="also llama-server's decode step and its batch of the largest N on the same GGUF and threads "
                        "(scripts/build-llama-server.sh)")
    p.add_argument("--json", default="results/kernel.json")
    p.add_argument("--plot", default=None, help="PNG path (default: beside the JSON)")
    p.add_argument("--curve", default=None, help=f"also write the first quant's speedup curve here for `bench "
                                                 f"ceiling` (e.g. {CURVE})")


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def prefix_ids(tok, prefix: int) -> list[int]:
    text = Path(__file__).read_text() * 40  # real code tokens, so attention sees a realistic prefix
    return tok.encode(text, add_special_tokens=False)[:prefix + max(SIZES) + STEPS]


def measure(engine, sizes, prefix: int, repeats: int) -> tuple[list[dict], float]:
    """Per N: parallel vs stepwise seconds and their agreement; and the median seconds of one decode step.
    Each forward returns its logits to the host (the backend's `step`), which waits for the device."""
    backend = engine.backend
    ids = prefix_ids(engine.tok, prefix)
    backend.restore(None)
    backend.start(ids[:prefix + 1])  # the sequence: the prefix
    points = []
    for n in sizes:
        copied = ids[prefix:prefix + n]

        def parallel():
            backend.step(copied)
            backend.crop(prefix)

        def stepwise():
            for t in copied:
                backend.step([t])
            backend.crop(prefix)

        agree = agreement(backend, copied)  # also the warm-up for this shape
        par = statistics.median(_timed(parallel) for _ in range(repeats))
        ar = statistics.median(_timed(stepwise) for _ in range(repeats))
        points.append({"n": n, "parallel_s": par, "autoregressive_s": ar, "speedup": ar / par, **agree})
        print(f"  N={n:4d}  parallel {par * 1e3:9.1f} ms  autoregressive {ar * 1e3:10.1f} ms  {ar / par:7.1f}x  "
              f"argmax agrees {agree['argmax_agree']:.3f}", file=sys.stderr)
    steps = []
    for t in ids[prefix:prefix + STEPS]:
        steps.append(_timed(lambda: backend.step([t])))
    backend.crop(prefix)
    return points, statistics.median(steps)


def agreement(backend, copied: list[int]) -> dict:
    """Logits of the N positions from one parallel forward against N single steps: the largest difference
    relative to the largest logit, and the share of positions whose argmax (the greedy choice) is the same."""
    import numpy as np
    start = backend.length()
    parallel = backend.rows(copied)
    backend.crop(start)
    steps = np.stack([backend.step([t]) for t in copied])
    backend.crop(start)
    return {"max_rel_diff": float(np.abs(parallel - steps).max() / np.abs(steps).max()),
            "argmax_agree": float((parallel.argmax(-1) == steps.argmax(-1)).mean())}


def peer_step(model: str, tok, prefix: int, threads: int, repeats: int, batch: int) -> tuple[float, float]:
    """llama-server's seconds per decoded token after the same prefix (its own timing of STEPS greedy tokens,
    prompt cached), and its seconds for a batch of `batch` tokens after it (the prompt's next tokens, prefilled),
    started as a user would (its default options) on the model's GGUF."""
    from copy_as_decode.bench.llama_server import LlamaServer, default_server_binary
    from copy_as_decode.engine.backends import models
    ids = prefix_ids(tok, prefix)

    def timings(prompt: list[int], n_predict: int) -> dict:
        body = json.dumps({"prompt": prompt, "n_predict": n_predict, "temperature": 0, "cache_prompt": True,
                           "ignore_eos": True}).encode()
        req = urllib.request.Request(server.url + "/completion", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=600) as r:
            return json.loads(r.read())["timings"]

    with LlamaServer(default_server_binary(), models.gguf_file(model), ctx=prefix + batch + 2 * STEPS,
                     threads=threads, speculative=False, batch_invariant=False) as server:
        per_token, batches = [], []
        for _ in range(repeats + 1):  # the first fills the prompt cache
            per_token.append(timings(ids[:prefix], STEPS)["predicted_per_token_ms"] / 1e3)
        for _ in range(repeats):  # the cache holds the prefix (and its answer): the batch's tokens are prefilled
            t = timings(ids[:prefix + batch], 1)
            batches.append(t["prompt_ms"] / 1e3 * batch / t["prompt_n"])
            timings(ids[:prefix], 1)  # back to the prefix
    return statistics.median(per_token[1:]), statistics.median(batches)


def plot(runs: list[dict], path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in runs:
        ax.plot([p["n"] for p in r["points"]], [p["speedup"] for p in r["points"]], "o-",
                label=f"measured here, {r['dtype']}")
    ax.plot(list(PAPER), list(PAPER.values()), "s--", label="paper (A100, endpoints)")
    ax.set(xscale="log", yscale="log", xlabel="copied tokens N", ylabel="speedup vs N decode steps", title=title)
    ax.set_xticks(SIZES, [str(s) for s in SIZES])
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args) -> int:
    import torch

    from copy_as_decode.engine.make import make_engine
    runs, tok, threads = [], None, args.threads or torch.get_num_threads()
    for quant in dict.fromkeys(args.quant):
        engine = make_engine(argparse.Namespace(**{**vars(args), "quant": quant}))
        print(f"kernel: {args.model} on {engine.device} ({engine.dtype}, {threads} threads), "
              f"prefix {args.prefix} tokens, median of {args.repeats}", file=sys.stderr)
        points, step = measure(engine, args.sizes, args.prefix, args.repeats)
        runs.append({"quant": engine.quant, "dtype": engine.dtype, "device": engine.device, "decode_step_s": step,
                     "points": points})
        tok = engine.tok
        del engine
        gc.collect()  # one model in memory at a time
    if args.peer:
        print(f"kernel: {PEER} on the same GGUF, {threads} threads", file=sys.stderr)
        step, batch_s = peer_step(args.model, tok, args.prefix, threads, args.repeats, max(args.sizes))
        runs.append({"quant": PEER, "dtype": "gguf", "device": "cpu", "points": [], "decode_step_s": step,
                     "batch": {"n": max(args.sizes), "s": batch_s}})
    report = {"model": args.model, "threads": threads, "prefix": args.prefix, "repeats": args.repeats,
              "machine": platform.processor() or platform.machine(), "runs": runs}
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    png = Path(args.plot) if args.plot else out.with_suffix(".png")
    spliced = [r for r in runs if r["points"]]
    plot(spliced, png, f"{args.model}, {spliced[0]['device']}, {threads} threads")
    if args.curve:
        r = spliced[0]
        Path(args.curve).write_text(json.dumps({"source": f"measured: bench kernel, {args.model} {r['device']} "
                                                f"{r['dtype']} {threads} threads",
                                                "points": [{"n": p["n"], "speedup": round(p["speedup"], 2)}
                                                           for p in r["points"]]}, indent=2) + "\n")
    print_tables(report)
    print(f"wrote {out} and {png}")
    return 0


def print_tables(report: dict) -> None:
    rows = [[r["dtype"], p["n"], f"{p['parallel_s'] * 1e3:.1f}", f"{p['autoregressive_s'] * 1e3:.1f}", f"{p['speedup']:.1f}x",
             f"{PAPER[p['n']]:.1f}x" if p["n"] in PAPER else "", f"{p['max_rel_diff']:.1e}", f"{p['argmax_agree']:.3f}"]
            for r in report["runs"] for p in r["points"]]
    columns.print_table(COLUMNS, rows)
    peer = next((r["decode_step_s"] for r in report["runs"] if r["quant"] == PEER), None)
    rows = [[_name(r), f"{r['decode_step_s'] * 1e3:.1f}", f"{1 / r['decode_step_s']:.1f}",
             "-" if peer is None else f"{r['decode_step_s'] / peer:.2f}"] for r in report["runs"]]
    print()
    columns.print_table(_against_peer("decode step"), rows,
                        f"   ({report['model']}, {report['threads']} threads, after {report['prefix']} tokens)")
    peer_batch = next((r["batch"] for r in report["runs"] if r["quant"] == PEER), None)
    if peer_batch:  # a batched forward (a prompt, a copy) is compute-bound: the same kernels should cost the same
        n = peer_batch["n"]
        seconds = [(r, peer_batch["s"] if r["quant"] == PEER else next(p["parallel_s"] for p in r["points"] if p["n"] == n))
                   for r in report["runs"]]
        print()
        columns.print_table(_against_peer(f"batch of {n} tokens"),
                            [[_name(r), f"{s * 1e3:.0f}", f"{n / s:.1f}", f"{s / peer_batch['s']:.2f}"] for r, s in seconds])


def _against_peer(what: str) -> list[tuple[str, str]]:
    """The columns of a timing of each run beside llama-server's."""
    return [(what, "<24"), ("ms", ">7"), ("tokens/s", ">9"), ("x " + PEER, ">14")]


def _name(r: dict) -> str:
    return PEER if r["quant"] == PEER else f"{r['quant']} ({r['dtype']})"
