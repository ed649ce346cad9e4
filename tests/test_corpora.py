"""The benchmark corpora load completely, and their gold files are what they claim to be."""
import json
import shutil
import subprocess
from collections import Counter

import pytest

from copy_as_decode.cases import corpora
from copy_as_decode.cases.corpora import CorpusError, load
from copy_as_decode.core.document import split_lines

HEF = ("humanevalfix-python", "humanevalfix-js")
KINDS = {"typo", "reword", "update", "insert", "delete", "reorder", "tone", "link", "translate", "rewrite",
         "rename", "format"}


def need_humanevalpack():
    if not (corpora.humanevalpack_dir() / "humanevalpack_python.jsonl").is_file():
        pytest.skip(f"HumanEvalPack not found in {corpora.humanevalpack_dir()}")


@pytest.mark.parametrize("name,size", [("humanevalfix-python", 164), ("humanevalfix-js", 164), ("text", 154)])
def test_every_case_loads_and_is_a_real_edit(name, size):
    if name in HEF:
        need_humanevalpack()
    cases = load(name)
    assert len(cases) == size
    assert len({c.id for c in cases}) == size
    for c in cases:
        assert c.corpus == name and c.instruction.strip()
        assert c.before != c.after and c.before.strip() and c.after.strip()


def test_humanevalfix_cases_are_whole_files_with_their_tests():
    need_humanevalpack()
    for name in HEF:
        for c in load(name):
            assert c.instruction == f"Fix bugs in {c.extra['entry_point']}."
            # lower(): JavaScript/114's entry_point is "minSubarraySum", its code says "minSubArraySum"
            assert c.extra["entry_point"].lower() in c.before.lower() and c.extra["test"]
            # the declaration is shared: the edit is inside the function body
            assert split_lines(c.before)[0] == split_lines(c.after)[0]


def _python_check(source: str, case) -> None:
    exec(source + "\n" + case.extra["test"] + f"\ncheck({case.extra['entry_point']})\n", {})


def test_python_gold_files_pass_their_tests_and_a_buggy_one_fails():
    need_humanevalpack()
    cases = load("humanevalfix-python")
    for c in cases:
        _python_check(c.after, c)
    with pytest.raises(AssertionError):
        _python_check(cases[0].before, cases[0])  # Python/0: the missing abs() is caught by its test


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_js_gold_files_pass_their_tests_and_a_buggy_one_fails():
    need_humanevalpack()
    # One case (string_to_md5) needs an npm package; every other one runs in plain node.
    cases = [c for c in load("humanevalfix-js") if "require(" not in c.after + c.extra["test"]]
    assert len(cases) == 163
    runs = [(c.id, c.after) for c in cases] + [("buggy " + cases[0].id, cases[0].before)]
    # console.assert only logs: record failing case ids instead, one function scope per case
    script = "const failed = new Set(); let current;\n"
    script += "console.assert = (ok) => { if (!ok) failed.add(current); };\n"
    script += "".join(f"current = {json.dumps(i)};\n(() => {{\n{src}\n{c.extra['test']}\n}})();\n"
                      for (i, src), c in zip(runs, cases + cases[:1]))
    script += "console.log(JSON.stringify([...failed]));\n"
    out = subprocess.run(["node"], input=script, capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out) == ["buggy " + cases[0].id]


def test_text_corpus_shape():
    cases = load("text")
    kinds = Counter(c.extra["kind"] for c in cases)
    assert set(kinds) <= KINDS and len(kinds) >= 10
    for c in cases:
        assert 5 <= len(split_lines(c.before)) <= 40, c.id
    # mostly small edits: the median case keeps most of its lines
    kept = sorted(sum(line in set(split_lines(c.before)) for line in split_lines(c.after)) / len(split_lines(c.after))
                  for c in cases)
    assert kept[len(kept) // 2] > 0.85
    # a few files with CRLF endings and a few without a final newline, as real files have
    assert sum("\r\n" in c.before for c in cases) >= 2
    assert sum(not c.before.endswith("\n") for c in cases) >= 2


def test_text_corpus_file_is_strict_jsonl():
    with open(corpora.text_path(), encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert all(set(r) == {"id", "kind", "instruction", "before", "after"} for r in records)


def test_data_dir_override_and_errors(tmp_path, monkeypatch):
    record = {"task_id": "Python/0", "entry_point": "f", "declaration": "def f():\n", "prompt": "def f():\n",
              "buggy_solution": "    return 1\n", "canonical_solution": "    return 2\n",
              "test": "", "example_test": "", "bug_type": "", "failure_symptoms": ""}
    (tmp_path / "humanevalpack_python.jsonl").write_text(json.dumps(record) + "\n")
    monkeypatch.setenv(corpora.DATA_ENV, str(tmp_path))
    [case] = load("humanevalfix-python")
    assert (case.before, case.after) == ("def f():\n    return 1\n", "def f():\n    return 2\n")
    with pytest.raises(CorpusError, match="humanevalpack_js.jsonl"):
        load("humanevalfix-js")
    with pytest.raises(CorpusError, match="unknown corpus"):
        load("nope")


def test_where_picks_cases_by_their_corpus_fields():
    from copy_as_decode.cases.corpora import field_value, load, where
    cases = load("long-python")
    hinted = where(cases, [field_value("kind=bug"), field_value("hinted=true")])
    assert hinted and all(c.extra["kind"] == "bug" and c.extra["hinted"] is True for c in hinted)
    assert len(where(cases, [("bucket", "300"), ("kind", "bug")])) == sum(
        1 for c in cases if c.extra["bucket"] == 300 and c.extra["kind"] == "bug")
    assert where(cases, None) == cases and where(cases, [("kind", "nothing")]) == []
    with pytest.raises(ValueError):
        field_value("kind")
