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


MARKDOWN = """# Notes

Install it:

```sh
pip install copy-as-decode
```

Then edit a file:

```python
from copy_as_decode import edit
```

And that is all.
"""


def test_a_markdown_file_with_fenced_blocks_is_rewritten_whole(qwen):
    """The rewrite's fence (~~~) cannot be closed by the file's ``` lines: the rewrite goes past them."""
    result = qwen.edit(MARKDOWN, "Change the title to '# Usage notes'.", "verified")
    assert result.text == MARKDOWN.replace("# Notes", "# Usage notes") and result.stats.stop in ("eos", "fence")


SPECIAL = ('SEP = "<|endoftext|>"\nEND = "<|im_end|>"\nFIM = "<|fim_prefix|>"\n\n\n'
           'def first_word(text):\n    return text.split()[0]\n')


def test_special_token_strings_survive_a_verified_rewrite(qwen):
    result = qwen.edit(SPECIAL, "Rename first_word to head_word.", "verified")
    assert result.text.startswith(SPECIAL.split("\n\n\n")[0])  # the three strings, byte for byte
    assert "def head_word(text):" in result.text and result.stats.spliced > 0
