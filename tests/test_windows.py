"""Outlines read with real parsers, and the windows an instruction points at (core/outline.py, core/windows.py)."""
import pytest

from copy_as_decode.core import windows
from copy_as_decode.core.deletions import hunks
from copy_as_decode.core.outline import outline

PY = '''import os


class Store:
    """Keeps things."""

    # looked up by name
    @property
    def size(self):
        return len(self.items)

    def get(self, key):
        return self.items[key]


def helper(x):
    return Store().get(x)
'''

JS = '''const fs = require('fs');

// Reads a file.
function readIt(path) {
  return fs.readFileSync(path, 'utf8');
}

class Box {
  open(lid) {
    return readIt(lid);
  }
}

/* Doubles.
  >>> twice(2)
  4
*/
const twice = (x) => x * 2;
Box.prototype.close = function closeBox() { return twice(1); };
module.exports = { readIt, Box };
'''

MD = "# Title\n\nIntro.\n\n## Usage\n\nRun it.\n\n### Flags\n\n-x\n\n## License\n\nMIT\n"


def spans(symbols):
    return {s.qualname: (s.start, s.end) for s in symbols}


def test_python_outline_has_qualified_names_decorators_and_comments():
    lang, symbols = outline(PY)
    assert lang == "python"
    assert spans(symbols) == {"Store": (4, 13), "Store.size": (7, 10), "Store.get": (12, 13), "helper": (16, 17)}
    assert {s.qualname: s.kind for s in symbols}["Store.get"] == "method"


def test_javascript_outline_reads_declarations_methods_arrows_and_assignments():
    lang, symbols = outline(JS)
    assert lang == "javascript"
    got = spans(symbols)
    assert got["readIt"] == (3, 6)  # with its comment line
    assert got["Box"] == (8, 12) and got["Box.open"] == (9, 11)
    assert got["twice"] == (14, 18) and got["closeBox"] == (19, 19)  # a doc block whatever its lines hold


def test_markdown_sections_run_to_the_next_heading():
    lang, symbols = outline(MD)
    assert lang == "markdown"
    assert spans(symbols) == {"Title": (1, 4), "Usage": (5, 8), "Flags": (9, 12), "License": (13, 15)}
    assert next(s for s in symbols if s.name == "Flags").parent.name == "Usage"


def test_an_unparseable_document_has_no_outline():
    assert outline("def broken(:\n    pass\n", "python") == (None, [])


def long_module(n_filler=40):
    filler = "".join(f"\n\ndef f{k}(a):\n    return a + {k}\n" for k in range(n_filler))
    return PY + filler


def test_a_named_method_is_one_window_through_the_blank_lines_after_it():
    plan = windows.find(long_module(), "Fix the bug in `Store.get`: it should use .get().")
    assert [(w.start, w.end) for w in plan.windows] == [(12, 15)]


def test_a_bare_word_names_a_function_when_nothing_is_quoted():
    plan = windows.find(long_module(), "Fix bugs in f7.")
    assert [w.names for w in plan.windows] == [("f7",)]


def test_a_rename_also_takes_every_use_with_its_function():
    doc = long_module()
    plan = windows.find(doc, "Rename the method `get` to `fetch` and update every use of it in this file.")
    assert [(w.start, w.end) for w in plan.windows] == [(12, 15), (16, 19)]  # the method, then helper's call


@pytest.mark.parametrize("instruction, why", [
    ("Make it faster.", "names no symbol"),
    ("Fix bugs in nowhere_to_be_found.", "names no symbol"),
])
def test_no_window_falls_back_to_the_whole_file_and_says_why(instruction, why):
    plan = windows.find(long_module(), instruction)
    assert plan.windows == [] and why in plan.reason


def test_short_documents_and_wide_windows_are_edited_whole():
    assert "short document" in windows.find(PY, "Fix `helper`.").reason
    plan = windows.find(long_module(), " ".join(f"`f{k}`" for k in range(30)))
    assert plan.windows == [] and ("sites" in plan.reason or "cover" in plan.reason)


def test_a_selection_is_the_window_and_must_lie_in_the_document():
    assert windows.find(PY, "x", selection=(2, 5)).windows == [windows.Window(2, 5, ("selection",))]
    with pytest.raises(ValueError, match="outside"):
        windows.find(PY, "x", selection=(10, 99))


def test_every_gold_change_of_the_long_corpora_lies_in_its_windows():
    """Measured on the shipped long corpora: each case whose instruction names a symbol gets windows, and the
    gold edit's changed lines (or insertion point) are inside them; the only whole-file cases are short."""
    from copy_as_decode.bench.corpora import load, user_file
    language = {"python": "python", "javascript": "javascript", "text": "markdown"}
    windowed = 0
    for name in ("long-python", "long-js", "long-text"):
        for case in load(name):
            before, gold = user_file(case)
            plan = windows.find(before, case.instruction, language=language[case.extra["language"]])
            if not plan.windows:
                assert case.extra["bucket"] == 100, (case.id, plan.reason)
                continue
            windowed += 1
            for i1, i2, _, _ in hunks(before, gold):
                assert any(w.start <= i1 + 1 and (i2 <= w.end if i2 > i1 else i1 <= w.end) for w in plan.windows), case.id
    assert windowed >= 130
