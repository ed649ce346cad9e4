"""Serve: many edit requests at once against an inference engine (the remote engine): the model's own
programs, given programs, verified and full rewrites through the same engine in the same run.

Each selector runs as one phase: all cases submitted together from C threads, for each C of `--concurrency`.
Per phase: throughput (edits/s; output tokens/s, where output = sampled + spliced, the edited file's worth of
tokens), latency p50/p95 per edit, and the engine's own accounting of the prompts it was sent: tokens it
actually prefilled (`prompt_n` in llama.cpp's timings; prompt_tokens - cached_tokens on OpenAI servers) vs
tokens served from its prefix cache (the cache hits), next to the tokens the programs spliced.

  grammar   the model writes the program under the GBNF grammar; copies continue from the prefix cache
  forced    the oracle program of each case, fed as prompt tokens (no sampling): the splice path's own cost
  verified  greedy rewrite on the engine that drafts from its context (llama-server --spec-type ngram-simple)
  full      greedy rewrite on the baseline engine, without drafts

`verified` and `full` send the same request: what differs is the engine. `--launch` starts both for each
concurrency, fresh (empty caches), with C slots: the speculative one for grammar/forced/verified, a plain one
for full (llama-server, or vLLM with `--launch vllm`). Otherwise `--endpoint` serves every phase and
`--baseline-endpoint` (default: the same) serves full.
"""
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

SELECTORS = ("grammar", "forced", "verified", "full")
LAUNCH = ("llama.cpp", "vllm")


def add_arguments(p) -> None:
    from copy_as_decode.cases.corpora import line_range
    from copy_as_decode.engine.options import DEFAULT_MODEL, ENDPOINT_ENV, budget
    from copy_as_decode.engine.remote.client import APIS, GEN_LINES
    p.add_argument("--endpoint", default=os.environ.get(ENDPOINT_ENV),
                   help=f"the engine's base URL (default: ${ENDPOINT_ENV})")
    p.add_argument("--baseline-endpoint", help="the engine that runs `full` (default: --endpoint)")
    p.add_argument("--launch", nargs="?", const="llama.cpp", choices=LAUNCH,
                   help="start two fresh servers for each concurrency, with and without drafts: llama-server "
                        "(the default; scripts/build-llama-server.sh) or vLLM (scripts/setup-vllm.sh)")
    p.add_argument("--threads", type=int, default=1, help="--launch: engine threads (llama-server -t, vLLM OpenMP)")
    p.add_argument("--draft-args", type=str.split, metavar="'ARGS'",
                   help="--launch llama.cpp: the drafting server's speculative options "
                        "(default: llama_server.DRAFT_FROM_CONTEXT)")
    p.add_argument("--concurrency", type=int, nargs="+", default=[4], help="edits in flight at once (threads); "
                   "several values run one after the other")
    p.add_argument("--limit", type=int, default=4, help="cases (spread evenly over the corpus)")
    p.add_argument("--corpus", default="humanevalfix-python", help="a corpus name or a .jsonl file of cases")
    p.add_argument("--lines", type=line_range, metavar="LO-HI", help="only cases whose document has LO..HI lines")
    p.add_argument("--selectors", nargs="+", default=list(SELECTORS), choices=SELECTORS)
    p.add_argument("--max-new-tokens", type=budget, default=None, metavar="N|auto",
                   help="upper bound on sampled tokens (default auto: from each document)")
    p.add_argument("--gen-lines", type=_gen_lines, default=GEN_LINES, metavar="K|none",
                   help=f"lines a generated gen may hold (default {GEN_LINES}; none: unbounded)")
    p.add_argument("--model", default=DEFAULT_MODEL, help="the local tokenizer the prompts are built with "
                   "(and, with --launch, the built-in model whose GGUF is served)")
    p.add_argument("--api", choices=APIS, default="auto")
    p.add_argument("--request-timeout", type=float, default=1800.0)
    p.add_argument("--json", default="results/serve.json")


def _gen_lines(value: str) -> int | None:
    return None if value == "none" else int(value)


def load_cases(corpus: str, limit: int, lines: tuple[int, int] | None = None) -> list:
    from copy_as_decode.cases.corpora import load, load_file, spread, within_lines
    return spread(within_lines(load_file(corpus) if corpus.endswith(".jsonl") else load(corpus), lines), limit)


