"""The structural corpora (synthesis/structural_corpus.py): what is stored, and that the checks accept the reference
edits and turn down the unchanged file, a deleted method and a missed call."""
import ast
import json
import re
from argparse import Namespace

import pytest

from copy_as_decode.bench.edit_bench import corpora_of, passes
from copy_as_decode.cases import heldout
from copy_as_decode.core.document import split_lines
from copy_as_decode.synthesis import structural_corpus
from copy_as_decode.synthesis.all_corpora import load


@pytest.fixture(scope="module")
def cases():
    return {name: load(name) for name in structural_corpus.CORPORA}


def test_both_corpora_load_with_their_sizes(cases):
    moves, params = cases["move-method"], cases["add-parameter"]
    assert len(moves) == 24 and len(params) == 16
    for name, short in (("move-method", 18), ("add-parameter", 12)):
        lines = [len(split_lines(c.before)) for c in cases[name]]
        assert all(100 <= n <= 3000 for n in lines)
        assert sum(n <= 1000 for n in lines) == short
        assert [c.extra["lines"] for c in cases[name]] == lines
        assert all(c.extra["bucket"] == (1000 if n <= 1000 else 3000) for c, n in zip(cases[name], lines))
    every = moves + params
    assert len({c.id for c in every}) == len(every) and len({c.extra["source"] for c in every}) == len(every)
    assert all(c.extra["license"] and c.extra["version"] and c.extra["language"] == "python" for c in every)
    assert sum(c.extra["self_calls"] > 0 for c in moves) >= len(moves) / 2
    assert len({c.extra["project"] for c in moves}) >= 8 and len({c.extra["project"] for c in params}) >= 8


def test_the_stored_files_are_the_ones_described():
    import hashlib
    data = json.loads(structural_corpus.DATA.read_text())
    for f in data["files"].values():
        assert hashlib.sha256(f["text"].encode()).hexdigest() == f["sha256"]
        assert f["lines"] == len(f["text"].splitlines())
    used = [c["file"] for name in structural_corpus.CORPORA for c in data[name]]
    assert sorted(used) == sorted(data["files"])  # one case a file, no file stored for nothing


def test_every_moved_method_is_large_and_never_uses_self(cases):
    for c in cases["move-method"]:
        e = c.extra
        assert c.instruction == structural_corpus.MOVE.format(m=e["method"], c=e["class"])
        cls = next(n for n in ast.parse(c.before).body if isinstance(n, ast.ClassDef) and n.name == e["class"])
        m = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == e["method"])
        assert structural_corpus.nodes(m) == e["nodes"] >= 100 and structural_corpus.nodes(cls) == e["class_nodes"]
        assert not m.decorator_list and m.args.args[0].arg == "self"
        assert not {"self", "super", "__class__"} & {n.id for n in ast.walk(m) if isinstance(n, ast.Name)}
        assert len(re.findall(rf"\bself\.{e['method']}\(", c.before)) == e["self_calls"]


def test_every_reference_edit_passes_and_every_unchanged_file_fails(cases):
    for c in cases["move-method"] + cases["add-parameter"]:
        assert c.after != c.before
        assert passes(c, c.after) is True, c.id
        assert passes(c, c.before) is False, c.id
    for c in cases["move-method"]:
        assert structural_corpus.extra_metrics(c, c.after) == {"self_calls_left": 0}
        assert structural_corpus.extra_metrics(c, c.before) == {"self_calls_left": c.extra["self_calls"]}
        assert structural_corpus.lines_lost(c.before, c.after, c.after) == 0


def _method_lines(case):
    tree = ast.parse(case.before)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == case.extra["class"])
    m = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == case.extra["method"])
    return m.lineno, m.end_lineno


def test_a_method_deleted_instead_of_moved_or_copied_without_deleting_fails(cases):
    for c in cases["move-method"]:
        start, end = _method_lines(c)
        lines = split_lines(c.before)
        deleted = "".join(lines[:start - 1] + lines[end:])
        deleted = re.sub(rf"\bself\.{c.extra['method']}\(", f"{c.extra['method']}(", deleted)
        assert ast.parse(deleted) and passes(c, deleted) is False
        assert structural_corpus.lines_lost(c.before, deleted, c.after) > 0
        # the function written at the top level, the method left in its class: the class did not shrink
        f = next(n for n in ast.parse(c.after).body if isinstance(n, ast.FunctionDef) and n.name == c.extra["method"])
        copied = c.before + "\n\n" + "".join(split_lines(c.after)[f.lineno - 1:f.end_lineno])
        assert ast.parse(copied) and passes(c, copied) is False


