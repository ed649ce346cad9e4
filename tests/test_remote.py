"""The remote engine: the GBNF program grammar, the continuation loop against a scripted engine (errors,
retries, stops inside gen bodies), and a real llama-server on a loopback port with the Qwen2.5-Coder-0.5B GGUF.

The real-server tests need .tools/llama-server/llama-server (scripts/build-llama-server.sh) and the installed
0.5B model; without them they are skipped with the reason.
"""
import copy
import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import llguidance
import llguidance.hf
import pytest
from finished import attempt
from json_reply import send_json

from copy_as_decode.bench import engine_process, llama_server
from copy_as_decode.core import gbnf
from copy_as_decode.core.contract import ContextError
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.gbnf import State, request_grammar, state_after
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Copy, format_program, parse
from copy_as_decode.engine.backends import models
from copy_as_decode.engine.decoding.tracker import ProgramTracker
from copy_as_decode.engine.remote import wire
from copy_as_decode.engine.remote.client import (
    EngineTimeout,
    EngineUnreachable,
    GrammarRefused,
    ModelMismatch,
    RemoteEngine,
)

pytestmark = pytest.mark.model

MODEL = "qwen2.5-coder-0.5b"
DOC = "def add(a, b):\n    return a - b\n\n\nprint(add(1, 2))\n"
GOLD = "def add(a, b):\n    return a + b\n\n\nprint(add(1, 2))\n"


# ---- the GBNF grammar, checked with llguidance's GBNF reader (no engine needed) -------------------------------

@pytest.fixture(scope="module")
def ll_tok(qwen_tokenizer):
    return llguidance.hf.from_tokenizer(qwen_tokenizer, n_vocab=151936, eos_token=models.eos_id(qwen_tokenizer))


def _accepts(ll_tok, tok, grammar: str, text: str) -> tuple[bool, bool]:
    """(text is a prefix the grammar allows, the grammar is complete after it)."""
    m = llguidance.LLMatcher(ll_tok, llguidance.grammar_from("gbnf", grammar),
                             limits=llguidance.LLParserLimits(verbose_errors=False), log_level=0)
    assert not m.is_error(), m.get_error()
    ok = all(m.consume_token(t) for t in tok.encode(text, add_special_tokens=False))
    return ok, ok and m.is_accepting()


def test_number_ranges_are_exact(ll_tok, qwen_tokenizer):
    random.seed(3)
    for lo, hi in [(1, 1), (1, 9), (3, 12), (10, 10), (7, 100), (37, 500), (99, 1000), (1, 1234), (456, 1002)]:
        g = f"root ::= {gbnf._range_expr(lo, hi)}\n"
        probes = {lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0, 10 * hi} | {random.randint(0, 2 * hi) for _ in range(12)}
        for x in sorted(p for p in probes if p >= 0):
            assert _accepts(ll_tok, qwen_tokenizer, g, str(x))[1] == (lo <= x <= hi), (lo, hi, x)
        assert not _accepts(ll_tok, qwen_tokenizer, g, "0" + str(lo))[0]  # no leading zeros


