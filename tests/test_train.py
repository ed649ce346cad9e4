"""Training data and fine-tuning: deterministic clean data, sequences identical to what the engine decodes,
a step that learns, adapters that round-trip."""
import argparse
import json
import shutil

import pytest
import torch

from copy_as_decode.bench import corpora
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.prefix_cache import PrefixCache
from copy_as_decode.train import data, sft
from copy_as_decode.engine.adapter import load_adapter, split_spec
from copy_as_decode.train.sequence import IGNORE, serialize, serialize_example


@pytest.fixture(scope="session")
def sources():
    return data.Sources()


@pytest.fixture(scope="session")
def examples(sources):
    return data.generate(240, seed=0, sources=sources)


def test_generator_is_deterministic_and_prefix_stable(sources, examples):
    again = data.generate(240, seed=0, sources=sources)
    assert again == examples
    assert data.generate(40, seed=0, sources=sources) == examples[:40]  # a small set is a prefix of a large one
    assert data.generate(40, seed=1, sources=sources) != examples[:40]
    assert len({e.id for e in examples}) == len(examples)
    assert {e.source for e in examples} == set(data.MIX)


def test_every_program_resolves_to_its_target(examples):
    for e in examples:
        assert e.before != e.after
        assert resolve(e.program, e.before) == e.after, e.id


def test_bug_examples_are_valid_python_with_the_original_as_target(examples):
    bugs = [e for e in examples if e.source == "python-bug"]
    assert {e.kind for e in bugs} == set(data.BUG_TYPES)
    for e in bugs:
        assert data.valid_python(e.before) and data.valid_python(e.after)
        assert e.instruction.startswith(("Fix", "There is a bug"))


def test_no_example_is_an_evaluation_document(examples):
    if not (corpora.humanevalpack_dir() / "humanevalpack_python.jsonl").is_file():
        pytest.skip("HumanEvalPack not found")
    lines, docs, names = data.evaluation_lines()
    assert len(docs) > 600 and "has_close_elements" in names
    for e in examples:
        assert e.before not in docs and e.after not in docs
        assert not any(len(x.strip()) >= data.DISTINCTIVE and x.strip() in lines for x in e.before.split("\n"))


def test_decontaminate_drops_snippets_sharing_a_distinctive_line():
    line = "    return [x for x in strings if substring in x]"
    keep = data.Snippet("a.py:1", "f", "def f(xs):\n    return xs\n", "python")
    leak = data.Snippet("b.py:1", "g", f"def g(strings, substring):\n{line}\n", "python")
    named = data.Snippet("c.py:1", "filter_by_substring", "def filter_by_substring(s):\n    return s\n", "python")
    assert data.decontaminate([keep, leak, named], {line.strip()}, {"filter_by_substring"}) == [keep]


def test_python_bug_injects_each_bug_type():
    text = ("def clip(values, low, high):\n    out = []\n    for v in values:\n        if v < low and v != 0:\n"
            "            out.append(max(v, low))\n        else:\n            out.append(min(v, high))\n"
            "    return len(out) + 1\n")
    import random
    for kind in data.BUG_TYPES:
        bug = data.python_bug(text, kind, random.Random(3))
        assert bug is not None and bug != text and data.valid_python(bug), kind


@pytest.mark.parametrize("before, after, hint", [
    ("    while lo < hi:\n", "    while lo <= hi:\n", "`<` should be `<=`"),
    ("    if a and b:\n", "    if a:\n", "`a and b:` should be `a:`"),
    ("for i in range(n - 1):\n", "for i in range(n):\n", "`range(n - 1):` should be `range(n):`"),
    ("a\n    x += 1\n    x += 1\nb\n", "a\n    x += 1\nb\n", "`x += 1` should not be there"),
    ("a\nb\n", "a\n    return y\nb\n", "`return y` is missing"),
    ("a\nb\nc\n", "x\nb\ny\n", None),  # two places: no hint
])
def test_bug_hint_says_what_a_one_line_fix_changes(before, after, hint):
    assert data.bug_hint(before, after) == hint


def test_about_half_of_the_bug_fixes_say_what_is_wrong(examples):
    bugs = [e for e in examples if e.source.endswith("-bug")]
    hinted = [e for e in bugs if ": `" in e.instruction]
    assert 0.25 * len(bugs) < len(hinted) < 0.75 * len(bugs)
    for e in hinted:
        old = e.instruction.split("`")[-4 if "should be" in e.instruction else -2]
        assert old in (e.before if "should" in e.instruction else e.after), e.instruction


class Recorder:
    """Wraps a model and records every token the decode loop feeds it, one list per forward call."""

    def __init__(self, model):
        self.model, self.calls = model, []

    def __getattr__(self, name):
        return getattr(self.model, name)

    def __call__(self, input_ids, **kw):
        self.calls.append(input_ids[0].tolist())
        return self.model(input_ids=input_ids, **kw)


