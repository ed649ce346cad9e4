"""core/block_merge.py on blocks of each style a chat writes: the exact merged file, and what always holds (no
marker written, no line lost, a result that would not parse refused, fences off, line endings kept)."""
import pytest

from copy_as_decode.core.block_merge import merge
from copy_as_decode.core.deletions import deleted_lines

PY = '''import os


class Store:
    """Keeps values."""

    def __init__(self):
        self.values = {}

    def get(self, key):
        return self.values[key]

    def size(self):
        return len(self.values)


def load(path):
    with open(path) as f:
        return f.read()


def main():
    store = Store()
    print(store.get("a"))
'''

JS = '''const fs = require("fs");

class Cache {
  constructor() {
    this.items = new Map();
  }

  get(key) {
    return this.items.get(key);
  }

  clear() {
    this.items.clear();
  }
}

function load(path) {
  return fs.readFileSync(path, "utf8");
}

module.exports = { Cache, load };
'''

MD = '''# Tool

Intro text.

## Install

Run the installer.
Then restart.

## Usage

Call it.
'''


def merged(document, block, language):
    m = merge(document, block, language)
    assert not m.pending
    return m.text


def test_a_whole_function_replaces_the_file_s_one():
    block = "def load(path):\n    with open(path, encoding='utf-8') as f:\n        return f.read()\n"
    assert merged(PY, block, "python") == PY.replace("with open(path) as f:", "with open(path, encoding='utf-8') as f:")


def test_lazy_markers_between_functions():
    block = ('# ... existing code ...\n\ndef load(path):\n    return open(path).read()\n\n# ... existing code ...\n\n'
             'def main():\n    store = Store()\n    print(store.get("b"))\n\n# ... existing code ...\n')
    want = PY.replace("    with open(path) as f:\n        return f.read()\n", "    return open(path).read()\n") \
        .replace('store.get("a")', 'store.get("b")')
    assert merged(PY, block, "python") == want


def test_a_new_function_goes_beside_its_neighbour_in_the_block():
    block = ('# ... existing code ...\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\n'
             'def save(path, text):\n    with open(path, "w") as f:\n        f.write(text)\n\n# ... existing code ...\n')
    want = PY.replace("        return f.read()\n", '        return f.read()\n\n\ndef save(path, text):\n'
                      '    with open(path, "w") as f:\n        f.write(text)\n')
    assert merged(PY, block, "python") == want


def test_a_function_whose_name_the_file_lacks_and_whose_body_is_another_s_renames_it():
    block = "def read_file(path):\n    with open(path) as f:\n        return f.read()\n"
    assert merged(PY, block, "python") == PY.replace("def load(path):", "def read_file(path):")
    section = "## Installing\n\nRun the installer.\nThen restart.\n"
    assert merged(MD, section, "markdown") == MD.replace("## Install\n", "## Installing\n")


def test_a_new_function_with_another_s_short_body_or_beside_it_in_the_block_is_added():
    # one line after the header is too little to say it is that function: new, nothing replaced; and with no
    # word of where among the class's three methods, its place is the model's (or the user's) to say
    short = "def count(self):\n    return len(self.values)\n"
    m = merge(PY, short, "python")
    assert m.text == PY and [p.why for p in m.pending] == [
        "`count` is new and the answer does not say where it goes among the 3 definitions of `Store`"]
    two = PY.replace("    def get(self, key):\n        return self.values[key]\n\n", "")
    assert "    def size(self):\n        return len(self.values)\n\n    def count(self):\n" in merged(two, short, "python")
    # the block defines the file's function too: the new one is a copy of it, not its new name
    both = ('def load(path):\n    with open(path) as f:\n        return f.read()\n\n\n'
            'def load_again(path):\n    with open(path) as f:\n        return f.read()\n')
    text = merged(PY, both, "python")
    assert "def load(path):" in text and "def load_again(path):" in text and deleted_lines(PY, text) == 0


