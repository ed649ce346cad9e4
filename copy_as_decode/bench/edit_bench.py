"""Edit: corpora through each selector and HF prompt-lookup decoding, side by side in one run.

    copy-as-decode bench edit [--corpora NAME ...] [--corpus PATH.jsonl ...] [--selectors S ...] [--limit N]
                              [--cases all|development|heldout] [--lines LO-HI] [--where FIELD=VALUE ...]
                              [--pick] [--json OUT]

`--corpora` takes the named corpora of cases/corpora.py (humanevalfix-python, humanevalfix-js, text,
long-python, long-js, long-text, locate-python, locate-js, move-method, add-parameter); `--corpus` any JSONL
file in the case format, one JSON object a line:
`id`, `language` (python | javascript | markdown), `before`, `instruction`, optional `after` (the gold) or
`after_program` (the gold as a copy/gen program over `before`), optional `tests` (a program appended to the
edited document and run with python or node: the edit passes when it exits 0 within 10 s). Without either
option the two HumanEvalFix corpora run.

OUT (JSON) holds
  cases    one row per case and selector: corpus, id, selector, bucket, lines, seconds, prefill_seconds,
           sampled, copied, exact, passed, complete, stop, prefilled_tokens, second_edit_prefilled_tokens,
           second_edit_prefill_seconds, refine_seconds, refine_prefilled_tokens, refine_followed,
           refine_fresh_seconds, refine_fresh_prefilled_tokens (with --refine; null without)
           (move-method rows add self_calls_left, synthesis/structural_corpus.py); first_token_seconds and
           first_line_seconds (a windowed edit's first sampled token and first streamed whole line, from its
           start), and with --pick placed, decisive and locate_seconds (_placed); the `prepared` row's
           prepare_seconds (reading ahead, before its `seconds` start) and read_ahead (the share of the edit's
           prompt tokens read ahead: 0 where nothing was, a long file without a cursor).
           silent_wrong (null when nothing was written; else the reasons a checkable fact shows it wrong, [] for
           none: bench/silent_wrong.py, docs/benchmarks.md "Silent wrong").
           `exact` is null without a gold, `passed` without tests or a check; `complete` is
           false when the decode stopped for another reason than eos or fence (the budget, the context), and
           the document is then left unchanged. Every edit starts as a first edit of its file: the engine's
           prompt cache holds only the prompt heads (as in a worker that has run any edit), never another
           selector's prompt for the same file. The second edit is what a following edit of the same file
           with another instruction (SECOND_INSTRUCTION) prefills, from the cache the first one left
  corpora  per corpus: summary (per selector), buckets (the same per length bucket, for corpora that have
           them) and the full rows (with the edited text, the program and the sampled tokens); a summary's
           geomean_vs_full / geomean_vs_peer / geomean_vs_ngram is the geometric mean of per-case time ratios
           against `full` / the llama-server row / the llama-ngram row on the same cases (above 1: faster); a
           chat row's time_vs_local / time_vs_whole is the median of per-case time ratios against `auto` (the local
           engine) / the llama-chat-whole row
  place    with --pick, per locate corpus and kind: where the edits landed (place_summary)
  peak_rss_mb  this process's peak resident memory (model, KV caches, every edit); the peer's server apart
  cost     per selector: least-squares slopes of wall time, and of wall time beyond prefill, in seconds per
           1,000 document lines, over the edits that ran (a document the model's context cannot hold is
           refused before any forward pass; `refused` counts those)
Next to it: OUT.png, median seconds per edit by corpus and length bucket, and OUT-cost.png, wall time against
document length per selector.
"""
import contextlib
import json
import re
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from copy_as_decode.core.budget import output_budget, rewrite_bound
from copy_as_decode.engine.selectors import OFFERED, edits_windows

# grammar-cold: the grammar selector with the prompt head's cache dropped before each edit, i.e. what a one-shot
# CLI edit pays, against the worker's steady state (`grammar`).
# llama-server: the peer a user would run instead, llama.cpp's plain greedy rewrite of the same prompt with the
# same model (its GGUF), started as a user would (all cores, default options); `--peer` adds it.
# llama-ngram: llama-server with its own n-gram speculation (--spec-type ngram-simple), the peer's best path on
# what a user would select by hand: the function alone (`--alone`), or a file under SHORT_LINES lines whole.
# prepared: `auto` after the window at the case's cursor was read ahead (engine/read_ahead.py), as an editor does
# while the instruction is typed; its time runs from the instruction's arrival.
# llama-chat: the chat inference (engine/remote/chat.py) on llama-server's /v1/chat/completions with the same
# model's GGUF, started as a user would: each edit's windows, as `auto` takes them here; llama-chat-ngram: the same
# on a server with its n-gram speculation; llama-chat-whole: the plain server asked to rewrite the whole file
# (`full`); `--chat` adds the three.
PREPARED = "prepared"
SELECTORS = (*OFFERED, "grammar-cold", PREPARED, "prompt-lookup")
RUNS_AS = {"grammar-cold": "grammar", PREPARED: "auto"}
PEER = "llama-server"
NGRAM = "llama-ngram"
CHAT, CHAT_NGRAM, CHAT_WHOLE = "llama-chat", "llama-chat-ngram", "llama-chat-whole"
CHATS = (CHAT, CHAT_NGRAM, CHAT_WHOLE)
ROWS = SELECTORS + (PEER, NGRAM, *CHATS)
PEER_RUNS = {PEER: "full", NGRAM: "full", CHAT: "auto", CHAT_NGRAM: "auto", CHAT_WHOLE: "full"}  # the selector
DEFAULT_CORPORA = ("humanevalfix-python", "humanevalfix-js")
CODE = {"humanevalfix-python": "python", "humanevalfix-js": "javascript"}  # corpora whose cases name no language
# The documented row of OUT["cases"], from the fuller per-corpus row.
PUBLIC = {"corpus": "corpus", "id": "id", "selector": "selector", "bucket": "bucket", "lines": "lines",
          "seconds": "seconds", "prefill_seconds": "prefill_s", "sampled": "sampled", "copied": "spliced",
          "exact": "exact", "passed": "passed", "complete": "complete", "stop": "stop",
          "prefilled_tokens": "prefilled", "second_edit_prefilled_tokens": "again_prefilled",
          "second_edit_prefill_seconds": "again_prefill_s", "lines_lost": "lines_lost",
          "deleted_lines": "deleted_lines", "ran": "ran", "windows": "windows", "unasked_changed_lines": "unasked",
          "refine_seconds": "refine_s", "refine_prefilled_tokens": "refine_prefilled",
          "refine_followed": "refine_follows", "refine_fresh_seconds": "refine_fresh_s",
          "refine_fresh_prefilled_tokens": "refine_fresh_prefilled", "placed": "placed", "decisive": "decisive",
          "locate_seconds": "locate_s", "first_token_seconds": "first_token_s", "first_line_seconds": "first_line_s",
          "prepare_seconds": "prepare_s", "read_ahead": "read_ahead", "silent_wrong": "silent_wrong"}
