"""A CRLF document through every door, edit and apply: the request reads its line endings (engine/request.py),
what lies behind the door sees "\\n", and the result comes back in CRLF with only the lines asked changed."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_front import ScriptedFront

from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.worker import Worker
from copy_as_decode.server.apply_endpoint import Apply, Merger

ROOT = Path(__file__).resolve().parent.parent
DOC = "def f(a):\r\n    return a - 1\r\n\r\n\r\ndef g(b):\r\n    return b\r\n"
FIXED = DOC.replace("a - 1", "a + 1")
INSTRUCTION = "Fix `f`: it should add one."
BLOCK = "def f(a):\n    return a + 1\n"


@pytest.fixture
def front(qwen_tokenizer):
    """A scripted model that fixes the line it is shown; it records what it was shown."""
    return ScriptedFront(qwen_tokenizer, lambda shown: shown.replace("a - 1", "a + 1"))


def worker_answer(front, method: str, params: dict) -> dict:
    out = io.StringIO()
    Worker(front, out=out).run(1, method, params)
    return next(m for m in map(json.loads, out.getvalue().splitlines()) if m.get("id") == 1)["result"]


def test_an_edit_keeps_crlf_and_the_model_sees_lf(front):
    """The command line's door (EditFront.edit, as cli.py asks it) and the worker's (the language server's)."""
    assert front.edit(DOC, INSTRUCTION, "windowed", language="python").text == FIXED
    params = {"document": DOC, "instruction": INSTRUCTION, "selector": "windowed", "language": "python"}
    assert worker_answer(front, "edit", params)["text"] == FIXED
    assert front.seen and not any("\r" in shown for shown in front.seen)


def test_an_apply_keeps_crlf_whichever_its_block_s_endings(front):
    """Python callers, the worker's door, the HTTP endpoint's and the command line's; the block's own line
    endings are never written."""
    for block in (BLOCK, BLOCK.replace("\n", "\r\n")):
        assert apply(EditRequest(DOC, block=block, language="python")).text == FIXED
        assert worker_answer(front, "apply", {"document": DOC, "block": block})["text"] == FIXED
        body = {"messages": [{"role": "user", "content": f"<code>{DOC}</code>\n<update>{block}</update>"}]}
        assert Merger(None).merge(Apply(body))[:2] == (FIXED, "applied")
    assert front.seen == []  # the parser placed every block: no model ran


def test_the_command_line_apply_writes_crlf(tmp_path):
    target, block = tmp_path / "f.py", tmp_path / "block.py"
    target.write_bytes(DOC.encode())
    block.write_text(BLOCK)
    done = subprocess.run([sys.executable, "-m", "copy_as_decode.cli", "apply", str(target), str(block), "--write",
                           "--no-model"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == FIXED.encode()
