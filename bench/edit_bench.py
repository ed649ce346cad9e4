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
    from copy_as_decode.cli import add_engine_arguments, budget_arg
    add_engine_arguments(p)
    p.add_argument("--limit", type=int, default=5, help="cases per corpus (spread evenly over the corpus)")
    p.add_argument("--corpora", nargs="+", default=["humanevalfix-python", "humanevalfix-js"])
    p.add_argument("--selectors", nargs="+", default=[s for s in SELECTORS if s != "grammar-cold"], choices=SELECTORS)
    p.add_argument("--max-new-tokens", type=budget_arg, default=None, metavar="N|auto",
                   help="upper bound on sampled tokens (default auto: from each document)")
    p.add_argument("--lookup", type=int, default=10, help="prompt_lookup_num_tokens for the peer baseline")
    p.add_argument("--json", default="results/edit.json")


def prompt_lookup(engine, document: str, instruction: str, max_new_tokens: int | None, lookup: int):
    """The peer baseline: transformers' prompt-lookup decoding on the same rewrite prompt, stop rule and budget."""
    import torch

    from copy_as_decode.core.contract import rewrite_bound
    from copy_as_decode.engine import prompt
    ids, fence = prompt.rewrite_prompt(engine.tok, document, instruction)
    max_new_tokens = min(max_new_tokens or 1 << 30, rewrite_bound(len(prompt.text_ids(engine.tok, document))))
    out = engine.model.generate(torch.tensor([ids], device=engine.model.device), do_sample=False,
                                max_new_tokens=max_new_tokens, prompt_lookup_num_tokens=lookup,
                                eos_token_id=engine.eos, pad_token_id=engine.eos, stop_strings=[f"\n{fence}\n"],
                                tokenizer=engine.tok)[0, len(ids):].tolist()
    return prompt.fenced_text(engine.tok.decode(out, skip_special_tokens=True), fence), len(out), len(out) < max_new_tokens


def run_case(engine, case, selector, args) -> dict:
    from copy_as_decode.bench.corpora import user_file
    from copy_as_decode.bench.functional import passes
    from copy_as_decode.core.contract import NORMAL_STOPS, IncompleteEdit
    from copy_as_decode.engine.prefix_cache import PrefixCache
    document, gold = user_file(case)
    start = time.perf_counter()
    if selector == "prompt-lookup":
        text, n, complete = prompt_lookup(engine, document, case.instruction, args.max_new_tokens, args.lookup)
        if not complete:  # as for the engine's selectors, a cut-off rewrite changes nothing
            text = document
        row = {"sampled": n, "spliced": 0, "tokens": None, "complete": complete, "stop": "" if complete else "cap"}
    else:
        if selector == "grammar-cold":
            engine.prefix = PrefixCache()
        try:
            r = engine.edit(document, case.instruction, selector.removesuffix("-cold"),
                            max_new_tokens=args.max_new_tokens)
            text, s, extra = r.text, r.stats, {"tokens": r.tokens or None, "program": r.program}
        except IncompleteEdit as e:  # the edit changed nothing: the file stays as it was
            text, s, extra = document, e.stats, {"tokens": None, "program": None}
        row = {"sampled": s.sampled, "spliced": s.spliced, "forwards": s.forwards, "prefill_s": s.prefill_s,
               "stop": s.stop, "complete": s.stop in NORMAL_STOPS, **extra}
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
             "exact": sum(r["exact"] for r in rs), "passed": sum(bool(r["passed"]) for r in rs),
             "complete": sum(r["complete"] for r in rs)}
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
    # first-call costs (and the prompt head's prefill) stay out of the timings
    engine.edit("x = 1\n", "warm up", "forced", program='<copy lines="1-1"/>')
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
          f"{'after prefill':>13} {'sampled':>8} {'copied':>7} {'finished':>8} {'same as full':>12} {'exact':>6} "
          f"{'tests':>6}")
    for corpus, data in report["corpora"].items():
        for sel, s in data["summary"].items():
            print(f"{corpus:<20} {sel:<14} {s['cases']:>5} {s['seconds']:>8.1f} {s['median_s']:>9.2f} "
                  f"{s.get('speedup', float('nan')):>7.2f}x {s.get('speedup_after_prefill', float('nan')):>12.2f}x "
                  f"{s['sampled']:>8} {s['spliced']:>7} {s['complete']:>8} "
                  f"{s.get('identical_to_full', '-'):>12} {s['exact']:>6} {s['passed']:>6}")
    plot(report, out.with_suffix(".png"))
    print(f"wrote {out} and {out.with_suffix('.png')}")
    return 0
