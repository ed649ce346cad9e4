"""The wire to an inference engine: one completion request in either of two formats, over the standard
library's HTTP client, with retries and one-line errors.

  llama.cpp   the native `/completion` of `llama-server`: token-id prompts, GBNF in `grammar`, the sampled
              token ids, which stop fired, and timings with cached/processed prompt tokens and draft counts
  openai      `/v1/completions` of vLLM, SGLang or llama-server: token-id prompts; the grammar goes in
              `structured_outputs.grammar` for vLLM, `ebnf` for SGLang, `grammar` for llama.cpp
`api="auto"` picks llama.cpp when `/v1/models` says the server is one.

Every request is a pure function of its body (greedy decoding), so a failed or timed-out one is repeated as
it was; what a completion means for an edit is engine/remote.py's business.
"""
import http.client
import json
import os
import random
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from copy_as_decode.core.contract import ContextError, EditError

API_KEY_ENV = "COPY_AS_DECODE_API_KEY"
APIS = ("auto", "llama.cpp", "openai")
RETRY_STATUS = (429, 502, 503, 504)
# Neutral sampling, so temperature > 0 samples from the plain softmax like the local engine.
_NEUTRAL = {"top_k": 0, "top_p": 1.0, "min_p": 0.0, "typical_p": 1.0, "repeat_penalty": 1.0,
            "presence_penalty": 0.0, "frequency_penalty": 0.0, "dry_multiplier": 0.0, "xtc_probability": 0.0}
_NATIVE_FIELDS = ["content", "tokens", "stop_type", "stopping_word", "timings", "tokens_evaluated", "truncated"]


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


@dataclass
class Completion:
    tokens: list[int] | None   # sampled ids without end-of-generation tokens; None: the engine did not say
    text: str
    stop: str                  # "eos" | "word" | "limit", or "stop" when the engine does not say which
    prompt_n: int | None       # prompt tokens the engine processed (not from its cache)
    cache_n: int | None        # prompt tokens reused from its cache
    prompt_ms: float | None
    predicted_ms: float | None
    wall_s: float
    draft_n: int = 0           # tokens its own speculative decoding drafted, and how many it accepted
    draft_accepted: int = 0