def test_a_method_into_its_class():
    block = ('class Store:\n    # ... existing code ...\n\n    def get(self, key, default=None):\n'
             '        return self.values.get(key, default)\n\n    # ... existing code ...\n')
    want = PY.replace("    def get(self, key):\n        return self.values[key]\n",
                      "    def get(self, key, default=None):\n        return self.values.get(key, default)\n")
    assert merged(PY, block, "python") == want


def test_a_method_pasted_at_column_0_lands_indented_in_its_class():
    block = "def size(self):\n    return len(self.values) + 0\n"
    assert merged(PY, block, "python") == PY.replace("return len(self.values)\n", "return len(self.values) + 0\n")


def test_a_changed_import_replaces_the_file_s_import():
    block = "import os.path\n"
    # the module key of `import os.path` is os.path: a new import, after the file's imports
    assert merged(PY, block, "python") == PY.replace("import os\n", "import os\nimport os.path\n")
    document = PY.replace("import os\n", "from os import path\n")
    block = "from os import path, sep\n\n# ... existing code ...\n"
    assert merged(document, block, "python") == PY.replace("import os\n", "from os import path, sep\n")


def test_a_markdown_section():
    block = "## Install\n\nRun the installer with `--user`.\nThen restart.\n\n<!-- ... -->\n"
    assert merged(MD, block, "markdown") == MD.replace("Run the installer.", "Run the installer with `--user`.")


def test_a_javascript_class_method():
    block = ("class Cache {\n  // ... existing code ...\n\n  get(key) {\n    return this.items.get(String(key));\n  }\n\n"
             "  // ... rest unchanged ...\n}\n")
    assert merged(JS, block, "javascript") == JS.replace("this.items.get(key)", "this.items.get(String(key))")


def test_a_javascript_method_pasted_alone():
    block = "clear() {\n  this.items = new Map();\n}\n"
    assert merged(JS, block, "javascript") == JS.replace("    this.items.clear();\n", "    this.items = new Map();\n")


@pytest.mark.parametrize("block", [
    "# ... existing code ...\n\ndef main():\n    # ... existing code ...\n    print(store.get('z'))\n",
    "class Store:\n    # ... existing code ...\n    def size(self):\n        return 0\n    # ... rest unchanged ...\n",
    "...\ndef load(path):\n    return ''\n...\n",
])
def test_no_marker_lands_and_no_line_is_lost(block):
    m = merge(PY, block, "python")
    markers = {"# ... existing code ...", "# ... rest unchanged ...", "..."}
    assert not any(line.strip() in markers for line in m.text.splitlines())
    assert deleted_lines(PY, m.text) <= 1  # at most the one line the block replaces


def test_a_result_that_would_not_parse_is_refused_and_offered_for_review():
    from copy_as_decode.core.contract import IncompleteEdit
    from copy_as_decode.engine.apply import apply
    from copy_as_decode.engine.request import EditRequest
    with pytest.raises(IncompleteEdit, match="no longer parse") as refused:
        apply(EditRequest(PY, block="def load(path):\n    return (f.read(\n", language="python"))
    assert "return (f.read(" in refused.value.text


def test_fences_are_stripped():
    block = "Here it is:\n```python\ndef size(self):\n    return 0\n```\n"
    assert merge(PY, "```python\ndef size(self):\n    return 0\n```\n", "python").text == \
        PY.replace("return len(self.values)\n", "return 0\n")
    assert "```" not in merge(PY, block.split("\n", 1)[1], "python").text


def test_a_crlf_file_keeps_crlf():
    """The request reads the file's line endings (engine/request.py): the merge sees "\\n", the result CRLF."""
    from copy_as_decode.engine.apply import apply
    from copy_as_decode.engine.request import EditRequest
    crlf = PY.replace("\n", "\r\n")
    out = apply(EditRequest(crlf, block="def size(self):\r\n    return 0\r\n", language="python")).text
    assert out == PY.replace("return len(self.values)\n", "return 0\n").replace("\n", "\r\n")


