"""Grammar variants used for measurements: what each one accepts, and that the default comes back."""
import pytest

from copy_as_decode.core.grammar import program_matcher
from copy_as_decode.train.grammar_rules import GRAMMAR_RULES, grammar_rule
from test_grammar import lltok, run  # noqa: F401 (fixtures)


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
    with grammar_rule("cover-to-end"):
        strict = program_matcher(lltok, 5)
    assert run(strict, text)[1] == cover_to_end
    assert run(program_matcher(lltok, 5), text)[1] == default  # the patch ends with the block


def test_no_tags_in_gen_refuses_tags_inside_a_body(lltok, run):
    with grammar_rule("no-tags-in-gen"):
        m = program_matcher(lltok, 5)
    assert run(m, '<gen>a <b> c</gen><copy lines="1-5"/>')[1]
    assert run(m, '<gen>x <copy lines="1-2"/></gen>')[0] == "<gen>x <"
    assert run(program_matcher(lltok, 5), '<gen>x <copy lines="1-2"/></gen>')[1]


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="cover-to-end"):
        with grammar_rule("nope"):
            pass
    assert "default" in GRAMMAR_RULES
