"""The model's own rewrite of the whole document: `full` decodes every token; `verified` drafts the document's
next lines and checks them against the model's greedy choice in one forward, so its output is `full`'s at the
speed of copying (engine/decoding/decode.py decode_rewrite)."""
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult
from copy_as_decode.engine.selectors import Front, Selector


def _full(front: Front, request: EditRequest) -> EditResult:
    return front.rewrite(request, draft=False)


def _verified(front: Front, request: EditRequest) -> EditResult:
    return front.rewrite(request, draft=True)


FULL = Selector("full", "the model's plain rewrite of the whole file, token by token", _full)
VERIFIED = Selector("verified", "the model's own rewrite, drafted from the file and verified: `full`'s output at "
                                "the speed of copying", _verified)
