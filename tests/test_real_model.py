"""The offline Qwen2.5-Coder-0.5B: the verified selector equals greedy full regeneration token for token,
while copying most of the file instead of decoding it."""
import pytest

from copy_as_decode.engine.backends import models

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not models.is_installed("qwen2.5-coder-0.5b"),
                                                   reason="qwen2.5-coder-0.5b not installed (scripts/setup.sh)")]


@pytest.fixture(scope="module")
def qwen():
    from copy_as_decode.engine.local import LocalEngine
    return LocalEngine("qwen2.5-coder-0.5b", device="cpu", dtype="float32")


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


def test_bfloat16_loads_from_its_own_weight_cache(qwen):
    """A built-in in bfloat16 is written once as bfloat16 weights beside the float32 cache and then mapped
    straight into the model: the same numbers as the float32 weights rounded to bfloat16, in half the bytes."""
    import torch
    model, _ = models.load("qwen2.5-coder-0.5b", "cpu", "bfloat16")
    cache = models.cache_dir("qwen2.5-coder-0.5b") / "bfloat16" / "model.safetensors"
    assert cache.exists() and cache.stat().st_size * 2 <= (cache.parent.parent / "model.safetensors").stat().st_size + 2**20
    for name in ("model.embed_tokens.weight", "model.layers.3.mlp.down_proj.weight", "lm_head.weight"):
        theirs, ours = dict(model.named_parameters())[name], dict(qwen.model.named_parameters())[name]
        assert theirs.dtype == torch.bfloat16 and torch.equal(theirs, ours.to(torch.bfloat16))


USERS = '''"""User lookups for the accounts views."""
import logging
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.http import Http404

log = logging.getLogger(__name__)
User = get_user_model()


@dataclass
class Lookup:
    field: str
    value: str

''' + "".join(f'''

def lookup_by_{name}(value):
    """The user whose {name} is `value`, or None."""
    try:
        return User.objects.get({name}=value)
    except ObjectDoesNotExist:
        return None
''' for name in ("email", "username", "phone", "token", "slug", "handle")) + '''

def get_user(pk):
    """The user with primary key `pk`; 404 when there is none."""
    user = User.objects.filter(pk=pk).first()
    if user is not None:
        raise Http404("no such user")
    return user


@transaction.atomic
def deactivate(user):
    user.is_active = False
    user.save()
    log.info("deactivated %s", user.pk)
'''


def test_a_named_function_of_a_long_module_is_edited_in_its_window_and_the_imports_stay(qwen):
    """The shape that once lost a module's imports: the default (auto) rewrites get_user alone."""
    from copy_as_decode.core.contract import IncompleteEdit
    instruction = "Fix the bug in get_user: it raises 404 when the user exists."
    try:
        result = qwen.edit(USERS, instruction)
    except IncompleteEdit as e:  # refusing is allowed; dropping lines is not
        assert e.stats.selector == "windowed"
        return
    start = USERS.index("def get_user")
    end = USERS.index("@transaction.atomic")
    assert result.stats.selector == "windowed" and "(get_user)" in result.stats.windows
    assert result.text.startswith(USERS[:start]) and result.text.endswith(USERS[end:])  # nothing else changed
    assert result.stats.deleted_lines == 0


WORDS = '''def first_word(text):
    """The first word of `text`."""
    return text.split()[0]


def last_word(text):
    """The last word of `text`."""
    return text.split()[-1]


def count_words(text):
    """How many words `text` has."""
    return len(text.split())
'''


def test_a_rename_in_a_short_file_never_drops_its_last_function(qwen):
    """The shape that once lost a file's last function: the whole file is rewritten, and an answer that
    leaves out the end changes nothing."""
    from copy_as_decode.core.contract import IncompleteEdit
    try:
        result = qwen.edit(WORDS, "Rename the function first_word to head_word.")
    except IncompleteEdit as e:
        assert e.stop in ("skipped", "partial")
        return
    assert "def count_words(text):" in result.text and result.stats.deleted_lines == 0
    assert "def head_word(text):" in result.text


@pytest.mark.skipif(not models.is_installed("qwen2.5-coder-1.5b"), reason="qwen2.5-coder-1.5b not installed")
def test_the_default_model_deleting_a_function_body_unasked_is_refused_and_an_asked_one_is_not(tmp_path):
    """The default 1.5B (through the CLI, in its own process), told to make a function return a helper's
    result, answers with the body gone: refused with exit 3, naming the lines, the file untouched; asked
    ("simplify"), the same edit is written."""
    import subprocess
    import sys
    from pathlib import Path
    exe = Path(sys.executable).parent / "copy-as-decode"
    body = "".join(f"    total = total + values[{k}] * {k + 2}\n" for k in range(12))
    doc = ("def helper(values):\n    return sum(values)\n\n\ndef summarize(values):\n    total = 0\n" + body
           + "    return total\n\n\ndef main():\n    print(summarize([1, 2, 3]))\n"
           + "".join(f"\n\ndef f{k}(a):\n    return a + {k}\n" for k in range(12)))
    f = tmp_path / "totals.py"
    f.write_text(doc)

    def edit(instruction):
        return subprocess.run([str(exe), "edit", str(f), "-i", instruction, "--selector", "verified", "--write"],
                              capture_output=True, text=True, timeout=600)

    done = edit("Make `summarize` return `helper(values)` instead of computing the total itself.")
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 3 and "deletes lines 6-18" in last and "nothing was changed" in last, done.stderr
    assert f.read_text() == doc
    done = edit("Simplify `summarize`: it should just return `helper(values)`.")
    assert done.returncode == 0, done.stderr
    assert "def summarize(values):\n    return helper(values)\n" in f.read_text()