CASE_SETS = ("all", "development", "heldout")
SECOND_INSTRUCTION = "Add a short comment at the top of the file that says what it is for."
REFINE_INSTRUCTION = "Add a short comment above the line you changed that says why it changed."


def add_arguments(p) -> None:
    from copy_as_decode.cases.corpora import field_value, line_range
    from copy_as_decode.engine.options import RESEARCH, add_arguments, budget
    add_arguments(p, RESEARCH)
    p.add_argument("--limit", type=int, default=5, help="cases per corpus (spread evenly over the corpus)")
    p.add_argument("--corpora", nargs="+",
                   help=f"named corpora (default, without --corpus: {' '.join(DEFAULT_CORPORA)})")
    p.add_argument("--corpus", action="append", default=[], metavar="PATH.jsonl",
                   help="a JSONL file in the case format (repeatable)")
    p.add_argument("--lines", type=line_range, metavar="LO-HI", help="only cases whose document has LO..HI lines")
    p.add_argument("--where", type=field_value, action="append", metavar="FIELD=VALUE",
                   help="only cases with this value in a corpus field, e.g. kind=bug, hinted=true (repeatable)")
    p.add_argument("--cases", choices=CASE_SETS, default="all",
                   help="HumanEvalFix cases: all, the development cases (cases/data/development_cases.json) or the "
                        "held-out ones; figures on the two are reported apart")
    p.add_argument("--selectors", nargs="+", default=[s for s in SELECTORS if s not in ("auto", "grammar-cold", PREPARED)],
                   choices=SELECTORS, help="`auto` runs the default selector (what it picked is in each row); `prepared` "
                        "runs it after the window at the case's cursor was read ahead, timed from the instruction")
    p.add_argument("--max-new-tokens", type=budget, default=None, metavar="N|auto",
                   help="upper bound on sampled tokens (default auto: from each document)")
    p.add_argument("--second-edit", action="store_true",
                   help="also measure what a second edit of each file (SECOND_INSTRUCTION) prefills after the first")
    p.add_argument("--refine", action="store_true",
                   help="after each finished edit, refine its result (REFINE_INSTRUCTION) as an editor user would "
                        "after accepting it, then the same refinement from a fresh prompt: the refinement's "
                        "prefilled tokens and seconds, side by side")
    p.add_argument("--unnamed", action="store_true",
                   help="take the symbol's name out of each instruction that names it (\"Fix the bug in `f`: ...\" -> "
                        "\"Fix the bug: ...\"; other cases are left out): where the edit goes is then the model's choice")
    p.add_argument("--alone", action="store_true",
                   help=f"also run each HumanEvalFix task that a chosen long-file case embeds as the function alone "
                        f"(corpus {ALONE}), and compare the two per length bucket; for the locate corpora, each case's "
                        f"target function alone under its instruction (corpus {LOCATE_ALONE}), put back into its file "
                        f"for the checks")
    p.add_argument("--peer", action="store_true",
                   help="also run llama-server's plain rewrite of the same prompt with the same model (the `llama-server` "
                        "row; needs the built server, scripts/build-llama-server.sh)")
    p.add_argument("--peer-ngram", action="store_true",
                   help=f"also run llama-server with its n-gram speculation on the functions alone (the `{NGRAM}` row, "
                        f"with --alone on the locate corpora) and on files under {SHORT_LINES} lines: what a user who "
                        f"selects the function by hand gets")
    p.add_argument("--chat", action="store_true",
                   help=f"also run the chat inference on llama-server's chat route with the same model: each edit's "
                        f"windows (`{CHAT}`), the same on a server with its n-gram speculation (`{CHAT_NGRAM}`), and "
                        f"the plain server rewriting the whole file (`{CHAT_WHOLE}`)")
    p.add_argument("--lookup", type=int, default=10, help="prompt_lookup_num_tokens for the peer baseline")
    p.add_argument("--pick", action="store_true",
                   help="on the locate corpora, find the place first as an editor does (engine/locate.py): when it "
                        "is not decided, the pick's first candidate is edited (what the user confirms); each row "
                        "says whether the right place was edited, offered first in a pick, or written unseen")
    p.add_argument("--json", default="results/edit.json")


def prompt_lookup(engine, document: str, instruction: str, max_new_tokens: int | None, lookup: int):
    """The peer baseline: transformers' prompt-lookup decoding on the same rewrite prompt, stop rule and budget
    (the engine's rewrite budget, so a document the context cannot hold is refused the same way)."""
    import torch

    from copy_as_decode.core import contract
    from copy_as_decode.engine.prompts import prompt
    ids, fence = prompt.rewrite_prompt(engine.tok, document, instruction, engine.layout)
    n = len(prompt.text_ids(engine.tok, document))
    plan = output_budget(rewrite_bound(n), n, len(ids), engine.context, max_new_tokens)
    out = engine.model.generate(torch.tensor([ids], device=engine.model.device), do_sample=False,
                                max_new_tokens=plan.limit, prompt_lookup_num_tokens=lookup,
                                eos_token_id=engine.eos, pad_token_id=engine.eos, stop_strings=[f"\n{fence}\n"],
                                tokenizer=engine.tok)[0, len(ids):].tolist()
    text = engine.tok.decode(out, skip_special_tokens=True)
    if len(out) < plan.limit:
        stop = contract.EOS if out and out[-1] == engine.eos else contract.FENCE
        if not prompt.rewrite_finished(text, fence, document):
            stop = contract.PARTIAL  # as the engine's rewrites: a part of the file changes nothing
    else:
        stop = contract.CONTEXT if plan.by_context else contract.CAP
    return prompt.fenced_text(text, fence), len(out), stop


