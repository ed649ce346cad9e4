"""`bench edit` end to end with the tiny model: every selector side by side, the exactness columns filled, any
corpus file grouped by length bucket with a cost curve."""
import argparse
import json
from types import SimpleNamespace

import pytest

from copy_as_decode.bench import edit_bench

pytestmark = pytest.mark.model


def test_edit_bench_runs_every_selector_side_by_side(tmp_path, capsys):
    p = argparse.ArgumentParser()
    edit_bench.add_arguments(p)
    out = tmp_path / "edit.json"
    args = p.parse_args(["--model", "tiny", "--limit", "2", "--corpora", "humanevalfix-python", "--max-new-tokens",
                         "24", "--selectors", *edit_bench.SELECTORS, "--json", str(out), "--second-edit",
                         "--layout", "file-first"])
    assert edit_bench.run(args) == 0
    report = json.loads(out.read_text())
    rows = report["corpora"]["humanevalfix-python"]["cases"]
    by = {(r["id"], r["selector"]): r for r in rows}
    ids = {r["id"] for r in rows}
    assert len(ids) == 2 and len(rows) == 2 * len(edit_bench.SELECTORS)
    for i in ids:
        warm, cold = by[i, "grammar"], by[i, "grammar-cold"]
        # the cached prompt head changes time, never what is decoded
        assert (warm["sampled"], warm["forwards"]) == (cold["sampled"], cold["forwards"])
        for sel in ("grammar", "grammar-cold", "verified", "full"):  # the random model never finishes: no edit
            row = by[i, sel]
            assert (row["complete"], row["stop"], row["sampled"], row["exact"]) == (False, "cap", 24, False)
            assert row["lines_lost"] == 0 and row["deleted_lines"] == 0  # an edit that did not finish changed nothing
            # file first: a second edit of the file with another instruction prefills what follows the file
            assert 0 < row["again_prefilled"] < row["prefilled"] / 4  # not the file again, even a short one
        # every edit is a first edit of its file: no selector inherits another's prompt for the same file
        assert by[i, "verified"]["prefilled"] == by[i, "full"]["prefilled"] == by[i, "auto"]["prefilled"]
        assert warm["prefilled"] < cold["prefilled"]  # the program prompt's head comes from the cache
        # read ahead, the same edit (file first either way) prefills only what follows the file once asked
        ahead, auto = by[i, "prepared"], by[i, "auto"]
        assert (ahead["sampled"], ahead["text"]) == (auto["sampled"], auto["text"])
        assert ahead["prefilled"] < auto["prefilled"] / 4 and ahead["read_ahead"] > 0.8
    assert len(report["cases"]) == len(rows) and report["corpora"]["humanevalfix-python"]["buckets"] == {}
    summary = report["corpora"]["humanevalfix-python"]["summary"]
    assert set(summary) == set(edit_bench.SELECTORS)
    assert summary["verified"]["complete"] == 0
    assert "grammar-cold" in capsys.readouterr().out


