"""Training data and fine-tuning: deterministic clean data, sequences identical to what the engine decodes,
a step that learns, adapters that round-trip."""
import argparse
import json
import random
import re
import shutil
import statistics
from pathlib import Path

import pytest
import torch

from copy_as_decode.cases import corpora
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, Gen, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.backends.adapter import load_adapter, split_spec
from copy_as_decode.engine.backends.torch_backend import TorchBackend
from copy_as_decode.synthesis import sources as harvest
from copy_as_decode.synthesis.bugs import BUG_TYPES, bug_hint, python_bug
from copy_as_decode.synthesis.decontaminate import DISTINCTIVE, MAX_SHARED, decontaminate, shared
from copy_as_decode.synthesis.long_edits import LONG_MAX_GEN_LINES, MULTI_HUNK, long_edit, splice
from copy_as_decode.synthesis.syntax import valid_python
from copy_as_decode.train import data, sft
from copy_as_decode.train.sequence import IGNORE, serialize, serialize_example

pytestmark = pytest.mark.model


@pytest.fixture(scope="session")
def sources():
    return data.Sources()


@pytest.fixture(scope="session")
def examples(sources):
    return data.generate(240, seed=0, sources=sources)


@pytest.fixture(scope="session")
def long_examples(examples):
    return [e for e in examples if e.source == "long-file"]


@pytest.fixture(scope="session")
def short_examples(examples):
    """For the training-loop tests: a whole file is thousands of tokens, too slow for them."""
    return [e for e in examples if e.source != "long-file"]


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
    assert {e.kind for e in bugs} == set(BUG_TYPES)
    for e in bugs:
        assert valid_python(e.before) and valid_python(e.after)
        assert e.instruction.startswith(("Fix", "There is a bug"))


def test_no_example_is_an_evaluation_document(examples):
    if not (corpora.humanevalpack_dir() / "humanevalpack_python.jsonl").is_file():
        pytest.skip("HumanEvalPack not found")
    lines, docs, names = data.evaluation_lines()
    assert len(docs) > 600 and "has_close_elements" in names
    for e in examples:
        assert e.before not in docs and e.after not in docs
        if e.source == "long-file":  # a whole file may hold a few common lines; what the edit changes may not
            assert shared(e.after, lines) <= MAX_SHARED and shared(e.before, lines) <= MAX_SHARED
            items = parse(e.program)
            copied = {k for i in items if isinstance(i, Copy) for k in range(i.start, i.end + 1)}
            changed = [x for i in items if isinstance(i, Gen) for x in split_lines(i.text)]
            changed += [x for k, x in enumerate(split_lines(e.before), 1) if k not in copied]
            assert not any(x.strip() in lines for x in changed if len(x.strip()) >= DISTINCTIVE), e.id
        else:
            assert not any(len(x.strip()) >= DISTINCTIVE and x.strip() in lines for x in e.before.split("\n"))


def test_long_files_are_never_benchmark_files_copies_or_versions_of_them(tmp_path):
    """On the long-file benchmark's own files: by path, by bytes, and as another version of them."""
    bench = [Path(p) for p in sorted(harvest.benchmark_files()) if Path(p).is_file()]
    bench = [p for p in bench
             if harvest.LONG_MIN <= len(split_lines(p.read_text(encoding="utf-8"))) <= harvest.LONG_MAX]
    top = [p for p in bench if p.parent == harvest.PYTHON_ROOT]  # cgi.py, datetime.py, ...
    small = [p for p in bench if len(split_lines(p.read_text(encoding="utf-8"))) <= 1000]
    picked = {s: [p for p in small if p.suffix == s][:3] for s in (".py", ".js", ".md")}
    if not top or not all(picked.values()):
        pytest.skip("the long-file benchmark's sources are not on this machine")
    # by path: the stdlib folder, which holds benchmark modules, and the benchmark's JS and Markdown files
    found = harvest.long_files(harvest.PYTHON_ROOT, picked[".js"], picked[".md"])
    assert found and all(f.language == "python" for f in found)
    assert not {f.text for f in found} & {p.read_text(encoding="utf-8") for p in bench}
    copies, versions = tmp_path / "copies", tmp_path / "versions"
    for folder in (copies, versions):
        folder.mkdir()
    for k, path in enumerate(p for group in picked.values() for p in group):
        shutil.copy(path, copies / f"b{k}{path.suffix}")
        # another version: a line added every 25 lines (a comment in code), neither path nor bytes match
        mark = {".py": "# revised\n", ".js": "// revised\n", ".md": "Revised.\n"}[path.suffix]
        lines = split_lines(path.read_text(encoding="utf-8"))
        (versions / f"b{k}{path.suffix}").write_text("".join(
            (mark if i % 25 == 0 else "") + x for i, x in enumerate(lines)), encoding="utf-8")

    def long_files(folder):
        return harvest.long_files(folder, sorted(folder.glob("*.js")), sorted(folder.glob("*.md")))

    assert long_files(copies) == []
    drafts = long_files(versions)
    assert len(drafts) == sum(map(len, picked.values()))  # on the file level they are new files ...
    lines = data.evaluation_lines()[0]
    assert all(shared(f.text, lines) > MAX_SHARED for f in drafts)
    assert data.Sources([], [], [], drafts).long == {}  # ... which the line check drops
    kept = data.Sources([], [], [], found).long["python"]  # while it keeps ordinary modules
    assert len(kept) > 50 and all(shared(f.text, lines) <= MAX_SHARED for f in kept)


