"""Outlines read with real parsers, and the windows an instruction points at (core/outline.py, core/windows.py)."""
import pytest

from copy_as_decode.core import windows
from copy_as_decode.core.deletions import hunks
from copy_as_decode.core.document import split_lines
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
    for instruction in ("Rename `Store.get` to `fetch`.", "rename the method get as fetch everywhere"):
        assert [(w.start, w.end) for w in windows.find(doc, instruction).windows] == [(12, 15), (16, 19)]


def test_renaming_a_local_of_the_target_takes_the_target_alone():
    doc = long_module()
    for instruction in ("In `Store.get`, rename the parameter key to name.",
                        "In Store.get rename `key` to `name`."):
        plan = windows.find(doc, instruction)
        assert [(w.start, w.end) for w in plan.windows] == [(12, 15)], instruction  # not helper's call of get
        assert plan.reason == "named: Store.get"


def test_without_a_name_the_words_search_the_symbols_and_say_why():
    plan = windows.find(long_module(), "The size property should not use len.")
    assert [w.names for w in plan.windows] == [("Store.size",)]  # its words match by far best
    assert plan.reason == "found: Store.size matches its words best by far"
    plan = windows.find(long_module(), "Items should be looked up in the store another way.")
    assert plan.windows == [] and "names no symbol" in plan.reason and not plan.named
    assert [c.qualname for c in plan.candidates] == ["Store.size", "helper", "Store.get"]  # for the model
    plan = windows.find(long_module(), "Make it faster.")
    assert plan.windows == plan.candidates == [] and "no symbol matches" in plan.reason


def test_short_documents_and_wide_windows_are_edited_whole():
    assert "short document" in windows.find(PY, "Fix `helper`.").reason
    doc = long_module().replace("    return a + ", "    return helper(a) + ")
    plan = windows.find(doc, "Rename `helper` to `aid` and update every use.")
    assert plan.windows == [] and ("sites" in plan.reason or "cover" in plan.reason)


def test_the_target_is_edited_and_the_helpers_it_must_call_are_not():
    doc = long_module()
    for instruction in ("Fix f3: it must return a only when f5(a) is true.",
                        "Fix `f3` so that it calls `f5` first.",
                        "In f3, use the f5 helper instead of adding 3.",
                        "Make `f3` delegate to `f5`."):
        plan = windows.find(doc, instruction)
        assert [w.names for w in plan.windows] == [("f3",)], instruction
    assert "not its helpers: f5" in windows.find(doc, "Fix `f3` so that it calls `f5` first.").reason


def test_ordinary_words_are_not_names_unless_introduced_as_one():
    doc = long_module().replace("def helper(x)", "def check(x)")
    said = {m.name: m.strong for m in windows.mentions("The check must fail for negative x; see bugs in f7.")}
    assert said["check"] is False and said["f7"] is True
    assert {m.name: m.strong for m in windows.mentions("Fix bugs in fib.")}["fib"] is True
    assert {m.name: m.strong for m in windows.mentions("Fix the check function.")}["check"] is True
    plan = windows.find(doc, "The check must also fail for negative numbers.")
    assert [w.names for w in plan.windows] == [("check",)] and plan.reason.startswith("found: check")  # by search


def test_an_apostrophe_in_prose_opens_no_quoted_string():
    said = windows.mentions("There's a bug in `resolve`: it compares `typeof t` with 'function' and it's wrong.")
    assert [(m.name, m.strong) for m in said if m.strong][:1] == [("resolve", True)]
    assert "function" in {m.name for m in said}  # the quote that opens after a space still quotes


def test_type_colon_colon_method_names_the_method_as_its_dotted_qualname():
    said = windows.mentions("Vec::chunk_mut is wrong, and so is `Error::io`.")
    assert [(m.name, m.strong) for m in said if m.strong] == [("Vec.chunk_mut", True), ("Error.io", True)]
    doc = long_module() + "\n\nclass Other:\n    def get(self, key):\n        return None\n"
    assert [w.names for w in windows.find(doc, "Other::get returns the wrong thing.").windows] == [("Other.get",)]