class Wire:
    """The completion endpoint of one engine. The API key defaults to $COPY_AS_DECODE_API_KEY; `model`: the
    name to send when the server lists none; `eog`: end-of-generation ids, left out of the returned tokens."""

    def __init__(self, endpoint: str, *, api: str = "auto", api_key: str | None = None, timeout: float = 300.0,
                 retries: int = 2, served_model: str | None = None, model: str = "", grammar_param: str | None = None,
                 eog: set[int] = frozenset()):
        if api not in APIS:
            raise ValueError(f"api must be one of {', '.join(APIS)}")
        base = endpoint.rstrip("/")
        self.base = base[:-3] if base.endswith("/v1") else base
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.timeout, self.retries, self.eog = timeout, retries, set(eog)
        info = self._models()
        self.owner = str(info.get("owned_by") or "")
        self.api = api if api != "auto" else ("llama.cpp" if self.owner == "llamacpp" else "openai")
        self.served_model = served_model or info.get("id") or model
        meta = info.get("meta") or {}
        self.context = meta.get("n_ctx") or info.get("max_model_len") or info.get("context_length")
        self.grammar_param = grammar_param or {"vllm": "structured_outputs", "sglang": "ebnf"}.get(self.owner, "grammar")

    def complete(self, prompt_ids: list[int], n_predict: int, *, temperature: float = 0.0,
                 grammar: str | None = None, stop: list[str] = (), ban: list[int] = ()) -> Completion:
        """One completion; `ban`: token ids never sampled; n_predict=0 only evaluates the prompt."""
        t = time.perf_counter()
        c = (self._native if self.api == "llama.cpp" else self._openai)(
            prompt_ids, n_predict, temperature, grammar, list(stop), list(ban))
        c.wall_s = time.perf_counter() - t
        if n_predict == 0:  # both routes sample at least one token; a prefill-only request drops it
            c.tokens, c.text = [], ""
        return c

    def _native(self, prompt_ids, n_predict, temperature, grammar, stop, ban) -> Completion:
        body = {"prompt": prompt_ids, "n_predict": n_predict, "temperature": temperature, "stop": stop,
                "cache_prompt": True, "return_tokens": True, "response_fields": _NATIVE_FIELDS, **_NEUTRAL}
        if grammar is not None:
            body["grammar"] = grammar
        if ban:
            body["logit_bias"] = [[tid, False] for tid in ban]
        r = self.request("POST", "/completion", body)
        timings = r.get("timings") or {}
        stop_type = r.get("stop_type", "eos")
        return Completion([int(x) for x in r.get("tokens") or [] if int(x) not in self.eog], r.get("content", ""),
                          stop_type if stop_type in ("eos", "word", "limit") else "eos",
                          timings.get("prompt_n"), timings.get("cache_n"), timings.get("prompt_ms"),
                          timings.get("predicted_ms"), 0.0, timings.get("draft_n") or 0,
                          timings.get("draft_n_accepted") or 0)

    def _openai(self, prompt_ids, n_predict, temperature, grammar, stop, ban) -> Completion:
        body = {"model": self.served_model, "prompt": prompt_ids, "max_tokens": max(n_predict, 1),
                "temperature": temperature, "top_p": 1.0, "stop": stop, "return_token_ids": True,
                "skip_special_tokens": False, "include_stop_str_in_output": True, "cache_prompt": True}
        if ban:
            body["logit_bias"] = {str(tid): -100 for tid in ban}
        if grammar is not None:
            if self.grammar_param == "structured_outputs":
                body["structured_outputs"] = {"grammar": grammar}
            else:
                body[self.grammar_param] = grammar
        r = self.request("POST", "/v1/completions", body)
        choice = (r.get("choices") or [{}])[0]
        text = choice.get("text") or ""
        usage = r.get("usage") or {}
        timings = r.get("timings") or {}
        cached = timings.get("cache_n", ((usage.get("prompt_tokens_details") or {}).get("cached_tokens")))
        prompt_n = timings.get("prompt_n")
        if prompt_n is None and cached is not None and usage.get("prompt_tokens") is not None:
            prompt_n = usage["prompt_tokens"] - cached
        stop_kind = _openai_stop(choice)
        if stop_kind == "word" and not any(text.endswith(w) for w in stop):  # the stop string was cut off
            reason = choice.get("stop_reason", choice.get("matched_stop"))
            text += reason if isinstance(reason, str) else stop[0]
        ids = choice.get("token_ids")
        tokens = [int(x) for x in ids if int(x) not in self.eog] if ids is not None else None
        if ids and int(ids[-1]) in self.eog:  # the ids say it when the server's fields do not
            stop_kind = "eos"
        return Completion(tokens, text, stop_kind, prompt_n, cached, timings.get("prompt_ms"),
                          timings.get("predicted_ms"), 0.0, timings.get("draft_n") or 0,
                          timings.get("draft_n_accepted") or 0)

    def tokenize(self, text: str) -> list[int] | None:
        """The engine's own token ids for `text` (special tokens parsed), or None when it has no tokenize route."""
        if self.api == "llama.cpp" or self.owner == "llamacpp":
            tries = [("/tokenize", {"content": text, "add_special": False, "parse_special": True})]
        else:
            tries = [(p, {"model": self.served_model, "prompt": text, "add_special_tokens": False})
                     for p in ("/tokenize", "/v1/tokenize")]
        for path, body in tries:
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
        if self.owner != "llamacpp":
            return None
        try:
            slots = self.request("GET", "/slots")
        except RemoteError:
            return None  # started with --no-slots
        return any(s.get("speculative") for s in slots) if isinstance(slots, list) else None

    def draft_counters(self) -> tuple[int, int] | None:
        """(tokens drafted, tokens accepted) by the engine's speculative decoding since it started, from its
        Prometheus `/metrics` (vLLM); None when it exposes none."""
        url = self.base + "/metrics"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=self._headers()), timeout=10) as r:
                text = r.read().decode()
        except (OSError, http.client.HTTPException):
            return None
        totals = {}
        for line in text.splitlines():
            name = line.split("{", 1)[0]
            if name in ("vllm:spec_decode_num_draft_tokens_total", "vllm:spec_decode_num_accepted_tokens_total"):
                totals[name] = totals.get(name, 0) + int(float(line.rsplit(" ", 1)[1]))
        return tuple(totals.get(f"vllm:spec_decode_num_{k}_tokens_total", 0) for k in ("draft", "accepted")) \
            if totals else None

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
            except (TimeoutError, socket.timeout) as e:
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


def _openai_stop(choice: dict) -> str:
    """"eos", "word", "limit", or "stop" when the server does not say whether a stop string fired
    (llama-server's OpenAI route)."""
    if choice.get("finish_reason") == "length":
        return "limit"
    reason = choice.get("stop_reason", choice.get("matched_stop"))  # vLLM, SGLang
    if isinstance(reason, str):
        return "word"
    if isinstance(reason, int) or (reason is None and "stop_reason" in choice):  # vLLM: None is the end token
        return "eos"
    return "stop"


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
