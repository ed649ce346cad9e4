"""Apply: chats' code blocks and whole answers merged into files, side by side.

    copy-as-decode bench apply [--corpus blocks|chat|written] [--cases all|development|heldout] [--limit N]
                               [--where FIELD=VALUE ...]
                               [--no-model] [--model-limit N] [--peer-ngram] [--peer-limit N] [--peer-lines LO-HI]
                               [--model M] [--threads K] [--json OUT]

Corpora: `blocks` (synthesis/apply_blocks.py: one block per gold edit, in each style), `chat`
(synthesis/chat_answers.py: whole chat answers, prose, several blocks, usage examples, other files' blocks) and
`written` (cases/chat_written.py: answers a chat wrote for real files in every outlined language).

Rows:
  merge        engine/apply.apply without a model: what `copy-as-decode apply --no-model` does (the answer read,
               the parser's merge, the guarantee). A block with a part whose place is not certain changes
               nothing there (`needs model`).
  apply        engine/apply.apply: the merge, and the model (loaded once, warm) for the parts left pending; run
               on every case the merge places whole and on up to `--model-limit` cases that need the model
  endpoint     (--through-endpoint) `copy-as-decode serve-apply` over HTTP as Continue and Kilo Code call it: no file
               name, no language; each of the answer's blocks meant for the file (one that holds a line the
               expected change adds) sent as one request in Morph's format, in the answer's order, each on the
               file the one before answered, to `serve-apply --no-model` in a process of its own. A refused
               request leaves the file as it was (nothing written).
  llama-ngram  (--peer-ngram) llama-server with the same GGUF and its n-gram speculation (--spec-type
               ngram-simple), given the file and the block and asked for the whole merged file, through the
               remote engine's `full` selector: what a local apply model does. It rewrites the whole file, so
               it runs on `--peer-limit` held-out or chosen cases of `--peer-lines` lines only.
Columns: exact (== the gold, byte for byte), needs model / refused (MergeError, the guarantee or an unfinished
edit: nothing written; a result that is the file as it was, `unchanged`, counts here too) / silent wrong
(written, exit 0, not the gold), markers leaked (a marker line of the block in the result that the file did not
have), lines lost (core/deletions.py lines_lost against the gold), unasked changes (lines of the file the
result changes that the gold leaves as they are), parse failures written (the result does not parse where
the file did), median seconds, median effective throughput (tokens of the gold file,
the model's tokenizer, per second of the row), and the geometric mean of llama-ngram's seconds over the row's on
the cases the peer ran.

`--where` filters on a case's fields: style, language, source, lines, development (`--where style=lazy`); a
chat case's style is its kind and its source its file.
OUT (JSON): the options, per case set (development, heldout) and row a summary, per language and style a
summary, and every row (without texts). Next to it OUT.png: exact share per style and row.
"""
import json
import statistics
import sys
import time
from pathlib import Path

ROWS = ("merge", "apply", "endpoint", "llama-ngram")
CASE_SETS = ("all", "development", "heldout")
SUMMARY_COLUMNS = [("cases", "<12"), ("row", "<12"), ("n", ">5"), ("exact", ">6"), ("exact %", ">7"),
                   ("needs model", ">11"), ("refused", ">7"), ("silent wrong", ">12"), ("(blank only)", ">12"),
                   ("markers leaked", ">14"), ("lines lost", ">10"), ("unasked", ">7"), ("parse fail", ">10"),
                   ("median s", ">9"), ("median tok/s", ">12"), ("tok/s 300-3000", ">14"), ("x ngram gm", ">10")]
STYLE_COLUMNS = [("by style", "<12"), ("row", "<12"), ("language", "<10"), ("style", "<8"), ("n", ">5"), ("exact", ">6"),
                 ("needs model", ">11"), ("refused", ">7"), ("silent wrong", ">12")]
PEER_INSTRUCTION = ("Merge this code block into the file. Lines such as `# ... existing code ...` stand for the "
                    "file's own lines, which stay as they are; change nothing else. Answer with the whole merged "
                    "file.\n```\n{block}```")


