"""Forwards: what one prefill, one splice and one decode step cost at long-file lengths, per model and dtype,
with each configuration's peak memory (RSS) — the numbers that decide the CPU's default dtype.

    copy-as-decode bench forwards [--models M ...] [--dtypes float32 bfloat16] [--lengths 512 2048 4096]

Each (model, dtype) runs in a fresh process, so its peak RSS (load + forwards + KV cache) is its own. At each
length L: prefill L tokens of real code, then a splice of --splice tokens after them (one parallel forward with
the logits of every position, as `verified` checks a draft), then --steps single-token decode steps (median).
Printed beside them: the *verified ceiling*, (1/p + d) / (1/p + 1/s) with p the prefill's and s the splice's
tokens/s and d a decode step's seconds: the most an exact rewrite of an L-token file can gain over full
regeneration (both prefill the file once; full then decodes it token by token, verified passes it through the
model once more at splice speed), the changed tokens taken as free. Where a model ran in both dtypes, the
mixed configuration (prefill in bfloat16, every decode and check in float32: `--prefill-dtype bfloat16`) gets
its ceiling from the two runs: bfloat16's p, float32's s and d.
"""
import json
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from copy_as_decode.bench import columns

LENGTHS = (512, 2048, 4096)
COLUMNS = [("model", "<20"), ("dtype", "<9"), ("peak RSS", ">9"), ("load s", ">7"), ("tokens", ">6"),
           ("prefill tok/s", ">13"), ("splice tok/s", ">12"), ("decode ms", ">9"), ("ceiling", ">8")]


def add_arguments(p) -> None:
    from copy_as_decode.engine.options import DEFAULT_MODEL
    p.add_argument("--models", nargs="+", default=[DEFAULT_MODEL])
    p.add_argument("--dtypes", nargs="+", default=["float32", "bfloat16"], choices=["float32", "bfloat16"])
    p.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS), help="tokens already in the cache")
    p.add_argument("--splice", type=int, default=128, help="tokens of the parallel forward after each prefill")
    p.add_argument("--steps", type=int, default=5, help="decode steps after it (median)")
    p.add_argument("--threads", type=int, help="CPU threads for torch")
    p.add_argument("--device", default="cpu")
    p.add_argument("--json", default="results/forwards.json")


def ceiling(prefill_tok_s: float, splice_tok_s: float, decode_s: float) -> float:
    """Full regeneration over verified for a file as long as the prompt, every draft accepted."""
    return (1 / prefill_tok_s + decode_s) / (1 / prefill_tok_s + 1 / splice_tok_s)


def mixed(report: dict) -> list[dict]:
    """Per model run in both dtypes: the ceiling of a bfloat16 prefill with float32 decodes, per length."""
    runs = {(r["model"], r["dtype"]): r for r in report["results"]}
    out = []
    for (model, dtype), fp32 in runs.items():
        bf16 = runs.get((model, "bfloat16"))
        if dtype != "float32" or bf16 is None:
            continue
        for a, b in zip(fp32["points"], bf16["points"]):
            out.append({"model": model, "tokens": a["tokens"], "prefill_tok_s": b["prefill_tok_s"],
                        "splice_tok_s": a["splice_tok_s"], "decode_step_s": a["decode_step_s"],
                        "verified_ceiling": ceiling(b["prefill_tok_s"], a["splice_tok_s"], a["decode_step_s"])})
    return out


