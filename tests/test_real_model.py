"""The offline Qwen2.5-Coder-0.5B: the verified selector equals greedy full regeneration token for token,
while copying most of the file instead of decoding it."""
import pytest

from copy_as_decode.engine import models

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not models.is_installed("qwen2.5-coder-0.5b"),
                                                   reason="qwen2.5-coder-0.5b not installed (scripts/setup.sh)")]


@pytest.fixture(scope="module")
def qwen():
    from copy_as_decode.engine.engine import Engine
    return Engine("qwen2.5-coder-0.5b", device="cpu", dtype="float32")


@pytest.mark.parametrize("k", [0, 57, 120])
def test_verified_equals_full_regeneration(qwen, humanevalfix_python, k):
    case = humanevalfix_python[k]
    full = qwen.edit(case.before, case.instruction, "full", max_new_tokens=400)
    verified = qwen.edit(case.before, case.instruction, "verified", max_new_tokens=400)
    assert verified.tokens == full.tokens and verified.text == full.text
    assert verified.stats.spliced > 0 and verified.stats.forwards < full.stats.forwards


def test_grammar_selector_program_resolves(qwen, humanevalfix_python):
    from copy_as_decode.core.resolver import resolve
    case = humanevalfix_python[0]
    result = qwen.edit(case.before, case.instruction, "grammar", max_new_tokens=200)
    assert result.text == resolve(result.program, case.before)
    assert result.stats.spliced > 0  # the model did copy, and the copies went through the splice
