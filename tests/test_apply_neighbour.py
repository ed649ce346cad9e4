"""engine/apply.py and core/block_merge.py on a new definition that no prose, neighbour or caller places: after
the definition named like it (its kin) without a model; else the model picks the definition it goes right after
from the names of the scope's definitions (one short constrained choice, no rewrite), taken only when it is
sure (NEIGHBOUR_SURE) and within MODEL_S; otherwise nothing is written and the message names its likeliest place.
Each merged result is compared byte for byte with the file a developer means."""
import time

import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.engine import apply as applying
from copy_as_decode.engine.request import EditRequest

GO = """package table

type Table struct {
\tcaption string
\talign   int
}

func (t *Table) SetHeader(h []string) {
\t_ = h
}

func (t *Table) SetCaption(c string) {
\tt.caption = c
}

func (t *Table) SetFooter(f []string) {
\t_ = f
}

func (t *Table) Render() {
}
"""

ALIGN = "func (t *Table) SetCaptionAlignment(a int) {\n\tt.align = a\n}\n"


def test_a_new_function_goes_after_the_one_named_like_it_without_a_model():
    got = applying.apply(EditRequest(GO, block=ALIGN, language="go")).text
    assert got == GO.replace("\tt.caption = c\n}\n", "\tt.caption = c\n}\n\n" + ALIGN)


C = """#include <stdio.h>

static void setError(int type, const char *s) {
    (void)type; (void)s;
}

static int chrtos(char *buf) {
    return buf[0];
}

static void setErrorOOM(void) {
    setError(1, "Out of memory");
}

static int readBytes(int n) {
    return n;
}

static int readLine(int n) {
    return n;
}
"""

FMT = "static void setErrorFmt(int type, const char *fmt) {\n    setError(type, fmt);\n}\n"


def test_a_new_function_goes_after_the_last_of_its_kin_that_stand_together():
    got = applying.apply(EditRequest(C, block=FMT, language="c")).text
    assert got == C.replace('"Out of memory");\n}\n', '"Out of memory");\n}\n\n' + FMT)


KT = """package demo

class Factory {
    fun create(card: Card): Params {
        val address = card.address
        return Params(address)
    }

    fun createBank(bank: Bank): Params {
        return Params(bank.name)
    }

    fun createWallet(w: Wallet): Params {
        return Params(w.id)
    }
}

class Other {
    fun run() {
    }
}
"""


def test_a_method_shown_alone_goes_after_the_one_method_that_calls_it():
    doc = KT.replace("val address = card.address", "val address = normalized(card.address)")
    method = "    fun normalized(a: Address): Address {\n        return a.trim()\n    }\n"
    got = applying.apply(EditRequest(doc, block=method, language="kotlin")).text
    assert got == doc.replace("return Params(address)\n    }\n", "return Params(address)\n    }\n\n" + method)


class Picks:
    """A model that picks `label` with probability `p` among what it is offered (and records the offer)."""

    def __init__(self, label: str, p: float, seconds: float = 0.0):
        self.label, self.p, self.seconds, self.offered = label, p, seconds, None

    def choose_neighbour(self, new, candidates, options, hooks):
        self.offered = options
        end = time.perf_counter() + self.seconds
        while time.perf_counter() < end:
            hooks.check()
            time.sleep(0.01)
        return self.label, self.p


PY = '''class Store:
    def get(self, key):
        return self.data[key]

    def put(self, key, value):
        self.data[key] = value

    def drop(self, key):
        del self.data[key]
'''
NEW = "    def keys(self):\n        return list(self.data)\n"


def test_the_model_s_sure_pick_among_the_scope_s_names_places_a_new_method():
    model = Picks("put", 0.97)
    result = applying.apply(EditRequest(PY, block=NEW, language="python"), lambda: model)
    assert model.offered == ["get", "put", "drop"]
    assert result.text == PY.replace("        self.data[key] = value\n", "        self.data[key] = value\n\n" + NEW)
    assert "the model put it after `Store.put` (p 0.97" in result.model_parts[0]


def test_an_unsure_pick_writes_nothing_and_names_the_likeliest_place():
    with pytest.raises(MergeError) as e:
        applying.apply(EditRequest(PY, block=NEW, language="python"), lambda: Picks("get", 0.4))
    assert "the model's likeliest place, after `Store.get` (lines 2-3), at p 0.40" in str(e.value)
    assert "--at LINE" in str(e.value)


def test_a_pick_past_the_time_limit_writes_nothing(monkeypatch):
    monkeypatch.setattr(applying, "MODEL_S", 0.2)
    with pytest.raises(MergeError, match="did not choose within 0.2 s where the part goes"):
        applying.apply(EditRequest(PY, block=NEW, language="python"), lambda: Picks("put", 0.99, seconds=5))


def test_without_a_model_the_new_method_is_refused_and_the_cursor_places_it():
    with pytest.raises(MergeError, match="`keys` is new and the answer does not say where it goes among the 3"):
        applying.apply(EditRequest(PY, block=NEW, language="python"))
    got = applying.apply(EditRequest(PY, block=NEW, language="python", at=3)).text
    assert got == PY.replace("        return self.data[key]\n", "        return self.data[key]\n\n" + NEW)


CPP = """class SolverImpl
{
public:
\tdouble suggestedValue( const Variable& variable ) const
\t{
\t\tauto it = m_edits.find( variable );
\t\tif( it == m_edits.end() )
\t\t\tthrow UnknownEditVariable( variable );
\t\treturn it->second.constant;
\t}
};
"""


def test_a_wrapper_that_hands_the_work_to_an_object_s_namesake_is_not_the_file_s_method():
    """The answer's second block is the public class's forwarding method (another file's): it does not
    replace the implementation that does the work."""
    wrapper = "\tdouble suggestedValue( const Variable& variable ) const\n\t{\n" \
              "\t\treturn m_impl.suggestedValue( variable );\n\t}\n"
    with pytest.raises(MergeError, match="calls `suggestedValue` of another object: it is a wrapper"):
        applying.apply(EditRequest(CPP, block=wrapper, language="cpp"))
