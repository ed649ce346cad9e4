"""The language server with the real decoding worker (`copy-as-decode worker --model tiny`): the edit the editor
ends up with must be exactly the engine's result for the same input. The worker's answers are copied to a log
on their way to the server (tee), so the test compares against what the engine itself produced.

The tiny model has random weights: its text is gibberish with odd characters (even "\\r\\n" and astral
characters), which is what this test wants from it.
"""
import json
import shlex
import sys
from pathlib import Path

import pytest

from test_lsp_server import URI, UTF16, edit, session

ROOT = Path(__file__).resolve().parent.parent


def _tiny_available() -> bool:
    if not (ROOT / "engine" / "worker.py").exists():
        return False
    try:
        from copy_as_decode.engine import models
        return models.is_installed(models.TOKENIZER_SOURCE)  # `tiny` borrows this tokenizer
    except Exception:
        return False


pytestmark = pytest.mark.skipif(not _tiny_available(), reason="needs engine/worker.py and the tiny model's tokenizer")


@pytest.mark.parametrize("encoding", [UTF16])
async def test_applied_edit_equals_engine_result(tmp_path, encoding):
    log = tmp_path / "worker-out.jsonl"
    script = f'{shlex.quote(sys.executable)} -m copy_as_decode.cli worker "$@" | tee -a {shlex.quote(str(log))}'
    document = "def add(a, b):\n    # 😀 中文\n    return a + b\n\nprint(add(1, 2))\n"
    settings = dict(model="tiny", device="cpu", dtype="float32", selector="full", maxNewTokens=24, timeout=300)
    async with session(encoding=encoding, worker=["bash", "-c", script, "worker"], **settings) as (client, editor):
        editor.open(URI, document)
        res = await edit(client, URI, "Rename add to plus.", editor=editor)
        answers = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        [engine] = [a["result"] for a in answers if isinstance(a.get("result"), dict) and "text" in a["result"]]
        if engine["text"] == document:
            assert res["status"] == "unchanged"
        else:
            assert res["applied"] is True, (res, [m.message for m in client.messages])
            assert editor.text(URI) == engine["text"]
            assert res["stats"]["sampled"] == engine["stats"]["sampled"]


@pytest.mark.slow
async def test_real_qwen_edit_through_the_server(tmp_path):
    """The offline Qwen2.5-Coder-0.5B behind the server: verified selector, the editor gets exactly its result."""
    from copy_as_decode.engine import models
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
