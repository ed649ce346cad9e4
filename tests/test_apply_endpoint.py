"""`copy-as-decode serve-apply` (server/apply_endpoint.py) over real HTTP on localhost, driven by the `openai`
client as fast-apply tools drive Morph: the merged file as the answer, streamed or not; the errors as OpenAI
error objects with their statuses; 16 clients at once. No model runs: the blocks here are placed by the parser,
and the server that would need one runs without (--no-model)."""
import http.client
import json
import signal
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import openai
import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import IncompleteEdit
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.server import apply_endpoint
from copy_as_decode.server.apply_endpoint import LANGUAGE_HEADER, MODEL_ID, STATUS_HEADER, ApplyServer, Merger

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 64 << 10  # the test server's request limit, so a too-large request stays small

FILE = '''import json


class Inventory:
    """Counts what is in stock."""

    def __init__(self):
        self.items = {}

    def count(self, name):
        return self.items[name]


def report(inventory):
    return json.dumps(inventory.items, sort_keys=True)
'''

UPDATE = '''class Inventory:
    # ... existing code ...

    def count(self, name, default=0):
        return self.items.get(name, default)
'''

MERGED = FILE.replace('''    def count(self, name):
        return self.items[name]
''', '''    def count(self, name, default=0):
        return self.items.get(name, default)
''')


def morph(code: str, update: str, instruction: str = "I give <code>count</code> a default") -> list[dict]:
    """The one user message Morph's fast-apply API takes (its instruction quoting a tag, as instructions may)."""
    return [{"role": "user", "content": f"<instruction>{instruction}</instruction>\n<code>{code}</code>\n"
                                        f"<update>{update}</update>"}]


@pytest.fixture(scope="module")
def server():
    with ApplyServer(("127.0.0.1", 0), Merger(None), max_bytes=LIMIT) as s:
        thread = threading.Thread(target=s.serve_forever, daemon=True)
        thread.start()
        yield s
        s.shutdown()
        thread.join(5)


@pytest.fixture
def client(server):
    with openai.OpenAI(base_url=server.url, api_key="unused", max_retries=0, timeout=30) as c:
        yield c


def raw(server, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request(method, path, body, headers or {})
    response = conn.getresponse()
    return response, response.read(), conn


def test_a_merge_answers_the_merged_file_as_the_assistant_message(client):
    response = client.chat.completions.with_raw_response.create(model="morph-v3-fast", messages=morph(FILE, UPDATE))
    completion = response.parse()
    assert completion.choices[0].message.content == MERGED == apply(EditRequest(FILE, block=UPDATE)).text
    assert completion.choices[0].finish_reason == "stop" and completion.choices[0].message.role == "assistant"
    assert completion.model == "morph-v3-fast" and completion.id.startswith("chatcmpl-") and completion.created > 0
    usage = completion.usage
    assert 0 < usage.completion_tokens < usage.prompt_tokens
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens
    assert response.headers[STATUS_HEADER] == "applied" and response.headers["Server-Timing"].startswith("merge;dur=")


def test_the_file_and_the_update_may_come_as_messages_of_their_own_wrapped_in_line_breaks(client):
    """A fenced update, `<instructions>` as avante.nvim spells it, a system message, and line breaks inside
    the tags: the file is still the file."""
    messages = [{"role": "system", "content": "You merge code."},
                {"role": "user", "content": "<instructions>add a default</instructions>"},
                {"role": "user", "content": f"<code>\n{FILE}\n</code>"},
                {"role": "user", "content": [{"type": "text", "text": f"<update>\n```python\n{UPDATE}```\n</update>"}]}]
    completion = client.chat.completions.create(model="any", messages=messages)
    assert completion.choices[0].message.content == MERGED


def test_a_file_that_starts_with_blank_lines_keeps_them(client):
    """Only a line break on each side is a client's wrapping: a file's own leading blank lines are the file's."""
    code, merged = "\n\n" + FILE, "\n\n" + MERGED
    assert client.chat.completions.create(model="m", messages=morph(code, UPDATE)).choices[0].message.content == merged


def test_a_streamed_merge_is_openai_chunks_ending_with_done(client, server):
    stream = client.chat.completions.create(model="m", messages=morph(FILE, UPDATE), stream=True,
                                            stream_options={"include_usage": True})
    chunks = list(stream)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == MERGED
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].usage.completion_tokens > 0 and all(c.model == "m" for c in chunks)
    response, body, _ = raw(server, "POST", "/v1/chat/completions",
                            json.dumps({"model": "m", "stream": True, "messages": morph(FILE, UPDATE)}).encode(),
                            {"Content-Type": "application/json"})
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    events = body.decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""] and all(e.startswith("data: ") for e in events[:-1])


