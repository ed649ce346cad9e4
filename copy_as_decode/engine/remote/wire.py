"""The wire to an inference engine: completion requests over the standard library's HTTP client, with retries
and one-line errors. What a request says and what its answer means is the server's dialect (engine/remote/dialects.py),
chosen once, from `--api` and what `/v1/models` says the server is.

Every request is a pure function of its body (greedy decoding), so a failed or timed-out one is repeated as
it was; what a completion means for an edit is engine/remote/client.py's business.
"""
import http.client
import json
import os
import random
import socket
import time
import urllib.error
import urllib.request

from copy_as_decode.core.contract import ContextError, EditError
from copy_as_decode.engine.options import REQUEST_TIMEOUT
from copy_as_decode.engine.remote.dialects import APIS, Completion, choose

API_KEY_ENV = "COPY_AS_DECODE_API_KEY"
RETRY_STATUS = (429, 502, 503, 504)


class RemoteError(EditError, RuntimeError):
    """The inference engine failed or answered something unusable; the message says what and where."""


class EngineUnreachable(RemoteError):
    pass


class EngineTimeout(RemoteError):
    pass


class ModelMismatch(RemoteError):
    """The engine's tokenizer differs from the local one the prompts are built with."""


class GrammarRefused(RemoteError):
    """The engine rejected the program grammar, or produced text the grammar does not allow."""


class Wire:
    """The completion endpoint of one engine, spoken to in its dialect. The API key defaults to
    $COPY_AS_DECODE_API_KEY; `model`: the name to send when the server lists none; `eog`: end-of-generation ids,
    left out of the returned tokens."""

    def __init__(self, endpoint: str, *, api: str = "auto", api_key: str | None = None, timeout: float = REQUEST_TIMEOUT,
                 retries: int = 2, served_model: str | None = None, model: str = "", grammar_param: str | None = None,
                 eog: set[int] = frozenset()):
        if api not in APIS:
            raise ValueError(f"api must be one of {', '.join(APIS)}")
        base = endpoint.rstrip("/")
        self.base = base[:-3] if base.endswith("/v1") else base
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.timeout, self.retries, self.eog = timeout, retries, set(eog)
        info = self._models()
        self.served_model = served_model or info.get("id") or model
        self.dialect = choose(api, str(info.get("owned_by") or ""), self.served_model, grammar_param)
        self.api = self.dialect.api
        meta = info.get("meta") or {}
        self.context = meta.get("n_ctx") or info.get("max_model_len") or info.get("context_length")

    def complete(self, prompt_ids: list[int], n_predict: int, *, temperature: float = 0.0,
                 grammar: str | None = None, stop: list[str] = (), ban: list[int] = ()) -> Completion:
        """One completion; `ban`: token ids never sampled; n_predict=0 only evaluates the prompt."""
        t, stop = time.perf_counter(), list(stop)
        body = self.dialect.body(prompt_ids, n_predict, temperature, grammar, stop, list(ban))
        c = self.dialect.completion(self.request("POST", self.dialect.path, body), stop, self.eog)
        c.wall_s = time.perf_counter() - t
        if n_predict == 0:  # both routes sample at least one token; a prefill-only request drops it
            c.tokens, c.text = [], ""
        return c

    def tokenize(self, text: str) -> list[int] | None:
        """The engine's own token ids for `text` (special tokens parsed), or None when it has no tokenize route."""
        for path, body in self.dialect.tokenize_requests(text):
            try:
                r = self.request("POST", path, body)
            except RemoteError as e:
                if "HTTP 404" in str(e) or "HTTP 405" in str(e):
                    continue
                raise
            return [t["id"] if isinstance(t, dict) else int(t) for t in r.get("tokens", [])]
        return None

    def speculative(self) -> bool | None:
        """Whether the engine drafts tokens itself (llama-server's `--spec-type`); None when it does not say."""
        return self.dialect.speculative(self._get)

    def draft_counters(self) -> tuple[int, int] | None:
        """(tokens drafted, tokens accepted) by the engine's speculative decoding since it started (vLLM's
        Prometheus `/metrics`); None when it counts none."""
        return self.dialect.draft_counters(self._text)

    def _get(self, path: str):
        """A route's JSON; None where the server refuses it."""
        try:
            return self.request("GET", path)
        except RemoteError:
            return None

    def _text(self, path: str) -> str | None:
        """A route's text, in one short try (counters are not worth retries); None where it has none."""
        try:
            with urllib.request.urlopen(urllib.request.Request(self.base + path, headers=self._headers()),
                                        timeout=10) as r:
                return r.read().decode()
        except (OSError, http.client.HTTPException):
            return None

    def _models(self) -> dict:
        r = self.request("GET", "/v1/models")
        data = r.get("data") or [{}]
        return data[0] if isinstance(data, list) and data else {}

    def _headers(self) -> dict:
        h = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def request(self, method: str, path: str, body: dict | None = None):
        """One HTTP call, repeated on connection failures, time-outs and RETRY_STATUS with exponential back-off."""
        url = self.base + path
        data = json.dumps(body).encode() if body is not None else None
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(min(0.5 * 2 ** (attempt - 1), 8.0) * (1 + random.random() / 4))
            req = urllib.request.Request(url, data=data, method=method, headers=self._headers())
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read() or b"{}")
            except urllib.error.HTTPError as e:
                detail = _error_message(e)
                if e.code in RETRY_STATUS:
                    last = RemoteError(f"{url}: HTTP {e.code}: {detail}")
                    continue
                raise _classify(url, e.code, detail) from None
            except TimeoutError as e:
                last = EngineTimeout(f"{url}: no answer within {self.timeout:g} s ({e or 'timed out'}); "
                                     f"raise the time-out or check the engine's load")
            except urllib.error.URLError as e:
                if isinstance(e.reason, (TimeoutError, socket.timeout)):
                    last = EngineTimeout(f"{url}: no answer within {self.timeout:g} s")
                else:
                    last = EngineUnreachable(f"cannot reach the inference engine at {self.base}: {e.reason}")
            except (ConnectionError, http.client.HTTPException) as e:
                last = EngineUnreachable(f"connection to {self.base} failed: {type(e).__name__}: {e}")
            except json.JSONDecodeError as e:
                raise RemoteError(f"{url}: the answer is not JSON ({e})") from None
        raise last


def _error_message(e: urllib.error.HTTPError) -> str:
    try:
        raw = e.read().decode("utf-8", "replace")
    except Exception:
        return str(e.reason)
    try:
        err = json.loads(raw).get("error", raw)
        return err.get("message", str(err)) if isinstance(err, dict) else str(err)
    except (ValueError, AttributeError):
        return raw[:500]


def _classify(url: str, code: int, detail: str) -> RemoteError:
    low = detail.lower()
    if code in (401, 403):
        return RemoteError(f"{url}: HTTP {code}: {detail} (set ${API_KEY_ENV} to the engine's API key)")
    if "grammar" in low or "ebnf" in low or "structured" in low or "guided" in low:
        return GrammarRefused(f"{url}: the engine refused the program grammar: HTTP {code}: {detail}")
    if "context" in low and ("exceed" in low or "length" in low or "size" in low):
        return ContextError(f"{url}: {detail}")
    return RemoteError(f"{url}: HTTP {code}: {detail}")