def test_built_cases_of_each_style_merge_exactly():
    """One development case of each style (synthesis/apply_blocks.py), merged to its gold byte for byte."""
    from copy_as_decode.synthesis.apply_blocks import build
    seen = {}
    for c in build(["humanevalfix-python", "humanevalfix-js", "long-text"]):
        if c["development"] and (c["language"], c["style"]) not in seen:
            m = merge(c["before"], c["block"], c["language"])
            if not m.pending and m.text == c["after"]:
                seen[(c["language"], c["style"])] = c["id"]
    assert {("python", "whole"), ("python", "markers"), ("python", "fenced"), ("python", "lazy"),
            ("javascript", "whole"), ("javascript", "lazy"), ("markdown", "whole"), ("markdown", "markers")} <= set(seen)


def test_a_method_pasted_at_column_0_goes_to_the_method_not_a_function_of_the_same_name():
    document = ("class Pattern:\n    def matches(self, nodes):\n        return False\n\n\n"
                "def matches(patterns, nodes):\n    return True\n")
    merged = merge(document, "def matches(self, nodes):\n    return bool(nodes)\n")
    assert merged.text == document.replace("        return False", "        return bool(nodes)")
    function = merge(document, "def matches(patterns, nodes):\n    return None\n")
    assert function.text == document.replace("    return True", "    return None")


SPACED = '''def one():
    return 1

def two(x):
    if x:
        return 2
    return 0


def three():
    return 3

def four():
    return 4
'''


def test_a_replaced_definition_keeps_the_file_s_own_gap_after_it():
    # the file's usual gap is one blank line; the two after `two` are its own and stay, as no line is added
    block = "def two(x):\n    if x is not None:\n        return 2\n    return 0\n"
    assert merge(SPACED, block, "python").text == SPACED.replace("if x:", "if x is not None:")


def test_a_replaced_definition_that_grows_fills_the_gap_its_lost_line_left():
    before = SPACED.replace("    return 0\n", "")
    block = "def two(x):\n    if x:\n        return 2\n    return 0\n"
    assert merge(before, block, "python").text == SPACED.replace("    return 0\n\n\n", "    return 0\n\n")


DOC = """# Guide

## Setup

Install the package first.
It needs Python 3.

Then run the tool.

## Usage

Run it.
"""


@pytest.mark.parametrize("block, added_after", [
    ("## Setup\n<!-- ... -->\nIt needs Python 3.\n\nCheck the version first.\n\n<!-- ... -->\n", "It needs Python 3.\n"),
    ("## Setup\n<!-- ... -->\n\nCheck the version first.\n\nThen run the tool.\n<!-- ... -->\n", "It needs Python 3.\n"),
])
def test_a_new_markdown_paragraph_keeps_its_blank_lines_apart_from_its_neighbours(block, added_after):
    want = DOC.replace(added_after, added_after + "\nCheck the version first.\n")
    assert merge(DOC, block, "markdown").text == want


def test_a_lazy_body_s_comment_lines_after_its_last_statement_are_its_context():
    # Python's outline ends the block's function at its last statement; the comment after it, before the
    # marker, is still the body's context: the new lines go between the two comments
    before = "def run(x):\n    y = x + 1\n    # step two:\n    #  - add\n    #  - check\n    z = y * 2\n    return z\n"
    block = ("def run(x):\n    # ... existing code ...\n    #  - add\n    if x is None:\n        raise ValueError('x')\n"
             "    #  - check\n    # ... existing code ...\n")
    m = merge(before, block, "python")
    assert not m.pending
    assert m.text == before.replace("#  - add\n", "#  - add\n    if x is None:\n        raise ValueError('x')\n")


def test_an_overload_is_the_one_whose_header_the_block_shows():
    body = "        check();\n        open();\n        read();\n        close();\n        done();\n        store();\n    }\n"
    before = f"class Box {{\n    void put(String k) {{\n{body}\n    void put(String k, int n) {{\n{body}}}\n"
    block = ("    void put(String k, int n) {\n        check();\n        open();\n        read();\n        close();\n"
             "        done();\n        log(n);\n        store();\n    }\n")
    m = merge(before, block, "java")
    assert not m.pending
    second = before.index("int n")
    assert m.text == before[:second] + before[second:].replace("done();\n", "done();\n        log(n);\n")