@pytest.mark.parametrize("ordered_max", [gbnf.ORDERED_MAX_LINES, 4])  # one request per copy, or split copies
def test_request_grammars_follow_the_program_rules(ll_tok, qwen_tokenizer, ordered_max):
    n = 12

    def ok(state, text):
        return _accepts(ll_tok, qwen_tokenizer, request_grammar(n, state, ordered_max), text)

    start, after3 = State(), State("between", 3, first=False)
    if ordered_max >= n:
        assert ok(start, '<gen>a</gen>\n<copy lines="1-3"/>') == (True, True)
        assert ok(after3, '\n<copy lines="4-12"/>') == (True, True)
        assert not ok(after3, '<copy lines="5-4"/>')[0]       # inverted
    else:
        assert ok(start, '<gen>a</gen>\n<copy lines="1-') == (True, True)
        assert ok(State("copy_end", 3, start=5), '12"/>') == (True, True)
        assert not ok(State("copy_end", 3, start=5), '4"/>')[0]
    assert not ok(start, '<copy lines="1-3"/>\n')[0]          # a request ends at the tag's "/>
    assert not ok(after3, '<copy lines="3-4"/>')[0]            # overlaps what was copied
    assert not ok(after3, '<copy lines="4-13"/>')[0]           # past the end
    assert not ok(after3, '<copy lines="04-5"/>')[0]           # leading zero
    assert not ok(start, '\n<gen>a</gen>')[0]                  # nothing before the first item
    assert not ok(after3, '\n\n<gen>a</gen>')[0]               # one newline between items
    assert ok(after3, "")[1] and ok(start, "")[1]              # the program may end between items
    assert not ok(State("between", 12, first=False), '<copy lines="12-12"/>')[0]  # no line left
    # gen bodies: anything but "</gen>", which closes them
    done = State("between", 12, first=False)
    assert ok(done, '<gen><a href="x"/> </ge </g<</gen>') == (True, True)
    assert not ok(done, '<gen>x </gen></gen>')[0]
    assert not ok(done, '<gen>x <</gen><</gen>')[0]
    assert ok(State("gen", 12, partial="</ge"), 'n>') == (True, True)  # the body so far ends with "</ge"
    assert ok(State("gen", 12, partial="</ge"), 'x</gen>') == (True, True)
    # ... nor a copy tag or a gen opening (the untrained model's runaway), unless tags_in_gen
    for body in ('<copy lines="3-4"/>', "x <gen>y", "<<copy", "</<gen>", "<gen/>", "a\n<gen "):
        assert not ok(done, f"<gen>{body}</gen>")[0], body
        tagged = request_grammar(n, done, ordered_max, tags_in_gen=True)
        assert _accepts(ll_tok, qwen_tokenizer, tagged, f"<gen>{body}</gen>") == (True, True), body
    assert ok(done, "<gen><cop <copper <ge <g <c </c <</g</ge</gen>") == (True, True)
    assert ok(State("gen", 12, partial="<cop"), "e</gen>") == (True, True)
    assert not ok(State("gen", 12, partial="<cop"), "y")[0]


def test_gen_bodies_are_bounded(ll_tok, qwen_tokenizer):
    def ok(state, text, n=12):
        return _accepts(ll_tok, qwen_tokenizer, request_grammar(n, state, gen_lines=2), text)

    assert ok(State(), '<gen>a\nb\n</gen>\n<copy lines="1-3"/>') == (True, True)
    assert ok(State(), '<gen>a\nb</gen>') == (True, True)          # the last line needs no newline
    assert not ok(State(), '<gen>a\nb\n\n')[0]                      # a third newline
    assert not ok(State(), '<gen>a\nb\nc')[0]                       # after the last one it can only close
    assert not ok(State(), '<gen>a</gen><gen>b</gen>')[0]           # no gen after a gen
    assert not ok(State(), '<gen>a</gen>\n<gen>b</gen>')[0]
    assert ok(State("gen", 3, partial="</", lines=1), 'x\n</gen>') == (True, True)
    assert not ok(State("gen", 3, lines=2), 'x')[0]
    assert ok(State("between", 3, first=False, after_gen=True), '<copy lines="4-4"/>') == (True, True)
    assert not ok(State("between", 3, first=False, after_gen=True), '<gen>')[0]
    done = State("between", 12, first=False, after_gen=True)       # every line spent: only the end is left
    assert ok(done, "") == (True, True) and not ok(done, "\n")[0]


def test_state_after_reads_the_program_so_far():
    t = ProgramTracker()
    t.feed('<gen>a</gen><copy lines="2-4"/>')
    assert state_after(t.items, "") == State("between", 4, first=False)
    assert state_after(t.items, "\n") == State("between", 4, first=False, newline=True)
    assert state_after(t.items, '\n<gen>x <a b="c"/></g') == State("gen", 4, partial="</g")
    assert state_after(t.items, '<copy lines="7-') == State("copy_end", 4, start=7)
    assert state_after(t.items, '<gen>a\nb\n</') == State("gen", 4, partial="</", lines=2)
    t.feed("<gen>x</gen>")
    assert state_after(t.items, "") == State("between", 4, first=False, after_gen=True)
    assert state_after([], "") == State()
    with pytest.raises(gbnf.ProgramStateError):
        state_after(t.items, "\n\n")
    with pytest.raises(gbnf.ProgramStateError):
        state_after(t.items, "hello")
    with pytest.raises(gbnf.ProgramStateError, match="inside a gen body"):
        state_after(t.items, '<gen>a <copy lines="1-2"/>')
    assert state_after(t.items, '<gen>a <copy lines="1-2"/> <co', tags_in_gen=True) == State("gen", 4, partial="")
    assert state_after(t.items, '<gen>a <co') == State("gen", 4, partial="<co")


# ---- the continuation loop against a scripted engine -----------------------------------------------------------

