"""The apply corpus (synthesis/apply_blocks.py) and `bench apply` without a model."""
import json
import re

from copy_as_decode.core import lazy_block
from copy_as_decode.core.document import split_lines
from copy_as_decode.synthesis.apply_blocks import STYLES, blocks, build


def test_cases_are_well_formed():
    cases = build(["humanevalfix-python", "humanevalfix-js", "long-text"])
    assert cases and len({c["id"] for c in cases}) == len(cases)
    for c in cases:
        assert c["style"] in STYLES and c["language"] in ("python", "javascript", "markdown")
        assert c["before"] != c["after"]
        read = lazy_block.read(c["block"], c["before"])
        after = {line.strip() for line in split_lines(c["after"])}
        solid = [line for k, line in enumerate(split_lines(read.text)) if k not in read.markers and line.strip()]
        assert solid and all(line.strip() in after for line in solid), c["id"]
        if c["style"] == "fenced":
            assert c["block"].startswith("```")


def test_the_build_is_deterministic_and_split():
    one, two = build(["humanevalfix-python"]), build(["humanevalfix-python"])
    assert [c["block"] for c in one] == [c["block"] for c in two]
    assert {c["development"] for c in one} == {True, False}


def test_lazy_and_class_styles():
    before = "class A:\n    def f(self):\n        a = 1\n        b = 2\n        c = 3\n        d = 4\n        return a\n"
    after = before.replace("return a", "return b")
    styles = {c["style"]: c["block"] for c in blocks("x", "python", before, after, True)}
    assert {"whole", "markers", "class", "column0", "lazy", "fenced"} <= set(styles)
    assert styles["column0"].startswith("def f(self):\n    a = 1\n")
    assert styles["lazy"].startswith("    def f(self):\n") and "return b" in styles["lazy"]
    assert lazy_block.read(styles["lazy"]).markers


def test_bench_apply_without_a_model_prints_its_table_and_writes_json(tmp_path, capsys):
    from copy_as_decode.cli import main
    out = tmp_path / "apply.json"
    assert main(["bench", "apply", "--limit", "2", "--no-model", "--where", "language=python",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"merge\s+\d+", printed) and "exact" in printed
    report = json.loads(out.read_text())
    assert {r["row"] for r in report["cases"]} == {"merge"} and len(report["cases"]) == 2
    s = next(iter(report["summary"].values()))["merge"]
    assert s["markers_leaked"] == 0 and s["parse_failures"] == 0


def test_the_chat_answer_corpus_is_split_by_file_and_its_gold_parses():
    from copy_as_decode.core.syntax_check import new_errors
    from copy_as_decode.synthesis.chat_answers import KINDS
    from copy_as_decode.synthesis.chat_answers import build as chat
    cases = chat()
    assert len(cases) >= 80 and len({c["id"] for c in cases}) == len(cases)
    assert {c["kind"] for c in cases} == set(KINDS)
    assert {c["language"] for c in cases} == {"python", "javascript", "typescript", "go", "rust", "java"}
    dev = {c["file"] for c in cases if c["development"]}
    assert dev and not dev & {c["file"] for c in cases if not c["development"]}
    for c in cases:
        assert c["before"] != c["after"] and not new_errors(c["before"], c["after"], c["language"]), c["id"]
        assert "```" in c["answer"] or "~~~" in c["answer"] or c["kind"] in ("fix", "duplicate"), c["id"]


def test_bench_apply_on_chat_answers_counts_silent_wrong_apart(tmp_path, capsys):
    from copy_as_decode.cli import main
    out = tmp_path / "chat.json"
    assert main(["bench", "apply", "--corpus", "chat", "--limit", "3", "--no-model", "--where", "kind=import",
                 "--json", str(out)]) == 0
    assert "silent wrong" in capsys.readouterr().out
    report = json.loads(out.read_text())
    merged = [r for r in report["cases"] if r["row"] == "merge"]
    summaries = [rows["merge"] for rows in report["summary"].values()]
    assert sum(s["silent_wrong"] for s in summaries) == sum(r["written"] and not r["exact"] for r in merged)
    assert sum(s["cases"] for s in summaries) == len(merged) == 3