def test_sequence_is_exactly_what_the_engine_feeds(tiny_engine, examples):
    picked = {}
    for e in examples:  # a few of every source, copies at the start, middle and end
        picked.setdefault(e.source, []).append(e)
    cases = [e for group in picked.values() for e in group[:3]]
    model = tiny_engine.model
    try:
        for e in cases:
            rec = Recorder(model)
            tiny_engine.model, tiny_engine.prefix = rec, PrefixCache()  # a cold cache: the whole prompt is seen
            result = tiny_engine.edit(e.before, e.instruction, "forced", program=e.program)
            assert result.text == e.after
            seq = serialize(tiny_engine.tok, e.instruction, e.before, e.program)
            fed = [t for call in rec.calls for t in call]
            assert seq.input_ids == fed + [tiny_engine.eos], e.id
            # prefill (all but the last prompt token, cached for later edits, then the last): no loss; every
            # later forward = 1 sampled token + the copied tokens spliced after it
            prefill, decode = rec.calls[:2], rec.calls[2:]
            expected = [IGNORE] * sum(map(len, prefill))
            for call in decode:
                expected += [call[0]] + [IGNORE] * (len(call) - 1)
            assert seq.labels == expected + [tiny_engine.eos], e.id
            assert seq.prompt_len == sum(map(len, prefill)) and len(prefill[1]) == 1
            assert result.stats.prompt_cached == 0
            assert len(seq.labels) - seq.n_labels - seq.prompt_len == result.stats.spliced
    finally:
        tiny_engine.model = model


@pytest.fixture()
def tiny_lora(tiny_engine, examples):
    from copy_as_decode.engine import models
    model, tok = models.load("tiny")
    cfg = sft.Config(autocast=False, lr=1e-2, batch=3, rank=4, alpha=8)
    seqs = [serialize_example(tok, e) for e in examples[:3]]
    return sft.attach_lora(model, cfg), tok, cfg, seqs


def test_prefix_cache_gives_the_full_sequence_loss(tiny_lora):
    model, tok, cfg, seqs = tiny_lora
    n = sft.common_prefix(seqs)
    assert 100 < n <= min(s.prompt_len for s in seqs)
    prefix = sft.prefix_kv(model, seqs[0].input_ids[:n], autocast=False)
    for s in seqs:
        full, k = sft.sequence_loss(model, s)
        cached, k2 = sft.sequence_loss(model, s, prefix)
        assert k == k2 == s.n_labels
        assert torch.allclose(full, cached, rtol=1e-5)
        # grad_from "program": the whole prompt, document included, continues the shared prefix's cache
        whole = sft.prefix_kv(model, s.input_ids[n:s.prompt_len - 1], autocast=False, past=prefix)
        assert whole[0][0].shape[-2] == s.prompt_len - 1
        assert sft.sequence_loss(model, s, whole)[1] == s.n_labels
        assert torch.allclose(full, sft.sequence_loss(model, s, whole)[0], rtol=1e-5)
        too_far = sft.prefix_kv(model, s.input_ids[n:s.prompt_len], autocast=False, past=prefix)
        with pytest.raises(ValueError, match="first label"):
            sft.sequence_loss(model, s, too_far)


@pytest.mark.parametrize("grad_from", sft.GRAD_FROM)
def test_every_gradient_mode_trains(tiny_lora, grad_from):
    model, tok, cfg, seqs = tiny_lora
    cfg = sft.Config(**{**cfg.__dict__, "grad_from": grad_from})
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
    before = sft.evaluate_loss(model, seqs)
    model.train()
    sft.train_step(model, opt, seqs, cfg, 0 if grad_from == "all" else sft.common_prefix(seqs))
    assert sft.evaluate_loss(model, seqs) < before


def test_one_sft_step_lowers_the_loss(tiny_lora):
    model, tok, cfg, seqs = tiny_lora
    before = sft.evaluate_loss(model, seqs)
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
    sft.train_step(model, opt, seqs, cfg, sft.common_prefix(seqs))
    assert sft.evaluate_loss(model, seqs) < before


def test_adapter_round_trip_changes_logits_exactly_as_saved(tiny_lora, tmp_path):
    from copy_as_decode.engine import models
    model, tok, cfg, seqs = tiny_lora
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
    sft.train_step(model, opt, seqs, cfg, 0)
    model.eval()
    model.save_pretrained(str(tmp_path / "adapter"))
    x = torch.tensor([seqs[0].input_ids[-60:]])
    with torch.no_grad():
        tuned = model(input_ids=x).logits
        base = models.load("tiny")[0](input_ids=x).logits
        unmerged = load_adapter(models.load("tiny")[0], tmp_path / "adapter", merge=False).eval()(input_ids=x).logits
        merged = models.load(f"tiny+{tmp_path / 'adapter'}")[0](input_ids=x).logits
    assert not torch.allclose(tuned, base, atol=1e-3)
    assert torch.equal(unmerged, tuned)
    assert torch.allclose(merged, tuned, atol=1e-5)


