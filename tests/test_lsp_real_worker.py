"""The language server with the real decoding worker (`copy-as-decode worker --model tiny`): the edit the editor
ends up with must be exactly the engine's result for the same input. The worker's answers are copied to a log
on their way to the server (tee), so the test compares against what the engine itself produced.

The tiny model has random weights: its text is gibberish with odd characters (even "\\r\\n" and astral
characters), which is what this test wants from it.
"""
import asyncio
import json
import shlex
import sys
from pathlib import Path

import pytest
from test_lsp_server import URI, UTF16, edit, session

ROOT = Path(__file__).resolve().parent.parent


def _tiny_available() -> bool:
    if not (ROOT / "copy_as_decode" / "engine" / "worker.py").exists():
        return False
    try:
        from copy_as_decode.engine.backends import models
        return models.is_installed(models.TOKENIZER_SOURCE)  # `tiny` borrows this tokenizer
    except Exception:
        return False


pytestmark = [pytest.mark.model,
              pytest.mark.skipif(not _tiny_available(), reason="needs engine/worker.py and the tiny model's tokenizer")]


@pytest.mark.parametrize("selector", ["full", "grammar"])
async def test_a_cut_off_edit_reaches_the_user_and_leaves_the_buffer(tmp_path, selector):
    """The real worker (tiny random model, which never finishes within 24 tokens) answers the edit with its
    stop reason; the user sees one line and the buffer is untouched."""
    log = tmp_path / "worker-out.jsonl"
    script = f'{shlex.quote(sys.executable)} -m copy_as_decode.cli worker "$@" | tee -a {shlex.quote(str(log))}'
    document = "def add(a, b):\n    # 😀 中文\n    return a + b\n\nprint(add(1, 2))\n"
    settings = dict(model="tiny", device="cpu", dtype="float32", selector=selector, maxNewTokens=3, timeout=300)
    async with session(encoding=UTF16, worker=["bash", "-c", script, "worker"], **settings) as (client, editor):
        editor.open(URI, document)
        res = await edit(client, URI, "Rename add to plus.", editor=editor)
        for _ in range(100):  # tee may write the answer to its log after the server has read it
            answers = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
            if errors := [a["error"] for a in answers if "error" in a]:
                break
            await asyncio.sleep(0.1)
        [error] = errors
        assert error["code"] == 1004, error
        assert (error["code"], error["data"]["stop"], error["data"]["limit"]) == (1004, "cap", 3)
        assert res["applied"] is False and res["status"] == "error"
        assert editor.text(URI) == document
        shown = [m.message for m in client.messages if "did not finish within 3 tokens" in m.message]
        assert len(shown) == 1 and "\n" not in shown[0]


@pytest.mark.slow
async def test_real_qwen_edit_through_the_server(tmp_path):
    """The offline Qwen2.5-Coder-0.5B behind the server: verified selector, the editor gets exactly its result."""
    from copy_as_decode.engine.backends import models
    if not models.is_installed("qwen2.5-coder-0.5b"):
        pytest.skip("qwen2.5-coder-0.5b not installed (scripts/setup.sh installs it)")
    log = tmp_path / "worker-out.jsonl"
    script = f'{shlex.quote(sys.executable)} -m copy_as_decode.cli worker "$@" | tee -a {shlex.quote(str(log))}'
    document = (ROOT / "examples" / "buggy.py").read_text()
    settings = dict(model="qwen2.5-coder-0.5b", device="cpu", dtype="float32", selector="verified",
                    maxNewTokens=300, timeout=900)
    async with session(encoding=UTF16, worker=["bash", "-c", script, "worker"], **settings) as (client, editor):
        editor.open(URI, document)
        res = await edit(client, URI, "Fix the bug: the mean divides by the wrong count.", editor=editor)
        [engine] = [a["result"] for a in map(json.loads, log.read_text().splitlines())
                    if isinstance(a.get("result"), dict) and "text" in a["result"]]
        assert res["applied"] is True, (res, [m.message for m in client.messages])
        assert editor.text(URI) == engine["text"]
        assert engine["stats"]["spliced"] > engine["stats"]["sampled"]  # most of the file was copied, not decoded