class FakeEngine:
    """A llama-server look-alike on a loopback port: /v1/models, /tokenize and /completion answer from
    Python callables (JSON, or a str sent as it is); every request is recorded."""

    def __init__(self, tok, owner="llamacpp"):
        self.tok, self.requests, self.script = tok, [], []
        self.routes = {
            ("GET", "/v1/models"): lambda b: (200, {"data": [{"id": "fake.gguf", "owned_by": owner,
                                                               "meta": {"n_ctx": 4096}}]}),
            ("POST", "/tokenize"): lambda b: (200, {"tokens": tok.encode(b["content"], add_special_tokens=False)}),
            ("POST", "/completion"): self._scripted,
        }
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _serve(self, method):
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n)) if n else None
                fake.requests.append((method, self.path, body, dict(self.headers)))
                route = fake.routes.get((method, self.path))
                send_json(self, *(route(body) if route else (404, {"error": {"message": "not found"}})))

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _scripted(self, body):
        step = self.script.pop(0)
        if callable(step):
            return step(body)
        text, stop = step
        tokens = self.tok.encode(text, add_special_tokens=False) + ([models.eos_id(self.tok)] if stop == "eos" else [])
        content = text.split('"/>')[0] if stop == "word" and '"/>' in text else text  # the stop string is cut
        n = len(body["prompt"])
        return 200, {"content": content, "tokens": tokens, "stop_type": stop,
                     "timings": {"prompt_n": 1, "cache_n": n - 1, "prompt_ms": 1.0, "predicted_ms": 1.0}}

    def completions(self):
        return [r[2] for r in self.requests if r[1] == "/completion"]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake(qwen_tokenizer):
    f = FakeEngine(qwen_tokenizer)
    yield f
    f.close()


def test_stop_inside_a_gen_body_continues_the_gen(fake, qwen_tokenizer):
    """`"/>` in HTML inside a gen fires the stop string; the loop continues inside the body, and only a real
    copy tag splices lines."""
    doc = "<p>\nhello\n</p>\n"
    fake.script = [('<gen><br class="a"/>', "word"), ('\n</gen><copy lines="1-2"/>', "word"), ("<gen>x</gen>", "eos")]
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    r = e.edit(doc, "add a break", "grammar", max_new_tokens=100)
    assert r.program == '<gen><br class="a"/>\n</gen><copy lines="1-2"/><gen>x</gen>'
    assert r.text == '<br class="a"/>\n<p>\nhello\nx'
    first, second, third = fake.completions()
    assert second["grammar"].startswith("root ::= genrest aftergen\n")  # still inside the gen body ...
    assert 'genrest ::= (gtext ("\\n" gb15)? "</gen>")' in second["grammar"]  # ... no line yet, 15 more to go
    assert [151643, False] in first["logit_bias"]                    # programs end with <|im_end|> only
    assert second["prompt"] == first["prompt"] + qwen_tokenizer.encode('<gen><br class="a"/>')
    copied = qwen_tokenizer.encode("<p>\nhello\n")
    assert third["prompt"][-len(copied):] == copied                  # the splice: copied lines end the prompt
    assert third["grammar"].startswith("root ::= after\n") and "copy ::=" in third["grammar"]
    assert r.stats.spliced == len(copied) and r.stats.requests == 3
    assert r.stats.remote_prompt_tokens == 3 and r.stats.remote_cached_tokens == sum(
        len(b["prompt"]) - 1 for b in (first, second, third))


def test_copies_split_over_two_requests_above_the_grammar_size_limit(fake, qwen_tokenizer, monkeypatch):
    monkeypatch.setattr(gbnf, "ORDERED_MAX_LINES", 2)
    fake.script = [('<copy lines="1-', "eos"), ('1"/>', "word"), ('<gen>    return a + b\n</gen><copy lines="3-', "eos"),
                   ('5"/>', "word"), ("", "eos")]
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    r = e.edit(DOC, "fix", "grammar", max_new_tokens=100)
    assert r.text == GOLD and r.program == '<copy lines="1-1"/><gen>    return a + b\n</gen><copy lines="3-5"/>'
    grammars = [b["grammar"] for b in fake.completions()]
    assert 'copy ::= "<copy lines=\\"" [1-5] "-"' in grammars[0]
    assert grammars[1].startswith("root ::= [1-5] close\n")          # the end may not precede the start
    assert grammars[3].startswith("root ::= [3-5] close\n")
    assert "copy ::=" not in grammars[4]                              # no line left to copy