def passes(case, text: str) -> bool | None:
    """The case's own tests (the case format's `tests`, or HumanEvalFix's) or check (a structural case's), None
    when it has none."""
    from copy_as_decode.cases.corpora import run_tests
    from copy_as_decode.cases.functional import passes as humanevalfix_passes
    if "check" in case.extra:
        from copy_as_decode.synthesis.structural_corpus import check
        return check(case, text)
    if "tests" in case.extra:
        return run_tests(case.extra["language"], text, case.extra["tests"])
    if "entry_point" in case.extra:
        return humanevalfix_passes(case.corpus, text, case.extra["test"], case.extra["entry_point"])
    return None


def second_edit(engine, document: str, ran: str) -> tuple[int, float]:
    """The tokens and seconds that the prompt of a second edit of `document` (SECOND_INSTRUCTION, the same
    selector) prefills after the first: only what follows the file in the prompt, as engine/prompts/prompt.py lays it out."""
    ids = engine.prompt_ids(document, SECOND_INSTRUCTION, ran)
    start = time.perf_counter()
    reused = engine.prefill(ids)
    return len(ids) - reused, time.perf_counter() - start  # the last prompt token is fed by the decode loop


def refine(engine, text: str, selector: str, args, warm, language, windows: str | None) -> dict:
    """The edit's result refined (REFINE_INSTRUCTION, which names nothing: the cursor is still on the first line
    the edit's windows began at) right after it, from the cache it left (the engine then continues the
    conversation it holds: engine/front.py `said`), and the same refinement from a fresh prompt (only the prompt
    heads cached): seconds, prefilled tokens and whether it followed, for each."""
    from copy_as_decode.core.contract import IncompleteEdit
    at = int(m.group(1)) if windows and (m := re.match(r"(\d+)-", windows)) else None
    out = {}
    for key in ("refine", "refine_fresh"):
        if key == "refine_fresh":
            engine.restore_cache(warm)
        start = time.perf_counter()
        try:
            s = engine.edit(text, REFINE_INSTRUCTION, selector, max_new_tokens=args.max_new_tokens, language=language,
                            at=at).stats
        except IncompleteEdit as e:
            s = e.stats
        out.update({f"{key}_s": time.perf_counter() - start, f"{key}_prefilled": s.prompt_tokens - s.prompt_cached,
                    f"{key}_follows": s.follows})
    return out


def run_case(engine, case, selector, args, warm, peers=None) -> dict:
    """One edit of `case`, starting from the prompt cache `warm` (the prompt heads); `peers`: the llama-server
    backends the `llama-server` and `llama-ngram` rows run on."""
    from copy_as_decode.cases.corpora import user_file
    from copy_as_decode.core import languages
    from copy_as_decode.core.contract import CONTEXT, NORMAL_STOPS, ContextError, IncompleteEdit
    from copy_as_decode.core.deletions import deleted_lines, lines_lost
    from copy_as_decode.core.document import split_lines
    document, gold = user_file(case)
    if selector in PEER_RUNS:  # the server's slot keeps only the prompt heads, as the engine's cache does
        with contextlib.suppress(IncompleteEdit):
            peers[selector].edit("x = 1\n", "warm up", "full", max_new_tokens=4)
    start = time.perf_counter()
    # refused before any forward pass: the document is left as it was
    not_run = {"sampled": 0, "spliced": 0, "forwards": 0, "prefill_s": 0.0, "stop": CONTEXT, "complete": False,
               "tokens": None, "program": None, "prefilled": 0}
    if selector == "prompt-lookup":
        try:
            text, n, stop = prompt_lookup(engine, document, case.instruction, args.max_new_tokens, args.lookup)
            row = {"sampled": n, "spliced": 0, "prefill_s": None, "tokens": None, "complete": stop in NORMAL_STOPS,
                   "stop": stop}
        except ContextError:
            row = dict(not_run, prefill_s=None)
        if not row["complete"]:  # as for the engine's selectors, a cut-off rewrite changes nothing
            text = document
    else:
        remote = selector in PEER_RUNS
        runs = peers[selector] if remote else engine
        if not remote:
            engine.restore_cache(None if selector == "grammar-cold" else warm)
        language = languages.outline_name(languages.named(case.extra.get("language")))
        if selector == PREPARED:  # before the instruction arrives: not timed
            from copy_as_decode.engine.read_ahead import prepare
            ahead = prepare(engine, document, at=case.extra.get("at"), language=language)
            start = time.perf_counter()
        lines, placed = None, {}
        if getattr(args, "pick", False) and not remote and "target" in case.extra and \
                edits_windows(engine.selector_for(RUNS_AS.get(selector, selector), False, case.extra.get("at"))):
            lines, placed = _placed(engine, case, document, language)
        try:
            r = runs.edit(document, case.instruction, PEER_RUNS[selector] if remote else RUNS_AS.get(selector, selector),
                          max_new_tokens=args.max_new_tokens, language=language, at=case.extra.get("at"), lines=lines)
            text, s, extra = r.text, r.stats, {"tokens": r.tokens or None, "program": r.program}
        except IncompleteEdit as e:  # the edit changed nothing: the file stays as it was
            text, s, extra = document, e.stats, {"tokens": None, "program": None}
        except ContextError:
            text, s = document, None
        row = dict(not_run) if s is None else {
            "sampled": s.sampled, "spliced": s.spliced, "drafted": s.drafted, "forwards": s.forwards,
            "prefill_s": s.prefill_s, "prefilled": s.prompt_tokens - s.prompt_cached,
            "stop": s.stop, "complete": s.stop in NORMAL_STOPS, "ran": s.selector, "windows": s.windows,
            "first_token_s": s.first_token_s or None, "first_line_s": s.first_line_s or None, **extra}
        row.update(placed)
        if selector == PREPARED and s is not None:  # the share of the edit's prompt read before its instruction
            row.update(prepare_s=ahead.get("seconds"), read_ahead=ahead.get("tokens", 0) / s.prompt_tokens
                       if s.prepared else 0.0)
    seconds = time.perf_counter() - start
    own = selector != "prompt-lookup" and selector not in PEER_RUNS  # run by the engine measured
    if args.second_edit and own and s is not None:
        row["again_prefilled"], row["again_prefill_s"] = second_edit(engine, document, s.selector)
    if args.refine and own and row["complete"] and text != document:
        row.update(refine(engine, text, RUNS_AS.get(selector, selector), args, warm, language, row["windows"]))
    row.setdefault("ran", selector)  # what `auto` picked
    row.setdefault("prefilled", None)
    row.setdefault("again_prefilled", None)
    row.setdefault("again_prefill_s", None)
    row.setdefault("windows", None)
    row.setdefault("unasked", None)
    if "within" in case.extra:  # a function alone: judged in its file
        from copy_as_decode.synthesis.locate_corpus import within
        document, gold, text = case.extra["within"]["before"], case.extra["within"]["after"], within(case, text)
    if "target" in case.extra:
        from copy_as_decode.synthesis.locate_corpus import unasked_lines
        row["unasked"] = unasked_lines(case, document, text)
    row.update(deleted_lines=deleted_lines(document, text), lines_lost=None if gold is None else lines_lost(document, text, gold))
    if "check" in case.extra:  # a structural edit: a moved line is kept, with any indentation
        from copy_as_decode.synthesis import structural_corpus
        row.update(lines_lost=structural_corpus.lines_lost(document, text, gold),
                   metrics=structural_corpus.extra_metrics(case, text))
    row.update(task=case.extra.get("task"), corpus=case.corpus, id=case.id, selector=selector, bucket=case.extra.get("bucket"),
               lines=len(split_lines(document)), seconds=seconds, text=text,
               exact=None if gold is None else text == gold, passed=passes(case, text))
    from copy_as_decode.bench.silent_wrong import reasons
    row["silent_wrong"] = reasons(document, text, gold, case.extra.get("language") or CODE.get(case.corpus), row)
    return row