def add_arguments(p) -> None:
    from copy_as_decode.cases.corpora import field_value, line_range
    from copy_as_decode.engine.options import RESEARCH, add_arguments
    add_arguments(p, RESEARCH)
    p.add_argument("--corpus", choices=("blocks", "chat", "written"), default="blocks",
                   help="single blocks (synthesis/apply_blocks.py), whole chat answers (synthesis/chat_answers.py) "
                        "or answers a chat wrote for real files in every language (cases/chat_written.py)")
    p.add_argument("--cases", choices=CASE_SETS, default="all",
                   help="development, held-out (synthesis/apply_blocks.py says which) or all cases; figures on the "
                        "two sets are reported apart")
    p.add_argument("--limit", type=int, default=None, help="at most this many cases (spread evenly)")
    p.add_argument("--where", type=field_value, action="append", metavar="FIELD=VALUE",
                   help="only cases with this value in a field: style, language, source, lines (repeatable)")
    p.add_argument("--no-model", action="store_true", help="the merge row only (no model is loaded)")
    p.add_argument("--model-limit", type=int, default=None,
                   help="the apply row runs the model on at most this many of the cases that need it (spread)")
    p.add_argument("--max-new-tokens", type=int, default=None, help="upper bound on tokens the model samples")
    p.add_argument("--through-endpoint", action="store_true",
                   help="also send the answers' blocks to serve-apply over HTTP, block by block (the endpoint row)")
    p.add_argument("--peer-ngram", action="store_true",
                   help="also run llama-server with its n-gram speculation rewriting the whole file (the llama-ngram "
                        "row; needs the built server, scripts/build-llama-server.sh)")
    p.add_argument("--peer-limit", type=int, default=3, help="cases the llama-ngram row runs (spread over languages)")
    p.add_argument("--peer-lines", type=line_range, default=(250, 3000), metavar="LO-HI",
                   help="the llama-ngram row's cases have LO..HI lines (a rewrite must fit the model's context twice)")
    p.add_argument("--json", default="results/apply.json")


def corpus(name: str) -> list[dict]:
    """The corpus's cases, each with a block (or answer), a path (None: not known) and the fields --where reads."""
    if name == "written":
        from copy_as_decode.cases.chat_written import load
        return load()
    if name == "chat":
        from copy_as_decode.synthesis.chat_answers import build as chat
        return [{**c, "block": c["answer"], "style": c["kind"], "source": c["file"], "path": c["file"]} for c in chat()]
    from copy_as_decode.synthesis.apply_blocks import build
    return [{**c, "path": None} for c in build()]


def chosen(args) -> list[dict]:
    from copy_as_decode.cases.corpora import spread
    cases = [c for c in corpus(args.corpus) if args.cases == "all" or c["development"] == (args.cases == "development")]
    cases = [c for c in cases if all(json.dumps(c.get(k)).strip('"') == v for k, v in args.where or [])]
    return spread(cases, args.limit) if args.limit else cases


def judge(case: dict, text: str, written: bool) -> dict:
    """What a result did: exact, markers leaked, lines lost, unasked changes, parse failure written."""
    from copy_as_decode.core import chat_answer, lazy_block
    from copy_as_decode.core.deletions import hunks, lines_lost
    from copy_as_decode.core.document import split_lines
    from copy_as_decode.core.syntax_check import new_errors
    before, gold = case["before"], case["after"]
    markers = set()
    for b in chat_answer.read(case["block"], before, case["language"], case["path"]).blocks:
        read = lazy_block.read(b.text, before)
        markers |= {split_lines(read.text)[k].strip() for k in read.markers}
    own = {line.strip() for line in split_lines(before)}
    leaked = sum(1 for line in split_lines(text) if line.strip() in markers and line.strip() not in own)
    asked = {k for i1, i2, _, _ in hunks(before, gold) for k in range(i1 - 1, i2 + 1)}
    unasked = sum(1 for i1, i2, _, _ in hunks(before, text) for k in range(i1, max(i2, i1 + 1)) if k not in asked)
    return {"exact": text == gold, "written": written, "markers_leaked": leaked,
            "lines_lost": lines_lost(before, text, gold), "unasked_changes": unasked if written else 0,
            "parse_failure": bool(written and new_errors(before, text, case["language"])),
            "blank_lines_only": text != gold and [x for x in split_lines(text) if x.strip()] ==
            [x for x in split_lines(gold) if x.strip()]}


def request(case: dict):
    """The case's apply, as the command line asks it (its file's language and path)."""
    from copy_as_decode.core.detect_language import of_file
    from copy_as_decode.engine.request import EditRequest
    return EditRequest(case["before"], block=case["block"], language=of_file(case["path"], case["before"])
                       if case["path"] else case["language"],
                       path=case["path"])


