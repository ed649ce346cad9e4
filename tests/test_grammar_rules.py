"""Grammar variants (core/grammar.py RULES): what each one accepts, next to the default."""
import pytest
from test_grammar import lltok, run  # noqa: F401 (fixtures)

from copy_as_decode.core.grammar import RULES, program_matcher


@pytest.mark.parametrize("text, default, cover_to_end", [
    ('<copy lines="1-5"/>', True, True),
    ('<copy lines="1-3"/><gen>x\n</gen>', True, True),
    ('<copy lines="1-2"/><gen></gen>', True, True),  # tail deletion: a final empty gen
    ('<copy lines="1-2"/><copy lines="4-5"/>', True, True),
    ('<gen>x\n</gen>', True, True),
    ("", True, True),
    ('<copy lines="1-3"/>', True, False),  # stops short: no end of program here
    ('<copy lines="1-2"/><gen>x\n</gen><copy lines="3-4"/>', True, False),
])
def test_cover_to_end_ends_only_after_a_gen_or_the_last_line(lltok, run, text, default, cover_to_end):
    assert run(program_matcher(lltok, 5, "cover-to-end"), text)[1] == cover_to_end
    assert run(program_matcher(lltok, 5), text)[1] == default


def test_no_tags_in_gen_refuses_tags_inside_a_body(lltok, run):
    m = program_matcher(lltok, 5, "no-tags-in-gen")
    assert run(m, '<gen>a <b> c</gen><copy lines="1-5"/>')[1]
    assert run(m, '<gen>x <copy lines="1-2"/></gen>')[0] == "<gen>x <"
    assert run(program_matcher(lltok, 5), '<gen>x <copy lines="1-2"/></gen>')[1]


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="cover-to-end"):
        program_matcher(None, 5, "nope")
    assert "default" in RULES
    from copy_as_decode.engine.local import LocalEngine
    with pytest.raises(ValueError, match="unknown grammar rule"):
        LocalEngine("tiny", grammar_rule="nope")
