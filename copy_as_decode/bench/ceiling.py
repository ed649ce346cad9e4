"""Copy ceiling: how much of each gold file copies can supply, and the wall-clock bound that follows.

Per case, oracle programs are measured in Qwen tokens: line copies (line_oracle, pricing a generated line
at its token count) and token-level copies (token_oracle over Qwen token pieces).
  copied           tokens of each copy's text, tokenized on its own (as the engine splices it)
  generated        tokens of each gen's text, tokenized on its own
  coverage         copied / (copied + generated), summed over a corpus (line_coverage, token_coverage)
  line_reachable   the same for a line oracle that copies every line it can, whatever its tags cost
  token_reachable  gold tokens inside difflib's matching blocks of the two token sequences / gold tokens
  sampled          tokens of the compact program format_program(items, ""): gen text plus every tag
Bound: full regeneration decodes each token of the gold file in one step; copy-as-decode samples the
program and pays n / speedup(n) steps for each copy of n tokens (one parallel forward).
bound = sum(full) / sum(copy-as-decode steps) over a corpus's cases (the kernel curve composed with the
corpus's span histogram). bound_no_tags charges gen text and copies only, not tag tokens: the accounting
that reproduces the paper's HumanEvalFix bounds. The end-of-turn token is left out of both sides.
"""
import argparse
import bisect
import json
import math
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from tqdm import tqdm

from copy_as_decode.bench.columns import fitted
from copy_as_decode.bench.tokens import Tokens
from copy_as_decode.cases.corpora import CORPORA, Case, load_all
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle, token_oracle
from copy_as_decode.core.program import Gen, Item, format_program
from copy_as_decode.core.resolver import resolve

DEFAULT_CURVE = Path(__file__).resolve().parent / "data" / "kernel_curve.json"
# Pricing each generated line this far above a copy tag makes the oracle copy every line it can:
# the most that line copies could ever supply, whatever they cost in tags.
REACH_WEIGHT = 10_000
PAPER = {  # Liu 2026: line coverage and bound per corpus; token level is reported only as ranges
    "humanevalfix-python": {"line_coverage": 0.741, "bound": 3.4},
    "humanevalfix-js": {"line_coverage": 0.788, "bound": 4.2},
    "text": {"line_coverage": 0.978, "bound": 29.0},
    "pooled": {"bound": 13.0},
}
PAPER_TOKEN = "token coverage 91-99%, token-level bounds 4.5x-6.5x"


@dataclass(frozen=True)
class Curve:
    ns: tuple[float, ...]
    speedups: tuple[float, ...]
    source: str

    def speedup(self, n: float) -> float:
        """Log-log interpolation between points; flat outside them."""
        if n <= self.ns[0]:
            return self.speedups[0]
        if n >= self.ns[-1]:
            return self.speedups[-1]
        k = bisect.bisect_left(self.ns, n)
        if self.ns[k] == n:
            return self.speedups[k]
        (n0, n1), (s0, s1) = self.ns[k - 1:k + 1], self.speedups[k - 1:k + 1]
        t = (math.log(n) - math.log(n0)) / (math.log(n1) - math.log(n0))
        return math.exp(math.log(s0) + t * (math.log(s1) - math.log(s0)))


def load_curve(path: str | Path = DEFAULT_CURVE) -> Curve:
    """Points {"n", "speedup"}; (1, 1.0) is implied (copying one token is one forward, like a decode step)."""
    data = json.loads(Path(path).read_text())
    points = sorted((p["n"], p["speedup"]) for p in data["points"])
    if not points or any(n < 1 or s <= 0 for n, s in points):
        raise ValueError(f"{path}: points need n >= 1 and speedup > 0")
    if points[0][0] > 1:
        points.insert(0, (1, 1.0))
    return Curve(tuple(n for n, _ in points), tuple(s for _, s in points), data.get("source", str(path)))


@dataclass(frozen=True)
class Measure:
    copied: int
    generated: int
    sampled: int
    full: int
    spans: tuple[int, ...]

    def steps(self, curve: Curve, tags: bool = True) -> float:
        return (self.sampled if tags else self.generated) + sum(n / curve.speedup(n) for n in self.spans)


def measure(items: list[Item], before: str, after: str, tokens: Tokens) -> Measure:
    lines = split_lines(before)
    copied, generated, spans = 0, 0, []
    for item in items:
        n = tokens.count(resolve([item], lines, monotone=False))
        if isinstance(item, Gen):
            generated += n
        elif n:
            copied += n
            spans.append(n)
    return Measure(copied, generated, tokens.count(format_program(items, sep="")), tokens.count(after), tuple(spans))


def bucket(n: int) -> str:
    """1, 2-3, 4-7, ..., 256-511, 512+ (powers of two)."""
    lo = 1 << (n.bit_length() - 1)
    return "512+" if lo >= 512 else str(lo) if lo == 1 else f"{lo}-{2 * lo - 1}"


