"""A second backend: the same `edit()` as engine.Engine, run on an inference engine the user already has.

The local engine splices copied lines into its KV cache. Here the splice becomes prefix-cached continuation:
the engine decodes the program under a GBNF grammar (engine/gbnf.py) until a copy tag closes (stop string
`"/>`), then the next completion's prompt is the previous prompt + the program so far + the copied lines'
tokens, and the engine's prefix cache prefills only the new tokens. Prompts go as token ids built with the
local tokenizer and chat template, so prefixes match exactly; a probe at start-up checks that the engine
tokenizes like the local tokenizer.

Two wire formats, both with only the standard library's HTTP client:
  llama.cpp   the native `/completion` of `llama-server` (timings with cached/processed prompt tokens,
              the sampled token ids, GBNF in `grammar`)
  openai      `/v1/completions` of vLLM, SGLang or llama-server (token-id prompts; the grammar goes in
              `structured_outputs.grammar` for vLLM, `ebnf` for SGLang, `grammar` for llama.cpp)
`api="auto"` picks llama.cpp when `/v1/models` says the server is one.

Every request is a pure function of its body (greedy decoding): a failed or timed-out request is repeated,
and nothing is applied until the whole edit has succeeded, so a retry never applies an edit twice.
"""
import json
import os
import random
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from copy_as_decode.core.contract import CAP, DEFAULT_MODEL, EOS, FENCE, ContextError, EditError
from copy_as_decode.core.program import Copy, Gen, format_item

from . import gbnf, models
from .front import EditFront
from .stats import Stats
from .text_stream import TextStream
from .tracker import ProgramTracker

API_KEY_ENV = "COPY_AS_DECODE_API_KEY"
ENDPOINT_ENV = "COPY_AS_DECODE_ENDPOINT"
APIS = ("auto", "llama.cpp", "openai")
STOP_COPY = gbnf.COPY_CLOSE
# Code, indentation, CRLF, accents, CJK, emoji and the chat-template tokens: tokenizers that differ anywhere
# that matters for prompts almost surely differ here.
PROBE = ("def f(x):\n    return x + 1  # ünïcödé ✓ 数字 🙂 0123456789\r\n\t<copy lines=\"12-34\"/><gen>"
         "</gen>\n<|im_start|>assistant\n<|im_end|>")
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
    tokens: list[int]          # sampled ids (end-of-sequence tokens removed)
    text: str
    stop: str                  # "eos" | "word" | "limit"
    prompt_n: int | None       # prompt tokens the engine processed (not from its cache)
    cache_n: int | None        # prompt tokens reused from its cache
    prompt_ms: float | None
    predicted_ms: float | None
    wall_s: float


@dataclass
class _Run:
    stats: Stats
    seq: list[int]                              # everything the engine has seen: prompt, program, copied lines
    program: list[int] = field(default_factory=list)
    requests: int = 0