def run_one(engine, case, selector: str, max_new_tokens: int) -> dict:
    from copy_as_decode.cases.corpora import user_file
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
            "text": r.text, "program": r.program, "tokens": r.tokens, "prompt_tokens": s.prompt_tokens,
            "sampled": s.sampled, "spliced": s.spliced, "drafted": s.drafted, "requests": s.requests,
            "prefilled": s.remote_prompt_tokens, "cached": s.remote_cached_tokens, "prefill_s": s.prefill_s,
            "splice_s": s.splice_s, "decode_s": s.decode_s}


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
    prefilled, cached = sum(r["prefilled"] for r in ok), sum(r["cached"] for r in ok)
    return {"edits": len(rows), "errors": len(rows) - len(ok), "wall_s": wall_s,
            "edits_per_s": len(ok) / wall_s if wall_s else float("nan"),
            "tokens_per_s": out_tokens / wall_s if wall_s else float("nan"),
            "p50_s": percentile(lat, 0.5), "p95_s": percentile(lat, 0.95),
            "sampled": sum(r["sampled"] for r in ok), "spliced": sum(r["spliced"] for r in ok),
            "drafted": sum(r["drafted"] for r in ok), "draft_accepted": sum(r["spliced"] for r in ok)
            if any(r["drafted"] for r in ok) else 0, "requests": sum(r["requests"] for r in ok),
            "prefilled": prefilled, "cached": cached,
            "cache_hit": cached / (prefilled + cached) if prefilled + cached else float("nan"),
            "exact": sum(bool(r.get("exact")) for r in ok)}


def compare(report: dict) -> None:
    """Each phase against `full`: wall-time ratio, median per-case latency ratio, and whether a rewrite's output
    tokens are full's (verified must be: both are the model's greedy rewrite)."""
    full = report["phases"].get("full")
    if not full:
        return
    by_id = {r["id"]: r for r in full["rows"] if "error" not in r}
    for selector, data in report["phases"].items():
        s = data["summary"]
        if selector == "full" or not s["wall_s"]:
            continue
        s["speedup_vs_full"] = full["summary"]["wall_s"] / s["wall_s"]
        ratios = [by_id[r["id"]]["latency_s"] / r["latency_s"] for r in data["rows"]
                  if "error" not in r and r["id"] in by_id]
        s["median_latency_speedup"] = statistics.median(ratios) if ratios else float("nan")
        if selector == "verified":
            s["same_as_full"] = sum(r["tokens"] == by_id[r["id"]]["tokens"] for r in data["rows"]
                                    if "error" not in r and r["id"] in by_id)


