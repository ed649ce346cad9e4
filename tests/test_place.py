"""Where an edit lands, said before it decodes (engine/locate.py, the windowed edit's place and partial hooks),
with a scripted model in place of one."""
import pytest
from scripted_front import ScriptedFront

from copy_as_decode.core import windows
from copy_as_decode.core.contract import EOS, Hooks
from copy_as_decode.engine import locate
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.request import EditRequest

FILLER = "".join(f"\n\ndef f{k}(a):\n    return a + {k}\n" for k in range(40))
DOC = ("import os\n\n\nclass Store:\n    def get(self, key):\n        value = self.items[key]\n"
       "        return value\n\n\ndef helper(x):\n    return Store().get(x)\n" + FILLER)
UNNAMED = "Missing keys should give None instead of raising in the store."


class Streaming(ScriptedFront):
    """Rewrites as ScriptedFront does, reporting progress a few tokens at a time, as a decode does."""

    def _decode_rewrite(self, plan):
        tokens, text, stats = super()._decode_rewrite(plan)
        for k in range(1, len(text) + 1, 7):
            plan.hooks.progress(Stats(stop="", sampled=k, budget=plan.budget.limit), text[:k])
        plan.hooks.progress(Stats(stop="", sampled=len(text), budget=plan.budget.limit), text)
        return tokens, text, stats


class Recorder(Hooks):
    def __init__(self):
        self.events = []

    def progress(self, stats, text):
        self.events.append(("progress", stats.sampled))

    def place(self, place):
        self.events.append(("place", place))

    def partial(self, partial):
        self.events.append(("partial", partial))


def test_the_place_comes_before_the_decode_and_whole_lines_stream_indented(qwen_tokenizer):
    front = Streaming(qwen_tokenizer, lambda d: d.replace("self.items[key]", "self.items.get(key)"), fenced=True)
    hooks = Recorder()
    result = front.edit(DOC, "Fix `Store.get`: missing keys should give None.", hooks=hooks)
    kinds = [e[0] for e in hooks.events]
    assert kinds[0] == "place" and kinds.count("place") == 1
    assert hooks.events[0][1] == {"lines": [5, 9], "symbols": ["Store.get"], "window": 1, "of": 1,
                                  "reason": "named: Store.get"}
    partials = [e[1] for e in hooks.events if e[0] == "partial"]
    assert all(p["lines"] == [5, 9] for p in partials)
    texts = [p["text"] for p in partials]
    assert texts == sorted(texts, key=len) and all(t.endswith("\n") for t in texts)  # growing, whole lines
    assert texts[0] == "    def get(self, key):\n"  # indented as it will be written
    assert texts[-1] == "".join(result.text.splitlines(True)[4:9])  # the fence line is not text
    assert 0 < result.stats.first_token_s <= result.stats.first_line_s <= result.stats.total_s


def test_a_whole_file_edit_says_so_with_its_reason(qwen_tokenizer):
    front = Streaming(qwen_tokenizer, lambda d: d.replace("return 1", "return 2"), fenced=True)
    hooks = Recorder()
    front.edit("def f():\n    return 1\n", "Return 2.", hooks=hooks)
    place = hooks.events[0][1]
    assert place["lines"] == [1, 2] and place["symbols"] == [] and place["whole"]
    assert "short document" in place["reason"]
    assert [e[1]["text"] for e in hooks.events if e[0] == "partial"][-1] == "def f():\n    return 2\n"


def test_a_selection_names_the_symbols_it_holds(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, lambda d: d, fenced=True)
    hooks = Recorder()
    front.edit(DOC, "Tidy up.", hooks=hooks, lines=(10, 12))
    assert hooks.events[0][1]["symbols"] == ["helper"] and hooks.events[0][1]["lines"] == [10, 12]


def test_locate_without_a_model_when_a_name_or_the_cursor_decides(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, "", choice=None)
    place = locate.locate(front, DOC, "Fix `Store.get`.")
    assert place.decisive and not place.candidates and front.options is None
    assert place.as_dict() == {"windows": [{"lines": [5, 9], "symbols": ["Store.get"]}], "reason": "named: Store.get",
                               "decisive": True, "candidates": []}
    assert locate.locate(front, DOC, UNNAMED, at=11).as_dict()["windows"][0]["symbols"] == ["helper"]
    short = locate.locate(front, "x = 1\n", UNNAMED).as_dict()
    assert short["windows"] == [{"lines": [1, 1], "symbols": []}] and short["decisive"]


