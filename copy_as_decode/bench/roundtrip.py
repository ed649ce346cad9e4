"""Round trip: oracle programs rebuild every gold file exactly; what imprecise spans and other formats cost.

lossless     each case's line- and token-level oracle programs are printed (one item per line, and the
             compact form the engine emits), parsed back to the same items and resolved; lossless means
             both forms resolve to the gold file byte for byte.
perturbation see PERTURBATION.
formats      the gold edit written as Aider SEARCH/REPLACE blocks and as a unified diff (bench.formats),
             applied back (fidelity), and the tokens a model would emit in each format: the compact
             copy/gen program (line and token level), the blocks, the diff, or the whole file.
resolver     a synthetic document with a few edits: line_oracle, parse+resolve and text_edits times.
"""
import argparse
import json
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from copy_as_decode.bench.columns import fitted
from copy_as_decode.bench.formats import FORMATS, FormatError, has_marker_line
from copy_as_decode.bench.tokens import Tokens
from copy_as_decode.cases.corpora import CORPORA, Case, load_all
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle, token_oracle
from copy_as_decode.core.program import Copy, Item, format_program, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.core.text_edits import apply_text_edits, text_edits

SHIFTS = (1, -1, 2, -2)
PERTURBATION = (
    'Every <copy lines="i-j"/> in the case\'s line-oracle program has its end line j moved to j+d '
    "(d = +1, -1, +2, -2); start lines are kept. j+d is clamped to [i, min(n, i2-1)] (n: input lines, "
    "i2: start of the next in-order copy), so every perturbed program is one the grammar accepts: ranges inside "
    "the document, non-empty, in order. A moved copy (<copy lines=\"i-j\" indent=\"s\"/>, outside the order) "
    "has its end moved the same way, clamped to [i, n] only, and keeps its shift: the grammar lets a moved copy "
    "take any lines, and it neither bounds nor is bounded by the in-order copies. "
    "EM: the resolved file equals the gold file byte for byte. "
    "'unchanged' counts cases whose program the clamping left as it was (these are exact by construction; "
    "programs without copies are among them). pm1 pools d = +1 and -1 (each case once per direction), "
    "pm2 pools +2 and -2. A shift by 2 is clamped to no change exactly when a shift by 1 is, so pm1 and "
    "pm2 differ only where a changed program still happens to rebuild the gold file.")
PAPER = {"lossless": "482/482", "pm1": 0.1548, "pm2": 0.0942}


def programs(case: Case, tokens: Tokens) -> dict[str, list[Item]]:
    return {"line": line_oracle(case.before, case.after, tokens.count),
            "token": token_oracle(case.before, case.after, tokens.pieces)}


def lossless(items: list[Item], case: Case) -> bool:
    return all(parse(src) == items and resolve(src, case.before) == case.after
               for src in (format_program(items), format_program(items, sep="")))


def shift_ends(items: list[Item], d: int, n: int) -> list[Item]:
    """Each line copy's end moved by d (PERTURBATION): an in-order copy stays before the next in-order copy,
    a moved copy only inside the document."""
    bound, bounds = n, []  # for each item, the last line its end may reach
    for item in reversed(items):
        bounds.append(bound)
        if isinstance(item, Copy) and not item.moved:
            bound = item.start - 1
    return [replace(item, end=min(max(item.end + d, item.start), n if item.moved else last))
            if isinstance(item, Copy) else item for item, last in zip(items, reversed(bounds))]


def perturb(items: list[Item], case: Case) -> dict[int, tuple[bool, bool]]:
    """d -> (exact match, program unchanged)."""
    n = len(split_lines(case.before))
    out = {}
    for d in SHIFTS:
        shifted = shift_ends(items, d, n)
        out[d] = (resolve(shifted, case.before) == case.after, shifted == items)
    return out


def format_check(case: Case, fmt: str) -> tuple[str, str | None]:
    """(edit text, None if it applies back to the gold file, else why not)."""
    render, apply = FORMATS[fmt]
    text = render(case.before, case.after)
    try:
        got = apply(case.before, text)
    except FormatError as e:
        return text, f"does not apply: {e}"
    if got == case.after:
        return text, None
    if got == case.after + "\n":
        return text, "final newline added (the file has none; the applier adds one first, as Aider does)"
    if fmt == "search_replace" and has_marker_line(case.before + case.after):
        return text, "wrong text: a line of the file reads as a block marker and cuts its section short"
    return text, "applies to the wrong text"


def roundtrip(corpora: dict[str, list[Case]], tokens: Tokens) -> dict:
    per: dict[str, list[dict]] = {}
    for name, cases in corpora.items():
        per[name] = [_case(case, tokens) for case in tqdm(cases, desc=f"roundtrip {name}", leave=False)]
    per["pooled"] = [r for name in corpora for r in per[name]]
    result = {"tokenizer": tokens.source, "cases": {name: len(rs) for name, rs in per.items()},
              "lossless": {name: {level: sum(r["lossless"][level] for r in rs) for level in ("line", "token")}
                           for name, rs in per.items()},
              "perturbation": {"definition": PERTURBATION},
              "formats": {}}
    result["lossless"]["failures"] = [r["id"] for r in per["pooled"] if not all(r["lossless"].values())]
    for name, rs in per.items():
        row = {}
        for d in SHIFTS:
            row[f"{d:+d}"] = {"em": _rate(r["shift"][d][0] for r in rs),
                              "unchanged": _rate(r["shift"][d][1] for r in rs)}
        for k in (1, 2):
            row[f"pm{k}"] = _rate(r["shift"][d][0] for r in rs for d in (k, -k))
        result["perturbation"][name] = row
    for name, rs in per.items():
        budget = {fmt: sum(r["tokens"][fmt] for r in rs) for fmt in ("program", "token_program", *FORMATS, "full")}
        result["formats"][name] = {
            "fidelity": {fmt: sum(r["fails"][fmt] is None for r in rs) for fmt in FORMATS},
            "tokens": budget,
            "vs_full": {fmt: n / budget["full"] if budget["full"] else 0.0 for fmt, n in budget.items()},
        }
    result["formats"]["failures"] = [{"id": r["id"], "corpus": r["corpus"], "format": fmt, "reason": why}
                                     for r in per["pooled"] for fmt, why in r["fails"].items() if why]
    return result