def test_an_overload_an_inner_class_repeats_is_the_one_whose_lines_the_block_shows():
    """Two definitions share the block's header (a list's `addAll(int, c)` and its sublist's): of those, the one
    holding the block's context lines, though a third overload holds nearly as many."""
    mine = "        mark();\n        int n = a.length;\n        if (n == 0)\n            return false;\n"
    before = (f"class List {{\n    boolean add(Bag c) {{\n{mine}        copy(c);\n        return true;\n    }}\n\n"
              f"    boolean add(int i, Bag c) {{\n        check(i);\n{mine}        move(i);\n        return true;\n    }}\n\n"
              "    class Sub {\n        boolean add(int i, Bag c) {\n            check(i);\n            return false;\n"
              "        }\n    }\n}\n")
    block = ("    boolean add(int i, Bag c) {\n        // ... existing code ...\n        mark();\n        int n = a.length;\n"
             "        if (i < 0) {\n            throw new IllegalArgumentException();\n        }\n        if (n == 0)\n"
             "            return false;\n        // ... existing code ...\n    }\n")
    m = merge(before, block, "java")
    assert not m.pending
    second = before.index("int i, Bag c")
    assert m.text == before[:second] + before[second:].replace(
        "        if (n == 0)\n", "        if (i < 0) {\n            throw new IllegalArgumentException();\n        }\n"
        "        if (n == 0)\n", 1)


def test_a_marker_that_ends_a_python_body_keeps_the_rest_of_it():
    """A chat's `# ... rest of the function unchanged ...` after the lines it changes: the body's end stays."""
    before = ("def quote(s):\n    if not s:\n        return \"''\"\n    if unsafe(s) is None:\n        return s\n\n"
              "    return wrap(s)\n\n\ndef other():\n    return 1\n")
    block = ("def quote(s):\n    if s is None:\n        raise TypeError('None')\n    if not s:\n        return \"''\"\n"
             "    # ... rest of the function unchanged ...\n")
    text = merge(before, block, "python").text
    assert text == before.replace("def quote(s):\n", "def quote(s):\n    if s is None:\n        raise TypeError('None')\n")
    assert deleted_lines(before, text) == 0


def test_imports_in_groups_apart_by_a_blank_line_are_each_placed_alone():
    """A chat shows the file's import block with one import added: only that one is added, none twice."""
    before = "import os\nimport re\n\nfrom collections import deque\n\n\ndef f():\n    return deque(os.sep)\n"
    block = "import os\nimport re\nimport typing\n\nfrom collections import deque\n"
    assert merge(before, block, "python").text == before.replace("import re\n", "import re\nimport typing\n")


def test_a_new_guard_s_closing_brace_is_its_own_not_the_file_s_beside_it():
    """A lazy block whose context ends a body the marker elided (`return true`, `}`), then a new `if {...}`: the
    guard's `}` closes the guard; the file's `}` before it stays. Pasted without its object, the method's later
    `if (...) {` is a statement, not a method named `if`."""
    before = ("const traps = {\n\tset(state, prop, value) {\n\t\tconst desc = find(state, prop)\n\t\tif (desc?.set) {\n"
              "\t\t\tdesc.set.call(state, value)\n\t\t\treturn true\n\t\t}\n\t\tif (!state.modified_) {\n"
              "\t\t\tmark(state)\n\t\t}\n\t\tstate.copy_[prop] = value\n\t\treturn true\n\t},\n}\n")
    block = ("\tset(state, prop, value) {\n\t\t// ... rest unchanged ...\n\t\t\treturn true\n\t\t}\n"
             "\t\tif (state === undefined) {\n\t\t\tthrow new TypeError('state is required')\n\t\t}\n"
             "\t\tif (!state.modified_) {\n\t\t// ... rest unchanged ...\n\t}\n")
    m = merge(before, block, "typescript")
    assert not m.pending
    assert m.text == before.replace("\t\tif (!state.modified_) {\n", "\t\tif (state === undefined) {\n"
                                    "\t\t\tthrow new TypeError('state is required')\n\t\t}\n\t\tif (!state.modified_) {\n")
