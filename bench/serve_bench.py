"""Serve: many edit requests at once against an inference engine (the remote backend), edit programs vs full
regeneration through the same engine in the same run.

Each selector runs as one phase: all cases submitted together from `--concurrency` threads. Per phase:
throughput (edits/s; output tokens/s, where output = sampled + spliced, the edited file's worth of tokens),
latency p50/p95 per edit, and the engine's own accounting of the prompts it was sent: tokens it actually
prefilled (`prompt_n` in llama.cpp's timings; prompt_tokens - cached_tokens on OpenAI servers) vs tokens
served from its prefix cache, next to the tokens the programs spliced.

  grammar  the model writes the program under the GBNF grammar; copies continue from the prefix cache
  forced   the oracle program of each case, fed as prompt tokens (no sampling): the splice path's own cost
  full     the model rewrites the file (greedy), the baseline

Start the engine with as many slots as the concurrency (llama-server --parallel C), or phases queue up.
"""
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SELECTORS = ("grammar", "forced", "full")


def add_arguments(p) -> None:
    from copy_as_decode.cli import budget_arg
    from copy_as_decode.core.contract import DEFAULT_MODEL
    from copy_as_decode.engine.remote import APIS, ENDPOINT_ENV
    p.add_argument("--endpoint", default=os.environ.get(ENDPOINT_ENV),
                   help=f"the engine's base URL (default: ${ENDPOINT_ENV})")
    p.add_argument("--concurrency", type=int, default=4, help="edits in flight at once (threads)")
    p.add_argument("--limit", type=int, default=4, help="cases (spread evenly over the corpus)")
    p.add_argument("--corpus", default="humanevalfix-python")
    p.add_argument("--selectors", nargs="+", default=list(SELECTORS), choices=SELECTORS)
    p.add_argument("--max-new-tokens", type=budget_arg, default=None, metavar="N|auto",
                   help="upper bound on sampled tokens (default auto: from each document)")
    p.add_argument("--model", default=DEFAULT_MODEL, help="the local tokenizer the prompts are built with")
    p.add_argument("--api", choices=APIS, default="auto")
    p.add_argument("--request-timeout", type=float, default=600.0)
    p.add_argument("--json", default="results/serve.json")


def run_one(engine, case, selector: str, max_new_tokens: int) -> dict:
    from copy_as_decode.bench.corpora import user_file
    from copy_as_decode.core.oracle import line_oracle
    from copy_as_decode.core.program import format_program
    document, gold = user_file(case)
    program = format_program(line_oracle(document, gold), sep="") if selector == "forced" else None
    start = time.perf_counter()
    try:
        r = engine.edit(document, case.instruction, selector, program=program, max_new_tokens=max_new_tokens)
    except Exception as e:  # one failed edit is a row, not the end of the run
        return {"id": case.id, "selector": selector, "error": f"{type(e).__name__}: {e}",
                "latency_s": time.perf_counter() - start}
    s = r.stats
    return {"id": case.id, "selector": selector, "latency_s": time.perf_counter() - start, "exact": r.text == gold,
            "text": r.text, "program": r.program, "prompt_tokens": s.prompt_tokens, "sampled": s.sampled,
            "spliced": s.spliced, "requests": s.requests, "prefilled": s.remote_prompt_tokens,
            "cached": s.remote_cached_tokens, "prefill_s": s.prefill_s, "splice_s": s.splice_s,
            "decode_s": s.decode_s}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def phase(engine, cases, selector: str, concurrency: int, max_new_tokens: int) -> tuple[list[dict], float]:
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        rows = list(pool.map(lambda c: run_one(engine, c, selector, max_new_tokens), cases))
    return rows, time.perf_counter() - start


def summarize(rows: list[dict], wall_s: float) -> dict:
    ok = [r for r in rows if "error" not in r]
    out_tokens = sum(r["sampled"] + r["spliced"] for r in ok)
    lat = [r["latency_s"] for r in ok]
    return {"edits": len(rows), "errors": len(rows) - len(ok), "wall_s": wall_s,
            "edits_per_s": len(ok) / wall_s if wall_s else float("nan"),
            "tokens_per_s": out_tokens / wall_s if wall_s else float("nan"),
            "sampled_per_s": sum(r["sampled"] for r in ok) / wall_s if wall_s else float("nan"),
            "p50_s": percentile(lat, 0.5), "p95_s": percentile(lat, 0.95),
            "sampled": sum(r["sampled"] for r in ok), "spliced": sum(r["spliced"] for r in ok),
            "requests": sum(r["requests"] for r in ok), "prefilled": sum(r["prefilled"] for r in ok),
            "cached": sum(r["cached"] for r in ok), "exact": sum(bool(r.get("exact")) for r in ok)}