def test_a_name_the_described_code_reads_or_calls_is_no_target():
    """"The value used for `grow`", "compares `self.err.line` with", "the condition on `a` and `b`": names of
    what the code reads or calls, as helpers are; the function named to fix stays the one window."""
    def roles(said):
        return {m.name: m.helper for m in windows.mentions(said) if m.strong}

    assert roles("Fix `f7`: the condition on `config.state` and `f9()` is wrong, and the value used for `helper` "
                 "is off.") == {"f7": False, "config.state": True, "f9": True, "helper": True}
    assert roles("It compares `self.size` with `0` the wrong way.") == {"self.size": True, "0": True}
    assert roles("Fix `f7` and `f9`.") == {"f7": False, "f9": False}
    doc = long_module()
    plan = windows.find(doc, "f7 uses a wrong number for `f9`: the result is off by one.")
    assert [w.names for w in plan.windows] == [("f7",)], plan.reason
    symptom = windows.find(doc, "The value used for `f9` is off by one.")
    assert [w.names for w in symptom.windows] != [("f9",)] and "f9" not in [s.name for s in symptom.candidates]


def test_a_long_doc_comment_does_not_push_its_function_out_of_a_window():
    """A function under a doc comment that makes it more than MAX_SHARE of the file: the window is its code (the
    comment is no part of what an edit changes), named or at the cursor."""
    doc_lines = ["// " + f"line {k} of the doc comment" for k in range(60)]
    body = ["function target(x) {"] + [f"  x = x + {k};" for k in range(20)] + ["  return x;", "}"]
    rest = [f"function other{k}(y) {{\n  return y * {k};\n}}\n" for k in range(12)]
    doc = "\n".join(doc_lines + body) + "\n\n" + "\n".join(rest)
    n, head = len(split_lines(doc)), len(doc_lines) + 1
    target = next(s for s in outline(doc, "javascript")[1] if s.name == "target")
    assert (target.start, target.code) == (1, head) and target.end - target.start + 1 > windows.MAX_SHARE * n
    named = windows.find(doc, "Fix `target`: it adds one too many.", language="javascript")
    at = windows.find(doc, "This adds one too many.", language="javascript", at=head + 5)
    for plan in (named, at):
        assert [(w.start, w.names) for w in plan.windows] == [(head, ("target",))], plan.reason
        assert plan.windows[0].end >= target.end
    # a short comment stays with its function
    small = windows.find("\n".join(doc_lines[:3] + body) + "\n\n" + "\n".join(rest), "Fix `target`.",
                         language="javascript")
    assert [(w.start, w.names) for w in small.windows] == [(1, ("target",))]


def test_the_cursor_is_the_window_unless_the_instruction_names_another():
    doc = long_module()
    f7 = next(s for s in outline(doc)[1] if s.name == "f7")
    plan = windows.find(doc, "This should multiply, not add.", at=f7.start + 1)
    assert [w.names for w in plan.windows] == [("f7",)] and plan.reason == "the cursor: f7"
    assert [w.names for w in windows.find(doc, "Make it call `f9` first.", at=f7.start + 1).windows] == [("f7",)]
    assert [w.names for w in windows.find(doc, "Fix `f9` too.", at=f7.start + 1).windows] == [("f9",)]
    assert [w.names for w in windows.find(doc, "Fix it.", at=10).windows] == [("Store.size",)]  # inside a class
    with pytest.raises(ValueError, match="cursor"):
        windows.find(doc, "x", at=10_000)


def test_a_name_defined_several_times_is_resolved_by_cursor_class_or_the_model():
    doc = long_module() + "\n\nclass Cache:\n    def get(self, key):\n        return None\n"
    plan = windows.find(doc, "Fix `get`: missing keys should raise.")
    assert plan.windows == [] and plan.named and [c.qualname for c in plan.candidates] == ["Store.get", "Cache.get"]
    assert [w.names for w in windows.find(doc, "Fix get in Cache: it should raise.").windows] == [("Cache.get",)]
    cache_get = next(s for s in outline(doc)[1] if s.qualname == "Cache.get")
    assert [w.names for w in windows.find(doc, "Fix `get`.", at=cache_get.end).windows] == [("Cache.get",)]


