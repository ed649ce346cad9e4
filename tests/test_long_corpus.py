"""The shipped long-file corpora: complete, bucketed, localized edits whose tests tell the gold from the bug."""
import difflib
import json
import re
import subprocess
from collections import Counter

import pytest

from copy_as_decode.cases import corpora
from copy_as_decode.cases.corpora import load, run_tests, spread
from copy_as_decode.core.document import split_lines
from copy_as_decode.synthesis import long_corpus
from copy_as_decode.synthesis.sources import BENCHMARK_FILES, is_benchmark_file

LANGUAGE = {"long-python": "python", "long-js": "javascript", "long-text": "markdown"}
KINDS = {"python": {"bug", "humanevalfix", "add-parameter", "rename-function", "add-docstring"},
         "javascript": {"bug", "humanevalfix", "add-parameter", "rename-function", "add-jsdoc"},
         "markdown": {"typo", "rename-heading", "add-sentence"}}
FIELDS = {"id", "language", "bucket", "lines", "kind", "hinted", "source", "instruction", "before", "after_program"}


def changed_lines(a: str, b: str) -> int:
    ops = difflib.SequenceMatcher(None, split_lines(a), split_lines(b), autojunk=False).get_opcodes()
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")


@pytest.mark.parametrize("name", corpora.LONG_CORPORA)
def test_every_bucket_is_populated_with_localized_edits(name):
    cases = load(name)
    language = LANGUAGE[name]
    assert len(cases) >= 40 and len({c.id for c in cases}) == len(cases)
    per_bucket = Counter(c.extra["bucket"] for c in cases)
    assert set(per_bucket) == set(long_corpus.BUCKETS) and min(per_bucket.values()) >= 10
    assert {c.extra["kind"] for c in cases} == KINDS[language]
    for c in cases:
        lo, hi = long_corpus.BUCKETS[c.extra["bucket"]]
        assert c.extra["language"] == language and c.instruction.strip()
        assert lo <= c.extra["lines"] == len(split_lines(c.before)) <= hi, c.id
        assert 0 < changed_lines(c.before, c.after) <= long_corpus.MAX_CHANGED, c.id
        assert c.extra["hinted"] == (c.extra["kind"] in ("bug", "typo")), c.id
        assert ("tests" in c.extra) == (c.extra["kind"] == "humanevalfix"), c.id


def test_files_are_strict_jsonl_and_small():
    size = 0
    for name in corpora.LONG_CORPORA:
        path = corpora.long_path(name)
        size += path.stat().st_size
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                assert set(r) - {"tests", "task"} == FIELDS and ("tests" in r) == ("task" in r), r["id"]
    assert size < 6_000_000


def test_python_cases_parse():
    import ast
    for c in load("long-python"):
        ast.parse(c.after)
        if c.extra["kind"] != "bug":  # the injected bugs also parse, but are checked where they are made
            ast.parse(c.before)


def test_javascript_cases_compile():
    node = corpora.node()
    if node is None:
        pytest.skip("needs node")
    texts = [t for c in load("long-js") for t in (c.before, c.after)]
    # one process compiles every file as a CommonJS module body, without running it
    script = ("const vm = require('vm'); const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
              "let bad = 0; for (const t of texts) { try { vm.compileFunction(t, ['exports', 'require', 'module', "
              "'__filename', '__dirname']); } catch (e) { bad++; } }\nconsole.log(bad);\n")
    out = subprocess.run([node, "-e", script], input=json.dumps(texts), capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "0", out.stderr


@pytest.mark.parametrize("name,count", [("long-python", 4), ("long-js", 3)])
def test_embedded_tests_pass_the_gold_and_fail_the_bug(name, count):
    cases = [c for c in load(name) if "tests" in c.extra]
    if name == "long-js" and corpora.node() is None:
        pytest.skip("needs node")
    for c in spread(cases, count):  # the smallest and the largest hosts included
        assert run_tests(c.extra["language"], c.after, c.extra["tests"]) is True, c.id
        assert run_tests(c.extra["language"], c.before, c.extra["tests"]) is False, c.id


def test_sources_are_recorded_for_training_to_leave_out():
    files = json.loads(BENCHMARK_FILES.read_text(encoding="utf-8"))["files"]
    used = {c.extra["source"] for name in corpora.LONG_CORPORA for c in load(name)}
    assert {f["path"] for f in files} == used
    note = long_corpus.NOTE.read_text(encoding="utf-8")
    for f in files:
        assert f["path"] in note and re.fullmatch(r"[0-9a-f]{64}", f["sha256"]) and f["version"]
        assert f["license"] == "PSF-2.0" or long_corpus._permissive(f["license"]), f
    assert is_benchmark_file(files[0]["path"])
    assert not is_benchmark_file(__file__)


def test_case_format_errors_name_the_line(tmp_path):
    good = {"id": "a", "language": "markdown", "before": "x\n", "instruction": "Change x.",
            "after_program": '<gen>y\n</gen>'}
    bad = [({k: v for k, v in good.items() if k != "instruction"}, "missing instruction"),
           (dict(good, language="rust"), "language must be"), (dict(good, tests="exit 0"), "language must be"),
           (dict(good, after_program='<copy lines="1-2"/>'), "after_program")]
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(good) + "\n")
    [case] = corpora.load_file(path)
    assert (case.corpus, case.after, case.extra) == ("c", "y\n", {"language": "markdown"})
    for record, message in bad:
        path.write_text(json.dumps(good) + "\n" + json.dumps(record) + "\n")
        with pytest.raises(corpora.CorpusError, match=f"c.jsonl:2: .*{message}"):
            corpora.load_file(path)