def _suffix(example) -> str:
    """The suffix of the file an example was drawn from (ids are source/origin/digest)."""
    return example.id.rsplit("/", 1)[0].rsplit(".", 1)[-1]


def test_long_examples_are_whole_files_with_long_copies(long_examples):
    assert len(long_examples) >= 20
    assert {_suffix(e) for e in long_examples} >= {"py", "js", "md"}
    kinds = {e.kind for e in long_examples}
    assert kinds & set(BUG_TYPES) and set(MULTI_HUNK) <= kinds
    longest = []
    for e in long_examples:
        lines = split_lines(e.before)
        assert harvest.LONG_MIN <= len(lines) <= harvest.LONG_MAX, e.id
        items = parse(e.program)
        assert resolve(items, lines) == e.after, e.id  # byte for byte
        copies = [i.end - i.start + 1 for i in items if isinstance(i, Copy)]
        gens = [x for i in items if isinstance(i, Gen) for x in split_lines(i.text)]
        assert sum(copies) >= 0.8 * len(lines) and max(copies) >= 0.8 * len(lines) / len(copies), e.program
        assert len(gens) <= LONG_MAX_GEN_LINES
        longest.append(max(copies) / len(lines))
        if _suffix(e) == "py":
            assert valid_python(e.before) and valid_python(e.after), e.id
    assert statistics.median(longest) > 0.5  # one long copy on either side of a localized edit
    assert max(len(split_lines(e.before)) for e in long_examples) > 1000


def test_multi_hunk_long_examples_change_two_places_or_more(long_examples):
    multi = [e for e in long_examples if e.kind in MULTI_HUNK]
    assert len(multi) >= 4
    for e in multi:
        assert sum(isinstance(i, Gen) for i in parse(e.program)) >= 2, e.program
        named = e.instruction.split(":")[0]
        if e.kind == "bugs":
            assert named.count("`") >= 4 and " and " in named, e.instruction
        else:
            old, new = named.split("`")[1], named.split("`")[3]
            word = lambda n: rf"(?<![\w$.]){n}(?![\w$])"  # noqa: E731
            assert len(re.findall(word(old), e.before)) == len(re.findall(word(new), e.after)) >= 2
            assert not re.search(word(old), e.after)


def test_long_bug_fixes_are_hinted_or_not(long_examples):
    bugs = [e for e in long_examples if e.kind in BUG_TYPES or e.kind == "bugs"]
    hinted = [e for e in bugs if ": `" in e.instruction or ": in `" in e.instruction]
    assert 0 < len(hinted) < len(bugs) and any(e.kind == "bugs" for e in hinted)
    for e in hinted:  # every hint quotes the document (what is wrong) or the target (what is missing)
        said = e.instruction.split(": ", 1)[1]
        assert all(x in e.before for x in re.findall(r"`([^`]*)` should (?:be `|not be there)", said)), said
        assert all(x in e.after for x in re.findall(r"`([^`]*)` is missing", said)), said


