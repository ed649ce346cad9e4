"""Copy/gen programs: `grammar` lets the model write one under the grammar (copies spliced into the KV cache);
`forced` feeds a given program through the same loop (tests and benchmarks of the mechanism)."""
from copy_as_decode.core.program import parse
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult
from copy_as_decode.engine.selectors import Front, Selector


def _grammar(front: Front, request: EditRequest) -> EditResult:
    return front.program(request, None)


def _forced(front: Front, request: EditRequest) -> EditResult:
    if request.program is None:
        raise ValueError("selector `forced` needs a program")
    return front.program(request, parse(request.program))


GRAMMAR = Selector("grammar", "the model writes a copy/gen program under the grammar; copied lines cost one "
                              "forward", _grammar, program=True)
FORCED = Selector("forced", "a given program fed through the engine", _forced, program=True, offered=False)