def test_retries_repeat_the_request_never_the_result(fake, qwen_tokenizer):
    calls = []

    def flaky(body):
        calls.append(body)
        return (503, {"error": {"message": "loading model"}}) if len(calls) == 1 else fake._scripted(body)

    fake.routes[("POST", "/completion")] = flaky
    fake.script = [('<copy lines="1-1"/>', "word"), ("<gen>    return a + b\n</gen>", "word"),
                   lambda b: (503, {"error": {"message": "busy"}}), ('<copy lines="3-5"/>', "word"), ("", "eos")]
    # The third script step is consumed by the retry of the third request, which then gets the copy.
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer, retries=2)
    r = e.edit(DOC, "fix", "grammar", max_new_tokens=100)
    assert r.text == GOLD
    prompts = [b["prompt"] for b in calls]
    assert prompts[0] == prompts[1]                  # the failed request was repeated as it was
    assert prompts[3] == prompts[4]
    assert r.stats.requests == 4                      # each completion counted once, applied once


def test_an_engine_that_ignores_the_grammar_is_caught(fake, qwen_tokenizer):
    fake.script = [('<copy lines="4-9"/>', "word")]
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    with pytest.raises(GrammarRefused, match="does not apply the grammar"):
        e.edit(DOC, "fix", "grammar")
    fake.script = [("def add(a, b):", "eos")]
    with pytest.raises(GrammarRefused):
        e.edit(DOC, "fix", "grammar")


def test_grammar_refused_by_the_engine(fake, qwen_tokenizer):
    fake.script = [lambda b: (400, {"error": {"code": 400, "message": "Failed to initialize samplers: failed to "
                                                                       "parse grammar", "type": "invalid_request_error"}})]
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    with pytest.raises(GrammarRefused, match="refused the program grammar"):
        e.edit(DOC, "fix", "grammar")


def test_unreachable_endpoint(qwen_tokenizer):
    port = engine_process.free_port()
    with pytest.raises(EngineUnreachable, match=f"cannot reach the inference engine at http://127.0.0.1:{port}"):
        RemoteEngine(f"http://127.0.0.1:{port}", MODEL, tokenizer=qwen_tokenizer, retries=1)


def test_timeouts(fake, qwen_tokenizer):
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer, timeout=0.3, retries=1)
    fake.script = [lambda b: (time.sleep(1.0), (200, {}))[1]] * 2
    with pytest.raises(EngineTimeout, match="no answer within 0.3 s"):
        e.edit(DOC, "fix", "grammar")
    assert len(fake.completions()) == 2  # tried, then retried once


def test_model_mismatch_and_api_key(fake, qwen_tokenizer, monkeypatch):
    monkeypatch.setenv(wire.API_KEY_ENV, "sekret")
    fake.routes[("POST", "/tokenize")] = lambda b: (200, {"tokens": [t + 1 for t in qwen_tokenizer.encode(b["content"])]})
    with pytest.raises(ModelMismatch, match="tokenizes differently"):
        RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    assert fake.requests[-1][3].get("Authorization") == "Bearer sekret"
    del fake.routes[("POST", "/tokenize")]  # an engine without /tokenize cannot be checked
    with pytest.raises(ModelMismatch, match="cannot be checked"):
        RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer, api="openai")
    assert not RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer, verify_tokenizer=False).tokenizer_verified


def test_context_is_checked_before_sending(fake, qwen_tokenizer):
    e = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer)
    with pytest.raises(ContextError, match="context of 4096"):
        e.edit("x = 1\n" * 2000, "fix", "grammar", max_new_tokens=100)
    assert not fake.completions()


def test_make_engine_picks_where_the_model_runs(fake, qwen_tokenizer):
    from types import SimpleNamespace

    from copy_as_decode.engine.make import make_engine
    e = make_engine(SimpleNamespace(inference="remote", endpoint=fake.url, model=MODEL, api="auto"))
    assert isinstance(e, RemoteEngine) and e.api == "llama.cpp" and e.tokenizer_verified
    with pytest.raises(ValueError, match="needs an endpoint"):
        make_engine(SimpleNamespace(inference="remote", endpoint=None, model=MODEL))


@pytest.mark.parametrize("owner, api, grammar_field, tokenize_field", [
    ("vllm", "auto", "structured_outputs", "prompt"), ("sglang", "auto", "ebnf", "prompt"),
    ("someone", "auto", "grammar", "prompt"), ("llamacpp", "openai", "grammar", "content")])
