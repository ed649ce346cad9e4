"""Reading the window before the instruction (engine/read_ahead.py): what is prefilled, that the edit after it
reads only the rest and writes what a cold edit in the same layout writes, and that a prepare gives way."""
import json
import os
import threading
import time

import pytest

from copy_as_decode.core.contract import Cancelled, Hooks, IncompleteEdit
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.read_ahead import PIECE, prepare
from copy_as_decode.engine.worker import Worker

FILLER = "".join(f"\n\ndef f{k}(a):\n    return a + {k}\n" for k in range(40))
DOC = ("import os\n\n\nclass Store:\n    def get(self, key):\n        \"\"\"The value stored under key.\"\"\"\n"
       "        value = self.items[key]\n        return value\n\n\ndef helper(x):\n    return Store().get(x)\n"
       + FILLER)
AT = 7  # the cursor in Store.get


class Decoded(Hooks):
    """Keeps the decode's text as it grows: what an edit wrote, also when it ends without an answer."""
    text = ""

    def progress(self, stats, text: str) -> None:
        self.text = text


def run(engine, **kwargs):
    """(what the decode wrote, its stats): the random tiny model rarely finishes, which is not the point here."""
    hooks = Decoded()
    try:
        stats = engine.edit(DOC, "Return None for a missing key.", "auto", at=AT, max_new_tokens=24, hooks=hooks,
                            **kwargs).stats
    except IncompleteEdit as e:
        stats = e.stats
    return hooks.text, stats


@pytest.fixture
def engine(tiny_engine):
    tiny_engine.restore_cache(None)
    tiny_engine.prepared, tiny_engine.layout = None, prompt.DEFAULT_LAYOUT
    yield tiny_engine
    tiny_engine.prepared, tiny_engine.layout = None, prompt.DEFAULT_LAYOUT


def test_a_prepared_edit_reads_only_what_follows_the_window_and_writes_what_a_cold_one_writes(engine):
    ready = prepare(engine, DOC, at=AT)
    assert ready["lines"] == [5, 10] and ready["symbols"] == ["Store.get"] and ready["cached"] == 0
    text, stats = run(engine)
    assert stats.prepared == 1 and stats.prompt_cached >= ready["tokens"]
    assert stats.prompt_tokens - stats.prompt_cached < 40  # the instruction and the turn's end
    engine.restore_cache(None)
    engine.prepared, engine.layout = None, prompt.PREPARED_LAYOUT
    cold_text, cold = run(engine)
    assert (text, stats.sampled, stats.prompt_tokens) == (cold_text, cold.sampled, cold.prompt_tokens)
    assert cold.prompt_cached == 0 and cold.prepared == 0


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_the_prepared_head_begins_the_very_prompt_the_edit_builds(engine, monkeypatch, ending):
    document = DOC.replace("\n", ending)
    prepare(engine, document, at=AT)
    head = prompt.rewrite_head(engine.tok, engine.prepared, prompt.PREPARED_LAYOUT)
    prompts, decode = [], engine._decode_rewrite
    monkeypatch.setattr(engine, "_decode_rewrite", lambda plan: prompts.append(plan.ids) or decode(plan))
    with pytest.raises(IncompleteEdit):
        engine.edit(document, "Return None for a missing key.", "auto", at=AT, max_new_tokens=2)
    assert len(head) > PIECE and prompts[0][:len(head)] == head


def test_a_head_the_cache_holds_is_not_read_again(engine):
    first = prepare(engine, DOC, at=AT)
    again = prepare(engine, DOC, at=AT + 1)  # the same function
    assert again["cached"] == first["tokens"] == again["tokens"]


def test_an_edit_of_another_place_keeps_the_default_layout(engine):
    prepare(engine, DOC, at=AT)
    hooks = Decoded()
    with pytest.raises(IncompleteEdit) as refused:
        engine.edit(DOC, "Make helper return the key.", "auto", at=12, max_new_tokens=8, hooks=hooks)
    assert refused.value.stats.prepared == 0


def test_a_long_document_without_a_place_is_not_prepared_and_a_short_one_is_read_whole(engine):
    assert "no selection or cursor" in prepare(engine, DOC)["reason"]
    short = "def add(a, b):\n    return a - b\n"
    ready = prepare(engine, short)
    assert ready["lines"] == [1, 2] and ready["symbols"] == []


class StopAfter(Hooks):
    def __init__(self, pieces: int):
        self.left = pieces

    def check(self) -> None:
        if self.left == 0:
            raise Cancelled()
        self.left -= 1


def test_a_prepare_stops_between_pieces_and_keeps_what_it_read(engine):
    with pytest.raises(Cancelled):
        prepare(engine, DOC, at=AT, hooks=StopAfter(1))
    head = prompt.rewrite_head(engine.tok, engine.prepared, prompt.PREPARED_LAYOUT)
    assert len(head) > PIECE and engine.held(head) == PIECE


# -- in the worker, with a slow scripted engine ----------------------------------------------------------------


class SlowFront:
    """What prepare() needs of an engine, each prefill taking 0.1 s; edits upper-case the document."""
    layout = prompt.DEFAULT_LAYOUT
    model_name, device, dtype, context = "scripted", "cpu", "float32", 1000

    def __init__(self, tok):
        self.tok, self.tok_lock, self.prepared, self.prefills = tok, threading.Lock(), None, 0

    def encode(self, text):
        return prompt.text_ids(self.tok, text)

    def held(self, ids):
        return 0

    def prefill(self, ids, positions=0):
        self.prefills += 1
        time.sleep(0.1)

    def resolve(self, request):
        return request

    def run(self, request):
        from types import SimpleNamespace
        stats = SimpleNamespace(stop="eos", as_dict=lambda: {"stop": "eos"})
        return SimpleNamespace(text=request.document.upper(), stats=stats, program=None)


def test_an_edit_that_arrives_stops_the_prepare_at_once(qwen_tokenizer):
    from test_worker import Output
    front, out = SlowFront(qwen_tokenizer), Output()
    worker = Worker(front, out=out)
    read, write = os.pipe()
    stdin = os.fdopen(write, "w", buffering=1)
    thread = threading.Thread(target=worker.serve, args=(os.fdopen(read),), daemon=True)
    thread.start()
    body = "".join(f"        value = value + {k}\n" for k in range(60))
    long = DOC.replace("        return value\n", body + "        return value\n")
    stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "prepare", "params": {"document": long, "at": AT}})
                + "\n")
    while front.prefills == 0:
        time.sleep(0.01)
    stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "edit",
                            "params": {"document": "a\n", "instruction": "x"}}) + "\n")
    assert out.answer(1)["error"]["code"] == -32800
    assert out.answer(2)["result"]["text"] == "A\n"
    assert front.prefills <= 3  # of the head's more than ten pieces
    stdin.close()
    thread.join(5)
    assert not thread.is_alive()
