"""The quantized engine: the shipped Q4_K_M GGUF of the 0.5B run in-process by llama.cpp as the decode loop's
backend (engine/backends/decode_backend.py). The splice and the verification are the same code as on torch; what differs is
the numerics (batched and one-token kernels round differently), so these tests pin the mechanism and bound the
parting."""
import subprocess
import sys

import numpy as np
import pytest

from copy_as_decode.engine.backends import models

MODEL = "qwen2.5-coder-0.5b"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not models.is_installed(MODEL),
                                                   reason=f"{MODEL} not installed (scripts/setup.sh --test)")]
CODE = '''def mean(xs):
    """The arithmetic mean of a non-empty list."""
    total = 0
    for x in xs:
        total += x
    return total / len(xs)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
'''

DOCUMENT = CODE + "".join(f"\n\ndef plus_{i}(x):\n    return x + {i}\n" for i in range(20))  # windowed, not whole


@pytest.fixture(scope="module")
def engine():
    from copy_as_decode.engine.local import LocalEngine
    return LocalEngine(MODEL, threads=2)


def test_auto_runs_the_shipped_gguf_unless_a_torch_dtype_is_asked_for(engine):
    from copy_as_decode.engine.backends.llama_cpp import LlamaCppBackend, LlamaCppLM
    assert engine.quant == "gguf" and isinstance(engine.model, LlamaCppLM) and engine.dtype == "q4_k_m"
    assert isinstance(engine.backend, LlamaCppBackend)
    assert engine.n_vocab == 151936 and engine.context == 32768


def test_the_models_own_vocabulary_tokenizes_decodes_and_templates_as_hugging_faces(engine):
    import json
    from pathlib import Path

    from copy_as_decode.engine.backends.llama_vocab import VocabTokenizer
    from copy_as_decode.engine.prompts import prompt
    ours, hf = engine.tok, models.load_tokenizer(MODEL)
    assert isinstance(ours, VocabTokenizer) and len(ours) == len(hf) == engine.n_vocab
    assert ours.convert_ids_to_tokens(list(range(len(hf)))) == hf.convert_ids_to_tokens(list(range(len(hf))))
    assert models.eos_id(ours) == models.eos_id(hf)
    data = Path(__file__).resolve().parent.parent / "copy_as_decode" / "cases" / "data"
    # every shipped document: a case's `before`, or a locate corpus's source file (its `text`, Go, Rust, C, ...)
    rows = [json.loads(line) for f in sorted(data.glob("*.jsonl")) for line in f.open()]
    docs = [row.get("before", row.get("text")) for row in rows]
    assert all(isinstance(doc, str) for doc in docs)
    docs += ["<|im_end|> stays text", "é你好🙂\r\n\tx", ""]
    for doc in docs:
        ids = prompt.text_ids(hf, doc)
        assert prompt.text_ids(ours, doc) == ids, doc[:80]
        assert [ours.decode(ids[:k]) for k in (len(ids), 7, 1)] == [hf.decode(ids[:k]) for k in (len(ids), 7, 1)]
        assert prompt.rewrite_prompt(ours, doc[:400], "Fix it.") == prompt.rewrite_prompt(hf, doc[:400], "Fix it.")


def test_a_splice_is_one_batch_that_picks_what_single_steps_pick(engine):
    backend, ids = engine.backend, engine.encode(CODE)
    backend.restore(None)
    backend.step(ids[:20])
    copied = ids[20:60]
    parallel = backend.rows(copied)
    assert parallel.shape == (len(copied), engine.n_vocab) and parallel.dtype == np.float32 and backend.length() == 60
    backend.crop(20)
    steps = np.stack([backend.step([t]) for t in copied])
    agree = float((parallel.argmax(-1) == steps.argmax(-1)).mean())
    assert agree >= 0.9  # quantized kernels part only where two tokens nearly tie (bench kernel measures it)
    backend.crop(20)  # what crop drops is gone: the same batch again gives the same numbers
    assert np.array_equal(backend.rows(copied), parallel)
    backend.crop(20)
    assert backend.check(copied) == parallel.argmax(-1).tolist()  # a verification: the greedy choice at each