def test_a_sure_choice_that_agrees_with_the_search_decides(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, "", choice=("Store.get", 0.95))
    place = locate.locate(front, DOC, UNNAMED)  # the search alone is not decisive here: a sure model decides
    assert place.decisive and place.chose and place.describe() == "lines 5-9 (Store.get)"
    assert place.candidates[0].as_dict() == {"lines": [5, 9], "symbol": "Store.get", "first": "def get(self, key):",
                                             "p": 0.95}


def test_an_unsure_choice_is_offered_as_a_pick_led_by_the_search_first(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, "", choice=("helper", 0.4))
    d = locate.locate(front, DOC, UNNAMED).as_dict()
    assert not d["decisive"] and "not decided" in d["reason"]
    assert [c["symbol"] for c in d["candidates"]] == ["Store.get", "helper"]  # the search's first, the model's second
    assert d["candidates"][0]["p"] is None and d["candidates"][1]["p"] == 0.4
    assert d["windows"] == [{"lines": [5, 9], "symbols": ["Store.get"]}]
    sure = locate.locate(ScriptedFront(qwen_tokenizer, "", choice=("helper", 0.99)), DOC, UNNAMED)
    assert not sure.decisive and sure.candidates[1].symbol == "helper"  # another than the search's first: asked
    agreed = locate.locate(ScriptedFront(qwen_tokenizer, "", choice=("Store.get", windows.SURE)), DOC, UNNAMED)
    assert agreed.decisive and agreed.describe() == "lines 5-9 (Store.get)"
    unsure = locate.locate(ScriptedFront(qwen_tokenizer, "", choice=("Store.get", windows.SURE - 0.01)), DOC, UNNAMED)
    assert not unsure.decisive and unsure.candidates[0].symbol == "Store.get"


def test_a_decided_place_is_found_once_and_the_edit_takes_it(qwen_tokenizer, monkeypatch):
    """The CLI's and the worker's hand-off: the place locate decided goes with the edit (EditRequest's `place`),
    which neither searches nor asks the model again."""
    front = ScriptedFront(qwen_tokenizer, lambda d: d.replace("return value", "return value or None"), fenced=True,
                          choice=("Store.get", 0.95))
    place = locate.locate(front, DOC, UNNAMED)
    front.options = None
    monkeypatch.setattr(windows, "find", lambda *a, **k: pytest.fail("the place was found again"))
    result = front.edit(DOC, UNNAMED, place=place.plan)
    assert front.options is None and front.seen == ["def get(self, key):\n    value = self.items[key]\n"
                                                    "    return value\n\n\n"]
    assert result.text == DOC.replace("return value\n", "return value or None\n", 1)
    assert result.stats.selector == "windowed" and result.stats.windows == "5-9 (Store.get)"


def test_a_place_on_the_wire_is_read_once_at_the_door():
    wire = {"document": DOC, "instruction": UNNAMED, "language": "python",
            "place": {"windows": [{"lines": [5, 9], "symbols": ["Store.get"]}], "reason": "the user's pick: Store.get"}}
    place = EditRequest.from_wire(wire).place
    assert place.windows == [windows.Window(5, 9, ("Store.get",))] and place.reason == "the user's pick: Store.get"
    assert EditRequest.from_wire({"document": DOC}).place is None
    with pytest.raises(ValueError, match="outside the document's lines 1-171"):
        EditRequest.from_wire({**wire, "place": {"windows": [{"lines": [170, 172], "symbols": []}], "reason": "x"}})
    for bad in ({"windows": [], "reason": "x"}, {"windows": [{"lines": [9, 5], "symbols": []}], "reason": "x"},
                {"windows": [{"lines": [5, 9], "symbols": "g"}], "reason": "x"}, [5, 9]):
        with pytest.raises(TypeError):
            EditRequest.from_wire({**wire, "place": bad})


def test_an_engine_that_cannot_choose_offers_the_search_order(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, "", choice=None)
    d = locate.locate(front, DOC, UNNAMED).as_dict()
    assert not d["decisive"] and d["candidates"][0]["symbol"] == "Store.get"


def test_quoted_code_one_symbol_holds_decides_without_the_model(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, "", choice=None)
    place = locate.locate(front, DOC, "Fix the bug: `a + 7` should be `a * 7`.")
    assert place.decisive and not place.candidates and front.options is None
    assert place.describe() == "lines 42-45 (f7)" and "holds the code it quotes" in place.reason


def test_stats_carry_the_first_token_and_line_times():
    assert {"first_token_s", "first_line_s"} <= set(Stats(stop=EOS).as_dict())