class RemoteEngine(EditFront):
    """engine.front's `edit()`, decoding on a llama.cpp / OpenAI-compatible completion endpoint.

    `verified` runs as a greedy full rewrite on the engine: its output is by definition greedy full
    regeneration; the engine's own speculative decoding (llama-server `--spec-type ngram-simple`) is what
    drafts from the input there."""

    def __init__(self, endpoint: str | None = None, model: str = DEFAULT_MODEL, *, api: str = "auto",
                 api_key: str | None = None, timeout: float = 300.0, retries: int = 2, tokenizer=None,
                 served_model: str | None = None, grammar_param: str | None = None, verify_tokenizer: bool = True):
        endpoint = endpoint or os.environ.get(ENDPOINT_ENV)
        if not endpoint:
            raise ValueError(f"the remote backend needs an endpoint: --endpoint URL or ${ENDPOINT_ENV}")
        if api not in APIS:
            raise ValueError(f"api must be one of {', '.join(APIS)}")
        base = endpoint.rstrip("/")
        self.base = base[:-3] if base.endswith("/v1") else base
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.timeout, self.retries = timeout, retries
        self.tok = tokenizer if tokenizer is not None else load_tokenizer(model)
        self.eos = models.eos_id(self.tok)
        self.tok_lock = threading.Lock()  # HF fast tokenizers are not safe to call from several threads
        self._eog = {self.eos, self.tok.eos_token_id, self.tok.pad_token_id} - {None}
        # Programs end with the chat end token only, as under the local grammar; engines also end on the other
        # end-of-generation tokens (Qwen: <|endoftext|>, <|file_sep|>, ...), which a model may rank higher.
        self._other_specials = sorted({i for i, t in self.tok.added_tokens_decoder.items() if t.special} - {self.eos})
        info = self._models()
        self.owner = str(info.get("owned_by") or "")
        self.api = api if api != "auto" else ("llama.cpp" if self.owner == "llamacpp" else "openai")
        self.served_model = served_model or info.get("id") or model
        meta = info.get("meta") or {}
        self.context = meta.get("n_ctx") or info.get("max_model_len") or info.get("context_length")
        self.grammar_param = grammar_param or {"vllm": "structured_outputs", "sglang": "ebnf"}.get(self.owner, "grammar")
        self.model_name = f"{self.served_model} @ {self.base}"
        self.trained = False  # the engine's own programs ran slower than its rewrite (docs/scale-out.md)
        self.device, self.dtype = f"remote ({self.api})", "remote"
        self.tokenizer_verified = self._verify_tokenizer() if verify_tokenizer else False

    # ---- edits ----------------------------------------------------------------------------------------

    def _decode_program(self, ids, lines, plan, forced, temperature, hooks):
        if forced is not None:
            return self._forced(ids, lines, forced, hooks)
        return self._grammar(ids, lines, plan.limit, temperature, hooks)

    def _grammar(self, ids, lines, max_new_tokens, temperature, hooks):
        run = _Run(Stats(prompt_tokens=len(ids), budget=max_new_tokens, stop=CAP), list(ids))
        tracker, stream = ProgramTracker(), TextStream(self.tok)
        while run.stats.sampled < max_new_tokens:
            hooks.check()
            state = self._state(tracker)
            grammar = gbnf.request_grammar(len(lines), state)
            c = self._complete(run, max_new_tokens - run.stats.sampled, temperature, grammar, [STOP_COPY],
                               ban=self._other_specials)
            if c.stop == "stop":
                self._settle_stop(run, c, tracker)
            with self.tok_lock:
                piece = stream.push(c.tokens)
            run.program += c.tokens
            run.stats.sampled += len(c.tokens)
            self._splice(run, tracker.feed(piece), lines, state)
            hooks.progress(run.stats, tracker.text)
            if c.stop == "limit":
                break
            after = self._state(tracker)
            if c.stop == "eos" and after.kind != "copy_end":  # the second half of a split copy goes on
                if after.kind != "between" or after.newline:
                    raise GrammarRefused(f"the engine ended the program inside an item ({tracker.text[-60:]!r}): "
                                         f"it does not apply the grammar")
                run.stats.stop = EOS
                break
            if not c.tokens:
                raise RemoteError(f"the engine stopped ({c.stop}) without producing a token")
        return tracker.items, run.stats

    def _settle_stop(self, run: _Run, c: Completion, tracker: ProgramTracker) -> None:
        """An ambiguous "stop": under the grammar an end of sequence comes only between items or after a split
        copy's "-"; anywhere else the `"/>` stop string fired and was cut from the text."""
        probe = ProgramTracker()
        probe.feed(tracker.text + c.text)
        try:
            state = gbnf.state_after(probe.items, probe.text[probe.done:])
            eos = (state.kind == "between" and not state.newline) or state.kind == "copy_end"
        except gbnf.ProgramStateError:
            eos = False
        if eos:
            c.stop = "eos"
            return
        del run.seq[len(run.seq) - len(c.tokens):]
        c.text += STOP_COPY
        c.tokens = self.encode(c.text)
        run.seq += c.tokens
        c.stop = "word"

    def _state(self, tracker: ProgramTracker) -> gbnf.State:
        try:
            return gbnf.state_after(tracker.items, tracker.text[tracker.done:])
        except gbnf.ProgramStateError as e:
            raise GrammarRefused(f"the engine wrote text outside the program grammar: {e}") from None

    def _splice(self, run: _Run, completed, lines: list[str], state: gbnf.State) -> None:
        """Copies that just closed: check them against the grammar, then append their lines' tokens."""
        last = state.last
        for item in completed:
            if isinstance(item, Copy):
                if not last < item.start <= item.end <= len(lines):
                    raise GrammarRefused(f"the engine wrote {format_item(item)} after line {last} of "
                                         f"{len(lines)}: it does not apply the grammar")
                last = item.end
                # Tokenized alone: a whole-document tokenization can merge across line ends.
                copied = self.encode("".join(lines[item.start - 1:item.end]))
                run.seq += copied
                run.stats.spliced += len(copied)

    def _forced(self, ids, lines, items, hooks):
        """Feed a given program: each copy closes a request whose prompt ends with the copy tag, and the copied
        lines open the next one, so the engine's prefix cache does exactly the work a generated program's
        splices would. The program must be one the grammar allows (in range, in order, no span copies)."""
        last = 0
        for k, item in enumerate(items, 1):
            if isinstance(item, Copy):
                if not last < item.start <= item.end <= len(lines):
                    raise gbnf.ProgramStateError(f"program outside the grammar: item {k} {format_item(item)} "
                                                 f"after line {last} of {len(lines)}")
                last = item.end
            elif not isinstance(item, Gen):
                raise gbnf.ProgramStateError(f"program outside the grammar: item {k} is a span copy")
        run = _Run(Stats(prompt_tokens=len(ids)), list(ids))
        for item in items:
            hooks.check()
            toks = self.encode(format_item(item))  # each item alone, so every copy tag ends on a token boundary
            run.seq += toks
            run.program += toks
            run.stats.sampled += len(toks)
            if isinstance(item, Copy):
                self._complete(run, 0, 0.0, None, [])  # evaluates up to the tag, as decoding it would have
                copied = self.encode("".join(lines[item.start - 1:item.end]))
                run.seq += copied
                run.stats.spliced += len(copied)
                hooks.progress(run.stats, "")
        self._complete(run, 0, 0.0, None, [])
        run.stats.stop, run.stats.budget = EOS, run.stats.sampled
        return items, run.stats

    def _decode_rewrite(self, ids, fence, document, verified, plan, hooks):
        run = _Run(Stats(prompt_tokens=len(ids), budget=plan.limit), list(ids))
        hooks.check()
        close = "\n" + fence + "\n"  # engines leave the stop string out of the text
        c = self._complete(run, plan.limit, 0.0, None, [close])
        # "stop": llama-server's OpenAI route does not say whether the fence or the end token stopped it.
        run.stats.stop = {"eos": EOS, "word": FENCE, "stop": FENCE}.get(c.stop, CAP)
        run.stats.sampled = len(c.tokens)
        with self.tok_lock:
            text = self.tok.decode(c.tokens)
        hooks.progress(run.stats, text)
        return c.tokens, text + (close if run.stats.stop == FENCE else ""), run.stats

    # ---- the wire ----------------------------------------------------------------------------------------

    def _complete(self, run: _Run, n_predict: int, temperature: float, grammar: str | None,
                  stop: list[str], ban: list[int] = ()) -> Completion:
        """One completion continuing `run.seq`; its tokens are appended to run.seq and its costs to the stats."""
        c = self.complete(run.seq, n_predict, temperature=temperature, grammar=grammar, stop=stop, ban=ban)
        s = run.stats
        first = run.requests == 0
        run.requests += 1
        s.requests += 1
        s.remote_prompt_tokens += c.prompt_n if c.prompt_n is not None else len(run.seq)
        s.remote_cached_tokens += c.cache_n or 0
        s.forwards += 1 + max(len(c.tokens) - 1, 0)
        if c.prompt_ms is not None:
            setattr(s, "prefill_s" if first else "splice_s", getattr(s, "prefill_s" if first else "splice_s")
                    + c.prompt_ms / 1000)
            s.decode_s += (c.predicted_ms or 0.0) / 1000
        else:
            setattr(s, "prefill_s" if first else "decode_s", getattr(s, "prefill_s" if first else "decode_s")
                    + c.wall_s)
        run.seq += c.tokens
        return c

    def complete(self, prompt_ids: list[int], n_predict: int, *, temperature: float = 0.0,
                 grammar: str | None = None, stop: list[str] = (), ban: list[int] = ()) -> Completion:
        """One raw completion on the engine (exposed for tests and benchmarks); `ban`: token ids never sampled."""
        t = time.perf_counter()
        if self.api == "llama.cpp":
            body = {"prompt": prompt_ids, "n_predict": n_predict, "temperature": temperature, "stop": list(stop),
                    "cache_prompt": True, "return_tokens": True, "response_fields": _NATIVE_FIELDS, **_NEUTRAL}
            if grammar is not None:
                body["grammar"] = grammar
            if ban:
                body["logit_bias"] = [[tid, False] for tid in ban]
            r = self._post("/completion", body)
            timings = r.get("timings") or {}
            tokens = [int(x) for x in r.get("tokens") or []]
            stop_type = r.get("stop_type", "eos")
            if n_predict == 0:  # llama-server still samples one token; a prefill-only request drops it
                tokens = []
            return Completion([x for x in tokens if x not in self._eog], r.get("content", ""),
                              stop_type if stop_type in ("eos", "word", "limit") else "eos",
                              timings.get("prompt_n"), timings.get("cache_n"), timings.get("prompt_ms"),
                              timings.get("predicted_ms"), time.perf_counter() - t)
        body = {"model": self.served_model, "prompt": prompt_ids, "max_tokens": n_predict, "temperature": temperature,
                "top_p": 1.0, "stop": list(stop), "return_token_ids": True, "skip_special_tokens": False,
                "include_stop_str_in_output": True, "cache_prompt": True}
        if n_predict == 0:  # OpenAI servers want at least one token; the extra one is dropped
            body["max_tokens"] = 1
        if ban:
            body["logit_bias"] = {str(tid): -100 for tid in ban}
        if grammar is not None:
            if self.grammar_param == "structured_outputs":
                body["structured_outputs"] = {"grammar": grammar}
            else:
                body[self.grammar_param] = grammar
        r = self._post("/v1/completions", body)
        choice = (r.get("choices") or [{}])[0]
        text = choice.get("text") or ""
        usage = r.get("usage") or {}
        timings = r.get("timings") or {}
        cached = timings.get("cache_n", ((usage.get("prompt_tokens_details") or {}).get("cached_tokens")))
        prompt_n = timings.get("prompt_n")
        if prompt_n is None and cached is not None and usage.get("prompt_tokens") is not None:
            prompt_n = usage["prompt_tokens"] - cached
        stop_kind = self._oai_stop(choice)
        if stop_kind == "word" and not any(text.endswith(w) for w in stop):  # the stop string was cut off
            reason = choice.get("stop_reason", choice.get("matched_stop"))
            text += reason if isinstance(reason, str) else stop[0]
        if choice.get("token_ids") is not None:
            tokens = [int(x) for x in choice["token_ids"] if int(x) not in self._eog]
        else:
            tokens = self.encode(text)
        if n_predict == 0:
            tokens, text = [], ""
        return Completion(tokens, text, stop_kind, prompt_n, cached, timings.get("prompt_ms"),
                          timings.get("predicted_ms"), time.perf_counter() - t)

    @staticmethod
    def _oai_stop(choice: dict) -> str:
        """"eos", "word", "limit", or "stop" when the server does not say whether a stop string fired
        (llama-server's OpenAI route): the caller decides from the program's grammar state."""
        if choice.get("finish_reason") == "length":
            return "limit"
        reason = choice.get("stop_reason", choice.get("matched_stop"))  # vLLM, SGLang
        if isinstance(reason, str):
            return "word"
        if isinstance(reason, int):
            return "eos"
        return "stop"

    def _headers(self) -> dict:
        h = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def _models(self) -> dict:
        r = self._request("GET", "/v1/models")
        data = r.get("data") or [{}]
        return data[0] if isinstance(data, list) and data else {}

    def _post(self, path: str, body: dict) -> dict:
        return self._request("POST", path, body)

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        """One HTTP call with retries on connection failures, time-outs and 429/502/503/504."""
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
                if e.code in (429, 502, 503, 504):
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
            except (ConnectionError, http_client_errors()) as e:
                last = EngineUnreachable(f"connection to {self.base} failed: {type(e).__name__}: {e}")
            except json.JSONDecodeError as e:
                raise RemoteError(f"{url}: the answer is not JSON ({e})") from None
        raise last

    def _verify_tokenizer(self) -> bool:
        """Compare the engine's tokenization of PROBE with the local tokenizer's; raise ModelMismatch if they differ."""
        with self.tok_lock:  # the probe's chat markers are special tokens on both sides
            local = self.tok.encode(PROBE, add_special_tokens=False)
        if self.api == "llama.cpp" or self.owner == "llamacpp":
            tries = [("/tokenize", {"content": PROBE, "add_special": False, "parse_special": True})]
        else:
            tries = [(p, {"model": self.served_model, "prompt": PROBE, "add_special_tokens": False})
                     for p in ("/tokenize", "/v1/tokenize")]
        for path, body in tries:
            try:
                r = self._post(path, body)
            except RemoteError as e:
                if "HTTP 404" in str(e) or "HTTP 405" in str(e):
                    continue
                raise
            remote = [t["id"] if isinstance(t, dict) else int(t) for t in r.get("tokens", [])]
            if remote != local:
                k = next((i for i, (a, b) in enumerate(zip(local, remote)) if a != b), min(len(local), len(remote)))
                raise ModelMismatch(
                    f"the engine at {self.base} ({self.served_model}) tokenizes differently from the local "
                    f"tokenizer (first difference at token {k}: local {local[k:k + 3]}, engine {remote[k:k + 3]}); "
                    f"serve the same model family or pass the matching --model for the local tokenizer")
            return True
        raise ModelMismatch(f"the engine at {self.base} has no /tokenize endpoint, so its tokenizer cannot be "
                            f"checked against the local one; skip the check with --no-tokenizer-check "
                            f"(verify_tokenizer=False)")