def _placed(engine, case, document: str, language) -> tuple[tuple[int, int] | None, dict]:
    """Where an editor's edit of a locate case lands (engine/locate.py, as the language server asks first): the
    lines the edit then takes (the model's choice, or the pick's first candidate; None when a name, the cursor
    or nothing decides it) and the row's `placed`: `edited` (the place was decided, and holds the target),
    `offered` (a pick was offered, the target first), `seen` (a pick was offered, another first) or `unseen`
    (decided, and not the target: written without being seen), with `decisive`, `candidates` and `locate_s`."""
    from copy_as_decode.engine.locate import locate
    start = time.perf_counter()
    place = locate(engine, document, case.instruction, at=case.extra.get("at"), language=language)
    seconds = time.perf_counter() - start
    first, _ = case.extra["target"]
    right = bool(place.windows) and any(w.start <= first <= w.end for w in place.windows)
    kind = ("edited" if right else "unseen") if place.decisive else "offered" if right else "seen"
    lines = (place.windows[0].start, place.windows[0].end) if place.chose else None
    return lines, {"placed": kind, "decisive": place.decisive, "locate_s": seconds, "place": place.describe(),
                   "candidates": [c.as_dict() for c in place.candidates],
                   "target_offered": next((k for k, c in enumerate(place.candidates)
                                           if c.start <= first <= c.end), None)}


def place_summary(report: dict) -> dict:
    """Per locate corpus and instruction kind, with --pick: where the edits landed (`edited`, `offered`, `seen`,
    `unseen`: _placed), `right` (edited or offered first), median seconds, and the median of per-edit ratios of
    the first streamed line's time to the first sampled token's (both from the edit's start)."""
    out: dict = {}
    for name, data in report["corpora"].items():
        rows = [r for r in data["cases"] if r.get("placed")]
        for r in rows:
            out.setdefault(name, {}).setdefault(r["id"].rsplit("/", 1)[1], []).append(r)
    for kinds in out.values():
        for kind, rows in kinds.items():
            counts = Counter(r["placed"] for r in rows)
            ratios = [r["first_line_s"] / r["first_token_s"] for r in rows if r.get("first_line_s") and r.get("first_token_s")]
            kinds[kind] = {"cases": len(rows), **{k: counts.get(k, 0) for k in ("edited", "offered", "seen", "unseen")},
                           "right": counts.get("edited", 0) + counts.get("offered", 0),
                           "exact": sum(bool(r["exact"]) for r in rows),
                           "median_s": statistics.median(r["seconds"] for r in rows),
                           "median_locate_s": statistics.median(r["locate_s"] for r in rows),
                           "median_first_token_s": statistics.median(r["first_token_s"] for r in rows if r.get("first_token_s"))
                           if any(r.get("first_token_s") for r in rows) else None,
                           "median_first_line_s": statistics.median(r["first_line_s"] for r in rows if r.get("first_line_s"))
                           if any(r.get("first_line_s") for r in rows) else None,
                           "median_line_vs_token": statistics.median(ratios) if ratios else None,
                           "max_line_vs_token": max(ratios) if ratios else None}
    return out


def refused(row: dict) -> bool:
    """Turned down before any forward pass: the prompt leaves the context no room for the edit."""
    return row["stop"] == "context" and row["sampled"] == 0