def test_a_selection_is_the_window_and_must_lie_in_the_document():
    assert windows.find(PY, "x", selection=(2, 5)).windows == [windows.Window(2, 5, ("selection",))]
    with pytest.raises(ValueError, match="outside"):
        windows.find(PY, "x", selection=(10, 99))


def test_every_gold_change_of_the_long_corpora_lies_in_its_windows():
    """Measured on the shipped long corpora: each case whose instruction names a symbol gets windows, and the
    gold edit's changed lines (or insertion point) are inside them; the only whole-file cases are short."""
    from copy_as_decode.cases.corpora import load, user_file
    windowed = 0
    for name in ("long-python", "long-js", "long-text"):
        for case in load(name):
            before, gold = user_file(case)
            plan = windows.find(before, case.instruction, language=case.extra["language"])
            if plan.named:  # one name defined several times: the gold edit is in one of them
                assert any(c.start <= i1 + 1 <= c.end for c in plan.candidates for i1, *_ in hunks(before, gold))
                continue
            if not plan.windows:
                assert case.extra["bucket"] == 100, (case.id, plan.reason)
                continue
            windowed += 1
            for i1, i2, _, _ in hunks(before, gold):
                assert any(w.start <= i1 + 1 and (i2 <= w.end if i2 > i1 else i1 <= w.end) for w in plan.windows), case.id
    assert windowed >= 130


def test_a_method_moved_out_of_its_class_is_its_own_window_and_each_line_that_calls_it_another():
    doc = ("class Box:\n    def total(self):\n        return self.helper(self.items)\n\n"
           "    def helper(self, values):\n        return sum(values)\n\n"
           "    def size(self):\n        return self.helper([1]) + len(self.items)\n" + "\n\nx = 1\n" * 30)
    for said in ("Refactor the `helper` method in the `Box` class to be a stand alone, top level function.",
                 "Move Box.helper out of the class and make it a module-level function."):
        plan = windows.find(doc, said)
        assert [(w.start, w.end, w.to, w.calls) for w in plan.windows] == \
            [(3, 3, None, "helper"), (5, 7, 9, None), (9, 9, None, "helper")], said
        assert plan.reason.startswith("move: Box.helper after Box")
    last = doc.replace("    def size(self):\n        return self.helper([1]) + len(self.items)\n", "")
    plan = windows.find(last, "Make `helper` a standalone function.")  # the last member: the blank lines before
    assert [(w.start, w.end, w.to) for w in plan.windows] == [(3, 3, None), (4, 6, 6)]  # it go with it
    alone = "class Box:\n    def helper(self, values):\n        return sum(values)\n" + "\n\nx = 1\n" * 30
    plan = windows.find(alone, "Make `helper` a standalone function.")  # the class would be left empty
    assert [(w.start, w.end, w.to) for w in plan.windows] == [(2, 5, None)] and "stays" in plan.reason


@pytest.mark.parametrize("said, uses", [
    ("Add a parameter `verbose=False` to `get` and update every call of `get` to pass it.", True),
    ("Update any existing `self.get` calls to the new signature of `get`.", True),
    ("Fix `get`: it must call `len` on the items.", False),
])
def test_calls_in_an_instruction_take_every_use(said, uses):
    plan = windows.find(long_module(), said)
    assert (len(plan.windows) > 1) == uses, plan.describe()


def go_module(n=12):
    """A Go file of `n` small functions after a struct with a method, with a blank line between each."""
    funcs = "".join(f"\n// f{k} adds {k}.\nfunc f{k}(a int) int {{\n\tb := a + {k}\n\treturn b\n}}\n" for k in range(n))
    return ("package calc\n\n// Store keeps items.\ntype Store struct {\n\titems map[string]int\n}\n\n"
            "// Get returns one.\nfunc (s *Store) Get(key string) int {\n\treturn s.items[key]\n}\n" + funcs)


def test_a_named_go_method_and_the_cursor_are_windows_in_a_long_go_file():
    doc = go_module()
    assert len(split_lines(doc)) >= windows.MIN_LINES
    plan = windows.find(doc, "Fix `Store.Get`: a missing key must panic.", language="go")
    assert [(w.start, w.end, w.names) for w in plan.windows] == [(8, 12, ("Store.Get",))]
    f5 = next(s for s in outline(doc, "go")[1] if s.name == "f5")
    plan = windows.find(doc, "Subtract instead.", language="go", at=f5.end - 1)
    assert [(w.start, w.names) for w in plan.windows] == [(f5.start, ("f5",))] and plan.reason == "the cursor: f5"
    # no cursor, nothing named or found: as before, the whole file with the reason
    plan = windows.find(doc, "Make it faster.", language="go")
    assert plan.windows == [] and "no symbol matches" in plan.reason