def http_client_errors():
    import http.client
    return http.client.HTTPException


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


def load_tokenizer(spec: str):
    """The local tokenizer for a model spec: a built-in (or `tiny`), a .gguf file, or an HF id/directory."""
    from transformers import AutoTokenizer
    if spec in models.BUILTINS or spec == models.TINY:
        return models.load_tokenizer(spec if spec in models.BUILTINS else models.TOKENIZER_SOURCE)
    if spec.endswith(".gguf"):
        path = Path(spec)
        if not path.is_file():
            raise models.ModelError(f"GGUF file not found: {spec}")
        return AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    try:
        return AutoTokenizer.from_pretrained(spec)
    except OSError as e:
        raise models.ModelError(f"cannot load a tokenizer for {spec!r}: {e}") from None


class LlamaServer:
    """Runs a native `llama-server` on a loopback port (for tests, benchmarks and the docs' recipes).

    with LlamaServer(binary, gguf, parallel=4, ctx=16384) as server: RemoteEngine(server.url, ...)
    """

    def __init__(self, binary: str | Path, gguf: str | Path, *, port: int | None = None, parallel: int = 1,
                 ctx: int = 4096, threads: int | None = None, extra: list[str] = (), log: str | Path | None = None,
                 ready_timeout: float = 180.0):
        self.binary, self.gguf = Path(binary), Path(gguf)
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [str(self.binary), "-m", str(self.gguf), "--host", "127.0.0.1", "--port", str(self.port),
                     "-c", str(ctx), "--parallel", str(parallel), "--no-webui", *extra]
        if threads:
            self.args += ["-t", str(threads), "-tb", str(threads)]
        self.log, self.ready_timeout, self.proc = log, ready_timeout, None

    def start(self) -> "LlamaServer":
        self._out = open(self.log, "ab") if self.log else None
        self.proc = subprocess.Popen(self.args, stdout=self._out or subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RemoteError(f"llama-server exited with code {self.proc.returncode}: {' '.join(self.args)}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout, http_client_errors()):
                pass
            time.sleep(0.25)
        self.stop()
        raise EngineTimeout(f"llama-server not ready after {self.ready_timeout:g} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "_out", None):
            self._out.close()
            self._out = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def default_server_binary() -> Path:
    """Where scripts/build-llama-server.sh puts llama-server (override with $COPY_AS_DECODE_LLAMA_SERVER)."""
    env = os.environ.get("COPY_AS_DECODE_LLAMA_SERVER")
    return Path(env) if env else Path(__file__).resolve().parent.parent / ".tools" / "llama-server" / "llama-server"
