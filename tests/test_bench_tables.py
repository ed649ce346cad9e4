"""The ceiling, round-trip and forwards benchmarks return their documented keys, with values in range, on a few
cases."""
import argparse
import json
import math

import pytest

from copy_as_decode.bench import ceiling, roundtrip
from copy_as_decode.bench.tokens import Tokens
from copy_as_decode.cases import corpora
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Copy, Gen
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.backends import models
from copy_as_decode.synthesis import all_corpora

pytestmark = pytest.mark.model

CORPUS_KEYS = {"cases", "line_coverage", "token_coverage", "bound", "histogram"}


@pytest.fixture(scope="module")
def tokens(qwen_tokenizer):
    return Tokens(qwen_tokenizer, models.TOKENIZER_SOURCE)


@pytest.fixture(scope="module")
def subset():
    names = corpora.CORPORA
    if not (corpora.humanevalpack_dir() / "humanevalpack_python.jsonl").is_file():
        names = ("text",)
    return {name: corpora.load(name)[:4] for name in names}


def test_token_pieces_concatenate_back(tokens):
    text = "def f(x):\n    return x + 1  # ünïcödé 日本語\r\n"
    pieces = tokens.pieces(text)
    assert "".join(pieces) == text and len(pieces) == tokens.count(text)


def test_default_curve_is_the_papers_and_interpolates_in_log_space():
    curve = ceiling.load_curve()
    assert "2604.18170" in curve.source
    assert (curve.speedup(8), curve.speedup(512)) == (6.8, 303.0)
    assert curve.speedup(1) == 1.0 and curve.speedup(10_000) == 303.0
    mid = math.sqrt(8 * 16)
    assert curve.speedup(mid) == pytest.approx(math.sqrt(curve.speedup(8) * curve.speedup(16)))
    assert all(a < b for a, b in zip(curve.speedups, curve.speedups[1:]))


def test_buckets():
    assert [ceiling.bucket(n) for n in (1, 2, 3, 4, 7, 8, 511, 512, 9999)] == \
        ["1", "2-3", "2-3", "4-7", "4-7", "8-15", "256-511", "512+", "512+"]
    assert ceiling.BUCKETS[0] == "1" and ceiling.BUCKETS[-1] == "512+" and len(ceiling.BUCKETS) == 10


def test_measure_prices_tags_gens_and_copies(tokens):
    before = "a = 1\nb = 2\nc = 3\n"
    items = [Copy(1, 2), Gen("c = 4\n")]
    m = ceiling.measure(items, before, "a = 1\nb = 2\nc = 4\n", tokens)
    assert m.spans == (tokens.count("a = 1\nb = 2\n"),) and m.generated == tokens.count("c = 4\n")
    assert m.sampled == tokens.count('<copy lines="1-2"/><gen>c = 4\n</gen>')
    flat = ceiling.Curve((1.0,), (1.0,), "flat")  # copying as slow as decoding
    assert m.steps(flat) == m.sampled + m.copied and m.steps(flat, tags=False) == m.generated + m.copied


def test_ceiling_keys_and_ranges(subset, tokens):
    result = ceiling.ceiling(subset, tokens, ceiling.load_curve())
    for name in [*subset, "pooled"]:
        r = result[name]
        assert CORPUS_KEYS <= set(r)
        assert r["cases"] == (4 if name != "pooled" else 4 * len(subset))
        for key in ("line_coverage", "line_reachable", "token_coverage", "token_reachable"):
            assert 0.0 < r[key] <= 1.0, (name, key)
        assert r["line_reachable"] >= r["line_coverage"] - 0.01
        assert r["bound_no_tags"] > r["bound"] > 0 and r["bound_no_tags"] > 1
        assert sum(b["tokens"] for b in r["histogram"].values()) == r["line"]["copied_tokens"]
        assert list(r["histogram"]) == ceiling.BUCKETS
    assert result["pooled"]["line"]["gold_tokens"] == sum(result[n]["line"]["gold_tokens"] for n in subset)
    table = ceiling.table(result)
    assert "pooled" in table and "29.0x" in table  # the paper's text bound, printed beside ours


def test_shift_ends_clamps_to_programs_the_grammar_accepts():
    program = [Copy(1, 3), Gen("x\n"), Copy(5, 9), Gen("y\n"), Copy(10, 10)]
    assert roundtrip.shift_ends(program, 1, 12) == [Copy(1, 4), Gen("x\n"), Copy(5, 9), Gen("y\n"), Copy(10, 11)]
    assert roundtrip.shift_ends(program, 2, 12) == [Copy(1, 4), Gen("x\n"), Copy(5, 9), Gen("y\n"), Copy(10, 12)]
    assert roundtrip.shift_ends(program, -2, 12) == [Copy(1, 1), Gen("x\n"), Copy(5, 7), Gen("y\n"), Copy(10, 10)]
    assert roundtrip.shift_ends(program, 5, 10)[-1] == Copy(10, 10)