@pytest.mark.slow  # minutes: every selector over a bucketed corpus, out of the fast lane
def test_edit_bench_runs_a_corpus_file_by_bucket_with_a_cost_curve(tmp_path, capsys):
    from copy_as_decode.cases.corpora import node
    module = "def area(w, h):\n    return w * h\n"
    records = [  # one case a language; the code cases' tests pass on `before`, so an unchanged file passes
        {"id": "py", "language": "python", "bucket": 100, "before": module * 3, "instruction": "Rename area.",
         "after": module.replace("area", "size") * 3, "tests": "assert area(2, 3) == 6\n"},
        {"id": "js", "language": "javascript", "bucket": 300, "before": "const f = (x) => x + 1;\n" + "// f\n" * 8,
         "instruction": "Make f add 2.", "tests": "if (f(1) !== 2) process.exit(1);\n"},
        {"id": "md", "language": "markdown", "bucket": 300, "before": "# Title\n\nSome text.\n" * 5,
         "instruction": "Fix the typo.", "after_program": '<copy lines="1-14"/><gen>Some text!\n</gen>'},
        # beyond the model's context: refused before any forward pass, left out of the cost slopes
        {"id": "huge", "language": "markdown", "bucket": 3000, "before": "a b c d e\n" * 20000, "instruction": "Edit."},
    ]
    corpus = tmp_path / "mine.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in records))
    p = argparse.ArgumentParser()
    edit_bench.add_arguments(p)
    out = tmp_path / "long.json"
    selectors = ["grammar", "verified", "full", "prompt-lookup"]
    args = p.parse_args(["--model", "tiny", "--corpus", str(corpus), "--max-new-tokens", "8", "--selectors",
                         *selectors, "--json", str(out)])
    assert edit_bench.run(args) == 0
    report = json.loads(out.read_text())
    assert list(report["corpora"]) == ["mine"] and set(report["corpora"]["mine"]["buckets"]) == {"100", "300", "3000"}
    rows = {(r["id"], r["selector"]): r for r in report["cases"]}
    assert len(rows) == 4 * len(selectors)
    for sel in selectors:
        r = rows.pop(("huge", sel))
        assert (r["stop"], r["sampled"], r["complete"], r["lines"]) == ("context", 0, False, 20000)
    for (i, sel), r in rows.items():
        assert set(r) == set(edit_bench.PUBLIC)
        assert r["lines"] == {"py": 6, "js": 9, "md": 15}[i] and r["seconds"] > 0 and r["corpus"] == "mine"
        assert r["exact"] is {"py": False, "js": None, "md": False}[i]
        assert r["passed"] is {"py": True, "js": None if node() is None else True, "md": None}[i]
        assert (r["prefill_seconds"] is None) == (sel == "prompt-lookup")
        if sel != "prompt-lookup":  # the random model never finishes within 8 tokens: the file stays as it was
            assert (r["complete"], r["stop"], r["sampled"]) == (False, "cap", 8)
    for sel in selectors:
        c = report["cost"][sel]
        assert (c["cases"], c["refused"]) == (3, 1) and isinstance(c["seconds_per_kline"], float)
        assert (c["after_prefill_per_kline"] is None) == (sel == "prompt-lookup")
    printed = capsys.readouterr().out
    assert all(f"mine ~{b}" in printed for b in (100, 300, 3000)) and "cost against length" in printed
    assert (tmp_path / "long-cost.png").stat().st_size > 0 and (tmp_path / "long.png").stat().st_size > 0


def test_cost_slopes_leave_out_refused_edits():
    def row(lines, seconds, prefill, stop="cap", sampled=8):
        return {"selector": "full", "lines": lines, "seconds": seconds, "prefill_seconds": prefill, "stop": stop,
                "sampled": sampled}
    rows = [row(100, 1.0, 0.5), row(1100, 11.0, 1.5), row(3000, 0.1, 0.0, "context", 0)]
    c = edit_bench.cost(rows)["full"]
    assert (c["cases"], c["refused"]) == (2, 1)
    assert c["seconds_per_kline"] == pytest.approx(10.0) and c["after_prefill_per_kline"] == pytest.approx(9.0)
    assert edit_bench.cost(rows[:1])["full"]["seconds_per_kline"] is None  # one length: no slope
    near = [row(300, 1.0, 0.5), row(372, 9.0, 0.5)]  # one bucket's spread of lengths: no slope either
    assert edit_bench.cost(near)["full"]["seconds_per_kline"] is None


def test_geometric_means_are_of_per_case_ratios_on_the_same_cases():
    def row(case, selector, seconds):
        return {"id": case, "selector": selector, "seconds": seconds, "sampled": 1, "spliced": 0, "exact": False,
                "passed": None, "complete": True, "stop": "eos", "lines_lost": 0, "windows": "", "text": "",
                "again_prefilled": None, "prefilled": 0, "prefill_s": None}
    rows = [row("a", "full", 100.0), row("a", "llama-server", 40.0), row("a", "auto", 1.0),
            row("b", "full", 400.0), row("b", "llama-server", 20.0), row("b", "auto", 4.0)]
    s = edit_bench.summarize(rows)
    assert s["auto"]["geomean_vs_full"] == pytest.approx(100.0)  # 100x and 100x
    assert s["auto"]["geomean_vs_peer"] == pytest.approx(200 ** 0.5)  # 40x and 5x; the ratio of sums is 12x
    assert s["full"]["geomean_vs_peer"] == pytest.approx((0.4 * 0.05) ** 0.5)
    assert "geomean_vs_full" not in s["full"] and "geomean_vs_peer" not in s["llama-server"]
    rows += [row("a", "llama-ngram", 2.0), row("b", "llama-ngram", 2.0)]
    assert edit_bench.summarize(rows)["auto"]["geomean_vs_ngram"] == pytest.approx(1.0)  # 2x and 0.5x