def test_the_search_and_the_uses_of_a_renamed_method_work_in_go():
    total = "\n\n// Total sums every item.\nfunc (s *Store) Total() int {\n\tsum := 0\n\tfor _, v := range s.items {\n" \
            "\t\tsum += v\n\t}\n\treturn sum\n}\n"
    doc = go_module().replace("\treturn s.items[key]\n}\n", "\treturn s.items[key]\n}\n" + total, 1)
    doc = doc.replace("\tb := a + 3\n", '\tb := a + New().Get("x")\n')
    plan = windows.find(doc, "The sum of every item in the store overflows; use int64 for it.", language="go")
    assert plan.candidates[0].qualname == "Store.Total"  # the search's first, for the model to confirm
    plan = windows.find(doc, "Rename the method `Get` to `Lookup` and update every call.", language="go")
    f3 = next(s for s in outline(doc, "go")[1] if s.name == "f3")
    assert [(w.start, w.names) for w in plan.windows] == [(8, ("Store.Get",)), (f3.start, ("f3",))]


def test_a_cursor_in_a_file_of_no_known_language_is_the_block_around_it():
    sections = [f"[section{k}]\nname = s{k}\nsize = {k}\nmode = fast\nowner = me\npath = /srv/{k}\n" for k in range(12)]
    doc = "\n".join(sections)
    assert outline(doc) == (None, [])
    line = split_lines(doc).index("size = 4\n") + 1
    plan = windows.find(doc, "Double the size.", at=line)
    assert [(w.start, w.end) for w in plan.windows] == [(line - 2, line + 3)]  # its section, between blank lines
    assert plan.reason.startswith(f"the cursor: the block around line {line}") and "no outline" in plan.reason
    # without a cursor nothing bounds it: the whole file, as before
    assert windows.find(doc, "Double the size.").windows == []


def test_a_cursor_in_a_file_with_a_syntax_error_is_the_block_around_it():
    doc = go_module().replace("\tb := a + 5\n", "\tb := a + (5\n")
    symbols = outline(doc, "go")[1]
    assert "f5" not in {s.name for s in symbols} and "f6" in {s.name for s in symbols}  # a partial outline
    line = split_lines(doc).index("\tb := a + (5\n") + 1
    plan = windows.find(doc, "Close the bracket.", language="go", at=line)
    assert [(w.start, w.end) for w in plan.windows] == [(line - 1, line + 2)]  # `func f5(...) {` to its `}`
    assert "in no symbol" in plan.reason
    # Python stops at the first error: no outline at all, and the cursor's function is still the window
    py = long_module().replace("def f7(a):\n", "def f7(a:\n")
    line = split_lines(py).index("def f7(a:\n") + 1
    plan = windows.find(py, "Fix the syntax.", at=line + 1)
    assert [(w.start, w.end) for w in plan.windows] == [(line, line + 1)] and "no outline" in plan.reason


def test_a_cursor_between_definitions_is_the_block_around_it():
    table = "ROUTES = {\n" + "".join(f"    '/p{k}': f{k},\n" for k in range(10)) + "}\n"
    doc = long_module().replace("\n\ndef f3(a):", "\n\n" + table + "\n\ndef f3(a):")
    line = split_lines(doc).index("    '/p4': f4,\n") + 1
    plan = windows.find(doc, "Add one more route here.", at=line)
    first = split_lines(doc).index("ROUTES = {\n") + 1
    assert [(w.start, w.end) for w in plan.windows] == [(first, first + 11)] and "in no symbol" in plan.reason