def summarize(rows: list[dict]) -> dict:
    """Per selector, over `rows`; speedups are against `full` on the same cases of the same run."""
    full = {r["id"]: r for r in rows if r["selector"] == "full"}
    peer = {r["id"]: r for r in rows if r["selector"] == PEER}
    ngram = {r["id"]: r for r in rows if r["selector"] == NGRAM}
    out = {}
    for sel in ROWS:
        rs = [r for r in rows if r["selector"] == sel]
        if not rs:
            continue
        s = {"cases": len(rs), "seconds": sum(r["seconds"] for r in rs),
             "median_s": statistics.median(r["seconds"] for r in rs),
             "sampled": sum(r["sampled"] for r in rs), "spliced": sum(r["spliced"] for r in rs),
             "drafted": sum(r.get("drafted", 0) for r in rs),
             "exact": sum(bool(r["exact"]) for r in rs), "passed": sum(bool(r["passed"]) for r in rs),
             "tested": sum(r["passed"] is not None for r in rs), "complete": sum(r["complete"] for r in rs),
             "refused": sum(map(refused, rs)), "lines_lost": sum(r["lines_lost"] or 0 for r in rs),
             "silent_wrong": sum(bool(r.get("silent_wrong")) for r in rs),
             "unasked": sum(r.get("unasked") or 0 for r in rs),
             "read_ahead": statistics.median(r.get("read_ahead") or 0.0 for r in rs) if sel == PREPARED else None,
             "windowed": sum(edits_windows(r.get("ran")) for r in rs),
             "whole_file": dict(Counter(r["windows"].split(": ", 1)[1].split(" (")[0] for r in rs
                                        if (r.get("windows") or "").startswith("whole file: ")))}
        refined = [r for r in rs if r.get("refine_s") is not None]
        if refined:  # the same refinement continuing the edit's conversation, and from a fresh prompt
            s["refine"] = {"cases": len(refined), "followed": sum(bool(r["refine_follows"]) for r in refined),
                           "prefilled": sum(r["refine_prefilled"] for r in refined),
                           "fresh_prefilled": sum(r["refine_fresh_prefilled"] for r in refined),
                           "median_s": statistics.median(r["refine_s"] for r in refined),
                           "fresh_median_s": statistics.median(r["refine_fresh_s"] for r in refined),
                           "geomean_vs_fresh": statistics.geometric_mean(r["refine_fresh_s"] / r["refine_s"]
                                                                         for r in refined)}
        again = [r for r in rs if r["again_prefilled"] is not None and r["prefilled"]]
        if again:  # a second edit of the same file, against the first
            s["second_edit_share"] = sum(r["again_prefilled"] for r in again) / sum(r["prefilled"] for r in again)
        for base, ref, key in (("full", full, "geomean_vs_full"), (PEER, peer, "geomean_vs_peer"),
                               (NGRAM, ngram, "geomean_vs_ngram")):  # on the same cases
            if ref and sel != base and all(r["id"] in ref for r in rs):
                s[key] = statistics.geometric_mean(ref[r["id"]]["seconds"] / r["seconds"] for r in rs)
        for base, key in (("auto", "time_vs_local"), (CHAT_WHOLE, "time_vs_whole")):  # a chat row against them
            ref = {r["id"]: r for r in rows if r["selector"] == base}
            if sel in CHATS and sel != base and ref and all(r["id"] in ref for r in rs):
                s[key] = statistics.median(r["seconds"] / ref[r["id"]]["seconds"] for r in rs)
        if full:
            s["speedup"] = sum(full[r["id"]]["seconds"] for r in rs) / s["seconds"]
            s["median_speedup"] = statistics.median(full[r["id"]]["seconds"] / r["seconds"] for r in rs)
            s["identical_to_full"] = sum(r["text"] == full[r["id"]]["text"] for r in rs)
            if all(r.get("prefill_s") is not None for r in rs):  # the prompt's prefill is the same work for all
                decode = sum(r["seconds"] - r["prefill_s"] for r in rs)
                full_decode = sum(full[r["id"]]["seconds"] - full[r["id"]]["prefill_s"] for r in rs)
                s["speedup_after_prefill"] = full_decode / decode
        out[sel] = s
    return out


def cost(rows: list[dict]) -> dict:
    """Per selector: seconds per 1,000 document lines (least squares) of wall time and of time beyond prefill."""
    def slope(points):  # none over one bucket: a few lines' spread there says nothing about length
        xs = [x for x, _ in points]
        if not xs or max(xs) < 2 * min(xs):
            return None
        return statistics.linear_regression([x / 1000 for x, _ in points], [y for _, y in points]).slope

    out = {}
    for sel in ROWS:
        every = [r for r in rows if r["selector"] == sel]
        rs = [r for r in every if not refused(r)]
        if every:
            out[sel] = {"cases": len(rs), "refused": len(every) - len(rs),
                        "seconds_per_kline": slope([(r["lines"], r["seconds"]) for r in rs]),
                        "after_prefill_per_kline": slope([(r["lines"], r["seconds"] - r["prefill_seconds"])
                                                          for r in rs if r["prefill_seconds"] is not None])}
    return out


ALONE = "humanevalfix-alone"
SHORT_LINES = 100  # a file this short is what a user would select whole: the n-gram peer rewrites it
LOCATE_ALONE = "locate-alone"
_NAMED_BUG = re.compile(r"^Fix the bug in `[^`]+`: ")


def unnamed(cases: list) -> list:
    """The cases whose instruction names the function to fix, with the name taken out."""
    import dataclasses
    return [dataclasses.replace(c, instruction=_NAMED_BUG.sub("Fix the bug: ", c.instruction))
            for c in cases if _NAMED_BUG.match(c.instruction)]


def alone(corpora) -> list:
    """The HumanEvalFix tasks that the chosen long-file cases embed (their `task`), each as the function alone."""
    from copy_as_decode.cases.corpora import load
    tasks = {c.extra["task"] for _, cases in corpora for c in cases if c.extra.get("task")}
    return [c for name in ("humanevalfix-python", "humanevalfix-js") for c in load(name) if c.id in tasks]


def embedded_vs_alone(report: dict) -> dict:
    """Per selector and length bucket: the same HumanEvalFix task embedded in a long module against the
    function alone, in the same run: median and largest time ratio, tests passed each way."""
    alone_rows = {(r["id"], r["selector"]): r for r in report["corpora"].get(ALONE, {}).get("cases", [])}
    pairs: dict = {}
    for name, data in report["corpora"].items():
        for r in data["cases"]:
            a = alone_rows.get((r.get("task"), r["selector"]))
            if name != ALONE and a is not None:
                pairs.setdefault(r["selector"], {}).setdefault(str(r["bucket"]), []).append((r, a))
    return {sel: {b: {"cases": len(ps), "median_ratio": statistics.median(r["seconds"] / a["seconds"] for r, a in ps),
                      "max_ratio": max(r["seconds"] / a["seconds"] for r, a in ps),
                      "passed": sum(bool(r["passed"]) for r, _ in ps), "passed_alone": sum(bool(a["passed"]) for _, a in ps),
                      "lines_lost": sum(r["lines_lost"] or 0 for r, _ in ps)}
                  for b, ps in sorted(by.items(), key=lambda kv: int(kv[0]))}
            for sel, by in pairs.items()}