def test_a_truncated_moved_method_fails(cases):
    c = next(c for c in cases["move-method"] if c.extra["nodes"] >= 150)
    tree = ast.parse(c.after)
    f = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == c.extra["method"])
    lines = split_lines(c.after)
    cut = f.lineno + (f.end_lineno - f.lineno) // 2  # the body's second half replaced by a comment
    lazy = "".join(lines[:cut] + ["    ...  # rest of the method unchanged\n"] + lines[f.end_lineno:])
    assert not structural_corpus.check(c, lazy)
    assert structural_corpus.lines_lost(c.before, lazy, c.after) > 0


def test_add_parameter_rejects_a_missed_call_and_any_other_change(cases):
    for c in cases["add-parameter"]:
        e, gold = c.extra, c.after
        assert c.instruction.startswith("Add a parameter `verbose=False` to `")
        assert gold.count("verbose=True") == e["calls"] >= 2 and gold.count("verbose=False") == 1
        missed = gold.replace(", verbose=True", "", 1) if ", verbose=True" in gold else \
            gold.replace("verbose=True", "", 1)  # one call left as it was
        assert missed.count("verbose=True") == e["calls"] - 1
        assert passes(c, missed) is False
        assert passes(c, gold.replace("verbose=False", "verbose=None")) is False
        assert passes(c, gold.replace("verbose=True", "verbose=False")) is False
        assert passes(c, gold + "\nx = 1\n") is False  # something else changed
    c = cases["add-parameter"][0]
    name = c.extra["function"]
    keyword_only = c.after.replace(", verbose=False", ", *, verbose=False", 1)
    assert ast.parse(keyword_only) and passes(c, keyword_only) is True  # keyword-only is as good
    annotated = c.after.replace("verbose=False", "verbose: bool = False", 1)
    assert passes(c, annotated) is True
    assert passes(c, c.after.replace(f"def {name}(", f"def {name}_(", 1)) is False


def test_bench_edit_takes_them_with_a_development_split(cases):
    for name, dev_count in (("move-method", 6), ("add-parameter", 4)):
        assert heldout.development_ids(name) == {c.id for c in cases[name][:dev_count]}
        [(_, dev)] = corpora_of(Namespace(corpora=[name], corpus=[], cases="development"))
        [(_, held)] = corpora_of(Namespace(corpora=[name], corpus=[], cases="heldout"))
        assert len(dev) == dev_count and len(held) == len(cases[name]) - dev_count
        assert not {c.id for c in dev} & {c.id for c in held}


def test_bench_edit_rows_judge_a_structural_edit_by_its_check(cases):
    """run_case with an engine that answers a fixed text: passed is the check, moved lines are kept."""
    from types import SimpleNamespace

    from copy_as_decode.bench import edit_bench
    from copy_as_decode.engine.decoding.stats import Stats
    stats = Stats(sampled=1, forwards=1, prompt_tokens=1, stop="eos", selector="full")

    class Engine:
        def __init__(self, text):
            self.text = text

        def restore_cache(self, warm):
            pass

        def edit(self, document, instruction, selector, **kw):
            return SimpleNamespace(text=self.text, stats=stats, tokens=None, program=None)

    args = Namespace(max_new_tokens=None, second_edit=False, refine=False)
    c = cases["move-method"][0]
    row = edit_bench.run_case(Engine(c.after), c, "full", args, None)
    assert (row["passed"], row["exact"], row["lines_lost"], row["metrics"]) == (True, True, 0, {"self_calls_left": 0})
    row = edit_bench.run_case(Engine(c.before), c, "full", args, None)
    assert (row["passed"], row["metrics"]) == (False, {"self_calls_left": c.extra["self_calls"]})
    p = cases["add-parameter"][0]
    row = edit_bench.run_case(Engine(p.after), p, "full", args, None)
    assert (row["passed"], row["lines_lost"], row["metrics"]) == (True, 0, {})