def test_the_models_list_names_the_server_model(client):
    assert [m.id for m in client.models.list()] == [MODEL_ID]
    assert client.models.retrieve(MODEL_ID).owned_by == "copy-as-decode"


def test_a_request_without_code_or_update_is_a_400_error_object(client, server):
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "merge this please"}])
    assert e.value.status_code == 400 and e.value.body["code"] == "missing_code_or_update"
    assert e.value.body["type"] == "invalid_request_error" and "<update>" in e.value.body["message"]
    response, body, _ = raw(server, "POST", "/v1/chat/completions", b"{not json", {"Content-Type": "application/json"})
    assert response.status == 400 and json.loads(body)["error"]["code"] == "invalid_json"
    response, body, _ = raw(server, "GET", "/v1/nothing")
    assert response.status == 404 and json.loads(body)["error"]["code"] == "not_found"


def test_a_request_over_the_limit_is_a_413_and_the_connection_goes_on(client, server):
    with pytest.raises(openai.APIStatusError) as e:
        client.chat.completions.create(model="m", messages=morph(FILE + "#" * LIMIT + "\n", UPDATE))
    assert e.value.status_code == 413 and e.value.body["code"] == "request_too_large"
    body = json.dumps({"model": "m", "messages": morph(FILE + "#" * LIMIT + "\n", UPDATE)}).encode()
    response, data, conn = raw(server, "POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    assert response.status == 413 and json.loads(data)["error"]["code"] == "request_too_large"
    conn.request("GET", "/v1/models")  # the same keep-alive connection: the oversized body was read and dropped
    again = conn.getresponse()
    assert again.status == 200 and json.loads(again.read())["data"][0]["id"] == MODEL_ID
    conn.putrequest("POST", "/v1/chat/completions")  # a client that waits for 100 Continue hears 413 instead
    conn.putheader("Content-Length", str(LIMIT + 1))
    conn.putheader("Expect", "100-continue")
    conn.endheaders()
    early = conn.getresponse()
    assert early.status == 413 and early.getheader("Connection") == "close"
    assert json.loads(early.read())["error"]["code"] == "request_too_large"


def test_a_refused_merge_is_a_422_error_object_and_no_content(server):
    """The block would break the file: nothing that looks like a file comes back."""
    broken = "def report(inventory):\n    return json.dumps(inventory.items\n"
    with pytest.raises((MergeError, IncompleteEdit)):  # the merge itself refuses, in process
        apply(EditRequest(FILE, block=broken))
    response, body, _ = raw(server, "POST", "/v1/chat/completions",
                            json.dumps({"model": "m", "messages": morph(FILE, broken)}).encode(),
                            {"Content-Type": "application/json"})
    answer = json.loads(body)
    assert response.status == 422 and set(answer) == {"error"} and answer["error"]["code"] == "merge_refused"
    assert "nothing was" in answer["error"]["message"] and response.getheader(STATUS_HEADER) is None


PLACED = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"


def test_a_new_definition_goes_where_the_instruction_says_and_without_a_word_is_refused_naming_it(client):
    helper = "def helper():\n    return 0\n"
    said = client.chat.completions.create(model="m", messages=morph(PLACED, helper, "I add `helper` right after `a`"))
    assert said.choices[0].message.content == PLACED.replace("return 1\n", "return 1\n\n\n" + helper)
    with pytest.raises(openai.UnprocessableEntityError) as e:  # the end of three is one place of many
        client.chat.completions.create(model="m", messages=morph(PLACED, helper, "I add a helper"))
    assert e.value.body["code"] == "model_disabled" and "`helper` is new" in e.value.body["message"]


def test_a_block_that_needs_the_model_is_refused_without_one(client):
    block = "    total = 0\n    # ... existing code ...\n    return total * 2\n"
    with pytest.raises(openai.UnprocessableEntityError) as e:
        client.chat.completions.create(model="m", messages=morph(FILE, block))
    assert e.value.body["code"] == "model_disabled" and "--no-model" in e.value.body["message"]


GO = """package shapes

import (
\t"fmt"
\t"math"
)

type Circle struct {
\tR float64
}

func (c Circle) Area() float64 {
\treturn math.Pi * c.R * c.R
}

func (c Circle) String() string {
\treturn fmt.Sprintf("circle(%g)", c.R)
}
"""
GO_UPDATE = """func (c Circle) Area() float64 {
\tif c.R < 0 {
\t\treturn 0
\t}
\treturn math.Pi * c.R * c.R
}
"""


def test_a_file_of_any_language_is_merged_as_that_language_without_a_name(client):
    """No file name comes with Morph's format: the language is the one whose grammar reads the file best."""
    response = client.chat.completions.with_raw_response.create(model="m", messages=morph(GO, GO_UPDATE))
    assert response.parse().choices[0].message.content == GO.replace(
        "\treturn math.Pi", "\tif c.R < 0 {\n\t\treturn 0\n\t}\n\treturn math.Pi")
    assert response.headers[LANGUAGE_HEADER] == "go"


def test_a_language_or_path_field_and_the_fence_name_the_language(client):
    fenced = "```go\n" + GO_UPDATE + "```\n"
    for extra, update in (({"language": "go"}, GO_UPDATE), ({"path": "pkg/shapes.go"}, GO_UPDATE), ({}, fenced)):
        response = client.chat.completions.with_raw_response.create(model="m", messages=morph(GO, update),
                                                                    extra_body=extra)
        assert response.headers[LANGUAGE_HEADER] == "go" and "if c.R < 0" in response.parse().choices[0].message.content
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.create(model="m", messages=morph(GO, GO_UPDATE), extra_body={"language": "cobol"})
    assert e.value.body["code"] == "invalid_language"


def test_an_empty_file_takes_a_whole_update_and_refuses_one_with_markers(client):
    """A new file (Kilo Code sends an empty <code>): the update is the file; markers there stand for nothing."""
    answer = client.chat.completions.create(model="m", messages=morph("", GO))
    assert answer.choices[0].message.content == GO
    with pytest.raises(openai.UnprocessableEntityError) as e:
        client.chat.completions.create(model="m", messages=morph("", "// ... existing code ...\n" + GO_UPDATE))
    assert e.value.body["code"] == "merge_refused" and "empty" in e.value.body["message"]


def test_a_stalled_body_is_a_408_and_a_vanished_client_no_traceback(server, monkeypatch, capfd):
    monkeypatch.setattr(apply_endpoint, "BODY_TIMEOUT_S", 0.5)
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mod")
        answer = b""
        while chunk := sock.recv(65536):  # the server closes the connection after its answer
            answer += chunk
        answer = answer.decode()
    assert answer.startswith("HTTP/1.1 408") and "request_timeout" in answer and "Connection: close" in answer
    with socket.create_connection((host, port), timeout=10) as sock:  # it sends half a body and goes
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mod")
    response, data, _ = raw(server, "GET", "/v1/models")  # the server goes on
    assert response.status == 200
    assert "Traceback" not in capfd.readouterr().err


def test_an_update_already_in_the_file_answers_the_file_unchanged(client):
    response = client.chat.completions.with_raw_response.create(model="m", messages=morph(MERGED, UPDATE))
    assert response.parse().choices[0].message.content == MERGED
    assert response.headers[STATUS_HEADER] == "unchanged"


def test_sixteen_clients_at_once_each_get_their_own_merge(server):
    """Sixteen files (a method renamed per client), sixteen connections, released together."""
    n = 16
    barrier = threading.Barrier(n)

    def one(k: int) -> tuple[str, str]:
        code, update = FILE.replace("count", f"count{k}"), UPDATE.replace("count", f"count{k}")
        with openai.OpenAI(base_url=server.url, api_key="unused", max_retries=0, timeout=60) as c:
            barrier.wait(30)
            answer = c.chat.completions.create(model=f"client-{k}", messages=morph(code, update))
        assert answer.model == f"client-{k}"
        return answer.choices[0].message.content, MERGED.replace("count", f"count{k}")

    with ThreadPoolExecutor(n) as pool:
        results = list(pool.map(one, range(n)))
    assert all(got == want for got, want in results)


def test_the_model_is_made_once_and_runs_one_edit_at_a_time():
    """Merger.edit, what engine/apply.py calls for a part the parser leaves to the model: the engine is made on
    the first call only, and two requests never run it together."""
    made, inside, most = [], [0], [0]
    lock = threading.Lock()

    class Engine:
        def edit(self, text, *rest, **named):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            threading.Event().wait(0.01)
            with lock:
                inside[0] -= 1
            return text.upper()

    merger = Merger(lambda: made.append(1) or Engine())
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda k: merger.edit(f"file {k}", "instruction", "windowed"), range(8)))
    assert answers == [f"FILE {k}" for k in range(8)] and made == [1] and most == [1]