def run_merge(case: dict) -> dict:
    from copy_as_decode.core.block_merge import MergeError
    from copy_as_decode.core.contract import IncompleteEdit
    from copy_as_decode.engine.apply import NO_MODEL, apply
    start = time.perf_counter()
    pending = False
    try:
        r = apply(request(case))
        text, outcome = r.text, "refused: unchanged" if r.unchanged else None
    except MergeError as e:
        pending = NO_MODEL in str(e)
        text, outcome = case["before"], "needs model" if pending else f"refused: {e}"
    except IncompleteEdit as e:
        text, outcome = case["before"], f"refused: {e}"
    seconds = time.perf_counter() - start
    return {**judge(case, text, outcome is None), "seconds": seconds, "outcome": outcome, "pending": pending}


def run_apply(case: dict, engine) -> dict:
    from copy_as_decode.core.block_merge import MergeError
    from copy_as_decode.core.contract import ContextError, IncompleteEdit
    from copy_as_decode.engine.apply import apply
    start = time.perf_counter()
    forwards = 0
    try:
        r = apply(request(case), lambda: engine)
        text, outcome, forwards = r.text, "refused: unchanged" if r.unchanged else None, r.stats.forwards
    except (MergeError, IncompleteEdit, ContextError) as e:
        text, outcome = case["before"], f"refused: {e}"
    seconds = time.perf_counter() - start
    return {**judge(case, text, outcome is None), "seconds": seconds, "outcome": outcome, "forwards": forwards}


def for_the_file(case: dict) -> list[str]:
    """The answer's blocks meant for the file, as a user clicks Apply on them: those that hold a new line the
    expected change adds, and most of whose lines (but lazy markers) the expected file has (a usage script that
    imports what the change imports is not one); the answer itself when it is one bare block."""
    from copy_as_decode.core import chat_answer, lazy_block
    from copy_as_decode.core.deletions import hunks
    from copy_as_decode.core.document import split_lines
    after, own = split_lines(case["after"]), {x.strip() for x in split_lines(case["before"])}
    added = {x.strip() for _, _, j1, j2 in hunks(case["before"], case["after"]) for x in after[j1:j2]
             if len(x.strip()) > 3 and x.strip() not in own}  # new lines, not a `}` the file has everywhere
    meant = {x.strip() for x in after}

    def for_it(text: str) -> bool:
        read = lazy_block.read(text, case["before"])
        code = [x.strip() for k, x in enumerate(split_lines(text)) if x.strip() and k not in read.markers]
        return any(x in added for x in code) and 2 * sum(x in meant for x in code) >= len(code)
    blocks = chat_answer.read(case["block"]).blocks
    return [b.text for b in blocks if for_it(b.text)] or [case["block"]]


def run_endpoint(case: dict, server) -> dict:
    """The case through the endpoint (bench/apply_endpoint_bench.py's Server), block by block (see the module's
    docstring); `requests`: each one's seconds."""
    text, outcome, took = case["before"], None, []
    for block in for_the_file(case):
        body = json.dumps({"model": "morph-v3-fast", "messages": [
            {"role": "user", "content": f"<code>{text}</code>\n<update>{block}</update>"}]})
        start = time.perf_counter()
        server.conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
        response = server.conn.getresponse()
        answer = json.loads(response.read())
        took.append(time.perf_counter() - start)
        if response.status != 200:
            text, outcome = case["before"], f"refused: {answer['error']['message']}"
            break
        text = answer["choices"][0]["message"]["content"]
    if outcome is None and text == case["before"]:
        outcome = "refused: unchanged"
    return {**judge(case, text, outcome is None), "seconds": sum(took), "outcome": outcome, "requests": took}


def run_peer(case: dict, peer) -> dict:
    from copy_as_decode.core.contract import EditError
    with_warm_up(peer)
    start = time.perf_counter()
    try:
        r = peer.edit(case["before"], PEER_INSTRUCTION.format(block=case["block"]), "full",
                      language=case["language"])
        text, outcome = r.text, None
    except EditError as e:  # cut off, over the context, or no answer within --request-timeout: nothing written
        text, outcome = case["before"], f"refused: {e}"
    seconds = time.perf_counter() - start
    return {**judge(case, text, outcome is None), "seconds": seconds, "outcome": outcome}


def with_warm_up(peer) -> None:
    """The server's slot keeps only the prompt head, as the engine's cache does."""
    import contextlib

    from copy_as_decode.core.contract import IncompleteEdit
    with contextlib.suppress(IncompleteEdit):
        peer.edit("x = 1\n", "warm up", "full", max_new_tokens=4)


