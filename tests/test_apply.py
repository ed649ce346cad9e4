"""`apply`: a chat's code block merged into a file, from each door (the CLI, the worker, the language server).

The blocks here are placed by the parser alone (core/block_merge.py), so the exact result is known; the model's
part (engine/apply.py, a windowed edit) is the tiny model's, checked only for what always holds: a finished
apply that writes no lazy marker, or nothing changed.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import EXIT_INCOMPLETE, EXIT_UNCHANGED, SKIPPED, IncompleteEdit
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "copy_as_decode.cli"]

FILE = '''import os


class Store:
    """Keeps values."""

    def __init__(self):
        self.values = {}

    def get(self, key):
        return self.values[key]


def main():
    store = Store()
    print(store.get("a"))
'''

LAZY_BLOCK = '''```python
class Store:
    # ... existing code ...

    def get(self, key, default=None):
        return self.values.get(key, default)

    def put(self, key, value):
        self.values[key] = value
```
'''

MERGED = FILE.replace('''    def get(self, key):
        return self.values[key]
''', '''    def get(self, key, default=None):
        return self.values.get(key, default)

    def put(self, key, value):
        self.values[key] = value
''')


def run_cli(*args, stdin: str | None = None):
    return subprocess.run(CLI + list(args), input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_parser_places_a_lazy_class_block_without_a_model():
    result = apply(EditRequest(FILE, block=LAZY_BLOCK))
    assert result.text == MERGED
    assert result.stats.selector == "merge" and result.stats.forwards == 0
    assert "replaced `Store.get`" in result.stats.windows and "added `Store.put` after `Store.get`" in result.stats.windows


def test_a_block_whose_place_is_not_certain_needs_the_model():
    block = "    total = 0\n    # ... existing code ...\n    return total * 2\n"
    with pytest.raises(MergeError, match="no model was given"):
        apply(EditRequest(FILE, block=block))


def test_a_block_that_would_break_the_file_is_refused_and_kept_for_review():
    with pytest.raises(IncompleteEdit, match="no longer parse") as refused:
        apply(EditRequest(FILE, block="def main():\n    store = Store(\n"))
    assert refused.value.stop == SKIPPED and "store = Store(" in refused.value.text


def test_a_block_of_markers_only_is_refused():
    with pytest.raises(MergeError, match="only lazy markers"):
        apply(EditRequest(FILE, block="# ... existing code ...\n"))


def test_cli_apply_prints_the_diff_and_writes_with_write(tmp_path):
    target, block = tmp_path / "store.py", tmp_path / "block.txt"
    target.write_text(FILE)
    block.write_text(LAZY_BLOCK)
    shown = run_cli("apply", str(target), str(block), "--no-model")
    assert shown.returncode == 0, shown.stderr
    assert "+    def put(self, key, value):" in shown.stdout and "-        return self.values[key]" in shown.stdout
    assert target.read_text() == FILE
    written = run_cli("apply", str(target), "--write", "--no-model", stdin=LAZY_BLOCK)  # the block on stdin
    assert written.returncode == 0, written.stderr
    assert target.read_bytes() == MERGED.encode()
    assert "merge: replaced `Store.get`" in written.stderr


def test_cli_apply_keeps_crlf_and_changes_nothing_on_a_refusal(tmp_path):
    target = tmp_path / "store.py"
    target.write_bytes(FILE.replace("\n", "\r\n").encode())
    ok = run_cli("apply", str(target), "-", "--write", "--no-model", stdin=LAZY_BLOCK)
    assert ok.returncode == 0, ok.stderr
    assert target.read_bytes() == MERGED.replace("\n", "\r\n").encode()
    before = target.read_bytes()
    bad = run_cli("apply", str(target), "-", "--write", "--no-model", stdin="def main():\n    store = Store(\n")
    assert bad.returncode == EXIT_INCOMPLETE and "no longer parse" in bad.stderr and bad.stderr.count("\n") <= 3
    assert target.read_bytes() == before


@pytest.mark.model
def test_the_worker_answers_apply_with_the_merged_document():
    request = {"jsonrpc": "2.0", "id": 7, "method": "apply", "params": {"document": FILE, "block": LAZY_BLOCK}}
    bad = {"jsonrpc": "2.0", "id": 8, "method": "apply", "params": {"document": FILE}}
    out = subprocess.run(CLI + ["worker", "--model", "tiny"], input=json.dumps(request) + "\n" + json.dumps(bad) + "\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    answers = {a["id"]: a for a in map(json.loads, out.stdout.splitlines()) if "id" in a}
    assert answers[7]["result"]["text"] == MERGED and answers[7]["result"]["stats"]["selector"] == "merge"
    assert answers[8]["error"]["code"] == -32602 and "block" in answers[8]["error"]["message"]


@pytest.mark.model
def test_a_part_the_parser_cannot_place_goes_to_the_model_and_never_writes_a_marker(tmp_path):
    """The tiny model's rewrite is gibberish: the apply either finishes, with no marker line in the file and the
    lines outside the function unchanged, or changes nothing (exit 3, or 2 when the result would not parse)."""
    target = tmp_path / "store.py"
    target.write_text(FILE)
    block = "def main():\n    # ... existing code ...\n    print(store.get('b'))\n"
    res = run_cli("apply", str(target), "-", "--write", "--model", "tiny", "--max-new-tokens", "24", stdin=block)
    text = target.read_text()
    assert res.returncode in (0, 2, 3), res.stderr
    if res.returncode == 0:
        assert "# ... existing code ..." not in text
        assert text.startswith(FILE[:FILE.index("def main")])
    else:
        assert text == FILE


@pytest.mark.model
async def test_the_language_server_applies_a_block_as_a_versioned_edit():
    """copyAsDecode.apply through the real server and the real worker (tiny model, not run: the parser places
    the block): the buffer becomes the merged file, and a usage example the answer held is said to be left out;
    a stale version changes nothing; a missing block is an error answer."""
    from lsprotocol import types as t
    from test_lsp_server import URI, UTF16, session
    worker = [sys.executable, "-m", "copy_as_decode.cli", "worker"]
    async with session(encoding=UTF16, worker=worker, model="tiny", device="cpu", timeout=300) as (client, editor):
        editor.open(URI, FILE)

        async def run(arg):
            return await client.protocol.send_request_async(t.WORKSPACE_EXECUTE_COMMAND, t.ExecuteCommandParams(
                command="copyAsDecode.apply", arguments=[arg]))

        stale = await run({"uri": URI, "version": editor.version(URI) + 1, "block": LAZY_BLOCK})
        assert stale["status"] == "stale" and editor.text(URI) == FILE
        missing = await run({"uri": URI, "version": editor.version(URI)})
        assert missing["status"] == "error" and "missing block" in missing["message"]
        usage = "\n\nUse it:\n\n```python\nfrom store import Store\n\nprint(Store().get('missing', 0))\n```\n"
        done = await run({"uri": URI, "version": editor.version(URI), "block": LAZY_BLOCK + usage})
        assert done["status"] == "applied", done
        assert editor.text(URI) == MERGED
        assert done["message"].startswith("Not merged: ") and "usage example" in done["message"]  # said, not hidden


ANSWER = f"""The `get` method raises on a missing key. Make it take a default, and add `put`:

```python store.py
{LAZY_BLOCK.split(chr(10), 1)[1].rsplit("```", 1)[0]}```

Then use it like this:

```python
from store import Store

print(Store().get("missing", 0))
```

```bash
python -m pytest -q
```

And a test, in `tests/test_store.py`:

```python tests/test_store.py
def test_get_default():
    assert Store().get("x", 1) == 1
```
"""


def test_cli_apply_takes_a_chat_s_whole_answer_and_lists_what_it_leaves_out(tmp_path):
    target, answer = tmp_path / "store.py", tmp_path / "answer.md"
    target.write_text(FILE)
    answer.write_text(ANSWER)
    done = run_cli("apply", str(target), str(answer), "--write", "--no-model")
    assert done.returncode == 0, done.stderr
    assert target.read_text() == MERGED
    assert done.stderr.count("not merged:") == 3 and "for tests/test_store.py" in done.stderr
    again = run_cli("apply", str(target), str(answer), "--write", "--no-model")
    assert again.returncode == EXIT_UNCHANGED and "already in the file" in again.stderr
    assert target.read_text() == MERGED


def test_an_answer_with_no_block_for_the_file_changes_nothing():
    with pytest.raises(MergeError, match="no code block for this file"):
        apply(EditRequest(FILE, block="Add this test:\n\n```python tests/test_store.py\ndef test_x():\n    pass\n```\n",
                          path="store.py"))


class _NoChangeFront:
    """A model that answers its window as it was (the fix left out)."""
    def edit(self, text, instruction, selector, **kwargs):
        from copy_as_decode.engine.decoding.stats import Stats
        from copy_as_decode.engine.result import EditResult
        return EditResult(text, Stats(selector="windowed", windows=f"{kwargs.get('lines')}"))


def test_a_model_result_without_the_block_s_lines_is_refused_not_written():
    two = FILE + "\n\nclass Other:\n    def get(self, key):\n        return None\n"
    block = "def get(self, key):\n    # ... existing code ...\n    return self.values.get(key, 7)\n"
    with pytest.raises(IncompleteEdit, match="not in the result") as refused:
        apply(EditRequest(two, block=block, language="python"), lambda: _NoChangeFront())
    assert refused.value.stop == SKIPPED


class _FixFront:
    """A model that writes the fix into the second of the two `get`s (lines 20-21 of the file below)."""
    def edit(self, text, instruction, selector, **kwargs):
        from copy_as_decode.engine.decoding.stats import Stats
        from copy_as_decode.engine.result import EditResult
        return EditResult(text.replace("        return None\n", "        return self.values.get(key, 7)\n"),
                          Stats(selector="windowed", windows="20-21 (Other.get)"))


def test_a_part_two_definitions_match_alike_goes_to_the_model_and_names_both_candidates():
    two = FILE + "\n\nclass Other:\n    def get(self, key):\n        return None\n"
    block = "def get(self, key):\n    # ... existing code ...\n    return self.values.get(key, 7)\n"
    result = apply(EditRequest(two, block=block, language="python"), lambda: _FixFront())
    assert [(c["qualname"], c["chosen"]) for c in result.candidates] == [("Store.get", False), ("Other.get", True)]
    assert "it might have been `Store.get`" in result.stats.windows


def test_a_lazy_body_whose_end_runs_on_into_the_file_s_body_is_refused():
    # the block ends its body with the new `return`; placed, the file's old `return` would still follow it
    before = 'def pick(values):\n    """Ints.\n    """\n    out = [x for x in values if x]\n    return values\n'
    block = 'def pick(values):\n    # ... existing code ...\n    """\n    return [x for x in values if x]\n'
    with pytest.raises(IncompleteEdit, match="goes on in its body with `return values`"):
        apply(EditRequest(before, block=block, language="python"))