def test_cli_serves_on_localhost_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "copy_as_decode.cli", "serve-apply", "--port", "0", "--no-model"],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "listening on http://127.0.0.1:" in line, line
        url = line.split("listening on ")[1].split()[0]
        with openai.OpenAI(base_url=url, api_key="unused", max_retries=0, timeout=30) as c:
            assert c.chat.completions.create(model="m", messages=morph(FILE, UPDATE)).choices[0].message.content == MERGED
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0 and "stopped" in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()


def test_the_benchmark_compares_the_endpoint_with_the_merge_in_process():
    from copy_as_decode.bench.apply_endpoint_bench import Server, run_case, summary
    case = {"id": "inventory", "language": "python", "style": "lazy", "lines": 16, "development": True,
            "before": FILE, "block": UPDATE}
    with Server() as server:
        row = run_case(case, server, repeat=2)
    assert row["same"] and row["endpoint_s"] > row["door_s"] > 0 and row["in_process_s"] > 0
    assert summary([row])["different_answers"] == 0


def test_cli_says_in_one_line_when_the_port_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "copy_as_decode.cli", "serve-apply", "--port", str(port),
                               "--no-model"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"copy-as-decode: cannot listen on 127.0.0.1:{port}: Address already in use"]


TS = """import { a } from './a'

export class Box {
  private items: number[] = []

  add(x: number): void {
    this.items.push(x)
  }

  size(): number {
    return this.items.length
  }
}
"""
TS_UPDATE = """class Box {
  // ... existing code ...

  add(x: number): void {
    if (x < 0) {
      throw new RangeError('negative')
    }
    this.items.push(x)
  }
}
"""
TS_MERGED = TS.replace("    this.items.push(x)\n", "    if (x < 0) {\n      throw new RangeError('negative')\n    }\n"
                       "    this.items.push(x)\n")


