"""The `copy-as-decode` command on a scripted model (scripted_front.py) instead of a real one, for tests that run it
as a user does, in a process of its own and at a terminal: `python tests/scripted_cli.py edit PATH -i TEXT ...`.

The model cannot choose among candidate places, so the place of an edit that names none is never decided, and it
rewrites each window with every " + " made " - ", closing its block. Before it exits the command says on stderr
how often the model was loaded and the outline searched for the place: "loads 1, searches 1".
"""
import sys

from scripted_front import ScriptedFront

from copy_as_decode import cli
from copy_as_decode.core import windows
from copy_as_decode.engine.backends.models import load_tokenizer

COUNTS = {"loads": 0, "searches": 0}
_find = windows.find


def make_engine(args):
    COUNTS["loads"] += 1
    front = ScriptedFront(load_tokenizer(), lambda document: document.replace(" + ", " - "), fenced=True)
    front.model_name, front.dtype = "scripted", "none"
    return front


def find(*args, **kwargs):
    COUNTS["searches"] += 1
    return _find(*args, **kwargs)


if __name__ == "__main__":
    cli.make_engine, windows.find = make_engine, find
    code = cli.main(sys.argv[1:])
    print(", ".join(f"{k} {n}" for k, n in COUNTS.items()), file=sys.stderr)
    sys.exit(code)