def _case(case: Case, tokens: Tokens) -> dict:
    progs = programs(case, tokens)
    edits = {fmt: format_check(case, fmt) for fmt in FORMATS}
    counts = {"program": tokens.count(format_program(progs["line"], sep="")),
              "token_program": tokens.count(format_program(progs["token"], sep="")),
              "full": tokens.count(case.after)}
    counts |= {fmt: tokens.count(text) for fmt, (text, _) in edits.items()}
    return {"id": case.id, "corpus": case.corpus,
            "lossless": {level: lossless(items, case) for level, items in progs.items()},
            "shift": perturb(progs["line"], case),
            "fails": {fmt: why for fmt, (_, why) in edits.items()}, "tokens": counts}


def _rate(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0


def synthetic(lines: int, edits: int = 6, seed: int = 0) -> tuple[str, str]:
    """A large source-like file and a copy with a few scattered line replacements, insertions and deletions."""
    rng = random.Random(seed)
    words = ("total", "count", "index", "buffer", "offset", "value", "result", "limit")
    doc = [f"    {rng.choice(words)}_{i} = compute({rng.randrange(10 ** 6)}, {rng.choice(words)})\n"
           for i in range(lines)]
    new = list(doc)
    for at in sorted(rng.sample(range(lines), edits), reverse=True):
        match at % 3:
            case 0:
                new[at] = new[at].replace("compute", "compute_fast")
            case 1:
                new[at:at] = ["    # checked above\n", f"    assert limit_{at} > 0\n"]
            case 2:
                del new[at]
    return "".join(doc), "".join(new)


def time_resolver(lines: int, runs: int) -> dict:
    a, b = synthetic(lines)
    program = format_program(line_oracle(a, b))

    def median_s(fn) -> float:
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    if resolve(program, a) != b or apply_text_edits(a, text_edits(a, b)) != b:
        raise AssertionError("synthetic edit did not round-trip")
    return {"lines": lines, "chars": len(a), "items": len(parse(program)), "runs": runs,
            "line_oracle_s": median_s(lambda: line_oracle(a, b)),
            "resolve_s": median_s(lambda: resolve(program, a)),
            "text_edits_s": median_s(lambda: text_edits(a, b))}


def tables(result: dict) -> str:
    names = [n for n in (*CORPORA, "pooled") if n in result["cases"]]
    ll, pt, fm = result["lossless"], result["perturbation"], result["formats"]
    out = [fitted([("corpus", "cases", "line lossless", "token lossless")]
                 + [(n, str(result["cases"][n]), f"{ll[n]['line']}/{result['cases'][n]}",
                     f"{ll[n]['token']}/{result['cases'][n]}") for n in names])
           + f"\npaper: {PAPER['lossless']} lossless", ""]
    out += [fitted([("EM under end shifts", "+1", "-1", "pm1", "+2", "-2", "pm2")]
                  + [(n, *(f"{100 * pt[n][k]['em']:.2f}%" for k in ("+1", "-1")), f"{100 * pt[n]['pm1']:.2f}%",
                      *(f"{100 * pt[n][k]['em']:.2f}%" for k in ("+2", "-2")), f"{100 * pt[n]['pm2']:.2f}%")
                     for n in names])
            + f"\npaper (pooled): pm1 {100 * PAPER['pm1']:.2f}%, pm2 {100 * PAPER['pm2']:.2f}%", ""]
    cols = ("program", "token_program", *FORMATS, "full")
    out += [fitted([("tokens to emit", *cols, *(f"{f} ok" for f in FORMATS))]
                  + [(n, *(f"{fm[n]['tokens'][c]} ({100 * fm[n]['vs_full'][c]:.0f}%)" for c in cols),
                      *(f"{fm[n]['fidelity'][f]}/{result['cases'][n]}" for f in FORMATS)) for n in names])]
    out += [f"  {f['format']} fails {f['id']}: {f['reason']}" for f in fm["failures"]]
    out += [f"tokens counted by {result['tokenizer']}'s tokenizer"]
    if r := result.get("resolver"):
        out += ["", f"resolver, {r['lines']:,}-line document, {r['items']} items, median of {r['runs']}: "
                    f"line_oracle {1000 * r['line_oracle_s']:.1f} ms, resolve {1000 * r['resolve_s']:.1f} ms, "
                    f"text_edits {1000 * r['text_edits_s']:.1f} ms"]
    return "\n".join(out)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", required=True, metavar="PATH", help="write the results here")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N cases of each corpus")
    p.add_argument("--lines", type=int, default=100_000, help="size of the synthetic document for the resolver timing")
    p.add_argument("--runs", type=int, default=3, help="timing runs (the median is reported)")


def run(args: argparse.Namespace) -> int:
    corpora = {name: cases[:args.limit] for name, cases in load_all().items()}
    result = roundtrip(corpora, Tokens.installed())
    result["resolver"] = time_resolver(args.lines, args.runs)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    print(tables(result))
    return 0