def test_adapter_specs():
    assert split_spec("qwen2.5-coder-0.5b") == ("qwen2.5-coder-0.5b", None)
    assert split_spec("qwen2.5-coder-0.5b+results/a+b") == ("qwen2.5-coder-0.5b", "results/a+b")
    from copy_as_decode.engine.models import ModelError
    with pytest.raises(ModelError, match="no adapter"):
        load_adapter(None, "/nonexistent/adapter")


def test_sft_command_trains_and_saves(tmp_path, examples):
    from copy_as_decode.train import cli
    path = tmp_path / "train.jsonl"
    data.write_jsonl(examples[:4], path)
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    args = p.parse_args(["sft", "--model", "tiny", "--data", str(path), "--out", str(tmp_path / "ad"), "--batch", "2",
                         "--rank", "2", "--no-autocast", "--max-tokens", "4096"])
    assert cli.run(args) == 0
    record = json.loads((tmp_path / "ad" / "train.json").read_text())
    assert record["steps"] == 2 and len(record["losses"]) == 2
    assert (tmp_path / "ad" / "adapter_config.json").is_file()


def test_curve_command_trains_scores_and_plots_against_the_rewrite(tmp_path, examples):
    from copy_as_decode.train import cli
    path, out = tmp_path / "train.jsonl", tmp_path / "curve"
    data.write_jsonl(examples[:2], path)
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    args = p.parse_args(["curve", "--model", "tiny", "--data", str(path), "--out", str(out), "--sizes", "0", "2",
                         "--batch", "2", "--rank", "2", "--no-autocast", "--max-tokens", "4096", "--limit", "1",
                         "--max-new-tokens", "8"])
    assert cli.run(args) == 0
    result = json.loads((out / "curve.json").read_text())
    assert [pt["examples"] for pt in result["points"]] == [0, 2] and result["points"][1]["train_sequences"] == 2
    assert result["rewrite"]["cases"] == 1 and (out / "eval_rewrite.json").is_file()
    assert (out / "curve.png").stat().st_size > 10_000 and (out / "adapters" / "n2" / "adapter_config.json").is_file()


def test_data_command_writes_jsonl(tmp_path):
    from copy_as_decode.train import cli
    py = tmp_path / "py"
    py.mkdir()
    for name in ("textwrap.py", "shlex.py", "fnmatch.py"):
        shutil.copy(data.PYTHON_ROOT / name, py / name)
    prose = tmp_path / "doc"
    prose.mkdir()
    (prose / "README.md").write_text("# Title\n\n" + "\n\n".join(
        f"Paragraph {k} explains how the option number {k} changes the default\nbehaviour of the command."
        for k in range(6)) + "\n")
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    out = tmp_path / "t.jsonl"
    args = p.parse_args(["data", "-n", "25", "--out", str(out), "--python-root", str(py), "--js-root", str(tmp_path),
                         "--prose-root", str(prose)])
    assert cli.run(args) == 0
    rows = data.read_jsonl(out)
    assert len(rows) == 25 and all(resolve(r.program, r.before) == r.after for r in rows)


def test_sft_resumes_from_a_checkpoint_exactly(tmp_path, examples, monkeypatch):
    """A run stopped after 2 of 4 steps and resumed ends where the uninterrupted run ends."""
    from copy_as_decode.engine import models
    path = tmp_path / "train.jsonl"
    data.write_jsonl(examples[:8], path)
    cfg = dict(model="tiny", data=str(path), batch=2, rank=2, autocast=False, max_tokens=4096, checkpoint_every=1)
    whole = sft.train(sft.Config(out=str(tmp_path / "whole"), **cfg), log=lambda m: None)
    real_step, calls = sft.train_step, []

    def stop_at_third(*a, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_step(*a, **kw)

    monkeypatch.setattr(sft, "train_step", stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        sft.train(sft.Config(out=str(tmp_path / "parts"), **cfg), log=lambda m: None)
    assert (tmp_path / "parts" / "checkpoint.pt").exists()
    monkeypatch.setattr(sft, "train_step", real_step)
    resumed = sft.train(sft.Config(out=str(tmp_path / "parts"), resume=True, **cfg), log=lambda m: None)
    assert resumed["losses"] == pytest.approx(whole["losses"], rel=1e-6) and len(resumed["losses"]) == 4
    assert resumed["data_sha256"] == whole["data_sha256"] and not (tmp_path / "parts" / "checkpoint.pt").exists()
    a = load_adapter(models.load("tiny")[0], tmp_path / "whole").state_dict()
    b = load_adapter(models.load("tiny")[0], tmp_path / "parts").state_dict()
    assert all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
