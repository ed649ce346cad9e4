"""The windowed edit (engine/selectors/windowed.py) through the one edit front, with a scripted decoder in place of a
model: which text each window prompt gets, what comes back, and that nothing outside the windows changes."""
import pytest
from scripted_front import ScriptedFront

from copy_as_decode.core.contract import Hooks, IncompleteEdit
from copy_as_decode.core.resolver import resolve

FILLER = "".join(f"\n\ndef f{k}(a):\n    return a + {k}\n" for k in range(40))
DOC = ("import os\n\n\nclass Store:\n    def get(self, key):\n        return self.items[key]\n\n\n"
       "def helper(x):\n    return Store().get(x)\n" + FILLER)


def Scripted(tok, script):
    return ScriptedFront(tok, script, fenced=True)


def test_a_named_method_is_rewritten_dedented_and_put_back_in_place(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.replace("self.items[key]", "self.items.get(key)"))
    result = front.edit(DOC, "Fix `Store.get`: missing keys should give None.")
    assert front.seen == ["def get(self, key):\n    return self.items[key]\n\n\n"]  # dedented, blank lines after
    assert "class Store" not in front.prompts[0] and "f39" not in front.prompts[0]  # not the rest of the file
    assert result.text == DOC.replace("self.items[key]", "self.items.get(key)")
    assert result.stats.selector == "windowed" and result.stats.windows == "5-8 (Store.get)"
    assert resolve(result.program, DOC) == result.text and result.stats.deleted_lines == 0


def test_once_edits_each_window_by_a_program_over_its_numbered_lines_whose_copies_feed_nothing(qwen_tokenizer):
    front = ScriptedFront(qwen_tokenizer, '<copy lines="1-1"/><gen>    return self.items.get(key)\n</gen>'
                                          '<copy lines="3-4"/>')
    result = front.edit(DOC, "Fix `Store.get`: missing keys should give None.", "once")
    assert "1| def get(self, key):\n2|     return self.items[key]\n" in front.prompts[0]  # the window, dedented
    assert "class Store" not in front.prompts[0] and front.splices == [False]
    assert result.text == DOC.replace("self.items[key]", "self.items.get(key)")
    assert result.stats.selector == "once" and result.stats.windows == "5-8 (Store.get)"
    dropping = ScriptedFront(qwen_tokenizer, '<copy lines="2-4"/>')  # the def line left out
    with pytest.raises(IncompleteEdit, match="deletes"):
        dropping.edit(DOC, "Fix `Store.get`: missing keys should give None.", "once")


def test_lines_outside_the_windows_cannot_change(qwen_tokenizer):
    """Whatever a window's rewrite holds, the document outside it is copied."""
    front = Scripted(qwen_tokenizer, lambda d: "def helper(x):\n    return 0\n\n\n")
    result = front.edit(DOC, "Fix bugs in helper.")
    assert result.text == DOC.replace("    return Store().get(x)\n", "    return 0\n")


def test_a_window_whose_rewrite_drops_its_head_changes_nothing(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.split("\n", 1)[1])  # the body without its `def` line
    with pytest.raises(IncompleteEdit) as e:
        front.edit(DOC, "Fix `Store.get`.")
    assert e.value.stop == "skipped" and "window's head: line 5 " in str(e.value)
    assert "nothing was changed" in str(e.value)


def test_a_whole_file_answer_that_drops_the_imports_changes_nothing(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d[d.index("class Store"):])
    with pytest.raises(IncompleteEdit) as e:
        front.edit(DOC, "Make it faster.", "verified")
    assert e.value.stop == "skipped" and "head" in str(e.value)


def test_asked_deletions_may_drop_the_head(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.replace("import os\n\n\n", ""))
    assert front.edit(DOC, "Remove the unused import.", "verified").stats.deleted_lines == 1


def test_without_a_named_symbol_the_whole_file_is_rewritten_and_stats_say_why(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.replace("return a + 3", "return a + 4"))
    result = front.edit(DOC, "Make it faster.")
    assert front.seen == [DOC] and result.stats.selector == "verified"
    assert result.stats.windows == ("whole file: the instruction names no symbol of the document and no symbol "
                                    "matches its words")


