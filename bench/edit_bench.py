"""Edit: HumanEvalFix through each selector and HF prompt-lookup decoding, side by side in one run."""
import json
import statistics
import sys
import time
from pathlib import Path

# grammar-cold: the grammar selector with the prompt head's cache dropped before each edit, i.e. what a one-shot
# CLI edit pays, against the worker's steady state (`grammar`).
SELECTORS = ("grammar", "grammar-cold", "verified", "full", "prompt-lookup")


def add_arguments(p) -> None:
    from copy_as_decode.cli import add_engine_arguments
    add_engine_arguments(p)
    p.add_argument("--limit", type=int, default=5, help="cases per corpus (spread evenly over the corpus)")
    p.add_argument("--corpora", nargs="+", default=["humanevalfix-python", "humanevalfix-js"])
    p.add_argument("--selectors", nargs="+", default=[s for s in SELECTORS if s != "grammar-cold"], choices=SELECTORS)
    p.add_argument("--max-new-tokens", type=int, default=768)
    p.add_argument("--lookup", type=int, default=10, help="prompt_lookup_num_tokens for the peer baseline")
    p.add_argument("--json", default="results/edit.json")


def prompt_lookup(engine, document: str, instruction: str, max_new_tokens: int, lookup: int) -> tuple[str, int]:
    """The peer baseline: transformers' prompt-lookup decoding on the same rewrite prompt, same stop rule."""
    import torch

    from copy_as_decode.engine import prompt
    from copy_as_decode.engine.engine import fenced_text
    ids = prompt.prompt_ids(engine.tok, prompt.rewrite_messages(document, instruction), prompt.REWRITE_PREFIX)
    out = engine.model.generate(torch.tensor([ids], device=engine.model.device), do_sample=False,
                                max_new_tokens=max_new_tokens, prompt_lookup_num_tokens=lookup,
                                eos_token_id=engine.eos, pad_token_id=engine.eos, stop_strings=["\n```"],
                                tokenizer=engine.tok)[0, len(ids):].tolist()
    return fenced_text(engine.tok.decode(out, skip_special_tokens=True)), len(out)


def run_case(engine, case, selector, args) -> dict:
    from copy_as_decode.bench.corpora import user_file
    from copy_as_decode.bench.functional import passes
    from copy_as_decode.engine.prefix_cache import PrefixCache
    document, gold = user_file(case)
    start = time.perf_counter()
    if selector == "prompt-lookup":
        text, n = prompt_lookup(engine, document, case.instruction, args.max_new_tokens, args.lookup)
        row = {"sampled": n, "spliced": 0, "tokens": None}
    else:
        if selector == "grammar-cold":
            engine.prefix = PrefixCache()
        r = engine.edit(document, case.instruction, selector.removesuffix("-cold"), max_new_tokens=args.max_new_tokens)
        text = r.text
        row = {"sampled": r.stats.sampled, "spliced": r.stats.spliced, "forwards": r.stats.forwards,
               "prefill_s": r.stats.prefill_s,
               "tokens": r.tokens or None, "program": r.program}
    row.update(id=case.id, selector=selector, seconds=time.perf_counter() - start, text=text,
               exact=text == gold, passed=passes(case.corpus, text, case.extra["test"], case.extra["entry_point"]))
    return row


def summarize(rows: list[dict]) -> dict:
    full = {r["id"]: r for r in rows if r["selector"] == "full"}
    out = {}
    for sel in SELECTORS:
        rs = [r for r in rows if r["selector"] == sel]
        if not rs:
            continue
        s = {"cases": len(rs), "seconds": sum(r["seconds"] for r in rs),
             "median_s": statistics.median(r["seconds"] for r in rs),
             "sampled": sum(r["sampled"] for r in rs), "spliced": sum(r["spliced"] for r in rs),
             "exact": sum(r["exact"] for r in rs), "passed": sum(bool(r["passed"]) for r in rs)}
        if full:
            s["speedup"] = sum(full[r["id"]]["seconds"] for r in rs) / s["seconds"]
            s["median_speedup"] = statistics.median(full[r["id"]]["seconds"] / r["seconds"] for r in rs)
            s["identical_to_full"] = sum(r["text"] == full[r["id"]]["text"] for r in rs)
            if all("prefill_s" in r for r in rs):  # the prompt's prefill is the same work for every selector
                decode = sum(r["seconds"] - r["prefill_s"] for r in rs)
                s["speedup_after_prefill"] = sum(full[r["id"]]["seconds"] - full[r["id"]]["prefill_s"] for r in rs) / decode
        out[sel] = s
    return out


def plot(report: dict, path: Path) -> None:
    """Median seconds per edit, per selector and corpus: the picture of who is fast."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    corpora = list(report["corpora"])
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(SELECTORS)
    for k, sel in enumerate(SELECTORS):
        xs = [i + k * width for i, c in enumerate(corpora) if sel in report["corpora"][c]["summary"]]
        ys = [report["corpora"][c]["summary"][sel]["median_s"] for c in corpora if sel in report["corpora"][c]["summary"]]
        ax.bar(xs, ys, width, label=sel)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(corpora))], corpora)
    ax.set(ylabel="median seconds per edit", title=f"{report['model']}, {report['device']} {report['dtype']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args) -> int:
    import torch
    from tqdm import tqdm

    from copy_as_decode.bench.corpora import load, spread
    from copy_as_decode.cli import engine_from
    engine = engine_from(args)
    report = {"model": args.model, "device": engine.device, "dtype": engine.dtype,
              "threads": torch.get_num_threads(), "max_new_tokens": args.max_new_tokens, "corpora": {}}
    for sel in ("full", "grammar"):  # first-call costs (and the prompt head's prefill) stay out of the timings
        engine.edit("x = 1\n", "warm up", sel, max_new_tokens=2)
    for corpus in args.corpora:
        cases = load(corpus)
        picked = spread(cases, args.limit)
        rows = []
        for case in tqdm(picked, desc=corpus, file=sys.stderr):
            rows += [run_case(engine, case, sel, args) for sel in args.selectors]
        for r in rows:  # the exactness claim, checked token by token where both sides have tokens
            r["same_tokens_as_full"] = next((r["tokens"] == f["tokens"] for f in rows
                                             if f["selector"] == "full" and f["id"] == r["id"] and r["tokens"]), None)
        report["corpora"][corpus] = {"summary": summarize(rows), "cases": rows}
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(f"model {args.model} on {engine.device} {engine.dtype}, {report['threads']} threads")
    print(f"{'corpus':<20} {'selector':<14} {'cases':>5} {'total s':>8} {'median s':>9} {'speedup':>8} "
          f"{'after prefill':>13} {'sampled':>8} {'copied':>7} {'same as full':>12} {'exact':>6} {'tests':>6}")
    for corpus, data in report["corpora"].items():
        for sel, s in data["summary"].items():
            print(f"{corpus:<20} {sel:<14} {s['cases']:>5} {s['seconds']:>8.1f} {s['median_s']:>9.2f} "
                  f"{s.get('speedup', float('nan')):>7.2f}x {s.get('speedup_after_prefill', float('nan')):>12.2f}x "
                  f"{s['sampled']:>8} {s['spliced']:>7} "
                  f"{s.get('identical_to_full', '-'):>12} {s['exact']:>6} {s['passed']:>6}")
    plot(report, out.with_suffix(".png"))
    print(f"wrote {out} and {out.with_suffix('.png')}")
    return 0