BUCKETS = [bucket(1 << k) for k in range(10)]


def summarize(ms: list[Measure], curve: Curve) -> dict:
    copied, generated = sum(m.copied for m in ms), sum(m.generated for m in ms)
    full, steps = sum(m.full for m in ms), sum(m.steps(curve) for m in ms)
    tagless = sum(m.steps(curve, tags=False) for m in ms)
    hist = {b: {"spans": 0, "tokens": 0} for b in BUCKETS}
    for n in (n for m in ms for n in m.spans):
        hist[bucket(n)]["spans"] += 1
        hist[bucket(n)]["tokens"] += n
    return {"coverage": copied / (copied + generated) if copied + generated else 0.0,
            "bound": full / steps if steps else 0.0, "bound_no_tags": full / tagless if tagless else 0.0,
            "copied_tokens": copied, "generated_tokens": generated, "gold_tokens": full,
            "sampled_tokens": sum(m.sampled for m in ms), "decode_steps": steps, "histogram": hist}


def token_reach(before: str, after: str, tokens: Tokens) -> tuple[int, int]:
    """(gold tokens inside difflib's matching blocks of the two token sequences, gold tokens): what
    token-level copies could supply if every tag were free."""
    xs, ys = tokens.pieces(before), tokens.pieces(after)
    return sum(k for _, _, k in SequenceMatcher(None, xs, ys, autojunk=False).get_matching_blocks()), len(ys)


def measure_case(case: Case, tokens: Tokens) -> dict:
    a, b = case.before, case.after
    return {
        "line": measure(line_oracle(a, b, tokens.count), a, b, tokens),
        "reach": measure(line_oracle(a, b, lambda t: REACH_WEIGHT * tokens.count(t)), a, b, tokens),
        "token": measure(token_oracle(a, b, tokens.pieces), a, b, tokens),
        "token_reach": token_reach(a, b, tokens),
    }


def ceiling(corpora: dict[str, list[Case]], tokens: Tokens, curve: Curve) -> dict:
    per = {name: [measure_case(c, tokens) for c in tqdm(cases, desc=f"ceiling {name}", leave=False)]
           for name, cases in corpora.items()}
    per["pooled"] = [m for name in corpora for m in per[name]]
    out = {}
    for name, ms in per.items():
        line, reach, token = (summarize([m[k] for m in ms], curve) for k in ("line", "reach", "token"))
        reachable, gold = map(sum, zip(*(m["token_reach"] for m in ms))) if ms else (0, 0)
        out[name] = {"cases": len(ms), "line_coverage": line["coverage"], "line_reachable": reach["coverage"],
                     "token_coverage": token["coverage"], "token_reachable": reachable / gold if gold else 0.0,
                     "bound": line["bound"], "bound_no_tags": line["bound_no_tags"],
                     "token_bound": token["bound"], "token_bound_no_tags": token["bound_no_tags"],
                     "histogram": line["histogram"], "token_histogram": token["histogram"],
                     "line": line, "token": token}
    out["tokenizer"] = tokens.source
    out["curve"] = {"source": curve.source,
                    "points": [{"n": n, "speedup": s} for n, s in zip(curve.ns, curve.speedups)]}
    out["definitions"] = __doc__
    return out


def table(result: dict) -> str:
    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}%"

    def times(x):
        return "-" if x is None else f"{x:.1f}x"

    rows = [("corpus", "cases", "line cov", "paper", "line max", "token cov", "token max",
             "bound", "no tags", "paper", "token bound", "no tags")]
    for name in [*CORPORA, "pooled"]:
        if name in result:
            r, p = result[name], PAPER.get(name, {})
            rows.append((name, str(r["cases"]), pct(r["line_coverage"]), pct(p.get("line_coverage")),
                         pct(r["line_reachable"]), pct(r["token_coverage"]), pct(r["token_reachable"]),
                         times(r["bound"]), times(r["bound_no_tags"]), times(p.get("bound")),
                         times(r["token_bound"]), times(r["token_bound_no_tags"])))
    return "\n".join([fitted(rows), f"paper, token level: {PAPER_TOKEN}", f"kernel curve: {result['curve']['source']}",
                      f"tokens counted by {result['tokenizer']}'s tokenizer"])


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", required=True, metavar="PATH", help="write the results here")
    p.add_argument("--curve", default=str(DEFAULT_CURVE), metavar="FILE",
                   help='kernel speedup curve, JSON {"points": [{"n": .., "speedup": ..}, ...]}')
    p.add_argument("--limit", type=int, metavar="N", help="only the first N cases of each corpus")


def run(args: argparse.Namespace) -> int:
    corpora = {name: cases[:args.limit] for name, cases in load_all().items()}
    result = ceiling(corpora, Tokens.installed(), load_curve(args.curve))
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    print(table(result))
    return 0