def test_a_verification_longer_than_a_batch_of_outputs_goes_in_pieces_and_keeps_every_row(engine):
    from copy_as_decode.engine.backends.llama_cpp import OUTPUTS
    backend, lm, ids = engine.backend, engine.model, engine.encode(DOCUMENT)
    assert len(ids) > 2 * OUTPUTS + 20
    backend.restore(None)
    backend.step(ids[:20])
    rows = backend.rows(ids[20:20 + 2 * OUTPUTS + 5])  # three pieces of outputs
    assert rows.shape == (2 * OUTPUTS + 5, engine.n_vocab) and backend.length() == 2 * OUTPUTS + 25
    backend.crop(20 + OUTPUTS)  # the last two pieces again, as one call that keeps only their rows
    tail = lm.forward(ids[20 + OUTPUTS:20 + 2 * OUTPUTS + 5], keep=OUTPUTS + 5)
    assert float((tail.argmax(-1) == rows[OUTPUTS:].argmax(-1)).mean()) >= 0.9


def test_a_prompt_reuses_what_the_context_holds_and_a_larger_context_keeps_it(engine):
    backend, lm, ids = engine.backend, engine.model, engine.encode(CODE)
    backend.start(ids, positions=8)
    reused_again = backend.start(ids, positions=8)
    assert reused_again == len(ids) - 1 and backend.length() == len(ids) - 1 and backend.held(ids) == len(ids) - 1
    other = ids[:30] + engine.encode("# another prompt\n")
    shared = backend.start(other, positions=8)
    assert shared == 30 and lm.resident == other[:-1]
    held, allocated = list(lm.resident), lm.allocated
    lm.reserve(allocated + 1)  # grows: the tokens it held are fed into the larger context
    assert lm.allocated > allocated and lm.resident == held


def test_forced_programs_resolve_exactly_and_copies_go_through_the_splice(engine):
    from copy_as_decode.core.program import Copy, Gen, format_program
    added = "\n\ndef mode(xs):\n    return max(set(xs), key=xs.count)\n"
    result = engine.edit(CODE, "x", "forced", program=format_program([Copy(1, 6), Gen(added), Copy(7, 12)]))
    lines = CODE.splitlines(keepends=True)
    assert result.text == "".join(lines[:6]) + added + "".join(lines[6:])
    assert result.stats.spliced > 50


def test_a_windowed_edit_rewrites_only_the_function_named(engine):
    result = engine.edit(DOCUMENT, "In `mean`, rename total to acc.", "windowed")
    assert result.stats.stop in ("eos", "fence") and result.stats.windows == "1-8 (mean)"
    head, rest = result.text.split("def median")
    assert rest == DOCUMENT.split("def median")[1] and "acc" in head  # the rest is copied, not decoded


def test_a_refinement_of_the_last_answer_prefills_only_its_instruction(engine):
    """The answer accepted, then refined: the prompt continues the last rewrite's conversation, whose tokens
    (prompt and answer as the model wrote them) the context still holds."""
    first = engine.edit(DOCUMENT, "In `mean`, rename `total` to `acc`.", "windowed")
    assert "acc += x" in first.text and not first.stats.follows
    again = engine.edit(first.text, "In `mean`, add a comment above the loop.", "windowed")
    assert again.stats.follows and again.stats.windows == first.stats.windows
    new = again.stats.prompt_tokens - again.stats.prompt_cached
    assert new < 40, f"{new} of {again.stats.prompt_tokens} prompt tokens prefilled"  # the new turn only
    fresh = engine.edit(DOCUMENT, "In `median`, rename `s` to `ordered`.", "windowed")  # another window
    assert not fresh.stats.follows


def test_the_cli_edits_with_the_quantized_default(tmp_path):
    f = tmp_path / "stats.py"
    f.write_text(DOCUMENT)
    done = subprocess.run([sys.executable, "-m", "copy_as_decode.cli", "edit", str(f), "-i",
                           "In `mean`, rename total to acc.", "--model", MODEL, "--write"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    head, rest = f.read_text().split("def median")
    assert "acc = 0" in head and rest == DOCUMENT.split("def median")[1]
    assert f"{MODEL} (q4_k_m), windowed" in done.stderr
