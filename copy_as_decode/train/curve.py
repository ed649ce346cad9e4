"""Learning curve: fine-tune on the first N examples for each N, score each adapter on HumanEvalFix with
the grammar selector (the `bench edit` harness), plot exact match and tests passed against N.

Resumable: an adapter or evaluation already on disk is reused, so the curve can grow one size at a time.
"""
import argparse
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from .analysis import analyse
from .sft import Config, train


def spec_for(base: str, adapters: Path, n: int) -> str:
    return base if n == 0 else f"{base}+{adapters / f'n{n}'}"


REWRITE_TOKENS = 512  # the reference rewrites whole files, so it gets a larger cap than programs


def evaluate(spec: str, out_json: Path, args, selector: str = "grammar") -> dict:
    """Run `copy-as-decode bench edit` for one model spec (cached in out_json); returns its summary."""
    if not out_json.exists():
        from copy_as_decode.bench import edit_bench
        # the bench's own parser, so every option it has gets its default
        p = argparse.ArgumentParser()
        edit_bench.add_arguments(p)
        argv = ["--model", spec, "--grammar-rule", args.grammar_rule, "--limit", str(args.limit),
                "--corpora", args.corpus, "--selectors", selector, "--json", str(out_json), "--max-new-tokens",
                str(args.max_new_tokens if selector == "grammar" else REWRITE_TOKENS)]
        for flag, value in (("--device", args.device), ("--dtype", args.dtype), ("--threads", args.threads)):
            if value is not None:
                argv += [flag, str(value)]
        edit_bench.run(p.parse_args(argv))
    report = json.loads(out_json.read_text())
    return report["corpora"][args.corpus]["summary"][selector]


def run_curve(args, base_cfg: Config, log=lambda m: print(m, file=sys.stderr)) -> dict:
    out = Path(args.out)
    adapters = out / "adapters"
    points = []
    suffix = "" if args.grammar_rule == "default" else f"_{args.grammar_rule}"
    for n in args.sizes:
        adapter = adapters / f"n{n}"
        record = None
        if n and not (adapter / "adapter_config.json").exists():
            log(f"training on {n} examples -> {adapter}")
            record = train(replace(base_cfg, examples=n, out=str(adapter)))
        elif n:
            record = json.loads((adapter / "train.json").read_text())
        if n in args.skip_eval:
            continue
        s = evaluate(spec_for(base_cfg.model, adapters, n), out / f"eval_n{n}{suffix}.json", args)
        points.append({"examples": n, "cases": s["cases"], "exact": s["exact"], "passed": s["passed"],
                       "sampled": s["sampled"], "spliced": s["spliced"], "seconds": s["seconds"],
                       "train_seconds": record["seconds"] if record else 0.0,
                       "train_sequences": record["sequences"] if record else 0,
                       "final_loss": record["losses"][-1] if record else None,
                       **{k: v for k, v in analyse(out / f"eval_n{n}{suffix}.json", args.corpus).items()
                          if k not in ("cases", "exact")}})
        log(f"N={n}: exact {s['exact']}/{s['cases']}, tests {s['passed']}/{s['cases']}")
    # The bar to reach: the base model rewriting the whole file (verified == greedy full rewrite, token for token).
    rewrite = evaluate(base_cfg.model, out / "eval_rewrite.json", args, "verified")
    log(f"base model's full rewrite: exact {rewrite['exact']}/{rewrite['cases']}, "
        f"tests {rewrite['passed']}/{rewrite['cases']}")
    result = {"model": base_cfg.model, "corpus": args.corpus, "limit": args.limit,
              "rewrite": {k: rewrite[k] for k in ("cases", "exact", "passed", "sampled", "spliced", "seconds")},
              "grammar_rule": args.grammar_rule, "max_new_tokens": args.max_new_tokens, "config": asdict(base_cfg),
              "points": points}
    (out / f"curve{suffix}.json").write_text(json.dumps(result, indent=1))
    plot(result, out / f"curve{suffix}.png")
    log(f"wrote {out / f'curve{suffix}.json'} and {out / f'curve{suffix}.png'}")
    return result


def plot(result: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pts = result["points"]
    xs = [p["examples"] for p in pts]
    fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
    for key, label, marker in (("exact", "exact match", "o"), ("passed", "tests pass", "s"),
                               ("exact_repaired", "exact match, replace repair (offline)", "^")):
        ax.plot(xs, [100 * p.get(key, 0) / p["cases"] for p in pts], marker=marker, label=label,
                linestyle=":" if "repair" in key else "-")
    ax.axhspan(12, 17, color="grey", alpha=0.15, label="paper, exact match (12-17%)")
    if "rewrite" in result:
        rw = result["rewrite"]
        for key, color, what in (("exact", "C0", "exact match"), ("passed", "C1", "tests pass")):
            ax.axhline(100 * rw[key] / rw["cases"], color=color, linestyle="--", linewidth=1,
                       label=f"base model's full rewrite, {what}")
    ax.set_xscale("symlog", linthresh=64)
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_xlabel("training examples")
    ax.set_ylabel(f"% of {pts[0]['cases'] if pts else 0} {result['corpus']} cases")
    rule = "" if result.get("grammar_rule", "default") == "default" else f", {result['grammar_rule']}"
    ax.set_title(f"{result['model']} + LoRA, grammar selector{rule}")
    ax.set_ylim(-2, 100)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
