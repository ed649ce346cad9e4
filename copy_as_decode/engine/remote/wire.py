"""The wire to an inference engine: completion requests over engine/remote/transport.py's HTTP, with its retries
and one-line errors. What a request says and what its answer means is the server's dialect
(engine/remote/dialects.py), chosen once, from `--api` and what `/v1/models` says the server is.

Every request is a pure function of its body (greedy decoding), so a failed or timed-out one is repeated as
it was; what a completion means for an edit is engine/remote/client.py's business.
"""
import http.client
import time
import urllib.request

from copy_as_decode.engine.options import REQUEST_TIMEOUT
from copy_as_decode.engine.remote.dialects import APIS, Completion, choose
from copy_as_decode.engine.remote.transport import (  # noqa: F401  (the errors, importable from here too)
    API_KEY_ENV,
    EngineTimeout,
    EngineUnreachable,
    GrammarRefused,
    Http,
    ModelMismatch,
    RemoteError,
)


class Wire(Http):
    """The completion endpoint of one engine, spoken to in its dialect. The API key defaults to
    $COPY_AS_DECODE_API_KEY; `model`: the name to send when the server lists none; `eog`: end-of-generation ids,
    left out of the returned tokens."""

    def __init__(self, endpoint: str, *, api: str = "auto", api_key: str | None = None, timeout: float = REQUEST_TIMEOUT,
                 retries: int = 2, served_model: str | None = None, model: str = "", grammar_param: str | None = None,
                 eog: set[int] = frozenset()):
        if api not in APIS:
            raise ValueError(f"api must be one of {', '.join(APIS)}")
        base = endpoint.rstrip("/")
        super().__init__(base[:-3] if base.endswith("/v1") else base, api_key=api_key, timeout=timeout,
                         retries=retries)
        self.eog = set(eog)
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