def test_shift_ends_moves_a_moved_copys_end_inside_the_document_only():
    # a reorder: lines 10-11 moved up front, then 2-8 and 12-16 in order
    program = [Gen("# Changelog\n"), Copy(10, 11, 0), Copy(2, 8), Copy(12, 16)]
    assert roundtrip.shift_ends(program, 1, 16) == [Gen("# Changelog\n"), Copy(10, 12, 0), Copy(2, 9), Copy(12, 16)]
    assert roundtrip.shift_ends(program, 2, 16) == [Gen("# Changelog\n"), Copy(10, 13, 0), Copy(2, 10), Copy(12, 16)]
    assert roundtrip.shift_ends(program, -2, 16) == [Gen("# Changelog\n"), Copy(10, 10, 0), Copy(2, 6), Copy(12, 14)]
    assert roundtrip.shift_ends([Copy(15, 16, -4), Copy(1, 3)], 2, 16) == [Copy(15, 16, -4), Copy(1, 5)]
    assert roundtrip.shift_ends([Copy(1, 3), Copy(2, 3, 4), Copy(4, 5)], 2, 16) == [Copy(1, 3), Copy(2, 5, 4), Copy(4, 7)]


@pytest.mark.parametrize("name", [*corpora.CORPORA, *corpora.LONG_CORPORA, *corpora.LOCATE_CORPORA,
                                  *corpora.STRUCTURAL_CORPORA])
def test_perturbation_runs_on_every_shipped_corpus(name, tokens):
    """Every end shift of every gold program (moved copies included) is one the resolver takes."""
    moved = 0
    for case in all_corpora.load(name):
        items = line_oracle(case.before, case.after, tokens.count)  # the bench's line program
        n = len(split_lines(case.before))
        moved += any(isinstance(item, Copy) and item.moved for item in items)
        for d in roundtrip.SHIFTS:
            shifted = roundtrip.shift_ends(items, d, n)
            assert [(type(a), getattr(a, "start", None), getattr(a, "indent", None)) for a in items] == \
                [(type(b), getattr(b, "start", None), getattr(b, "indent", None)) for b in shifted]
            assert all(1 <= c.start <= c.end <= n for c in shifted if isinstance(c, Copy))
            resolve(shifted, case.before)  # raises if a range is inverted, outside or out of order
        assert roundtrip.perturb(items, case).keys() == set(roundtrip.SHIFTS)
    if name in ("text", "move-method"):  # the prose reorders and every moved method
        assert moved


def test_roundtrip_keys_and_ranges(subset, tokens):
    result = roundtrip.roundtrip(subset, tokens)
    assert {"cases", "lossless", "perturbation", "formats"} <= set(result)
    for name in [*subset, "pooled"]:
        n = result["cases"][name]
        assert result["lossless"][name] == {"line": n, "token": n}
        p = result["perturbation"][name]
        for key in ("+1", "-1", "+2", "-2"):
            assert 0.0 <= p[key]["em"] <= 1.0 and p[key]["em"] >= p[key]["unchanged"]
        assert 0.0 <= p["pm1"] <= 1.0 and 0.0 <= p["pm2"] <= 1.0
        f = result["formats"][name]
        assert set(f["fidelity"]) == {"search_replace", "udiff"} and all(0 <= v <= n for v in f["fidelity"].values())
        assert set(f["tokens"]) == {"program", "token_program", "search_replace", "udiff", "full"}
        assert 0 < f["tokens"]["program"] < f["tokens"]["full"]
    assert result["lossless"]["failures"] == []
    assert "end line j" in result["perturbation"]["definition"]
    assert "paper" in roundtrip.tables(result)


def test_resolver_timing_row():
    row = roundtrip.time_resolver(lines=3000, runs=1)
    assert row["lines"] == 3000 and row["items"] > 1
    assert all(row[k] >= 0 for k in ("line_oracle_s", "resolve_s", "text_edits_s"))
    a, b = roundtrip.synthetic(3000)
    assert a != b and abs(a.count("\n") - b.count("\n")) < 10


@pytest.mark.parametrize("module", [ceiling, roundtrip])
def test_cli_entry_writes_json(module, tmp_path, monkeypatch, qwen_tokenizer, capsys):
    monkeypatch.setattr(models, "load_tokenizer", lambda name: qwen_tokenizer)
    monkeypatch.setattr(models, "is_installed", lambda name: name == "qwen2.5-coder-0.5b")
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    out = tmp_path / "out.json"
    extra = ["--lines", "2000", "--runs", "1"] if module is roundtrip else []
    assert module.run(parser.parse_args(["--json", str(out), "--limit", "3", *extra])) == 0
    data = json.loads(out.read_text())
    assert (data["cases"]["text"] if module is roundtrip else data["text"]["cases"]) == 3
    printed = capsys.readouterr().out
    assert "text" in printed and "tokens counted by qwen2.5-coder-0.5b's tokenizer" in printed
    assert data["tokenizer"] == "qwen2.5-coder-0.5b"