def peer_cases(cases: list[dict], args) -> list[dict]:
    """Up to --peer-limit cases of --peer-lines lines, taken in turn from each language (spread in each)."""
    from copy_as_decode.cases.corpora import spread
    lo, hi = args.peer_lines
    by = {}
    for c in cases:
        if lo <= c["lines"] <= hi:
            by.setdefault(c["language"], []).append(c)
    spreads = {lang: spread(cs, args.peer_limit) for lang, cs in by.items()}
    out = []
    for k in range(args.peer_limit):
        for lang in ("python", "javascript", "markdown"):
            if len(out) < args.peer_limit and k < len(spreads.get(lang, [])):
                out.append(spreads[lang][k])
    return out


def summarize(rows: list[dict], peer: dict[str, dict] | None = None) -> dict:
    """One row's figures over `rows` (peer: the llama-ngram row's results by case id)."""
    if not rows:
        return {}
    rates = [r["tokens"] / r["seconds"] for r in rows if r["seconds"] > 0]
    long_ = [r["tokens"] / r["seconds"] for r in rows if 300 <= r["lines"] <= 3000 and r["seconds"] > 0]
    out = {"cases": len(rows), "exact": sum(r["exact"] for r in rows),
           "needs_model": sum(r["outcome"] == "needs model" for r in rows),
           "refused": sum((r["outcome"] or "").startswith("refused") for r in rows),
           "silent_wrong": sum(r["written"] and not r["exact"] for r in rows),
           "blank_lines_only": sum(r["blank_lines_only"] and r["written"] for r in rows),
           "markers_leaked": sum(r["markers_leaked"] for r in rows), "lines_lost": sum(r["lines_lost"] for r in rows),
           "unasked_changes": sum(r.get("unasked_changes", 0) for r in rows),
           "parse_failures": sum(r["parse_failure"] for r in rows),
           "median_s": statistics.median(r["seconds"] for r in rows),
           "median_tok_s": statistics.median(rates) if rates else None,
           "median_tok_s_300_3000": statistics.median(long_) if long_ else None}
    if ties := [r["seconds"] for r in rows if r.get("forwards")]:  # the cases the model placed a part of
        out["ties"], out["median_tie_s"] = len(ties), statistics.median(ties)
    if requests := [t for r in rows for t in r.get("requests", [])]:
        out["requests"], out["median_request_s"] = len(requests), statistics.median(requests)
    mine = [(r, peer[r["id"]]) for r in rows if peer and r["id"] in peer and 300 <= r["lines"] <= 3000]
    out["peer_cases"] = len(mine)
    out["geomean_vs_ngram"] = statistics.geometric_mean(p["seconds"] / r["seconds"] for r, p in mine) if mine else None
    return out


def report_of(rows: list[dict]) -> dict:
    peer = {r["id"]: r for r in rows if r["row"] == "llama-ngram"}
    sets = {"development": [r for r in rows if r["development"]], "heldout": [r for r in rows if not r["development"]]}
    summary = {name: {row: summarize([r for r in rs if r["row"] == row], peer) for row in ROWS
                      if any(r["row"] == row for r in rs)} for name, rs in sets.items() if rs}
    styles: dict = {}
    for r in rows:
        styles.setdefault(r["row"], {}).setdefault(r["language"], {}).setdefault(r["style"], []).append(r)
    by_style = {row: {lang: {style: summarize(rs) for style, rs in sorted(st.items())} for lang, st in langs.items()}
                for row, langs in styles.items()}
    return {"summary": summary, "by_style": by_style}


def print_tables(report: dict) -> None:
    from copy_as_decode.bench.columns import print_table

    def num(v, form: str) -> str:
        return "-" if v is None else format(v, form)

    print(f"model {report['model']}, {report['threads']} threads; {report['corpus']} corpus {report['corpus_cases']} cases")
    print_table(SUMMARY_COLUMNS, [
        (name, row, s["cases"], s["exact"], f"{100 * s['exact'] / s['cases']:.1f}%", s["needs_model"], s["refused"],
         s["silent_wrong"], s["blank_lines_only"], s["markers_leaked"], s["lines_lost"], s["unasked_changes"],
         s["parse_failures"], f"{s['median_s']:.4f}", num(s["median_tok_s"], ",.0f"),
         num(s["median_tok_s_300_3000"], ",.0f"), num(s["geomean_vs_ngram"], ".1f"))
        for name, rows in report["summary"].items() for row, s in rows.items()])
    for name, rows in report["summary"].items():
        if "median_tie_s" in rows.get("apply", {}):
            s = rows["apply"]
            print(f"{name} apply: {s['ties']} answers placed in part by the model, median {s['median_tie_s']:.1f} s each")
        if "median_request_s" in rows.get("endpoint", {}):
            s = rows["endpoint"]
            print(f"{name} endpoint: {s['requests']} requests, median {1e3 * s['median_request_s']:.1f} ms each")
    print()
    print_table(STYLE_COLUMNS, [
        ("", row, lang, style, s["cases"], s["exact"], s["needs_model"], s["refused"], s["silent_wrong"])
        for row, langs in report["by_style"].items() for lang, styles in langs.items() for style, s in styles.items()])


