"""How each inference server speaks, one class a server: the body of a completion request, what its answer
says (text, token ids, which stop fired, timings, draft counts) and its side routes (tokenize, whether it drafts,
its draft counters). engine/remote/wire.py chooses one when it first meets the server (`choose`) and sends what it builds.

  LlamaCpp        the native `/completion` of `llama-server`: GBNF in `grammar`, the sampled token ids, which
                  stop fired, and timings with cached/processed prompt tokens and draft counts
  OpenAI          `/v1/completions` of any server that takes token-id prompts, the grammar in `grammar`
  VLLM, SGLang    the same, with the grammar in `structured_outputs.grammar` (vLLM) or `ebnf` (SGLang)
  LlamaCppOpenAI  the `/v1/completions` of `llama-server`, with its native tokenize and /slots
"""
from dataclasses import dataclass

APIS = ("auto", "llama.cpp", "openai")
# Neutral sampling, so temperature > 0 samples from the plain softmax like the local engine.
_NEUTRAL = {"top_k": 0, "top_p": 1.0, "min_p": 0.0, "typical_p": 1.0, "repeat_penalty": 1.0,
            "presence_penalty": 0.0, "frequency_penalty": 0.0, "dry_multiplier": 0.0, "xtc_probability": 0.0}
_NATIVE_FIELDS = ["content", "tokens", "stop_type", "stopping_word", "timings", "tokens_evaluated", "truncated"]
_VLLM_DRAFTS = ("vllm:spec_decode_num_draft_tokens_total", "vllm:spec_decode_num_accepted_tokens_total")


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


class Dialect:
    """One server's requests and answers. `get(path)`: a route's JSON, None where the server refuses it;
    `text_of(path)`: a route's text, None where it has none."""
    api = ""   # what `--api` calls the route
    path = ""  # the completion route

    def body(self, prompt_ids: list[int], n_predict: int, temperature: float, grammar: str | None,
             stop: list[str], ban: list[int]) -> dict:
        """One completion; `ban`: token ids never sampled."""
        raise NotImplementedError

    def completion(self, r: dict, stop: list[str], eog: set[int]) -> Completion:
        """The answer to body(), its tokens without the end-of-generation ids `eog`; wall_s is the caller's."""
        raise NotImplementedError

    def tokenize_requests(self, text: str) -> list[tuple[str, dict]]:
        """(route, body) pairs to try in turn for the server's token ids of `text`, special tokens parsed."""
        raise NotImplementedError

    def speculative(self, get) -> bool | None:
        """Whether the server drafts tokens itself; None when it does not say."""
        return None

    def draft_counters(self, text_of) -> tuple[int, int] | None:
        """(tokens drafted, tokens accepted) by its speculative decoding since it started; None when it counts none."""
        return None


class LlamaCpp(Dialect):
    api, path = "llama.cpp", "/completion"

    def body(self, prompt_ids, n_predict, temperature, grammar, stop, ban):
        body = {"prompt": prompt_ids, "n_predict": n_predict, "temperature": temperature, "stop": stop,
                "cache_prompt": True, "return_tokens": True, "response_fields": _NATIVE_FIELDS, **_NEUTRAL}
        if grammar is not None:
            body["grammar"] = grammar
        if ban:
            body["logit_bias"] = [[tid, False] for tid in ban]
        return body

    def completion(self, r, stop, eog):
        timings = r.get("timings") or {}
        stop_type = r.get("stop_type", "eos")
        return _completion([int(x) for x in r.get("tokens") or [] if int(x) not in eog], r.get("content", ""),
                           stop_type if stop_type in ("eos", "word", "limit") else "eos",
                           timings.get("prompt_n"), timings.get("cache_n"), timings)

    def tokenize_requests(self, text):
        return [("/tokenize", {"content": text, "add_special": False, "parse_special": True})]

    def speculative(self, get):
        slots = get("/slots")  # None when started with --no-slots
        return any(s.get("speculative") for s in slots) if isinstance(slots, list) else None