def test_splice_edits_a_dedented_method_and_keeps_every_other_byte():
    text = "class A:\n    def f(self, x):\n        y = x\n    \n        return y\n\n    def g(self):\n        pass\n"
    old = "def f(self, x):\n    y = x\n\n    return y\n"  # what dedent makes of it (the blank line emptied)
    new = "def f(self, x):\n    y = x + 1\n\n    return y\n"
    assert splice(text, 1, old, new) == text.replace("y = x\n", "y = x + 1\n")


def test_long_edits_keep_the_real_file_on_the_right_side(sources):
    """A bug fix's target is the real file (the document is the buggy one); any other edit starts from it."""
    made = 0
    for k, f in enumerate(sources.long["python"][:10] + sources.long["javascript"][:10]):
        if (edit := long_edit(f, random.Random(k))) is None:
            continue
        kind, instruction, before, after = edit
        made += 1
        assert before != after and (after if kind in BUG_TYPES or kind == "bugs" else before) == f.text, kind
    assert made >= 10


def test_decontaminate_drops_snippets_sharing_a_distinctive_line():
    line = "    return [x for x in strings if substring in x]"
    keep = harvest.Snippet("a.py:1", "f", "def f(xs):\n    return xs\n", "python")
    leak = harvest.Snippet("b.py:1", "g", f"def g(strings, substring):\n{line}\n", "python")
    named = harvest.Snippet("c.py:1", "filter_by_substring", "def filter_by_substring(s):\n    return s\n", "python")
    assert decontaminate([keep, leak, named], {line.strip()}, {"filter_by_substring"}) == [keep]


def test_python_bug_injects_each_bug_type():
    text = ("def clip(values, low, high):\n    out = []\n    for v in values:\n        if v < low and v != 0:\n"
            "            out.append(max(v, low))\n        else:\n            out.append(min(v, high))\n"
            "    return len(out) + 1\n")
    import random
    for kind in BUG_TYPES:
        bug = python_bug(text, kind, random.Random(3))
        assert bug is not None and bug != text and valid_python(bug), kind


@pytest.mark.parametrize("before, after, hint", [
    ("    while lo < hi:\n", "    while lo <= hi:\n", "`<` should be `<=`"),
    ("    if a and b:\n", "    if a:\n", "`a and b:` should be `a:`"),
    ("for i in range(n - 1):\n", "for i in range(n):\n", "`range(n - 1):` should be `range(n):`"),
    ("a\n    x += 1\n    x += 1\nb\n", "a\n    x += 1\nb\n", "`x += 1` should not be there"),
    ("a\nb\n", "a\n    return y\nb\n", "`return y` is missing"),
    ("a\nb\nc\n", "x\nb\ny\n", None),  # two places: no hint
])
def test_bug_hint_says_what_a_one_line_fix_changes(before, after, hint):
    assert bug_hint(before, after) == hint


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
    # a few of each source; of the long files the shortest, whose prompt fits in one forward (engine CHUNK)
    cases = [e for source, group in picked.items()
             for e in (group[:3] if source != "long-file" else [min(group, key=lambda e: len(e.before))])]
    backend = tiny_engine.backend
    try:
        for e in cases:
            rec = Recorder(tiny_engine.model)
            # the prompt goes through prefill_model (the same model here), the rest through model; a cold cache:
            # the whole prompt is seen
            tiny_engine.backend = TorchBackend(rec, tiny_engine.tok)
            result = tiny_engine.edit(e.before, e.instruction, "forced", program=e.program)
            assert result.text == e.after
            seq = serialize(tiny_engine.tok, e.instruction, e.before, e.program)
            fed = [t for call in rec.calls for t in call]
            assert seq.input_ids == fed + [tiny_engine.eos], e.id
            # prefill (all but the last prompt token, in pieces a cancel is checked between, cached for later
            # edits, then the last): no loss; every later forward = 1 sampled token + the copied tokens after it
            k = next(k for k in range(1, len(rec.calls) + 1) if sum(map(len, rec.calls[:k])) >= seq.prompt_len)
            prefill, decode = rec.calls[:k], rec.calls[k:]
            expected = [IGNORE] * sum(map(len, prefill))
            for call in decode:
                expected += [call[0]] + [IGNORE] * (len(call) - 1)
            assert seq.labels == expected + [tiny_engine.eos], e.id
            assert seq.prompt_len == sum(map(len, prefill)) and len(prefill[-1]) == 1
            assert result.stats.prompt_cached == 0
            assert len(seq.labels) - seq.n_labels - seq.prompt_len == result.stats.spliced
    finally:
        tiny_engine.backend = backend