def test_a_cursor_in_a_function_too_large_for_a_window_is_the_block_inside_it_around_the_cursor():
    """A 200-line function of a 394-line file: the innermost statement block around the cursor, never the
    whole file."""
    steps = "".join(f"    step{k} = load({k})\n    if step{k} is None:\n        step{k} = {k}\n\n" for k in range(47))
    loop = ("    for item in items:\n        if item.ready:\n            item.run()\n            total += item.cost\n"
            "            log(item)\n            item.close()\n        else:\n            item.skip()\n")
    big = "def process(items):\n    total = 0\n" + steps + loop + "    return total\n"
    doc = "import os\n\n\n" + big + "".join(f"\n\ndef g{k}(a):\n    return a + {k}\n" for k in range(48))
    lines = split_lines(doc)
    process = next(s for s in outline(doc)[1] if s.name == "process")
    assert len(lines) == 394 and process.end - process.start + 1 > windows.MAX_SHARE * len(lines)
    line = lines.index("            item.run()\n") + 1
    plan = windows.find(doc, "Also count skipped items.", at=line)
    # the `if` statement, `else` and all: the innermost block of at least blocks.MIN_LINES lines
    assert [(w.start, w.end, w.names) for w in plan.windows] == [(line - 1, line + 5, ("a block of process",))]
    assert lines[line - 2] == "        if item.ready:\n" and "in process, whose" in plan.reason
    assert [(w.start, w.end) for w in windows.find(doc, "Count it.", at=line + 5).windows] == [(line - 1, line + 5)]
    # a cursor on a run of statements between blank lines: that run
    line = lines.index("    step30 = load(30)\n") + 1
    assert [(w.start, w.end) for w in windows.find(doc, "Load it twice.", at=line).windows] == [(line, line + 2)]


def test_the_block_around_a_line_takes_its_whole_statement_else_and_closer():
    from copy_as_decode.core import blocks
    c = split_lines("int f(int x)\n{\n    int y = 0;\n    if (x > 0) {\n        y = x;\n        log(y);\n    } else {\n"
                    "        y = -x;\n        warn(y);\n    }\n    return y;\n}\n")
    assert blocks.around(c, 8) == (4, 10)  # from the `if` to the brace that closes its `else`
    assert blocks.around(c, 8, max_lines=5) == (6, 10)  # no block fits: the lines around it
    sh = split_lines('for f in "$@"; do\n  if [ -f "$f" ]; then\n    cp "$f" "$dest/"\n  else\n    log "skipped $f"\n'
                     "  fi\ndone\n")
    assert blocks.around(sh, 5) == (1, 7)  # the `if` has 5 lines, fewer than blocks.MIN_LINES: the loop


def test_one_rule_weighs_the_model_choice_against_the_search_first():
    """windows.choose, for the pick (engine/locate.py) and for an edit that asks no one (engine/selectors/
    windowed.py): among search hits only the search's first at SURE decides, and the edit takes another hit
    only at CONFIDENCE; among definitions of a named name the model's choice leads, deciding at NAMED."""
    _, symbols = outline("def a():\n    return 1\n\n\ndef b():\n    return 2\n", "python")
    a, b = symbols
    hits, named = windows.Plan([], "r", candidates=[a, b]), windows.Plan([], "r", candidates=[a, b], named=True)

    def seen(plan, symbol, p):
        c = windows.choose(plan, symbol, p)
        return c.taken and c.taken.name, c.first.name, c.decisive

    assert seen(hits, a, windows.SURE) == ("a", "a", True)
    assert seen(hits, a, windows.SURE - 0.01) == ("a", "a", False)
    assert seen(hits, b, 0.99) == ("b", "a", False)  # another hit: taken when no one is asked, never decisive
    assert seen(hits, b, windows.CONFIDENCE - 0.01) == ("a", "a", False)
    assert seen(named, b, windows.NAMED) == ("b", "b", True) and seen(named, b, 0.3) == ("b", "b", False)
    assert seen(hits, None, None) == (None, "a", False)
    assert windows.choose(hits, b, 0.3).offered == "the search's first: a (the model chose b, p=0.30)"


def test_a_window_runs_on_through_the_blank_lines_after_it():
    lines = split_lines("def a():\n    return 1\n\n\ndef b():\n    pass\n\n")
    assert windows.through_blanks(lines, 2) == 4 and windows.through_blanks(lines, 6) == 7
    assert windows.through_blanks(lines, 5) == 5