class OpenAI(Dialect):
    """`grammar_param`: the body field the grammar goes in (`structured_outputs` nests it as vLLM wants)."""
    api, path = "openai", "/v1/completions"
    grammar_param = "grammar"

    def __init__(self, served_model: str, grammar_param: str | None = None):
        self.served_model = served_model
        self.grammar_param = grammar_param or self.grammar_param

    def body(self, prompt_ids, n_predict, temperature, grammar, stop, ban):
        body = {"model": self.served_model, "prompt": prompt_ids, "max_tokens": max(n_predict, 1),
                "temperature": temperature, "top_p": 1.0, "stop": stop, "return_token_ids": True,
                "skip_special_tokens": False, "include_stop_str_in_output": True, "cache_prompt": True}
        if ban:
            body["logit_bias"] = {str(tid): -100 for tid in ban}
        if grammar is not None:
            body[self.grammar_param] = {"grammar": grammar} if self.grammar_param == "structured_outputs" else grammar
        return body

    def completion(self, r, stop, eog):
        choice = (r.get("choices") or [{}])[0]
        text = choice.get("text") or ""
        usage = r.get("usage") or {}
        timings = r.get("timings") or {}
        cached = timings.get("cache_n", ((usage.get("prompt_tokens_details") or {}).get("cached_tokens")))
        prompt_n = timings.get("prompt_n")
        if prompt_n is None and cached is not None and usage.get("prompt_tokens") is not None:
            prompt_n = usage["prompt_tokens"] - cached
        stop_kind = _stop(choice)
        if stop_kind == "word" and not any(text.endswith(w) for w in stop):  # the stop string was cut off
            reason = choice.get("stop_reason", choice.get("matched_stop"))
            text += reason if isinstance(reason, str) else stop[0]
        ids = choice.get("token_ids")
        tokens = [int(x) for x in ids if int(x) not in eog] if ids is not None else None
        if ids and int(ids[-1]) in eog:  # the ids say it when the server's fields do not
            stop_kind = "eos"
        return _completion(tokens, text, stop_kind, prompt_n, cached, timings)

    def tokenize_requests(self, text):
        body = {"model": self.served_model, "prompt": text, "add_special_tokens": False}
        return [(path, body) for path in ("/tokenize", "/v1/tokenize")]


class VLLM(OpenAI):
    grammar_param = "structured_outputs"

    def draft_counters(self, text_of):
        metrics = text_of("/metrics")  # Prometheus text, one line a labelled series
        if metrics is None:
            return None
        totals = {}
        for line in metrics.splitlines():
            name = line.split("{", 1)[0]
            if name in _VLLM_DRAFTS:
                totals[name] = totals.get(name, 0) + int(float(line.rsplit(" ", 1)[1]))
        return tuple(totals.get(name, 0) for name in _VLLM_DRAFTS) if totals else None


class SGLang(OpenAI):
    grammar_param = "ebnf"


class LlamaCppOpenAI(OpenAI):
    """OpenAI's body and answer; llama-server's own tokenize and /slots."""
    tokenize_requests = LlamaCpp.tokenize_requests
    speculative = LlamaCpp.speculative


# /v1/models' `owned_by` -> the dialect of the server's /v1/completions
_SERVERS = {"llamacpp": LlamaCppOpenAI, "vllm": VLLM, "sglang": SGLang}


def choose(api: str, owner: str, served_model: str, grammar_param: str | None = None) -> Dialect:
    """The dialect for `--api` (one of APIS) and the server's `owned_by`; auto: llama-server's native route
    on a llama-server, /v1/completions elsewhere."""
    if api == "llama.cpp" or (api == "auto" and owner == "llamacpp"):
        return LlamaCpp()
    return _SERVERS.get(owner, OpenAI)(served_model, grammar_param)


def _stop(choice: dict) -> str:
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


def _completion(tokens, text: str, stop: str, prompt_n, cache_n, timings: dict) -> Completion:
    """With the timings and draft counts llama-server adds to either route's answer."""
    return Completion(tokens, text, stop, prompt_n, cache_n, timings.get("prompt_ms"), timings.get("predicted_ms"),
                      0.0, timings.get("draft_n") or 0, timings.get("draft_n_accepted") or 0)
