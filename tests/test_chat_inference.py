"""The chat inference (engine/remote/chat.py): each window rewritten by a model behind an OpenAI-compatible
`/v1/chat/completions`, checked by engine/front.py as every engine's result is.

Against a stdlib fake of such a server (its answers scripted: prose around a block, prose alone, the whole file
for a window, an error status, a hang, a slow stream to cancel), in-process, through the worker and through the
command line; then against a real llama-server's chat route with the 0.5B GGUF (marked `model`; skipped with the
reason when the server is not built or the model not installed).
"""
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from json_reply import send_json

from copy_as_decode.core.answer_code import AnswerCode
from copy_as_decode.core.contract import (
    EXIT_ERROR,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    OUTSIDE,
    PROSE,
    SKIPPED,
    UNPARSED,
    Cancelled,
    Hooks,
    IncompleteEdit,
)
from copy_as_decode.core.outside_window import repeated
from copy_as_decode.engine.prompts.prompt import REWRITE_SYSTEM
from copy_as_decode.engine.remote.chat import ChatEngine, api_root
from copy_as_decode.engine.remote.transport import API_KEY_ENV, EngineTimeout, RemoteError

ROOT = Path(__file__).resolve().parent.parent
FUNCS = "".join(f'def f{k}(x):\n    """Step {k}."""\n    y = x * {k}\n    return y + {k}\n\n\n' for k in range(12))
DOC = FUNCS.replace("return y + 5", "return y - 5").rstrip("\n") + "\n"  # 70 lines: edits take a window
GOLD = DOC.replace("return y - 5", "return y + 5")
INSTRUCTION = "Fix the bug in `f5`: it subtracts instead of adding."


def shown(body: dict) -> str:
    """The text the request shows the model: the block in its user message."""
    m = re.search(r"File:\n(`{3,}|~{3,})\n(.*?)\n\1\n", body["messages"][-1]["content"], re.S)
    return m.group(2) + "\n"


def fixing(body: dict) -> str:
    """A chat model's answer: prose, the shown text fixed in a block, more prose."""
    return (f"Sure! The subtraction is the bug; here is the fixed function:\n\n```python\n"
            f"{shown(body).replace('y - 5', 'y + 5')}```\n\nIt now adds 5 instead of subtracting it, so callers "
            f"get the step they expect. Let me know if you want tests for it as well.\n")