def locate_summary(report: dict) -> dict:
    """Per locate corpus, selector and instruction kind (synthesis/locate_corpus.py): exact, tests passed, lines lost,
    changed lines outside the target function, whole-file fallbacks, and time against the same function alone
    under the same instruction (same selector; median of per-case ratios) and against the n-gram peer
    rewriting it (geometric mean)."""
    alone_rows = {(r["id"], r["selector"]): r for r in report["corpora"].get(LOCATE_ALONE, {}).get("cases", [])}
    out: dict = {}
    for name, data in report["corpora"].items():
        if not name.startswith("locate-") or name == LOCATE_ALONE:
            continue
        groups_: dict = {}
        for r in data["cases"]:
            kind = r["id"].rsplit("/", 1)[1]
            groups_.setdefault(r["selector"], {}).setdefault(kind, []).append(
                (r, alone_rows.get((r["id"], r["selector"])), alone_rows.get((r["id"], NGRAM))))
        for sel, kinds in groups_.items():
            for kind, rows in sorted(kinds.items()):
                mine = [(r, a) for r, a, _ in rows if a is not None]
                peer = [(r, n) for r, _, n in rows if n is not None]
                out.setdefault(name, {}).setdefault(sel, {})[kind] = {
                    "cases": len(rows), "exact": sum(bool(r["exact"]) for r, _, _ in rows),
                    "passed": sum(bool(r["passed"]) for r, _, _ in rows),
                    "tested": sum(r["passed"] is not None for r, _, _ in rows),
                    "lines_lost": sum(r["lines_lost"] or 0 for r, _, _ in rows),
                    "unasked": sum(r["unasked"] or 0 for r, _, _ in rows),
                    "whole_file": sum((r["windows"] or "").startswith("whole file") for r, _, _ in rows),
                    "alone_exact": sum(bool(a["exact"]) for _, a in mine),
                    "alone_passed": sum(bool(a["passed"]) for _, a in mine),
                    "median_s": statistics.median(r["seconds"] for r, _, _ in rows),
                    "median_vs_alone": statistics.median(r["seconds"] / a["seconds"] for r, a in mine) if mine else None,
                    "geomean_vs_ngram": statistics.geometric_mean(r["seconds"] / n["seconds"] for r, n in peer)
                    if peer else None,
                    "ngram_exact": sum(bool(n["exact"]) for _, n in peer),
                    "ngram_passed": sum(bool(n["passed"]) for _, n in peer)}
    return out


def numerics(report: dict) -> str:
    prefill = report.get("prefill_dtype", report["dtype"])
    return f"{report['device']} {report['dtype']}" + (f" (prefill {prefill})" if prefill != report["dtype"] else "")


def groups(report: dict) -> list[tuple[str, dict]]:
    """(label, summary) per corpus, or per corpus and length bucket where the corpus has buckets."""
    out = []
    for corpus, data in report["corpora"].items():
        out += [(f"{corpus} ~{b}", s) for b, s in data["buckets"].items()] or [(corpus, data["summary"])]
    return out