def run(args) -> int:
    from copy_as_decode.bench.corpora import load, spread
    from copy_as_decode.engine.remote import RemoteEngine, RemoteError
    if not args.endpoint:
        print("bench serve: --endpoint URL is required (e.g. a llama-server started with --parallel C)",
              file=sys.stderr)
        return 2
    try:
        engine = RemoteEngine(args.endpoint, args.model, api=args.api, timeout=args.request_timeout)
    except RemoteError as e:
        print(f"bench serve: {e}", file=sys.stderr)
        return 2
    cases = spread(load(args.corpus), args.limit)
    engine.edit("x = 1\n", "warm up", "forced", program='<copy lines="1-1"/>')  # first-call costs stay out of the timings
    report = {"load_average_before": os.getloadavg(), "cpus": os.cpu_count(), "endpoint": engine.base,
              "api": engine.api, "served_model": engine.served_model,
              "slot_context": engine.context, "concurrency": args.concurrency, "corpus": args.corpus,
              "cases": [c.id for c in cases], "max_new_tokens": args.max_new_tokens, "phases": {}}
    rows_by = {}
    for selector in args.selectors:
        print(f"serve: {selector} x {len(cases)} at concurrency {args.concurrency} ...", file=sys.stderr)
        rows, wall = phase(engine, cases, selector, args.concurrency, args.max_new_tokens)
        rows_by[selector] = rows
        report["phases"][selector] = {"summary": summarize(rows, wall), "rows": rows}
    report["load_average_after"] = os.getloadavg()
    full = report["phases"].get("full", {}).get("summary")
    for selector, data in report["phases"].items():
        s = data["summary"]
        if full and selector != "full" and s["wall_s"]:
            s["speedup_vs_full"] = full["wall_s"] / s["wall_s"]
            by_id = {r["id"]: r for r in rows_by["full"] if "error" not in r}
            ratios = [by_id[r["id"]]["latency_s"] / r["latency_s"] for r in data["rows"]
                      if "error" not in r and r["id"] in by_id]
            s["median_latency_speedup"] = statistics.median(ratios) if ratios else float("nan")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(f"{engine.served_model.rsplit('/', 1)[-1]} via {engine.api} at {engine.base}, concurrency "
          f"{args.concurrency}, {len(cases)} {args.corpus} cases; load average {report['load_average_before'][0]:.1f} "
          f"before, {report['load_average_after'][0]:.1f} after ({report['cpus']} CPUs)")
    print(f"{'selector':<8} {'edits':>5} {'wall s':>7} {'edits/s':>8} {'tok/s':>7} {'p50 s':>7} {'p95 s':>7} "
          f"{'sampled':>8} {'spliced':>8} {'prefilled':>9} {'cached':>8} {'reqs':>5} {'vs full':>8} {'p50 vs':>7} "
          f"{'exact':>5}")
    for selector, data in report["phases"].items():
        s = data["summary"]
        vs = f"{s['speedup_vs_full']:.2f}x" if "speedup_vs_full" in s else "-"
        vs50 = f"{s['median_latency_speedup']:.2f}x" if "median_latency_speedup" in s else "-"
        print(f"{selector:<8} {s['edits']:>5} {s['wall_s']:>7.1f} {s['edits_per_s']:>8.3f} {s['tokens_per_s']:>7.1f} "
              f"{s['p50_s']:>7.1f} {s['p95_s']:>7.1f} {s['sampled']:>8} {s['spliced']:>8} {s['prefilled']:>9} "
              f"{s['cached']:>8} {s['requests']:>5} {vs:>8} {vs50:>7} {s['exact']:>5}")
        if s["errors"]:
            print(f"  {s['errors']} failed: " + "; ".join(r["error"] for r in data["rows"] if "error" in r)[:300])
    print("vs full: full's wall time / this phase's; p50 vs: median over cases of full's latency / this latency")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="copy-as-decode bench serve", description=__doc__.split("\n")[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