def test_a_rename_rewrites_the_definition_and_each_use(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.replace("get", "fetch"))
    result = front.edit(DOC, "Rename the method `get` to `fetch` and update every use of it in this file.")
    assert len(front.seen) == 2 and result.text == DOC.replace("get", "fetch")
    assert result.stats.sampled == 6  # both windows' tokens


def test_a_selection_is_the_window_and_crlf_survives(qwen_tokenizer):
    crlf = DOC.replace("\n", "\r\n")
    front = Scripted(qwen_tokenizer, lambda d: d.replace("a + 1\n", "a + 100\n"))
    result = front.edit(crlf, "Change it.", "windowed", lines=(17, 18))
    assert front.seen == ["def f1(a):\n    return a + 1\n"]
    assert result.text == crlf.replace("a + 1\r\n", "a + 100\r\n")
    for asked in ("auto", "verified", "full"):  # a selection is a window, whatever was asked
        assert front.selector_for(asked, True, None) == "windowed"
    assert front.selector_for("once", True, None) == "once"  # already windows: its own way


def Choosing(tok, script, choice):
    return ScriptedFront(tok, script, fenced=True, choice=choice)


def test_without_a_name_the_model_chooses_among_the_search_hits(qwen_tokenizer):
    front = Choosing(qwen_tokenizer, lambda d: d.replace("self.items[key]", "self.items.get(key)"), ("Store.get", 0.9))
    result = front.edit(DOC, "Missing keys should give None instead of raising in the store.")
    assert "Store.get (method, lines 5-6):\n    def get(self, key):\n    return self.items[key]\n" in front.choice_prompt
    assert front.options[0] == "Store.get" and len(front.options) <= 5
    assert result.text == DOC.replace("self.items[key]", "self.items.get(key)")
    assert result.stats.windows == "5-8 (Store.get)"


def test_an_unsure_choice_that_is_not_the_search_first_takes_the_search_first(qwen_tokenizer):
    front = Choosing(qwen_tokenizer, lambda d: d, ("helper", 0.3))
    result = front.edit(DOC, "Missing keys should give None instead of raising in the store.")
    assert front.options == ["Store.get", "helper"] and front.seen == ["def get(self, key):\n    return self.items[key]\n\n\n"]
    assert result.stats.windows == "5-8 (Store.get)"
    front = Choosing(qwen_tokenizer, lambda d: d, ("helper", 0.8))  # sure: its own choice
    assert front.edit(DOC, "Missing keys should give None instead of raising in the store.").stats.windows == "9-12 (helper)"


def test_quoted_code_that_one_symbol_holds_is_the_window_without_a_choice(qwen_tokenizer):
    front = Choosing(qwen_tokenizer, lambda d: d.replace("a + 7", "a * 7"), None)
    result = front.edit(DOC, "Fix the bug: `a + 7` should be `a * 7`.")
    assert front.options is None and result.stats.windows == "41-44 (f7)"


def test_the_cursor_picks_the_window_without_a_choice(qwen_tokenizer):
    front = Choosing(qwen_tokenizer, lambda d: d.replace("a + 7", "a * 7"), None)
    result = front.edit(DOC, "This should multiply.", at=42)
    assert front.options is None and result.stats.selector == "windowed" and result.stats.windows == "41-44 (f7)"
    assert result.text == DOC.replace("a + 7", "a * 7")


def test_a_window_that_replaces_its_body_with_a_call_changes_nothing_and_names_the_lines(qwen_tokenizer):
    body = "".join(f"    x{k} = a * {k}\n" for k in range(12))
    rest = "".join(f"    y{k} = a - {k}\n" for k in range(14))  # kept: the rewrite is no part of the window
    doc = DOC.replace("def f7(a):\n", "def f7(a):\n" + body + rest)
    front = Choosing(qwen_tokenizer, lambda d: d.replace(body, "    x0 = other(a)\n"), None)
    with pytest.raises(IncompleteEdit) as e:
        front.edit(doc, "Make f7 multiply instead.")
    assert e.value.stop == "skipped" and "lines 42-53" in str(e.value) and "nothing was changed" in str(e.value)
    assert e.value.text == doc.replace(body, "    x0 = other(a)\n")  # offered for review by an editor