def slot_context(tok, cases) -> int:
    """Tokens one server slot needs for the largest case: the longer prompt plus its output bound, in 1,024s."""
    from copy_as_decode.cases.corpora import user_file
    from copy_as_decode.core.budget import rewrite_bound
    from copy_as_decode.core.document import split_lines
    from copy_as_decode.engine.prompts import prompt
    need = 0
    for case in cases:
        document = user_file(case)[0].replace("\r\n", "\n")
        n = len(prompt.text_ids(tok, document))
        rewrite = len(prompt.rewrite_prompt(tok, document, case.instruction)[0]) + rewrite_bound(n)
        program = len(prompt.program_prompt(tok, split_lines(document), case.instruction)) + rewrite_bound(n)
        need = max(need, rewrite, program)
    return -(-need // 1024) * 1024


def start_engines(args, stack: ExitStack, concurrency: int, tok, slot_ctx: int | None) -> list:
    """[the engine for grammar/forced/verified, the one for full] (one engine when they are the same): fresh
    servers with `concurrency` slots under --launch, else the given endpoints."""
    from copy_as_decode.bench import vllm_server
    from copy_as_decode.bench.llama_server import LlamaServer, default_server_binary
    from copy_as_decode.engine.backends import models
    from copy_as_decode.engine.remote.client import RemoteEngine
    if args.launch == "vllm":  # loaded side by side: each compiles its kernels for a minute or two
        pair = [vllm_server.VllmServer(vllm_server.default_python(), args.model, speculative=s,
                                       max_model_len=slot_ctx, threads=args.threads,
                                       extra=["--max-num-seqs", str(concurrency)]) for s in (True, False)]
        for server in pair:
            stack.callback(server.stop)
            server.launch()
        urls = [server.wait().url for server in pair]
    elif args.launch:
        gguf = models.gguf_file(args.model)

        def launch(speculative: bool, extra: list[str]) -> str:
            return stack.enter_context(LlamaServer(default_server_binary(), gguf, parallel=concurrency,
                                                   ctx=concurrency * slot_ctx, threads=args.threads,
                                                   speculative=speculative, extra=extra)).url
        urls = [launch(args.draft_args is None, args.draft_args or []), launch(False, [])]
    else:
        urls = [args.endpoint, args.baseline_endpoint or args.endpoint]
    return [RemoteEngine(url, args.model, api=args.api, timeout=args.request_timeout, tokenizer=tok,
                         gen_lines=args.gen_lines) for url in dict.fromkeys(urls)]


def run(args) -> int:
    from copy_as_decode.engine.backends import models
    from copy_as_decode.engine.remote.client import RemoteError, load_tokenizer
    if not args.endpoint and not args.launch:
        print("bench serve: --endpoint URL (e.g. a llama-server started with --parallel C) or --launch is required",
              file=sys.stderr)
        return 2
    if args.launch and args.model not in models.BUILTINS:
        print(f"bench serve: --launch serves a built-in model ({', '.join(models.BUILTINS)})", file=sys.stderr)
        return 2
    cases = load_cases(args.corpus, args.limit, args.lines)
    tok = load_tokenizer(args.model)
    report = {"cpus": os.cpu_count(), "corpus": args.corpus, "cases": [c.id for c in cases],
              "max_new_tokens": args.max_new_tokens, "gen_lines": args.gen_lines, "runs": []}
    slot_ctx = slot_context(tok, cases) if args.launch else None
    if args.launch:
        report.update(slot_context=slot_ctx, threads=args.threads, draft_args=args.draft_args)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    for concurrency in args.concurrency:
        with ExitStack() as stack:
            try:
                engines = start_engines(args, stack, concurrency, tok, slot_ctx)
            except RemoteError as e:
                print(f"bench serve: {e}", file=sys.stderr)
                return 2
            for engine in engines:  # first-call costs stay out of the timings
                engine.edit("x = 1\n", "warm up", "forced", program='<copy lines="1-1"/>')
            run_report = {"concurrency": concurrency, "load_average_before": os.getloadavg(),
                          "engines": {e.base: {"api": e.api, "served_model": e.served_model, "slot_context": e.context,
                                               "speculative": e.speculative} for e in engines}, "phases": {}}
            for selector in args.selectors:
                engine = engines[-1] if selector == "full" else engines[0]
                print(f"serve: {selector} x {len(cases)} at concurrency {concurrency} on {engine.base} ...",
                      file=sys.stderr)
                counters = engine.wire.draft_counters()
                rows, wall = phase(engine, cases, selector, concurrency, args.max_new_tokens)
                summary = summarize(rows, wall)
                if counters is not None:  # vLLM counts its drafts per engine, not per request
                    summary["drafted"], summary["draft_accepted"] = (
                        a - b for a, b in zip(engine.wire.draft_counters(), counters))
                run_report["phases"][selector] = {"engine": engine.base, "summary": summary, "rows": rows}
            run_report["load_average_after"] = os.getloadavg()
            compare(run_report)
            report["runs"].append(run_report)
            out.write_text(json.dumps(report, indent=1))  # after each run: a long benchmark keeps what it measured
            print_run(run_report, len(cases), args.corpus)
    print("vs full: full's wall time / this phase's; p50 vs: median over cases of full's latency / this latency; "
          "hit: prompt tokens served from the engine's prefix cache")
    print(f"wrote {out}")
    return 0


def print_run(run: dict, n_cases: int, corpus: str) -> None:
    engines = run["engines"]
    print(f"\nconcurrency {run['concurrency']}, {n_cases} {corpus} cases; load average "
          f"{run['load_average_before'][0]:.1f} before, {run['load_average_after'][0]:.1f} after ({os.cpu_count()} CPUs)")
    for base, e in engines.items():
        spec = {True: "drafts from its context", False: "no drafts", None: "drafting unknown"}[e["speculative"]]
        print(f"  {base}: {e['served_model'].rsplit('/', 1)[-1]} via {e['api']}, {e['slot_context']} tokens a slot, {spec}")
    print(f"{'selector':<8} {'edits':>5} {'wall s':>7} {'edits/s':>8} {'tok/s':>7} {'p50 s':>7} {'p95 s':>7} "
          f"{'sampled':>8} {'spliced':>8} {'prefilled':>9} {'cached':>8} {'hit':>5} {'reqs':>5} {'vs full':>8} "
          f"{'p50 vs':>7} {'exact':>5}")
    for selector, data in run["phases"].items():
        s = data["summary"]
        vs = f"{s['speedup_vs_full']:.2f}x" if "speedup_vs_full" in s else "-"
        vs50 = f"{s['median_latency_speedup']:.2f}x" if "median_latency_speedup" in s else "-"
        print(f"{selector:<8} {s['edits']:>5} {s['wall_s']:>7.1f} {s['edits_per_s']:>8.3f} {s['tokens_per_s']:>7.1f} "
              f"{s['p50_s']:>7.1f} {s['p95_s']:>7.1f} {s['sampled']:>8} {s['spliced']:>8} {s['prefilled']:>9} "
              f"{s['cached']:>8} {s['cache_hit']:>5.0%} {s['requests']:>5} {vs:>8} {vs50:>7} {s['exact']:>5}")
        if "same_as_full" in s:
            print(f"  verified: {s['same_as_full']} of {s['edits'] - s['errors']} rewrites token for token full's; "
                  f"{s['draft_accepted']} of {s['drafted']} drafted tokens accepted")
        if s["errors"]:
            print(f"  {s['errors']} failed: " + "; ".join(r["error"] for r in data["rows"] if "error" in r)[:300])


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="copy-as-decode bench serve", description=__doc__.split("\n")[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
