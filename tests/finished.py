"""An untrained model's edit on a real server: finished and resolved, or refused with nothing changed."""
from copy_as_decode.core.contract import SKIPPED, UNPARSED, IncompleteEdit
from copy_as_decode.core.outline import outline
from copy_as_decode.core.program import parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.core.syntax_check import new_errors


def attempt(engine, document, *args, **kwargs):
    """(program or None, stats): the untrained model may not finish within a small budget, or may finish with
    an answer that deletes lines the instruction did not ask to remove or that no longer parses; each is an
    IncompleteEdit that changes nothing. A finished program must resolve."""
    try:
        r = engine.edit(document, *args, **kwargs)
    except IncompleteEdit as e:
        if e.stop == SKIPPED:
            assert e.stats.stop == "eos" and "unasked" in str(e)
        elif e.stop == UNPARSED:
            assert e.stats.stop == "eos" and new_errors(document, e.text, outline(document)[0])
        else:
            assert e.stop == "cap" and e.stats.sampled >= e.limit
        return None, e.stats
    assert r.text == resolve(parse(r.program), document) and r.stats.stop == "eos"
    return r.program, r.stats
