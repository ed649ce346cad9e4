"""core/detect_language.py: a file's language without its name, on every real file the corpora hold (their
paths say the language) and on the cases that tell a language from the one it extends."""
import json

import pytest

from copy_as_decode.cases.chat_written import ROOT
from copy_as_decode.cases.corpora import DATA, LANG_CORPORA
from copy_as_decode.core.detect_language import detect
from copy_as_decode.core.languages import of_suffix


def real_files() -> list[tuple[str, str]]:
    """(path, text) of every real source file the corpora ship, in every outlined language."""
    out = [(f["path"], f["text"]) for f in json.loads((DATA / "chat_answer_sources.json").read_text())["files"]]
    out += [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted(ROOT.glob("*/original.*"))]
    for corpus in LANG_CORPORA:
        for line in (DATA / f"{corpus}.jsonl").read_text().splitlines():
            r = json.loads(line)
            out.append((r["source"], r["text"]))
    return out


def language_of(path: str) -> str:
    """A file's language: its folder's meta.json says for the written corpus's (a C++ header is `.h`), else its
    suffix."""
    meta = ROOT / path.split("/")[0] / "meta.json"
    return json.loads(meta.read_text())["language"] if meta.is_file() else of_suffix("." + path.rsplit(".", 1)[1]).name


def test_every_real_file_is_read_as_its_language():
    files = real_files()
    wrong = [(path, detect(text)) for path, text in files if detect(text) != language_of(path)]
    assert len({language_of(p) for p, _ in files}) >= 14
    assert len(wrong) <= len(files) // 50, wrong  # a few real files read better as another language


@pytest.mark.parametrize("text, language", [
    ("const a = require('a');\n\nfunction f(x) {\n  return a(x) + 1;\n}\n", "javascript"),
    ("import { a } from './a';\n\nexport function f(x: number): number {\n  return a(x) + 1;\n}\n", "typescript"),
    ("#include <stdio.h>\n\nint add(int a, int b) {\n    return a + b;\n}\n", "c"),
    ("#include <vector>\n\nnamespace m {\ntemplate <typename T>\nT add(T a, T b) {\n    return a + b;\n}\n}\n", "cpp"),
    ("<?php\nnamespace App;\n\nclass A {\n    public function f($x) {\n        return $x + 1;\n    }\n}\n", "php"),
    ("def add(a, b):\n    return a + b\n", "python"),
    ("# Title\n\nSome prose about the project.\n\n## Usage\n\nRun it.\n", "markdown"),
    ("", None),
])
def test_a_language_and_the_one_it_extends_are_told_apart(text, language):
    assert detect(text) == language


def test_a_grammar_that_gives_up_on_a_loaded_machine_is_read_again(monkeypatch):
    """The text's own grammar timing out once (a busy CPU) must not hand the file to a neighbour language."""
    from copy_as_decode.core import detect_language
    path = "csharp-converter/original.cs"
    text = (ROOT / path).read_text()
    read = detect_language._read

    def busy(read_text, name, limit_us=detect_language.LIMIT_US):  # the whole file, not the sample that orders
        return None if name == "csharp" and limit_us == detect_language.LIMIT_US and read_text == text \
            else read(read_text, name, limit_us)
    monkeypatch.setattr(detect_language, "_read", busy)
    monkeypatch.setattr(detect_language, "_seen", {})
    assert detect_language.detect(text) == "csharp"