def plot(report: dict, path: Path) -> None:
    """Exact share per style, one bar per row."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    styles = sorted({st for langs in report["by_style"].values() for sts in langs.values() for st in sts})
    fig, ax = plt.subplots(figsize=(8, 4))
    rows = list(report["by_style"])
    width = 0.8 / max(len(rows), 1)
    for k, row in enumerate(rows):
        shares = []
        for st in styles:
            ss = [s[st] for s in report["by_style"][row].values() if st in s]
            n = sum(s["cases"] for s in ss)
            shares.append(sum(s["exact"] for s in ss) / n if n else 0)
        ax.bar([i + k * width for i in range(len(styles))], shares, width, label=row)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(styles))], styles)
    ax.set(ylabel="exact share", ylim=(0, 1.05),
           title=f"{report['corpus']} corpus, exact merges by style ({report['cases_set']})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run(args) -> int:
    from copy_as_decode.cases.corpora import spread
    from copy_as_decode.engine.backends import models
    from copy_as_decode.engine.prompts import prompt
    cases = chosen(args)
    if not cases:
        print("bench apply: no case matches", file=sys.stderr)
        return 2
    tok = models.load_tokenizer(args.model)
    tokens = {c["id"]: len(prompt.text_ids(tok, c["after"])) for c in cases}
    rows = []

    def row(case, name, result):
        rows.append({"id": case["id"], "row": name, "language": case["language"], "style": case["style"],
                     "source": case["source"], "lines": case["lines"], "development": case["development"],
                     "tokens": tokens[case["id"]], **result})

    merged = {}
    for c in cases:
        merged[c["id"]] = r = run_merge(c)
        row(c, "merge", r)
    engine = None
    if not args.no_model:
        from copy_as_decode.engine.make import make_engine
        needing = [c for c in cases if merged[c["id"]]["pending"]]
        model_cases = {c["id"] for c in (spread(needing, args.model_limit) if args.model_limit is not None else needing)}
        if model_cases:
            engine = make_engine(args)
            import contextlib

            from copy_as_decode.core.contract import IncompleteEdit
            with contextlib.suppress(IncompleteEdit):  # first-call costs out of the timings
                engine.edit("x = 1\n", "warm up", "windowed", lines=(1, 1))
        for c in cases:
            if not merged[c["id"]]["pending"] or c["id"] in model_cases:
                row(c, "apply", run_apply(c, engine))
    if args.through_endpoint:
        from copy_as_decode.bench.apply_endpoint_bench import Server
        with Server() as server:
            for c in cases:
                row(c, "endpoint", run_endpoint(c, server))
    if args.peer_ngram:
        import contextlib
        with contextlib.ExitStack() as stack:
            peer = _peer(args, engine, stack)
            for c in peer_cases(cases, args):
                row(c, "llama-ngram", run_peer(c, peer))
    report = {"model": args.model, "threads": args.threads or _threads(), "cases_set": args.cases,
              "corpus": args.corpus, "corpus_cases": len(corpus(args.corpus)),
              "options": {k: v for k, v in vars(args).items() if k != "func"},
              **report_of(rows), "cases": rows}
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str))
    print_tables(report)
    try:
        plot(report, out.with_suffix(".png"))
        print(f"wrote {out} and {out.with_suffix('.png')}")
    except ImportError:
        print(f"wrote {out}")
    return 0


def _threads() -> int:
    import os
    return os.cpu_count() or 1


def _peer(args, engine, stack):
    """A RemoteEngine on llama-server started as a user would (the same GGUF, all cores, its default options)
    with its n-gram speculation, the model's whole context, the engine's prompt layout."""
    import os

    from copy_as_decode.bench.llama_server import LlamaServer, default_server_binary
    from copy_as_decode.engine.backends import models
    from copy_as_decode.engine.remote.client import RemoteEngine
    ctx = getattr(engine, "context", None) or 32768
    server = LlamaServer(default_server_binary(), models.gguf_file(args.model), ctx=ctx, threads=os.cpu_count(),
                         speculative=False, batch_invariant=False, extra=["--spec-type", "ngram-simple"])
    stack.enter_context(server)
    peer = RemoteEngine(server.url, args.model, timeout=args.request_timeout)
    if engine is not None:
        peer.layout = engine.layout
    return peer