def test_the_benchmarks_count_in_the_default_models_tokenizer_else_any_installed_ones(monkeypatch):
    """Every built-in has Qwen2.5's vocabulary: the runtime install has only the default model, the tests the 0.5B
    too; with none, the error says how to install the default."""
    from copy_as_decode.core.contract import ModelError
    from copy_as_decode.engine.options import DEFAULT_MODEL
    monkeypatch.setattr(models, "load_tokenizer", lambda name: f"the tokenizer of {name}")
    for installed, used in [(set(models.BUILTINS), DEFAULT_MODEL), ({DEFAULT_MODEL}, DEFAULT_MODEL),
                            (set(models.BUILTINS) - {DEFAULT_MODEL}, "qwen2.5-coder-0.5b")]:
        monkeypatch.setattr(models, "is_installed", lambda name: name in installed)
        tokens = Tokens.installed()
        assert (tokens.source, tokens.tok) == (used, f"the tokenizer of {used}")
    monkeypatch.undo()
    monkeypatch.setattr(models, "is_installed", lambda name: False)
    with pytest.raises(ModelError, match=f"run `copy-as-decode models install {DEFAULT_MODEL}`"):
        Tokens.installed()


def test_a_measured_curve_without_small_n_starts_at_one(tmp_path):
    path = tmp_path / "curve.json"
    path.write_text(json.dumps({"points": [{"n": 8, "speedup": 4.0, "parallel_s": 0.1}, {"n": 64, "speedup": 20.0}]}))
    curve = ceiling.load_curve(path)
    assert curve.speedup(1) == 1.0 and curve.speedup(8) == 4.0 and curve.speedup(1000) == 20.0
    assert 1.0 < curve.speedup(4) < 4.0


def test_bench_forwards_measures_each_dtype_and_the_mixed_ceiling(tmp_path, capsys):
    from copy_as_decode.bench import forwards
    p = argparse.ArgumentParser()
    forwards.add_arguments(p)
    out = tmp_path / "forwards.json"
    assert forwards.run(p.parse_args(["--models", "tiny", "--lengths", "64", "256", "--splice", "16", "--steps", "2",
                                      "--json", str(out)])) == 0
    report = json.loads(out.read_text())
    assert [(r["dtype"], len(r["points"])) for r in report["results"]] == [("float32", 2), ("bfloat16", 2)]
    fp32, bf16 = (r["points"] for r in report["results"])
    for m, a, b in zip(report["mixed"], fp32, bf16):  # bfloat16's prefill, float32's splice and decode
        assert (m["prefill_tok_s"], m["splice_tok_s"], m["decode_step_s"]) == (
            b["prefill_tok_s"], a["splice_tok_s"], a["decode_step_s"])
        assert m["verified_ceiling"] == forwards.ceiling(b["prefill_tok_s"], a["splice_tok_s"], a["decode_step_s"])
    assert forwards.ceiling(100.0, 100.0, 0.1) == (1 + 100 * 0.1) / 2  # prefill as fast as a splice
    assert "mixed" in capsys.readouterr().out and out.with_suffix(".png").stat().st_size > 0


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_bench_kernel_times_both_ways_and_measures_how_far_they_part(tmp_path, capsys, dtype):
    from copy_as_decode.bench import kernel
    p = argparse.ArgumentParser()
    kernel.add_arguments(p)
    out = tmp_path / "kernel.json"
    assert kernel.run(p.parse_args(["--model", "tiny", "--quant", "none", "--dtype", dtype, "--sizes", "4", "32",
                                    "--prefix", "64", "--repeats", "1", "--json", str(out)])) == 0
    (run,) = json.loads(out.read_text())["runs"]
    points = run["points"]
    assert run["quant"] == "none" and run["decode_step_s"] > 0
    assert [q["n"] for q in points] == [4, 32]
    assert all(q["parallel_s"] > 0 and q["autoregressive_s"] > 0 for q in points)
    if dtype == "float32":  # splice == stepwise: the same greedy choice at every copied position
        assert all(q["argmax_agree"] == 1.0 and q["max_rel_diff"] < 1e-4 for q in points)
    else:  # bfloat16 may part (reported, not hidden), within its precision
        assert all(0 <= q["max_rel_diff"] < 0.2 and q["argmax_agree"] > 0.5 for q in points)
    printed = capsys.readouterr().out
    assert "argmax same" in printed and "decode step" in printed and out.with_suffix(".png").stat().st_size > 0
