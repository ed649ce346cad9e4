"""The edit engine over a chat API: the same `edit()` as engine/local.py's, each window rewritten by whatever model
an OpenAI-compatible `/v1/chat/completions` serves (Ollama, LM Studio, llama-server, vLLM, a hosted API).

No tokenizer here: prompts go as text messages and answers come back as text, so any served model works and
nothing imports torch or transformers. Where the edit lands is engine/selectors/windowed.py's and every check of
its result is engine/front.py's, as for the other engines; only the rewrite of one window (or of a whole short
file) is this engine's: one request, whose messages are the local rewrite prompt's (engine/prompts/prompt.py)
with the file before the instruction, so that a server's prompt cache keeps the system message and the window's
text for the next edit of it. The answer streams (server-sent events): each piece goes to the hooks as the
window's new text so far (the editors' preview, the command line's bar); the hooks' check runs between pieces
and while the server is silent, and a cancel shuts the connection; the request also ends as soon as the answer's
code block closes (core/answer_code.py), so the prose a chat model adds after its code is never decoded.

A chat API constrains no choice: where the search leaves the place to the model, the editors and the command
line ask the user (engine/locate.py) and an edit that asks no one takes the whole file. Program selectors need
token ids and are refused.
"""
import os
import time
from contextlib import closing
from urllib.parse import urlsplit

from copy_as_decode.core.answer_code import AnswerCode
from copy_as_decode.core.budget import rewrite_bound
from copy_as_decode.core.contract import CAP, EOS, FENCE, NORMAL_STOPS, PARTIAL, PROSE, Hooks, IncompleteEdit
from copy_as_decode.engine import selectors
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.front import EditFront
from copy_as_decode.engine.options import ENDPOINT_ENV, REQUEST_TIMEOUT, SERVED_MODEL_ENV
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.remote.transport import Http
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult

ROUTE = "/chat/completions"
LAYOUT = "file-first"  # the stable part first: what differs between two edits of a window is only their end
# Tokens per byte of text, at most, for the answer's cap without a tokenizer: code runs 3-4 bytes a token in
# the tokenizers of current code models, CJK text about 3; a cap this loose only stops a model that loops.
TOKENS_PER_BYTE = 0.5


def api_root(endpoint: str) -> str:
    """The URL the OpenAI routes hang from: the endpoint as given when it names a path (`/v1`, a hosted API's
    `/openai/v1`), else the server's `/v1`."""
    url = endpoint.strip().rstrip("/")
    return url if urlsplit(url).path else url + "/v1"