class FakeChat:
    """An OpenAI-compatible server on a loopback port: `/v1/models` lists `models`; `/v1/chat/completions` answers
    `answer(body)`, streamed a word an event `delay` seconds apart when asked, after `hang` seconds of silence, or
    `status` with `error` as its message. Records each request; `gone` is set when a client left mid-answer."""

    def __init__(self):
        self.answer, self.models, self.status, self.error = fixing, ["fake-coder"], 200, ""
        self.delay = self.hang = 0.0
        self.requests, self.gone = [], threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                if self.path == "/v1/models":
                    send_json(self, 200, {"object": "list", "data": [{"id": m, "object": "model"} for m in fake.models]})
                else:
                    send_json(self, 404, {"error": {"message": "not found"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append((self.path, body, dict(self.headers)))
                try:
                    time.sleep(fake.hang)
                    if fake.status != 200:
                        return send_json(self, fake.status, {"error": {"message": fake.error, "type": "invalid_request"}})
                    text = fake.answer(body)
                    if not body.get("stream"):
                        return send_json(self, 200, {"object": "chat.completion", "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                            "usage": {"prompt_tokens": 90, "completion_tokens": len(text.split()),
                                      "prompt_tokens_details": {"cached_tokens": 60}}})
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for piece in re.findall(r"\S*\s*", text)[:-1]:
                        self._event({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
                        time.sleep(fake.delay)
                    self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                    self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):
                    fake.gone.set()

            def _event(self, obj: dict) -> None:
                self.wfile.write(b"data: " + json.dumps(obj).encode() + b"\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def bodies(self) -> list[dict]:
        return [body for path, body, _ in self.requests if path == "/v1/chat/completions"]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake():
    f = FakeChat()
    yield f
    f.close()


class Seen(Hooks):
    """Records what an edit reports; its check raises Cancelled once `cancel()` says so."""

    def __init__(self, cancel=lambda seen: False):
        self.progress_calls, self.partials, self.places, self.cancel = 0, [], [], cancel

    def check(self):
        if self.cancel(self):
            raise Cancelled()

    def progress(self, stats, text):
        self.progress_calls += 1

    def place(self, place):
        self.places.append(place)

    def partial(self, partial):
        self.partials.append(partial)


# ---- the parts -------------------------------------------------------------------------------------------------

def test_the_api_root_is_the_endpoint_or_its_v1():
    assert api_root("http://localhost:11434") == "http://localhost:11434/v1"
    assert api_root("http://localhost:11434/v1/") == "http://localhost:11434/v1"
    assert api_root("https://api.example.com/openai/v1") == "https://api.example.com/openai/v1"


def test_the_answer_s_code_is_its_first_block_read_as_it_streams():
    a = AnswerCode()
    for ch in "Sure:\n\n```go\nfunc f() {\n\treturn 1\n}\n```\nThat's it.\n```\nmore\n```\n":
        a.push(ch)
        if a.closed:
            break
    assert (a.fence, a.closed, a.code) == ("```", True, "func f() {\n\treturn 1\n}\n")
    assert a.final("func f() {\n}\n") == a.code
    longer = AnswerCode()
    longer.push("~~~~\n```\nx\n```\n~~~\n~~~~ \nafter")  # closed by its own character, at least as long
    assert (longer.closed, longer.code) == (True, "```\nx\n```\n~~~\n")
    bare = AnswerCode()
    bare.push("def f():\n    return 1\n")  # code written without a fence: it holds the shown text's lines
    assert bare.final("def f():\n    return 2\n") == "def f():\n    return 1\n"
    prose = AnswerCode()
    prose.push("The function looks right to me; nothing to change.")
    assert prose.final("def f():\n    return 2\n") is None
    open_ = AnswerCode()
    open_.push("```python\ndef f():\n    return 1")  # the answer ended inside its block
    assert not open_.closed and open_.final("x") == "def f():\n    return 1"


def test_a_rewrite_that_repeats_the_lines_around_its_window_is_told():
    lines = DOC.splitlines(keepends=True)
    at, old = 30, "".join(DOC.splitlines(keepends=True)[30:36])  # f5 and its blank lines
    assert old.startswith("def f5(x):")
    assert repeated(lines, at, old, GOLD) == "lines 26, 27, 28, before the window"
    assert repeated(lines, at, old, old.replace("y - 5", "y + 5")) is None
    spilled = old.replace("y - 5", "y + 5") + 'def f6(x):\n    """Step 6."""\n    y = x * 6\n'
    assert repeated(lines, at, old, spilled) == "lines 37, 38, 39, after the window"
    # lines that occur all over the file (a `return`, a bracket) tell nothing
    assert repeated(["}\n", "return nil\n", "}\n", "func f() {\n", "}\n", "return nil\n", "}\n"], 3,
                    "func f() {\n", "func f() {\n}\nreturn nil\n}\n") is None


# ---- against the fake ------------------------------------------------------------------------------------------

def test_a_window_is_rewritten_from_the_block_of_a_prose_answer(fake):
    fake.delay = 0.02  # the prose after the block would take over a second more
    seen = Seen()
    engine = ChatEngine(fake.url)
    assert engine.served_model == "fake-coder"  # the one model the server lists
    start = time.perf_counter()
    r = engine.edit(DOC, INSTRUCTION, hooks=seen)
    assert r.text == GOLD and r.stats.stop == "fence" and r.stats.windows.startswith("31-36 (f5)")
    assert time.perf_counter() - start < 1.0 and fake.gone.wait(2)  # the request ended with the block
    body = fake.bodies()[0]
    assert (body["model"], body["stream"], body["temperature"]) == ("fake-coder", True, 0.0)
    system, user = body["messages"]
    assert system == {"role": "system", "content": REWRITE_SYSTEM}
    # the window alone, then the instruction: the part that stays the same for the window comes first
    assert user["content"].startswith("File:\n```\ndef f5(x):") and "def f4" not in user["content"]
    assert user["content"].endswith(f"Instruction: {INSTRUCTION}")
    assert seen.places[0]["lines"] == [31, 36] and seen.progress_calls > 5
    assert seen.partials[-1]["lines"] == [31, 36] and "return y + 5" in seen.partials[-1]["text"]
    again = engine.edit(DOC, "Make f5 return a float.", hooks=Hooks())
    head = user["content"].split("Instruction:")[0]
    assert fake.bodies()[1]["messages"][1]["content"].startswith(head) and again.text == GOLD


def test_an_answer_asked_whole_gives_the_same_edit(fake):
    r = ChatEngine(fake.url, "fake-coder", stream=False).edit(DOC, INSTRUCTION)
    assert r.text == GOLD and r.stats.stop == "fence"
    assert fake.bodies()[0]["stream"] is False and "stream_options" not in fake.bodies()[0]
    assert (r.stats.remote_prompt_tokens, r.stats.remote_cached_tokens) == (30, 60)
    assert [p for p, _, _ in fake.requests] == ["/v1/chat/completions"]  # a named model needs no /models


def test_prose_without_code_is_refused(fake):
    fake.answer = lambda body: "I checked `f5` and it looks correct to me, so there is nothing to change."
    with pytest.raises(IncompleteEdit, match="holds no code") as e:
        ChatEngine(fake.url).edit(DOC, INSTRUCTION)
    assert e.value.stop == PROSE and e.value.text is None


def test_the_whole_file_for_a_window_is_refused(fake):
    fake.answer = lambda body: f"Here is the whole file, fixed:\n\n```python\n{GOLD}```\n"
    with pytest.raises(IncompleteEdit, match=r"the rewrite of lines 31-36 repeats lines 26, 27, 28, before the "
                                             r"window: the model rewrote more than its window") as e:
        ChatEngine(fake.url).edit(DOC, INSTRUCTION)
    assert e.value.stop == OUTSIDE and e.value.text is None


@pytest.mark.parametrize("answer, stop", [
    (lambda text: text.replace("y - 5", "y +"), UNPARSED),                  # no longer parses
    (lambda text: text.replace('    """Step 5."""\n', ""), SKIPPED),      # drops a line unasked
])
def test_the_front_checks_a_chat_answer_as_every_engine_s(fake, answer, stop):
    fake.answer = lambda body: "```python\n" + answer(shown(body)) + "```\n"
    with pytest.raises(IncompleteEdit) as e:
        ChatEngine(fake.url).edit(DOC, INSTRUCTION)
    assert e.value.stop == stop and e.value.text is not None  # offered for review, never written unreviewed


def test_an_error_status_says_the_status_and_the_server_s_message(fake, monkeypatch):
    fake.status, fake.error = 404, 'model "qwen2.5-coder:7b" not found, try pulling it first'
    with pytest.raises(RemoteError, match=r'HTTP 404: model "qwen2.5-coder:7b" not found, try pulling it first'):
        ChatEngine(fake.url, "qwen2.5-coder:7b").edit(DOC, INSTRUCTION)
    fake.status, fake.error = 401, "Incorrect API key provided"
    monkeypatch.setenv(API_KEY_ENV, "sk-test")
    with pytest.raises(RemoteError, match=rf"HTTP 401: Incorrect API key provided \(set \${API_KEY_ENV}"):
        ChatEngine(fake.url, "gpt-x").edit(DOC, INSTRUCTION)
    assert fake.requests[-1][2]["Authorization"] == "Bearer sk-test"


def test_a_silent_server_times_out_and_a_stalled_answer_too(fake):
    fake.hang = 2.0
    start = time.perf_counter()
    with pytest.raises(EngineTimeout, match="no answer within 0.3 s"):
        ChatEngine(fake.url, "m", timeout=0.3, retries=0).edit(DOC, INSTRUCTION)
    assert time.perf_counter() - start < 1.5
    fake.hang, fake.delay = 0.0, 1.0
    with pytest.raises(EngineTimeout, match="the answer stopped for 0.3 s"):
        ChatEngine(fake.url, "m", timeout=0.3, retries=0).edit(DOC, INSTRUCTION)


def test_a_cancel_closes_the_request_while_it_streams_and_while_the_server_is_silent(fake):
    fake.delay = 0.05
    with pytest.raises(Cancelled):
        ChatEngine(fake.url).edit(DOC, INSTRUCTION, hooks=Seen(lambda seen: seen.progress_calls >= 3))
    assert fake.gone.wait(2)  # the server saw the connection go
    fake.hang, start = 5.0, time.perf_counter()
    with pytest.raises(Cancelled):
        ChatEngine(fake.url).edit(DOC, INSTRUCTION, hooks=Seen(lambda seen: time.perf_counter() - start > 0.3))
    assert time.perf_counter() - start < 1.0


def test_the_served_model_must_be_named_where_the_server_lists_several(fake):
    fake.models = ["llama3.2:3b", "qwen2.5-coder:7b"]
    with pytest.raises(ValueError, match="serves llama3.2:3b, qwen2.5-coder:7b: name the one to use with "
                                         "--served-model or \\$COPY_AS_DECODE_SERVED_MODEL"):
        ChatEngine(fake.url)
    with pytest.raises(ValueError, match="needs token ids"):
        ChatEngine(fake.url, "qwen2.5-coder:7b").edit(DOC, INSTRUCTION, "grammar")
    assert not fake.bodies()


def test_apply_s_model_part_goes_to_the_chat_model(fake):
    """A block whose definition the file holds twice: apply's parser leaves the place to the model
    (engine/apply.py), whose windowed edit here is a chat request."""
    from copy_as_decode.engine.apply import apply
    from copy_as_decode.engine.request import EditRequest
    document = ("class Store:\n    def get(self, key):\n        return self.values[key]\n\n\n"
                "class Other:\n    def get(self, key):\n        return None\n")
    block = "def get(self, key):\n    # ... existing code ...\n    return self.values.get(key, 7)\n"
    fake.answer = lambda body: "```python\n" + shown(body).replace("return None", "return self.values.get(key, 7)") + "```"
    result = apply(EditRequest(document, block=block, language="python"), lambda: ChatEngine(fake.url))
    assert result.text == document.replace("return None", "return self.values.get(key, 7)")
    assert "the model took" in result.stats.windows and len(fake.bodies()) == 1


def test_the_worker_streams_the_window_s_new_lines_and_says_no_change(fake):
    from copy_as_decode.engine.worker import Worker
    fake.delay = 0.01
    edits = [{"jsonrpc": "2.0", "id": k, "method": "edit", "params": {"document": doc, "instruction": INSTRUCTION}}
             for k, doc in ((1, DOC), (2, GOLD))]  # the second is answered as it was: nothing to apply
    out = io.StringIO()
    Worker(ChatEngine(fake.url), out=out).serve(io.StringIO("".join(json.dumps(e) + "\n" for e in edits)))
    messages = [json.loads(line) for line in out.getvalue().splitlines()]
    answers = {m["id"]: m["result"] for m in messages if m.get("id") in (1, 2)}
    assert answers[1]["text"] == GOLD and "status" not in answers[1]
    assert answers[2]["status"] == "unchanged" and answers[2]["text"] == GOLD
    partials = [m["params"]["partial"] for m in messages if "partial" in m.get("params", {})]
    assert partials and partials[0]["lines"] == [31, 36]


def _cli(*args, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "copy_as_decode.cli", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, **env})


def test_the_command_line_edits_through_a_chat_api_without_torch(fake, tmp_path):
    path = tmp_path / "steps.py"
    path.write_text(DOC)
    done = _cli("edit", str(path), "-i", INSTRUCTION, "--inference", "chat", "--endpoint", fake.url,
                "--served-model", "fake-coder", "--write")
    assert done.returncode == 0, done.stderr
    assert path.read_text() == GOLD
    assert "fake-coder @ " in done.stderr and "windows 31-36 (f5)" in done.stderr
    imported = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "copy_as_decode.engine.remote.chat" in imported
    assert not [m for m in imported if m.split(".")[0] in ("torch", "transformers")]


def test_the_command_line_writes_nothing_when_the_answer_is_refused_or_never_comes(fake, tmp_path):
    path = tmp_path / "steps.py"
    path.write_text(DOC)
    fake.answer = lambda body: f"```python\n{GOLD}```\n"
    done = _cli("edit", str(path), "-i", INSTRUCTION, "--write", COPY_AS_DECODE_INFERENCE="chat",
                COPY_AS_DECODE_ENDPOINT=fake.url, COPY_AS_DECODE_SERVED_MODEL="fake-coder")
    assert done.returncode == EXIT_INCOMPLETE and "rewrote more than its window" in done.stderr
    fake.answer, fake.hang = fixing, 3.0
    done = _cli("edit", str(path), "-i", INSTRUCTION, "--write", "--inference", "chat", "--endpoint", fake.url,
                "--served-model", "fake-coder", "--request-timeout", "0.2")
    assert done.returncode == EXIT_ERROR and "no answer within 0.2 s" in done.stderr
    assert path.read_text() == DOC


def test_ctrl_c_stops_the_command_line_s_request(fake, tmp_path):
    path = tmp_path / "steps.py"
    path.write_text(DOC)
    fake.delay = 0.2  # about 20 s of answer
    proc = subprocess.Popen([sys.executable, "-m", "copy_as_decode.cli", "edit", str(path), "-i", INSTRUCTION, "--write",
                             "--inference", "chat", "--endpoint", fake.url, "--served-model", "fake-coder"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not fake.bodies() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # a few pieces in
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == EXIT_INTERRUPTED
    assert fake.gone.wait(5) and path.read_text() == DOC


# ---- a real llama-server's chat route --------------------------------------------------------------------------

SMALL = "def add(a, b):\n    return a - b\n\n\nprint(add(1, 2))\n"


def fixed(text: str) -> bool:
    """The small file with its bug fixed (the model may close up its blank lines: a whole-file edit is its text)."""
    return [line for line in text.splitlines() if line.strip()] == ["def add(a, b):", "    return a + b",
                                                                    "print(add(1, 2))"]


@pytest.fixture(scope="module")
def llama():
    from copy_as_decode.bench import llama_server
    from copy_as_decode.engine.backends import models
    binary, model = llama_server.default_server_binary(), "qwen2.5-coder-0.5b"
    if not binary.exists():
        pytest.skip(f"llama-server not built ({binary}); run scripts/build-llama-server.sh")
    if not models.gguf_file(model).exists():
        pytest.skip(f"{model} GGUF not installed; run `copy-as-decode models install {model}`")
    threads = max(1, min(4, (os.cpu_count() or 2) - 1))
    with llama_server.LlamaServer(binary, models.gguf_file(model), ctx=4096, threads=threads) as server:
        yield server


@pytest.mark.model
def test_llama_server_s_chat_route_edits_streamed_and_not(llama):
    streamed = ChatEngine(llama.url).edit(SMALL, "Fix the bug in add.")
    assert fixed(streamed.text) and streamed.stats.stop in ("fence", "eos")
    whole = ChatEngine(llama.url, stream=False).edit(SMALL, "Fix the bug in add.")
    assert whole.text == streamed.text  # greedy: the same answer either way
    assert whole.stats.remote_cached_tokens > 0  # the first edit's prompt, cached by the server


@pytest.mark.model
def test_llama_server_s_chat_route_is_cancelled(llama):
    start = time.perf_counter()
    with pytest.raises(Cancelled):
        ChatEngine(llama.url).edit(FUNCS, "Add a docstring line to every function.", "full",
                                   hooks=Seen(lambda seen: seen.progress_calls >= 2))
    assert time.perf_counter() - start < 30
    assert fixed(ChatEngine(llama.url).edit(SMALL, "Fix the bug in add.").text)  # its slot is free again