@pytest.fixture()
def tiny_lora(tiny_engine, short_examples):
    from copy_as_decode.engine.backends import models
    model, tok = models.load("tiny")
    cfg = sft.Config(autocast=False, lr=1e-2, batch=3, rank=4, alpha=8)
    seqs = [serialize_example(tok, e) for e in short_examples[:3]]
    return sft.attach_lora(model, cfg), tok, cfg, seqs


def test_prefix_cache_gives_the_full_sequence_loss(tiny_lora):
    model, tok, cfg, seqs = tiny_lora
    n = sft.shared_prompt_prefix(seqs)
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
    sft.train_step(model, opt, seqs, cfg, 0 if grad_from == "all" else sft.shared_prompt_prefix(seqs))
    assert sft.evaluate_loss(model, seqs) < before


def test_checkpointing_gives_the_same_gradient_and_refuses_a_prefix_cache(tiny_lora):
    from copy_as_decode.engine.backends import models
    model, tok, cfg, seqs = tiny_lora

    def grads(cfg):
        base, _ = models.load("tiny")
        torch.manual_seed(0)  # the same LoRA initialisation both times
        peft = sft.attach_lora(base, cfg)
        peft.train()
        for s in seqs:
            sft.sequence_loss(peft, s)[0].backward()
        return {n: p.grad for n, p in peft.named_parameters() if p.requires_grad}

    plain = grads(sft.Config(**{**cfg.__dict__, "grad_from": "all"}))
    recomputed = grads(sft.Config(**{**cfg.__dict__, "grad_from": "all", "checkpointing": True}))
    assert plain.keys() == recomputed.keys() and any(g.abs().sum() > 0 for g in plain.values())
    for name in plain:
        assert torch.allclose(plain[name], recomputed[name], rtol=1e-5, atol=1e-7), name
    with pytest.raises(ValueError, match="grad_from"):
        sft.attach_lora(models.load("tiny")[0], sft.Config(**{**cfg.__dict__, "checkpointing": True}))


def test_one_sft_step_lowers_the_loss(tiny_lora):
    model, tok, cfg, seqs = tiny_lora
    before = sft.evaluate_loss(model, seqs)
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
    sft.train_step(model, opt, seqs, cfg, sft.shared_prompt_prefix(seqs))
    assert sft.evaluate_loss(model, seqs) < before


def test_adapter_round_trip_changes_logits_exactly_as_saved(tiny_lora, tmp_path):
    from copy_as_decode.engine.backends import models
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
    from copy_as_decode.engine.backends.models import ModelError
    with pytest.raises(ModelError, match="no adapter"):
        load_adapter(None, "/nonexistent/adapter")


def test_sft_command_trains_and_saves(tmp_path, short_examples):
    from copy_as_decode.train import commands
    path = tmp_path / "train.jsonl"
    data.write_jsonl(short_examples[:4], path)
    made = {"data_version": data.DATA_VERSION, "seed": 0, "examples": 4}
    data.meta_path(path).write_text(json.dumps(made))
    p = argparse.ArgumentParser()
    commands.add_arguments(p)
    args = p.parse_args(["sft", "--model", "tiny", "--data", str(path), "--out", str(tmp_path / "ad"), "--batch", "2",
                         "--rank", "2", "--no-autocast", "--max-tokens", "4096"])
    assert commands.run(args) == 0
    record = json.loads((tmp_path / "ad" / "train.json").read_text())
    assert record["steps"] == 2 and len(record["losses"]) == 2 and record["data"] == made
    assert (tmp_path / "ad" / "adapter_config.json").is_file()