def test_the_local_engine_chooses_under_a_grammar(tiny_engine):
    """A random model still answers one of the names, with a probability in (0, 1]."""
    name, p = tiny_engine.choose(tiny_engine.encode("pick: "), ["alpha", "beta.gamma", "delta_x"], Hooks())
    assert name in ("alpha", "beta.gamma", "delta_x") and 0 < p <= 1


MOVE_DOC = ("import os\n\n\nclass Box:\n    def total(self):\n        return self.helper(self.items) + 1\n\n"
            "    def helper(self, values):\n        out = 0\n        for v in values:\n            out += v\n"
            "        return out\n\n    def size(self):\n        return len(self.items)\n" + FILLER)
MOVE = ("Refactor the `helper` method in the `Box` class to be a stand alone, top level function. Name the new "
        "function `helper`, exactly the same name as the existing method. Update any existing `self.helper` calls "
        "to work with the new `helper` function.")


def test_a_method_moved_out_of_its_class_goes_after_it_as_moved_copies_and_its_calls_follow(qwen_tokenizer):
    front = Scripted(qwen_tokenizer, lambda d: d.replace("def helper(self, values):", "def helper(values):"))
    result = front.edit(MOVE_DOC, MOVE)
    assert front.seen == ["def helper(self, values):\n    out = 0\n    for v in values:\n        out += v\n"
                          "    return out\n\n"]  # the method alone, dedented; the call is not the model's
    assert "write it as that top-level function" in front.prompts[0]
    assert result.text == MOVE_DOC.replace("self.helper(", "helper(").replace(
        "    def helper(self, values):\n        out = 0\n        for v in values:\n            out += v\n"
        "        return out\n\n", "").replace(
        "        return len(self.items)\n", "        return len(self.items)\n\n\ndef helper(values):\n    out = 0\n"
        "    for v in values:\n        out += v\n    return out\n", 1)
    assert '<copy lines="9-12" indent="-4"/>' in result.program and resolve(result.program, MOVE_DOC) == result.text
    assert result.stats.windows == "6-6 (line 6), 8-13 (Box.helper, moved after 15)"


def test_calls_of_a_moved_method_keep_self_when_the_function_takes_it():
    from copy_as_decode.engine.selectors.windowed import called
    line = "        x = self.helper(a) + self.helper() + self.helpers(b)\n"
    assert called(line, "helper", "def helper(values):\n") == "        x = helper(a) + helper() + self.helpers(b)\n"
    assert called(line, "helper", "def helper(self, values):\n") == \
        "        x = helper(self, a) + helper(self) + self.helpers(b)\n"


def test_a_rewrite_of_the_last_answer_continues_its_conversation(qwen_tokenizer):
    """Accept, then refine: the second prompt is the first, the answer as the model wrote it, then the new
    instruction, so an engine whose cache holds the first decode prefills only that; anything else is fresh."""
    front = Scripted(qwen_tokenizer, lambda d: d.replace("self.items[key]", "self.items.get(key)"))
    first = front.edit(DOC, "Fix `Store.get`: missing keys should give None.")
    second = front.edit(first.text, "In `Store.get`, give a default of 0 instead.")
    assert second.stats.follows and not first.stats.follows
    head = qwen_tokenizer.encode(front.prompts[0], add_special_tokens=False)
    assert qwen_tokenizer.encode(front.prompts[1], add_special_tokens=False)[:len(head)] == head
    assert front.prompts[1].count("Instruction:") == 2 and front.prompts[1].count("def get") == 2
    assert front.prompts[1].rindex("give a default of 0") > front.prompts[1].rindex("self.items.get(key)")
    front.edit(DOC, "Fix `Store.get`: missing keys should give None.")  # not the last answer: a fresh prompt
    assert front.prompts[2] == front.prompts[0]
    front.choose(qwen_tokenizer.encode("pick"), ["a"], Hooks())  # another decode between: nothing to continue
    front.edit(first.text, "In `Store.get`, give a default of 0 instead.")
    assert front.prompts[3].count("Instruction:") == 1
    again = front.edit(DOC, "Fix `Store.get`: missing keys should give None.")
    front.resident = front.resident[:5]  # the cache no longer holds it: the conversation would cost more
    assert not front.edit(again.text, "In `Store.get`, give a default of 0 instead.").stats.follows