def _ran(monkeypatch, peers, lengths: dict) -> list[tuple[str, str]]:
    """(case, row) in the order `measure` runs them, for `auto` and `peers` on cases of these lengths by name."""
    from copy_as_decode.cases.corpora import Case
    ran = []
    monkeypatch.setattr(edit_bench, "run_case", lambda engine, case, sel, *rest: ran.append((case.id, sel)) or
                        {"id": case.id, "selector": sel, "bucket": None})
    monkeypatch.setattr(edit_bench, "_summarized", lambda rows: rows)
    engine = SimpleNamespace(layout="x", device="cpu", quant="gguf", dtype="q4", prefill_dtype="q4",
                             edit=lambda *a, **k: None, prefill=lambda ids: 0, prompt_ids=lambda *a: [],
                             cache_snapshot=lambda: None)
    args = SimpleNamespace(model="m", selectors=["auto"], max_new_tokens=None)
    cases = [Case(name, "humanevalfix-python", "fix", "x = 1\n" * n, None) for name, n in lengths.items()]
    edit_bench.measure(args, engine, dict.fromkeys(peers), [("humanevalfix-python", cases)])
    return ran


def test_chat_rows_run_on_every_case_and_are_timed_against_the_local_engine_and_the_whole_file(monkeypatch, capsys):
    ran = _ran(monkeypatch, edit_bench.CHATS, {"l": 300})
    assert ran == [("l", "auto"), ("l", "llama-chat"), ("l", "llama-chat-ngram"), ("l", "llama-chat-whole")]

    def row(case, selector, seconds, windows="1-9 (f)"):
        return {"id": case, "selector": selector, "seconds": seconds, "sampled": 1, "spliced": 0, "exact": True,
                "passed": None, "complete": True, "stop": "fence", "lines_lost": 0, "windows": windows, "text": "",
                "again_prefilled": None, "prefilled": 0, "prefill_s": None, "unasked": 0}
    rows = [row("a", "auto", 10.0), row("a", "llama-chat", 13.0), row("a", "llama-chat-whole", 260.0, ""),
            row("b", "auto", 20.0), row("b", "llama-chat", 22.0), row("b", "llama-chat-whole", 220.0, "")]
    s = edit_bench.summarize(rows)
    assert s["llama-chat"]["time_vs_local"] == pytest.approx(1.2) and "time_vs_local" not in s["auto"]
    assert s["llama-chat"]["time_vs_whole"] == pytest.approx((0.05 + 0.1) / 2)
    edit_bench.print_chat({"corpora": {"locate-go": {"summary": s, "buckets": {}}}})
    assert "| locate-go | llama-chat | 2 | 17.5 | 2 | 0 | 0 | 0 | 1.20x | 13.3x |" in capsys.readouterr().out


def test_the_ngram_peer_rewrites_short_files_whole_and_long_ones_only_as_their_function(monkeypatch):
    ran = _ran(monkeypatch, ("llama-server", "llama-ngram"), {"s": 30, "l": 300})
    assert ran == [("s", "auto"), ("s", "llama-server"), ("s", "llama-ngram"), ("l", "auto"), ("l", "llama-server")]


def test_a_refinement_runs_from_the_cache_the_edit_left_then_from_a_fresh_prompt():
    from copy_as_decode.engine.decoding.stats import Stats
    calls = []

    class Engine:
        said = ("conversation", "text")

        def restore_cache(self, snapshot):
            self.said = None
            calls.append(("restore", snapshot, self.said))

        def edit(self, text, instruction, selector, **kw):
            follows = self.said is not None
            calls.append(("edit", text, instruction, selector, kw["at"], follows))
            return SimpleNamespace(stats=Stats(prompt_tokens=200, prompt_cached=190 if follows else 100,
                                               follows=int(follows)))

    args = SimpleNamespace(max_new_tokens=None)
    row = edit_bench.refine(Engine(), "new text", "auto", args, "heads", "python", "40-58 (fib)")
    assert [c[0] for c in calls] == ["edit", "restore", "edit"] and calls[1][1:] == ("heads", None)
    assert calls[0][1:5] == ("new text", edit_bench.REFINE_INSTRUCTION, "auto", 40)  # the cursor on the window
    assert (row["refine_prefilled"], row["refine_follows"]) == (10, 1)
    assert (row["refine_fresh_prefilled"], row["refine_fresh_follows"]) == (100, 0)