def test_each_server_is_spoken_to_in_its_dialect(qwen_tokenizer, owner, api, grammar_field, tokenize_field):
    """/v1/completions: the grammar in the server's own field, tokenize on its own route, vLLM's draft counters
    from /metrics, llama-server's drafting from /slots; the answer's ids without the end token, which says eos."""
    f = FakeEngine(qwen_tokenizer, owner)
    eos = models.eos_id(qwen_tokenizer)
    f.routes[("POST", "/tokenize")] = lambda b: (200, {"tokens": qwen_tokenizer.encode(
        b[tokenize_field], add_special_tokens=False)})
    f.routes[("POST", "/v1/completions")] = lambda b: (200, {
        "choices": [{"text": "<gen>x</gen>", "token_ids": qwen_tokenizer.encode("<gen>x</gen>") + [eos],
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": len(b["prompt"]), "prompt_tokens_details": {"cached_tokens": 2}}})
    f.routes[("GET", "/metrics")] = lambda b: (200, 'vllm:spec_decode_num_draft_tokens_total{engine="0"} 12.0\n'
                                                    'vllm:spec_decode_num_accepted_tokens_total{engine="0"} 5.0\n')
    try:
        e = RemoteEngine(f.url, MODEL, api=api, tokenizer=qwen_tokenizer)
        assert e.api == "openai" and e.tokenizer_verified and e.speculative is None
        prompt = e.encode("hello")
        c = e.complete(prompt, 8, grammar='root ::= "x"', stop=['"/>'])
        method, path, body, _ = f.requests[-1]
        assert path == "/v1/completions" and body["model"] == "fake.gguf" and body["prompt"] == prompt
        want = {"grammar": 'root ::= "x"'} if grammar_field == "structured_outputs" else 'root ::= "x"'
        assert body[grammar_field] == want
        assert c.tokens == qwen_tokenizer.encode("<gen>x</gen>") and c.stop == "eos"
        assert (c.prompt_n, c.cache_n) == (len(prompt) - 2, 2)
        assert e.wire.draft_counters() == ((12, 5) if owner == "vllm" else None)
        asked = {p for _, p, _, _ in f.requests}
        assert ("/slots" in asked) == (owner == "llamacpp") and ("/metrics" in asked) == (owner == "vllm")
    finally:
        f.close()


def test_a_remote_worker_never_imports_torch(fake, qwen_tokenizer):
    """`import torch` costs seconds: a worker whose model runs on an inference engine starts, answers and edits
    (forced, grammar, full, auto) without it. -X importtime names every module the process imports."""
    program = format_program(line_oracle(DOC, GOLD))
    fake.script = [("", "limit"), ('<copy lines="1-1"/>', "word"), ("<gen>    return a + b\n</gen>", "word"),
                   ('<copy lines="3-5"/>', "word"), ("", "eos"), (GOLD[:-1], "word"), (GOLD[:-1], "word")]
    edits = [{"selector": "forced", "program": program}, {"selector": "grammar"}, {"selector": "full"}, {}]
    requests = [{"id": 0, "method": "ping"}] + [
        {"id": k, "method": "edit", "params": {"document": DOC, "instruction": "Fix the bug in add.", **p}}
        for k, p in enumerate(edits, 1)]
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "copy_as_decode.cli", "worker", "--inference",
                        "remote", "--endpoint", fake.url, "--model", MODEL],
                       input="".join(json.dumps({"jsonrpc": "2.0", **m}) + "\n" for m in requests),
                       capture_output=True, text=True, timeout=300)
    replies = {m["id"]: m for m in map(json.loads, p.stdout.splitlines()) if "id" in m}
    assert replies[0]["result"]["device"] == "remote (llama.cpp)"
    assert [replies[k]["result"]["text"] for k in range(1, len(edits) + 1)] == [GOLD] * len(edits), replies
    imported = [line.rsplit("|", 1)[1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")]
    assert "copy_as_decode.engine.remote.client" in imported and "transformers" in imported
    assert not [m for m in imported if m.split(".")[0] == "torch"]


# ---- a real llama-server ---------------------------------------------------------------------------------------

def _gguf() -> Path:
    return models.gguf_file(MODEL)


@pytest.fixture(scope="module")
def server():
    binary = llama_server.default_server_binary()
    if not binary.exists():
        pytest.skip(f"llama-server not built ({binary}); run scripts/build-llama-server.sh")
    if not _gguf().exists():
        pytest.skip(f"{MODEL} GGUF not installed; run `copy-as-decode models install {MODEL}`")
    log = Path(os.environ.get("TMPDIR", "/tmp")) / "copy-as-decode-test-llama-server.log"
    threads = max(1, min(4, (os.cpu_count() or 2) - 1))  # a spare core: llama.cpp threads stall when one is taken
    with llama_server.LlamaServer(binary, _gguf(), parallel=2, ctx=8192, threads=threads, log=log) as s:
        yield s


@pytest.fixture(scope="module")
def engine(server):
    return RemoteEngine(server.url, MODEL)


class Spy:
    """Records every completion request of a RemoteEngine: prompt length, sampled tokens, the engine's figures."""

    def __init__(self, engine, monkeypatch):
        self.calls, original = [], engine.complete

        def complete(prompt_ids, n_predict, **kw):
            c = original(prompt_ids, n_predict, **kw)
            self.calls.append((list(prompt_ids), c))
            return c
        monkeypatch.setattr(engine, "complete", complete)


def _cases():
    from copy_as_decode.cases.corpora import load
    cases = load("humanevalfix-python")
    return [cases[k] for k in (3, 35)]  # short files whose oracle programs copy twice


def test_tokenizer_is_verified_and_a_different_one_refused(engine, server, qwen_tokenizer):
    assert engine.tokenizer_verified and engine.api == "llama.cpp" and engine.context == 4096
    other = copy.deepcopy(qwen_tokenizer)  # e.g. a fine-tune that added tokens
    other.add_tokens(["return x + 1"])
    with pytest.raises(ModelMismatch, match="first difference at token"):
        RemoteEngine(server.url, MODEL, tokenizer=other)


def test_forced_programs_round_trip_and_prefill_only_new_tokens(engine, qwen_tokenizer, monkeypatch):
    spy = Spy(engine, monkeypatch)
    for case in _cases():
        spy.calls.clear()
        program = format_program(line_oracle(case.before, case.after), sep="")
        r = engine.edit(case.before, case.instruction, "forced", program=program)
        assert r.text == case.after and r.program == program
        lines = split_lines(case.before)
        copied = sum(len(qwen_tokenizer.encode("".join(lines[c.start - 1:c.end])))
                     for c in parse(program) if isinstance(c, Copy))
        assert r.stats.spliced == copied
        assert r.stats.requests == len(spy.calls) == sum(isinstance(c, Copy) for c in parse(program)) + 1
        for (before, _), (prompt, c) in zip(spy.calls, spy.calls[1:]):
            assert prompt[:len(before)] == before
            assert c.prompt_n == len(prompt) - len(before)  # the prefix cache prefilled only the new tokens
            assert c.cache_n == len(before)


def test_greedy_program_splices_through_the_prefix_cache(engine, qwen_tokenizer, monkeypatch):
    spy = Spy(engine, monkeypatch)
    case = _cases()[0]
    _, stats = attempt(engine, case.before, case.instruction, "grammar", max_new_tokens=64)
    assert stats.sampled == sum(len(c.tokens) for _, c in spy.calls) <= 64
    for (before, prev), (prompt, c) in zip(spy.calls, spy.calls[1:]):
        assert prompt[:len(before) + len(prev.tokens)] == before + prev.tokens
        # Cached: everything up to the previous request's last sampled token, which was never fed back.
        assert c.prompt_n == len(prompt) - len(before) - len(prev.tokens) + 1
    assert stats.spliced == sum(len(p) - len(b) - len(c.tokens) for (b, c), (p, _) in zip(spy.calls, spy.calls[1:]))


def test_sampled_programs_always_resolve(engine):
    docs = [(_cases()[1].before, _cases()[1].instruction), ("<ul>\n  <li>a</li>\n</ul>\n", "Add an <img/> item.")]
    for doc, instruction in docs:
        _, stats = attempt(engine, doc, instruction, "grammar", max_new_tokens=32, temperature=1.0)
        assert stats.sampled <= 32


def test_local_and_remote_greedy_choices_agree_up_to_near_ties(engine, monkeypatch):
    """llama.cpp runs the Q4_K_M GGUF with 8-bit-quantized activations; the local engine runs the same weights
    dequantized in fp32. Their logits differ slightly, so greedy decoding may part where two tokens are nearly
    tied. What must hold: at every step of the remote greedy program, the local model under the same grammar
    (local llguidance masks) prefers the remote token or is within a small logit margin of it. Measured on 10
    HumanEvalFix cases: 1 disagreement in 424 steps, at a local top-2 margin of 0.009 logits."""
    if not models.is_installed(MODEL):
        pytest.skip(f"{MODEL} not installed for the local engine")
    import torch
    from transformers import DynamicCache

    from copy_as_decode.engine.backends.prefix_cache import forward
    from copy_as_decode.engine.decoding.constraint import ProgramConstraint
    from copy_as_decode.engine.decoding.text_stream import TextStream
    spy = Spy(engine, monkeypatch)
    case = _cases()[0]
    program, _ = attempt(engine, case.before, case.instruction, "grammar", max_new_tokens=48)
    model, tok = models.load(MODEL, "cpu", "float32")
    # The sequence the engine saw: the last prompt, plus the final request's tokens (and its EOS if it ended).
    last_prompt, last = spy.calls[-1]
    seq = last_prompt + last.tokens
    sampled_at = {}  # position in seq -> the token sampled there
    for prompt, c in spy.calls:
        sampled_at.update({len(prompt) + i: t for i, t in enumerate(c.tokens)})
    start = len(spy.calls[0][0])
    with torch.inference_mode():
        cache = DynamicCache(config=model.config)
        forward(model, cache, seq[:start - 1])
        logits = forward(model, cache, seq[start - 1:], all_logits=True)  # logits[k] predicts seq[start + k]
    constraint = ProgramConstraint(tok, model.config.vocab_size, len(split_lines(case.before)))
    tracker, stream, gaps = ProgramTracker(), TextStream(tok), []
    steps = sorted(sampled_at) + ([len(seq)] if last.stop == "eos" else [])
    for p in steps:
        want = sampled_at.get(p, models.eos_id(tok))
        row = logits[p - start].float()
        allowed = torch.from_numpy(constraint.allowed(tracker.outside_gen))
        assert allowed[want], f"remote token {want} at {p} is outside the local grammar"
        best = int(row.masked_fill(~allowed, float("-inf")).argmax())
        if best != want:
            gaps.append(float(row[best] - row[want]))
        if p < len(seq):
            constraint.consume(want, fast_forward=False)
            tracker.feed(stream.push([want]))
    assert program is None or format_program(tracker.items, sep="") == program
    assert len(gaps) <= 2 and all(g < 0.5 for g in gaps), gaps  # disagreements only at near-ties


def test_openai_route_of_the_same_server(server, qwen_tokenizer):
    e = RemoteEngine(server.url + "/v1", MODEL, api="openai")
    assert e.api == "openai" and e.tokenizer_verified
    case = _cases()[1]
    program = format_program(line_oracle(case.before, case.after), sep="")
    r = e.edit(case.before, case.instruction, "forced", program=program)
    assert r.text == case.after and r.stats.remote_cached_tokens > 0
    assert r.stats.requests == sum(isinstance(c, Copy) for c in parse(program)) + 1 > 1
    attempt(e, DOC, "Fix the bug in add.", "grammar", max_new_tokens=40)


def test_real_engine_errors(engine, server):
    ids = engine.encode("hello")
    with pytest.raises(GrammarRefused, match="failed to parse grammar"):
        engine.complete(ids, 2, grammar="root ::= (")
    e = RemoteEngine(server.url, MODEL)
    e.context = None  # let the engine itself refuse an oversized prompt
    with pytest.raises(ContextError, match="exceeds the available context"):
        e.complete(ids * 5000, 2)


def test_worker_serves_edits_from_the_remote_engine(engine):
    from copy_as_decode.engine.worker import Worker
    program = format_program(line_oracle(DOC, GOLD))
    edit = {"method": "edit", "params": {"document": DOC, "instruction": "fix", "selector": "forced",
                                         "program": program}}
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, **edit},
                {"jsonrpc": "2.0", "id": 3, **edit}]  # the end of input, not `shutdown`, lets queued edits run
    out = io.StringIO()
    Worker(engine, out=out).serve(io.StringIO("".join(json.dumps(m) + "\n" for m in requests)))
    replies = {m["id"]: m for m in map(json.loads, out.getvalue().splitlines()) if "id" in m}
    assert replies[1]["result"]["device"] == "remote (llama.cpp)"
    assert replies[2]["result"]["text"] == replies[3]["result"]["text"] == GOLD
    assert replies[3]["result"]["stats"]["remote_cached_tokens"] > 0  # the engine's prefix cache served the repeat


def test_verified_is_the_plain_greedy_rewrite_with_drafts(engine, server):
    """The test engine drafts from its context (llama_server.DRAFT_FROM_CONTEXT); the same rewrite on one that
    does not must give the same tokens, with most of them drafted."""
    doc = "".join(f"def f{k}(x):\n    return x * {k} + {k * 7 % 5}\n\n\n" for k in range(4))
    instruction = "Rename f3 to triple."
    with llama_server.LlamaServer(server.binary, server.gguf, ctx=2048, threads=server.threads,
                                  speculative=False) as plain:
        full = RemoteEngine(plain.url, MODEL, tokenizer=engine.tok)
        assert full.speculative is False and engine.speculative is True
        want = full.edit(doc, instruction, "full")
    got = engine.edit(doc, instruction, "verified")
    assert got.tokens == want.tokens and got.text == want.text
    assert got.stats.spliced > len(got.tokens) / 2 and got.stats.drafted >= got.stats.spliced
    assert got.stats.sampled + got.stats.spliced == len(got.tokens) and want.stats.spliced == 0


def test_edits_survive_an_engine_that_stalls_dies_and_restarts(engine, server, monkeypatch):
    """A stalled engine times out, a killed one (in the middle of a request, or between two requests of one
    edit) is unreachable: each time one line, nothing applied. Once it is back on its port, the same
    RemoteEngine edits again."""
    import signal
    case = _cases()[0]
    program = format_program(line_oracle(case.before, case.after), sep="")  # two copies: three requests
    e = RemoteEngine(server.url, MODEL, tokenizer=engine.tok, retries=1)

    def works():
        assert e.edit(case.before, case.instruction, "forced", program=program).text == case.after

    e.wire.timeout = 1.0
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        with pytest.raises(EngineTimeout, match="no answer within 1 s"):
            works()
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    e.wire.timeout = 300.0
    works()

    failed = []
    rewrite = threading.Thread(target=lambda: failed.append(pytest.raises(EngineUnreachable, e.edit, DOC * 8,
                                                                           "Rename add to plus.", "full")))
    rewrite.start()
    deadline = time.monotonic() + 60
    while not any(s.get("is_processing") for s in e.wire.request("GET", "/slots")) and time.monotonic() < deadline:
        time.sleep(0.05)
    server.proc.kill()  # a crash in the middle of decoding
    rewrite.join(30)
    assert failed and "cannot reach the inference engine" in str(failed[0].value)
    server.stop()
    server.start()
    works()

    spy, original = [], e.complete

    def dies_after_the_first_request(*args, **kwargs):
        spy.append(original(*args, **kwargs))
        if len(spy) == 1:
            server.proc.kill()
        return spy[-1]
    monkeypatch.setattr(e, "complete", dies_after_the_first_request)
    with pytest.raises(EngineUnreachable, match="cannot reach the inference engine"):
        works()
    assert len(spy) == 1
    monkeypatch.undo()
    server.stop()
    server.start()
    works()


def test_bench_serve_writes_its_table(server, tmp_path, capsys):
    import argparse

    from copy_as_decode.bench import serve_bench
    corpus = tmp_path / "cases.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"add{k}", "language": "python", "before": DOC.replace("2", str(k)),
                                          "instruction": "Fix the bug in add.", "after": GOLD.replace("2", str(k))})
                              + "\n" for k in (2, 3)))
    p = argparse.ArgumentParser()
    serve_bench.add_arguments(p)
    out = tmp_path / "serve.json"
    args = p.parse_args(["--endpoint", server.url, "--concurrency", "1", "2", "--corpus", str(corpus), "--selectors",
                         "forced", "verified", "full", "--json", str(out)])
    assert serve_bench.run(args) == 0
    report = json.loads(out.read_text())
    assert [r["concurrency"] for r in report["runs"]] == [1, 2]
    phases = report["runs"][1]["phases"]
    forced, verified, full = (phases[s]["summary"] for s in ("forced", "verified", "full"))
    assert forced["edits"] == full["edits"] == verified["edits"] == 2 and forced["errors"] == 0
    assert forced["exact"] == 2 and "speedup_vs_full" in forced
    assert forced["prefilled"] > 0 and forced["cached"] > 0 and 0 < forced["cache_hit"] < 1
    # Token for token only one request at a time: two in flight share the server's batches, whose kernels round
    # otherwise than a single sequence's, so a greedy tie may part (a clean clone's run saw full itself differ).
    alone = report["runs"][0]["phases"]
    assert alone["verified"]["summary"]["same_as_full"] == 2
    assert "verified" in capsys.readouterr().out


def test_real_engine_time_out(server):
    """Last: the abandoned request is cancelled by the engine when the client goes away."""
    slow = RemoteEngine(server.url, MODEL, retries=0)
    slow.wire.timeout = 0.05
    with pytest.raises(EngineTimeout, match="no answer within 0.05 s"):
        slow.edit("".join(f"x{k} = {k * 7919 % 1000}\n" for k in range(60)), "fix", "grammar", max_new_tokens=8)