def plot(report: dict, path: Path) -> None:
    """Median seconds per edit, per selector and corpus (and length bucket): the picture of who is fast."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = groups(report)
    selectors = [sel for sel in ROWS if any(sel in s for _, s in labels)]
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(labels)), 4))
    width = 0.8 / len(selectors)
    for k, sel in enumerate(selectors):  # no bar where every edit was refused: nothing ran
        ran = [(i, s[sel]) for i, (_, s) in enumerate(labels) if sel in s and s[sel]["refused"] < s[sel]["cases"]]
        ax.bar([i + k * width for i, _ in ran], [s["median_s"] for _, s in ran], width, label=sel)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))], [name for name, _ in labels],
                  rotation=30 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
    ax.set(ylabel="median seconds per edit", title=f"{report['model']}, {numerics(report)}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_cost(report: dict, path: Path) -> None:
    """Wall time against document length, one series per selector: how each one's cost grows with the file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for sel, c in report["cost"].items():
        points = sorted((r["lines"], r["seconds"]) for r in report["cases"] if r["selector"] == sel and not refused(r))
        if not points:
            continue
        per = "" if c["seconds_per_kline"] is None else f" ({c['seconds_per_kline']:.2f} s per 1k lines)"
        ax.plot(*zip(*points), marker="o", markersize=4, linewidth=1, label=sel + per)
    ax.set_xscale("log")
    ax.set(xlabel="document lines", ylabel="wall seconds per edit",
           title=f"cost against length: {report['model']}, {numerics(report)}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def corpora_of(args) -> list[tuple[str, list]]:
    from copy_as_decode.cases.corpora import load_file
    from copy_as_decode.cases.heldout import select
    from copy_as_decode.synthesis.all_corpora import load
    files = getattr(args, "corpus", None) or []  # callers that build their own Namespace name only corpora
    names = args.corpora if args.corpora is not None else [] if files else list(DEFAULT_CORPORA)
    chosen = getattr(args, "cases", "all")
    return [(n, select(n, load(n), chosen)) for n in names] + [(Path(f).stem, load_file(f)) for f in files]


def print_tables(report: dict) -> None:
    def num(v, form: str, unit: str = "") -> str:
        return "-" if v is None else format(v, form) + unit

    print(f"model {report['model']} on {numerics(report)}, {report['threads']} threads, "
          f"peak RSS {report['peak_rss_mb'] / 1024:.1f} GB (this process; the peer's server not counted)")
    print(f"{'corpus':<24} {'selector':<14} {'cases':>5} {'total s':>8} {'median s':>9} {'speedup':>8} "
          f"{'after prefill':>13} {'sampled':>8} {'copied':>7} {'drafts kept':>11} {'finished':>8} {'refused':>7} "
          f"{'same as full':>12} {'exact':>6} {'tests':>6} {'lines lost':>10} {'silent wrong':>12} {'windowed':>8} "
          f"{'2nd edit prefill':>16} "
          f"{'x full gm':>9} {'x peer gm':>9} {'x ngram gm':>10}")
    for label, summary in groups(report):
        for sel, s in summary.items():
            kept = s["spliced"] / s["drafted"] if s["drafted"] else None  # the verified drafter's accepted share
            print(f"{label:<24} {sel:<14} {s['cases']:>5} {s['seconds']:>8.1f} {s['median_s']:>9.2f} "
                  f"{num(s.get('speedup'), '.2f', 'x'):>8} {num(s.get('speedup_after_prefill'), '.2f', 'x'):>13} "
                  f"{s['sampled']:>8} {s['spliced']:>7} {num(kept, '.0%'):>11} {s['complete']:>8} {s['refused']:>7} "
                  f"{s.get('identical_to_full', '-'):>12} {s['exact']:>6} {s['passed'] if s['tested'] else '-':>6} "
                  f"{s['lines_lost']:>10} {s.get('silent_wrong', '-'):>12} {s['windowed']:>8} "
                  f"{num(s.get('second_edit_share'), '.1%'):>16} {num(s.get('geomean_vs_full'), '.1f', 'x'):>9} "
                  f"{num(s.get('geomean_vs_peer'), '.1f', 'x'):>9} {num(s.get('geomean_vs_ngram'), '.2f', 'x'):>10}")
    for label, summary in groups(report):
        if (s := summary.get(PREPARED)) is not None:
            print(f"{label:<24} {PREPARED:<14} read ahead before the instruction: median {s['read_ahead']:.0%} of "
                  f"the edit's prompt tokens")
    for label, summary in groups(report):
        for sel, s in summary.items():
            if r := s.get("refine"):
                print(f"{label:<24} {sel:<14} refined after the edit: {r['cases']} cases, {r['followed']} continued "
                      f"its conversation; prefilled {r['prefilled']} tokens against {r['fresh_prefilled']} from a "
                      f"fresh prompt, median {r['median_s']:.2f} s against {r['fresh_median_s']:.2f} s "
                      f"({r['geomean_vs_fresh']:.2f}x, geometric mean)")
    for label, summary in groups(report):
        for sel, s in summary.items():
            if s.get("whole_file"):  # why a windowed edit took the whole file
                print(f"{label:<24} {sel:<14} whole file: " + ", ".join(f"{n} {why}" for why, n in s["whole_file"].items()))
    print(f"\n{'cost against length':<24} {'selector':<14} {'cases':>5} {'refused':>7} {'s per 1k lines':>15} "
          f"{'beyond prefill':>15}")
    for sel, c in report["cost"].items():
        print(f"{'':<24} {sel:<14} {c['cases']:>5} {c['refused']:>7} {num(c['seconds_per_kline'], '.3f'):>15} "
              f"{num(c['after_prefill_per_kline'], '.3f'):>15}")
    if report.get("locate"):
        print(f"\n{'where the edit lands':<24} {'selector':<10} {'kind':>4} {'cases':>5} {'exact':>5} {'tests':>5} "
              f"{'lines lost':>10} {'unasked':>7} {'whole file':>10} {'median s':>8} {'x alone':>7} {'x ngram gm':>10} "
              f"{'alone ex/tests':>14} {'ngram ex/tests':>14}")
        for name, by in report["locate"].items():
            for sel, kinds in by.items():
                for kind, k in kinds.items():
                    print(f"{name:<24} {sel:<10} {kind:>4} {k['cases']:>5} {k['exact']:>5} "
                          f"{k['passed'] if k['tested'] else '-':>5} {k['lines_lost']:>10} {k['unasked']:>7} "
                          f"{k['whole_file']:>10} {k['median_s']:>8.1f} {num(k['median_vs_alone'], '.2f'):>7} "
                          f"{num(k['geomean_vs_ngram'], '.2f'):>10} {k['alone_exact']:>6}/{k['alone_passed']:<7} "
                          f"{k['ngram_exact']:>6}/{k['ngram_passed']:<7}")
    if report.get("place"):
        print(f"\n{'where it lands, picked':<24} {'kind':>4} {'cases':>5} {'right':>5} {'edited':>6} {'offered':>7} "
              f"{'seen':>4} {'unseen':>6} {'exact':>5} {'median s':>8} {'locate s':>8} {'token s':>7} {'line s':>6} "
              f"{'line/token':>10} {'max':>5}")
        for name, kinds in report["place"].items():
            for kind, k in sorted(kinds.items()):
                print(f"{name:<24} {kind:>4} {k['cases']:>5} {k['right']:>5} {k['edited']:>6} {k['offered']:>7} "
                      f"{k['seen']:>4} {k['unseen']:>6} {k['exact']:>5} {k['median_s']:>8.1f} "
                      f"{k['median_locate_s']:>8.1f} {num(k['median_first_token_s'], '.2f'):>7} "
                      f"{num(k['median_first_line_s'], '.2f'):>6} {num(k['median_line_vs_token'], '.2f'):>10} "
                      f"{num(k['max_line_vs_token'], '.2f'):>5}")
    print_chat(report)
    if report.get("alone"):
        print(f"\n{'embedded vs alone':<24} {'selector':<14} {'bucket':>6} {'cases':>5} {'median x':>8} {'max x':>6} "
              f"{'tests':>5} {'alone':>5} {'lines lost':>10}")
        for sel, by in report["alone"].items():
            for b, a in by.items():
                print(f"{'':<24} {sel:<14} {b:>6} {a['cases']:>5} {a['median_ratio']:>8.2f} {a['max_ratio']:>6.2f} "
                      f"{a['passed']:>5} {a['passed_alone']:>5} {a['lines_lost']:>10}")


def print_chat(report: dict) -> None:
    """With --chat, a Markdown table of the local engine (`auto`) and the chat rows: median seconds, exact, lines
    lost, changed lines outside the target (locate corpora), windowed edits that took the whole file, and time
    against the local engine and the whole-file rewrite (medians of per-case ratios)."""
    from copy_as_decode.bench.columns import print_markdown
    rows = [(label, sel, s) for label, summary in groups(report) if any(c in summary for c in CHATS)
            for sel, s in summary.items() if sel in ("auto", *CHATS)]
    if not rows:
        return
    print()
    print_markdown(["corpus", "row", "cases", "median s", "exact", "lines lost", "unasked", "whole file",
                    "time vs local", "whole file's time vs it"],
                   ([label, sel, s["cases"], f"{s['median_s']:.1f}", s["exact"], s["lines_lost"], s["unasked"],
                     "-" if sel == CHAT_WHOLE else sum(s["whole_file"].values()),
                     f"{s['time_vs_local']:.2f}x" if "time_vs_local" in s else "-",
                     f"{1 / s['time_vs_whole']:.1f}x" if "time_vs_whole" in s else "-"] for label, sel, s in rows))


def run(args) -> int:
    from copy_as_decode.cases.corpora import LOCATE_CORPORA, spread, where, within_lines
    from copy_as_decode.engine.make import make_engine
    from copy_as_decode.synthesis.locate_corpus import spread_bases
    corpora = [(name, spread_bases(where(within_lines(cases, args.lines), args.where), args.limit)
                if name in LOCATE_CORPORA else spread(where(within_lines(cases, args.lines), args.where), args.limit))
               for name, cases in corpora_of(args)]  # before the model loads: a missing corpus file fails at once
    if not any(cases for _, cases in corpora):
        print("bench edit: no case matches --cases, --lines and --where (conditions of one --where each must all "
              "hold)", file=sys.stderr)
        return 2
    if args.unnamed:
        corpora = [(name, unnamed(cases)) for name, cases in corpora]
    beside: dict = {}  # a locate case's id -> its function alone, run right after it (the same machine state)
    if args.alone:
        from copy_as_decode.synthesis import locate_corpus
        located = [c for name, cases in corpora if name.startswith("locate-") for c in cases]
        corpora += [(ALONE, alone(corpora))] if len(located) < sum(len(c) for _, c in corpora) else []
        beside = {a.id: a for a in locate_corpus.alone(located)}
    engine = make_engine(args)
    if engine.quant != "none" and "prompt-lookup" in args.selectors:  # transformers' generate(), torch weights
        print("bench edit: prompt-lookup runs on torch weights only (--quant none); left out", file=sys.stderr)
        args.selectors = [s for s in args.selectors if s != "prompt-lookup"]
    with contextlib.ExitStack() as stack:
        peers = {**({PEER: _peer(args, engine, stack)} if args.peer else {}),
                 **({NGRAM: _peer(args, engine, stack, ngram=True)} if args.peer_ngram else {}),
                 **(_chats(args, engine, stack) if args.chat else {})}
        report = measure(args, engine, peers, corpora, beside)
    report["cases"] = [{**{k: r.get(v) for k, v in PUBLIC.items()}, **r.get("metrics", {})}
                       for c in report["corpora"].values() for r in c["cases"]]
    report["cost"] = cost(report["cases"])
    report["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB
    if args.alone:
        report["alone"] = embedded_vs_alone(report)
        report["locate"] = locate_summary(report)
    if args.pick:
        report["place"] = place_summary(report)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print_tables(report)
    bars, curve = out.with_suffix(".png"), out.with_name(f"{out.stem}-cost.png")
    plot(report, bars)
    plot_cost(report, curve)
    print(f"wrote {out}, {bars} and {curve}")
    return 0


def measure(args, engine, peers, corpora, beside=None) -> dict:
    """Every selector (and the peer) on every case of `corpora`: the report's rows and per-bucket summaries.
    `beside`: cases to run right after the case of the same id (a locate case's function alone, corpus
    LOCATE_ALONE), so that each pair is timed side by side on a shared machine."""
    import torch
    from tqdm import tqdm

    report = {"model": args.model, "layout": engine.layout, "device": engine.device, "quant": engine.quant,
              "dtype": engine.dtype, "prefill_dtype": engine.prefill_dtype,
              "threads": torch.get_num_threads(), "max_new_tokens": args.max_new_tokens, "corpora": {}}
    # first-call costs and the prompt heads' prefill stay out of the timings, as in a worker that has run an edit
    engine.edit("x = 1\n", "warm up", "forced", program='<copy lines="1-1"/>')
    engine.prefill(engine.prompt_ids("x = 1\n", "warm up", "full"))
    warm = engine.cache_snapshot()
    # the n-gram peer rewrites what a user would select by hand: a function alone, or a short file whole
    alone_selectors = list(args.selectors) + list(peers)
    alone_rows = []
    for corpus, cases in corpora:
        rows = []
        for case in tqdm(cases, desc=corpus, file=sys.stderr):
            short = corpus == ALONE or case.before.count("\n") < SHORT_LINES
            selectors = list(args.selectors) + [p for p in peers if p != NGRAM or short]
            rows += [run_case(engine, case, sel, args, warm, peers) for sel in selectors]
            if case.id in (beside or {}):
                alone_rows += [run_case(engine, beside[case.id], sel, args, warm, peers) for sel in alone_selectors]
        report["corpora"][corpus] = _summarized(rows)
    if alone_rows:
        report["corpora"][LOCATE_ALONE] = _summarized(alone_rows)
    return report


def _summarized(rows: list[dict]) -> dict:
    for r in rows:  # the exactness claim, checked token by token where both sides have tokens
        r["same_tokens_as_full"] = next((r["tokens"] == f["tokens"] for f in rows
                                         if f["selector"] == "full" and f["id"] == r["id"] and r["tokens"]), None)
    buckets = list(dict.fromkeys(r["bucket"] for r in rows if r["bucket"] is not None))  # in corpus order
    return {"summary": summarize(rows), "buckets": {b: summarize([r for r in rows if r["bucket"] == b]) for b in buckets},
            "cases": rows}


def _server(args, engine, stack, ngram: bool = False):
    """A llama-server started as a user would: the same model's GGUF, all cores, its default options (no
    speculation, its own weight repacking; with `ngram`, its n-gram speculation at its default sizes), the
    model's whole context."""
    import os

    from copy_as_decode.bench.llama_server import LlamaServer, default_server_binary
    from copy_as_decode.engine.backends import models
    server = LlamaServer(default_server_binary(), models.gguf_file(args.model), ctx=engine.context,
                         threads=os.cpu_count(), speculative=False, batch_invariant=False,
                         extra=["--spec-type", "ngram-simple"] if ngram else [])
    return stack.enter_context(server)  # stopped when the run ends, whichever way


def _chats(args, engine, stack) -> dict:
    """The chat rows' engines: the plain server's for `llama-chat` and `llama-chat-whole`, the n-gram server's."""
    from copy_as_decode.engine.remote.chat import ChatEngine
    plain = ChatEngine(_server(args, engine, stack).url, timeout=args.request_timeout)
    return {CHAT: plain, CHAT_NGRAM: ChatEngine(_server(args, engine, stack, ngram=True).url,
                                                timeout=args.request_timeout), CHAT_WHOLE: plain}


def _peer(args, engine, stack, ngram: bool = False):
    """A RemoteEngine on _server(), with the same prompt layout."""
    from copy_as_decode.engine.remote.client import RemoteEngine
    server = _server(args, engine, stack, ngram)
    peer = RemoteEngine(server.url, args.model, timeout=args.request_timeout)  # its own Hugging Face tokenizer:
    # llama.cpp's is not one; a whole-file rewrite of a long file takes minutes
    peer.layout = engine.layout
    return peer