@pytest.mark.parametrize("client, body, headers", [
    # Continue: its documented Morph template, streamed, usage asked for, its key in two headers (openai-node)
    ("continue", {"model": "copy-as-decode-apply", "stream": True, "stream_options": {"include_usage": True},
                  "max_tokens": 4096,
                  "messages": [{"role": "user", "content": f"<code>{TS}</code>\n<update>{TS_UPDATE}</update>"}]},
     {"Authorization": "Bearer unused", "x-api-key": "unused"}),
    # Kilo Code: `<instructions>`, model `auto`, not streamed
    ("kilo code", {"model": "auto", "messages": [{"role": "user", "content":
                   f"<instructions>Reject negative sizes</instructions>\n<code>{TS}</code>\n<update>{TS_UPDATE}</update>"}]},
     {"Authorization": "Bearer unused"}),
    # LiteLLM: `morph/morph-v3-large` reaches the server as `morph-v3-large`, messages as they were
    ("litellm", {"model": "morph-v3-large", "stream": False, "messages": [{"role": "user", "content":
                 f"<instruction>Reject negative sizes</instruction>\n<code>{TS}</code>\n<update>{TS_UPDATE}</update>"}]},
     {"Authorization": "Bearer unused"}),
])
def test_each_clients_request_gets_the_merged_typescript_file(server, client, body, headers):
    response, data, _ = raw(server, "POST", "/v1/chat/completions", json.dumps(body).encode(),
                            {"Content-Type": "application/json", **headers})
    assert response.status == 200 and response.getheader(LANGUAGE_HEADER) == "typescript"
    if body.get("stream"):
        events = [json.loads(line[6:]) for line in data.decode().splitlines() if line.startswith("data: {")]
        text = "".join(e["choices"][0]["delta"].get("content", "") for e in events if e["choices"])
        assert data.decode().rstrip().endswith("data: [DONE]") and "usage" in events[-1]
    else:
        text = json.loads(data)["choices"][0]["message"]["content"]
    assert text == TS_MERGED