def test_curve_command_trains_scores_and_plots_against_the_rewrite(tmp_path, short_examples):
    from copy_as_decode.train import commands
    path, out = tmp_path / "train.jsonl", tmp_path / "curve"
    data.write_jsonl(short_examples[:2], path)
    p = argparse.ArgumentParser()
    commands.add_arguments(p)
    args = p.parse_args(["curve", "--model", "tiny", "--data", str(path), "--out", str(out), "--sizes", "0", "2",
                         "--batch", "2", "--rank", "2", "--no-autocast", "--max-tokens", "4096", "--limit", "1",
                         "--max-new-tokens", "8"])
    assert commands.run(args) == 0
    result = json.loads((out / "curve.json").read_text())
    assert [pt["examples"] for pt in result["points"]] == [0, 2] and result["points"][1]["train_sequences"] == 2
    assert result["rewrite"]["cases"] == 1 and (out / "eval_rewrite.json").is_file()
    assert (out / "curve.png").stat().st_size > 10_000 and (out / "adapters" / "n2" / "adapter_config.json").is_file()


def test_data_command_writes_jsonl(tmp_path):
    from copy_as_decode.train import commands
    py = tmp_path / "py"
    py.mkdir()
    for name in ("textwrap.py", "shlex.py", "fnmatch.py"):
        shutil.copy(harvest.PYTHON_ROOT / name, py / name)
    prose = tmp_path / "doc"
    prose.mkdir()
    (prose / "README.md").write_text("# Title\n\n" + "\n\n".join(
        f"Paragraph {k} explains how the option number {k} changes the default\nbehaviour of the command."
        for k in range(6)) + "\n")
    p = argparse.ArgumentParser()
    commands.add_arguments(p)
    out = tmp_path / "t.jsonl"
    args = p.parse_args(["data", "-n", "25", "--out", str(out), "--python-root", str(py), "--js-root", str(tmp_path),
                         "--prose-root", str(prose)])
    assert commands.run(args) == 0
    rows = data.read_jsonl(out)
    assert len(rows) == 25 and all(resolve(r.program, r.before) == r.after for r in rows)
    long = [r for r in rows if r.source == "long-file"]  # whole files of the given root only
    assert long and all(r.id.split("/")[1] in ("textwrap.py", "shlex.py", "fnmatch.py") for r in long)
    meta = json.loads(data.meta_path(out).read_text())  # what `train sft` records beside the adapter
    assert (meta["data_version"], meta["seed"], meta["examples"]) == (data.DATA_VERSION, 0, 25)
    assert sum(meta["sources"].values()) == 25 and meta["sources"]["long-file"] == len(long)


def test_sft_resumes_from_a_checkpoint_exactly(tmp_path, short_examples, monkeypatch):
    """A run stopped after 2 of 4 steps and resumed ends where the uninterrupted run ends."""
    from copy_as_decode.engine.backends import models
    path = tmp_path / "train.jsonl"
    data.write_jsonl(short_examples[:8], path)
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


def test_an_exported_adapter_is_half_the_bytes_and_merges_to_nearly_the_same_model(tiny_lora, tmp_path):
    from copy_as_decode.engine.backends import models
    from copy_as_decode.train.export import export
    model, tok, cfg, seqs = tiny_lora
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
    sft.train_step(model, opt, seqs, cfg, 0)
    model.save_pretrained(str(tmp_path / "trained"))
    shipped = export(tmp_path / "trained", tmp_path / "shipped")
    full = (tmp_path / "trained" / "adapter_model.safetensors").stat().st_size
    assert shipped["bytes"] < 0.55 * full
    assert shipped["sha256"] == models.sha256(tmp_path / "shipped" / "adapter_model.safetensors")
    x = torch.tensor([seqs[0].input_ids[-60:]])
    with torch.no_grad():
        base = models.load("tiny")[0](input_ids=x).logits
        a = models.load(f"tiny+{tmp_path / 'trained'}")[0](input_ids=x).logits
        b = models.load(f"tiny+{tmp_path / 'shipped'}")[0](input_ids=x).logits
    change = (a - base).abs().max()
    assert change > 1e-3 and (b - a).abs().max() < 0.02 * change  # bfloat16 factors: the adapter's effect kept
    with pytest.raises(ValueError, match="no adapter"):
        export(tmp_path / "nothing", tmp_path / "out")