def test_blank_lines_neither_the_file_nor_the_block_has_are_refused():
    from copy_as_decode.engine.apply import guarantee
    before = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    block = "def a():\n    return 0\n"
    assert guarantee(before, [block], before.replace("return 1\n", "return 0\n"), "python") is None
    made = before.replace("return 1\n", "return 0\n\n")  # three blank lines: more than PEP 8 allows
    assert "3 blank lines in a row" in guarantee(before, [block], made, "python")


def test_a_block_ending_in_a_class_attribute_may_be_followed_by_the_file_s_others():
    from copy_as_decode.engine.apply import guarantee
    before = "class Config:\n    DEBUG = False\n    TESTING = False\n\n    def load(self):\n        return 1\n"
    block = "class Config:\n    # ... existing code ...\n    DEBUG = True\n"
    assert guarantee(before, [block], before.replace("DEBUG = False", "DEBUG = True"), "python") is None


def test_lines_a_marker_keeps_may_not_be_dropped_inside_the_changed_definition():
    from copy_as_decode.engine.apply import guarantee
    before = ("def f(x):\n    a = 1\n    b = 2\n    c = 3\n    if x:\n        return a\n    d = 4\n    return d\n\n\n"
              "def g():\n    return 1\n")
    block = "def f(x):\n    # ... existing code ...\n    if x is not None:\n        return a\n    # ... rest unchanged ...\n"
    assert guarantee(before, [block], before.replace("if x:", "if x is not None:"), "python") is None
    head_lost = before.replace("    a = 1\n    b = 2\n    c = 3\n    if x:", "    if x is not None:")
    assert "drops `a = 1`, which the block's marker `# ... existing code ...` keeps" in \
        guarantee(before, [block], head_lost, "python")
    tail_lost = before.replace("if x:", "if x is not None:").replace("    d = 4\n    return d\n", "")
    assert "drops `d = 4`, which the block's marker `# ... rest unchanged ...` keeps" in \
        guarantee(before, [block], tail_lost, "python")
    # between two lines the block shows with no marker, the file's lines are the block's to replace
    shown = "def f(x):\n    a = 1\n    if x is not None:\n        return a\n    # ... rest unchanged ...\n"
    assert guarantee(before, [shown], before.replace("    b = 2\n    c = 3\n    if x:", "    if x is not None:"),
                     "python") is None


def test_a_new_return_before_a_marker_may_not_leave_the_old_one_after_it():
    """A chat's `return rv.IsZero()` under a case, then `// ... existing cases ...`: a result that keeps the file's
    old `return` right after the new one (code that never runs) is refused; the file's own lines in a row pass."""
    from copy_as_decode.engine.apply import guarantee
    before = ("func isEmpty(rv Value) bool {\n\tswitch rv.Kind() {\n\tcase Struct:\n\t\treturn old(rv)\n"
              "\tcase Bool:\n\t\treturn !rv.Bool()\n\t}\n\treturn false\n}\n")
    block = ("func isEmpty(rv Value) bool {\n\tswitch rv.Kind() {\n\tcase Struct:\n\t\treturn rv.IsZero()\n"
             "\t// ... existing cases ...\n\t}\n\treturn false\n}\n")
    beside = before.replace("\t\treturn old(rv)\n", "\t\treturn rv.IsZero()\n\t\treturn old(rv)\n")
    assert "goes on in its body with `return old(rv)`" in guarantee(before, [block], beside, "go")
    assert guarantee(before, [block], before.replace("return old(rv)", "return rv.IsZero()"), "go") is None