class ChatEngine(EditFront):
    """engine.front's `edit()`, each rewrite one chat completion. `served_model`: the name the server is asked for
    (None: the one model its `/models` lists); the API key defaults to $COPY_AS_DECODE_API_KEY; `timeout`: the
    longest wait for the answer (streamed: for its next piece); `stream` False: the whole answer at once."""

    def __init__(self, endpoint: str | None = None, served_model: str | None = None, *, api_key: str | None = None,
                 timeout: float = REQUEST_TIMEOUT, retries: int = 2, stream: bool = True):
        endpoint = endpoint or os.environ.get(ENDPOINT_ENV)
        if not endpoint:
            raise ValueError(f"--inference chat needs an endpoint: --endpoint URL (e.g. http://localhost:11434/v1) "
                             f"or ${ENDPOINT_ENV}")
        super().__init__(None, None, trained=False)
        self.http = Http(api_root(endpoint), api_key=api_key, timeout=timeout, retries=retries)
        self.stream = stream
        self.served_model = served_model or self._served()
        self.model_name = f"{self.served_model} @ {self.http.base}"
        self.device, self.dtype = "chat", "chat"

    def _served(self) -> str:
        listed = self.http.request("GET", "/models").get("data") or []
        names = [m["id"] for m in listed if isinstance(m, dict) and m.get("id")]
        if len(names) == 1:
            return names[0]
        raise ValueError(f"{self.http.base} serves {', '.join(names[:8]) if names else 'no model it lists'}: name "
                         f"the one to use with --served-model or ${SERVED_MODEL_ENV}")

    def resolve(self, request: EditRequest) -> EditRequest:
        request = super().resolve(request)
        if selectors.get(request.selector).program:
            raise ValueError(f"selector {request.selector!r} decodes a copy/gen program, which needs token ids "
                             f"(--inference local or remote); the chat inference rewrites: windowed, verified, full")
        return request

    def choose_place(self, instruction: str, candidates: str, options: list[str],
                     hooks: Hooks) -> tuple[str, float] | None:
        return None

    def rewrite(self, request: EditRequest, draft: bool) -> EditResult:
        """The served model's rewrite of the request's document (a window, or a short file), in one request;
        drafting from the document is the server's own business (llama-server's `--spec-type`)."""
        lf, hooks = request.lf, request.hooks
        limit = request.max_new_tokens or rewrite_bound(int(len(lf.encode()) * TOKENS_PER_BYTE))
        body = {"model": self.served_model, "temperature": request.temperature, "max_tokens": limit,
                "messages": prompt.rewrite_messages(lf, request.instruction, prompt.fence_for(lf), LAYOUT),
                "stream": self.stream}
        if self.stream:
            body["stream_options"] = {"include_usage": True}
        stats, answer = Stats(budget=limit, requests=1), AnswerCode()
        hooks.check()
        start = time.perf_counter()
        if self.stream:
            finish = self._streamed(body, answer, stats, hooks, start)
        else:
            r = self.http.request("POST", ROUTE, body)
            choice = (r.get("choices") or [{}])[0]
            answer.push((choice.get("message") or {}).get("content") or "")
            finish = choice.get("finish_reason")
            _counts(stats, r)
            stats.decode_s = time.perf_counter() - start
            hooks.progress(stats, answer.code)
        code = answer.final(lf)
        # a stream that ended with no reason was cut off: its end is not the model's
        stats.stop = FENCE if answer.closed else {"length": CAP, None: PARTIAL}.get(finish, EOS)
        stats.forwards = stats.sampled
        if stats.stop not in NORMAL_STOPS:
            raise IncompleteEdit(stats.stop, limit, stats, "the answer broke off" if stats.stop == PARTIAL else None)
        if code is None:
            raise IncompleteEdit(PROSE, limit, stats, "the model's answer holds no code (it begins "
                                 f"{answer.text.strip()[:80]!r})")
        if not prompt.covers(code, answer.closed, lf):
            stats.stop = PARTIAL
            raise IncompleteEdit(PARTIAL, limit, stats)
        return EditResult(request.restore(code), stats, before=request.document)

    def _streamed(self, body: dict, answer: AnswerCode, stats: Stats, hooks: Hooks, start: float) -> str | None:
        """Read the streamed answer into `answer` until its code block closes or the server ends it; its finish
        reason (None when the stream ended without one)."""
        finish = None
        with closing(self.http.events(ROUTE, body, hooks.check)) as events:  # closed: the connection is shut
            for event in events:
                _counts(stats, event)
                for choice in event.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content") or delta.get("reasoning_content"):  # a thinking model's tokens count
                        if not stats.sampled:
                            stats.prefill_s = time.perf_counter() - start
                        stats.sampled += 1
                    if delta.get("content"):
                        answer.push(delta["content"])
                        hooks.progress(stats, answer.code)
                    finish = choice.get("finish_reason") or finish
                if answer.closed:
                    break
        stats.decode_s = time.perf_counter() - start - stats.prefill_s
        return finish


def _counts(stats: Stats, r: dict) -> None:
    """What an answer (or a stream's last event) says it cost: OpenAI's `usage`, llama-server's `timings`."""
    usage, timings = r.get("usage") or {}, r.get("timings") or {}
    if usage.get("completion_tokens"):
        stats.sampled = usage["completion_tokens"]
    prompt_n = usage.get("prompt_tokens") or ((timings.get("prompt_n") or 0) + (timings.get("cache_n") or 0))
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or timings.get("cache_n") or 0
    if prompt_n:
        stats.prompt_tokens, stats.prompt_cached = prompt_n, cached
        stats.remote_prompt_tokens, stats.remote_cached_tokens = prompt_n - cached, cached
