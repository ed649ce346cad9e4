"""engine/apply.py: the model places a block's parts only within MODEL_S seconds; past that nothing is written
and the message names the places it could go. The user's own cancel stays a cancel."""
import time

import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import Cancelled
from copy_as_decode.engine import apply as applying
from copy_as_decode.engine.request import EditRequest

DOC = ("class Square:\n    def area(self):\n        return self.side * self.side\n\n\n"
       "class Box:\n    def area(self):\n        return self.side * self.side\n")
BLOCK = "    def area(self):\n        return max(0, self.side) ** 2\n"  # either class's, alike


class Slow:
    """A model that thinks forever, checking its hooks between forward passes as engines do."""

    def edit(self, *fields, hooks, **named):
        while True:
            hooks.check()
            time.sleep(0.01)


class UserCancels:
    def __init__(self):
        self.calls = 0

    def check(self):
        self.calls += 1
        if self.calls > 3:
            raise Cancelled()


def test_a_tie_the_model_does_not_settle_in_time_writes_nothing_and_names_the_places(monkeypatch):
    monkeypatch.setattr(applying, "MODEL_S", 0.3)
    start = time.perf_counter()
    with pytest.raises(MergeError) as e:
        applying.apply(EditRequest(DOC, block=BLOCK, language="python"), lambda: Slow())
    assert time.perf_counter() - start < 5
    assert "did not place the block within 0.3 s" in str(e.value)
    assert "`Square.area` lines 2-3" in str(e.value) and "`Box.area` lines 7-8" in str(e.value)


def test_the_users_cancel_is_not_a_time_out(monkeypatch):
    monkeypatch.setattr(applying, "MODEL_S", 60.0)
    request = EditRequest(DOC, block=BLOCK, language="python", hooks=UserCancels())
    with pytest.raises(Cancelled):
        applying.apply(request, lambda: Slow())
