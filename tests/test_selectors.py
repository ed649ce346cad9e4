"""The selector registry (engine/selectors/) is the one list every part reads: the CLI, the worker, the server's
settings, the VS Code setting and the benchmark."""
import subprocess
import sys
from pathlib import Path

import pytest

from copy_as_decode.engine import selectors
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.result import EditResult

ROOT = Path(__file__).resolve().parent.parent


def test_every_part_offers_exactly_the_registry():
    from copy_as_decode.bench import edit_bench
    from copy_as_decode.cli import build_parser
    from copy_as_decode.server.settings import Settings
    edit = build_parser()._subparsers._group_actions[0].choices["edit"]
    (option,) = [a for a in edit._actions if a.dest == "selector"]
    assert tuple(option.choices) == selectors.OFFERED == ("auto", "windowed", "once", "grammar", "verified", "full")
    assert set(selectors.OFFERED) <= set(edit_bench.SELECTORS)
    for name in selectors.OFFERED:
        assert Settings().merged({"selector": name}) == (Settings(selector=name), [])
    assert Settings().merged({"selector": "forced"})[1]  # fed programs are for tests and benchmarks only
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "sync-vscode-settings.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_registered_selector_runs_through_the_front_with_its_checks(tiny_engine, monkeypatch):
    def shout(front, request):
        return EditResult(request.restore(request.lf.upper()), Stats(stop="eos"), before=request.document)

    monkeypatch.setitem(selectors.SELECTORS, "shout", selectors.Selector("shout", "upper case", shout))
    result = tiny_engine.edit("a = 1\r\nb = 2\r\n", "x", "shout")
    assert result.text == "A = 1\r\nB = 2\r\n" and result.stats.selector == "shout"  # line endings restored once
    assert "<gen>A = 1" in result.program  # made when asked, from the two texts
    with pytest.raises(ValueError, match="unknown selector 'nope'"):
        tiny_engine.edit("a = 1\n", "x", "nope")


def test_the_front_offers_what_selectors_ask():
    """Selectors are written against selectors.Front; engine/front.py EditFront, which every engine is, offers it
    with the same parameters, so a change to one side shows here rather than in a selector's first run."""
    import inspect

    from copy_as_decode.engine.front import EditFront
    assert isinstance(EditFront(None, None, False), selectors.Front)
    for name in ("program", "rewrite", "choose_place"):
        ours, theirs = (inspect.signature(getattr(c, name)) for c in (EditFront, selectors.Front))
        assert list(ours.parameters) == list(theirs.parameters), name