def measure_one(model_name: str, dtype: str, lengths: list[int], splice: int, steps: int, device: str,
                threads: int | None) -> dict:
    """In this process: load, then prefill / splice / decode at each length; peak RSS at the end."""
    import torch
    from transformers import DynamicCache

    from copy_as_decode.engine.backends import models
    from copy_as_decode.engine.backends.prefix_cache import forward
    if threads:
        torch.set_num_threads(threads)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)

    def timed(fn) -> float:
        t = time.perf_counter()
        fn()
        sync()
        return time.perf_counter() - t

    load_s = time.perf_counter()
    model, tok = models.load(model_name, device, dtype)
    load_s = time.perf_counter() - load_s
    code = "".join(p.read_text() for p in sorted(Path(__file__).parent.glob("*.py")))
    ids = tok.encode(code * (1 + max(lengths) * 5 // len(code)), add_special_tokens=False)
    forward(model, DynamicCache(config=model.config), ids[:64])  # first-call costs stay out of the timings
    points = []
    for n in lengths:
        cache = DynamicCache(config=model.config)
        prefill = timed(lambda: forward(model, cache, ids[:n]))
        spliced = timed(lambda: forward(model, cache, ids[n:n + splice], all_logits=True))
        step = statistics.median(timed(lambda k=k: forward(model, cache, [ids[n + splice + k]])) for k in range(steps))
        points.append({"tokens": n, "prefill_s": prefill, "prefill_tok_s": n / prefill, "splice_s": spliced,
                       "splice_tok_s": splice / spliced, "decode_step_s": step,
                       "verified_ceiling": ceiling(n / prefill, splice / spliced, step)})
    return {"model": model_name, "dtype": dtype, "device": device, "threads": torch.get_num_threads(),
            "load_s": load_s, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "points": points}


def run(args) -> int:
    results = []
    for model in args.models:
        for dtype in args.dtypes:
            print(f"forwards: {model} {dtype} ...", file=sys.stderr)
            cmd = [sys.executable, "-m", "copy_as_decode.bench.forwards", "--one", model, dtype, args.device,
                   json.dumps({"lengths": args.lengths, "splice": args.splice, "steps": args.steps,
                               "threads": args.threads})]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode:
                print(f"bench forwards: {model} {dtype} failed: {done.stderr.strip().splitlines()[-1:]}",
                      file=sys.stderr)
                return 1
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    report = {"machine": platform.processor() or platform.machine(), "splice": args.splice, "steps": args.steps,
              "results": results}
    report["mixed"] = mixed(report)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print_table(report)
    png = out.with_suffix(".png")
    plot(report, png)
    print(f"wrote {out} and {png}")
    return 0


def print_table(report: dict) -> None:
    def speeds(p: dict) -> list:
        return [p["tokens"], f"{p['prefill_tok_s']:.0f}", f"{p['splice_tok_s']:.0f}", f"{p['decode_step_s'] * 1e3:.0f}",
                f"{p['verified_ceiling']:.1f}x"]

    rows = [[res["model"], res["dtype"], f"{res['peak_rss_mb']:.0f} MB", f"{res['load_s']:.1f}", *speeds(p)]
            for res in report["results"] for p in res["points"]]
    rows += [[p["model"], "mixed", "", "", *speeds(p)] for p in report["mixed"]]
    columns.print_table(COLUMNS, rows)
    print(f"splice: {report['splice']} tokens in one forward after the prefill, all logits; decode: median of "
          f"{report['steps']} steps; ceiling: (1/prefill + decode s) / (1/prefill + 1/splice), verified's most "
          f"over full; mixed: bfloat16 prefill, float32 splice and decode")


def plot(report: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for res in report["results"]:
        label = f"{res['model']} {res['dtype']} ({res['peak_rss_mb'] / 1024:.1f} GB)"
        xs = [p["tokens"] for p in res["points"]]
        axes[0].plot(xs, [p["prefill_tok_s"] for p in res["points"]], "o-", label=label)
        axes[1].plot(xs, [p["decode_step_s"] * 1e3 for p in res["points"]], "o-", label=label)
    axes[0].set(xlabel="tokens in the cache", ylabel="prefill tokens/s", xscale="log")
    axes[1].set(xlabel="tokens in the cache", ylabel="decode step ms", xscale="log")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        model, dtype, device, opts = sys.argv[2:6]
        print(json.dumps(measure_one(model, dtype, device=device, **json.loads(opts))))
    else:
        import argparse
        parser = argparse.ArgumentParser(prog="copy-as-decode bench forwards", description=__doc__.split("\n")[0])
        add_arguments(parser)
        sys.exit(run(parser.parse_args()))
