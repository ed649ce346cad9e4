"""The server's settings for the engine the worker runs: `inference`, `endpoint` and `api` become the worker's
`--inference`, `--endpoint` and `--api`, a bad value is refused with a message that names the setting, and a
change restarts the worker. (The other settings: test_lsp_units.py.)"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from copy_as_decode.engine.options import WORKER as WORKER_OPTIONS
from copy_as_decode.engine.options import add_arguments
from copy_as_decode.server.settings import KEYS, SECTION, Settings

ROOT = Path(__file__).resolve().parents[1]
WORKER = [sys.executable, "-m", "copy_as_decode.cli", "worker"]


def test_defaults_leave_the_engine_to_the_worker():
    s = Settings()
    assert (s.inference, s.endpoint, s.api) == ("", "", "")
    assert s.command() == [*WORKER, "--model", "qwen2.5-coder-1.5b"]  # $COPY_AS_DECODE_INFERENCE etc. still apply


def test_remote_settings_make_the_worker_flags():
    s, errors = Settings().merged({SECTION: {"inference": "remote", "endpoint": "http://127.0.0.1:8080",
                                             "model": "qwen2.5-coder-0.5b", "api": "llama.cpp"}})
    assert errors == []
    assert s.command() == [*WORKER, "--model", "qwen2.5-coder-0.5b", "--inference", "remote",
                           "--endpoint", "http://127.0.0.1:8080", "--api", "llama.cpp"]
    # after a worker command of the user's own (options it holds stay in front of the appended ones)
    s2 = s.merged({"workerCommand": ["copy-as-decode", "worker", "--no-tokenizer-check"], "api": ""})[0]
    assert s2.command() == ["copy-as-decode", "worker", "--no-tokenizer-check", "--model", "qwen2.5-coder-0.5b",
                            "--inference", "remote", "--endpoint", "http://127.0.0.1:8080"]
    local = Settings().merged({"inference": "local"})[0]
    assert local.command()[-2:] == ["--inference", "local"]


def test_chat_settings_make_the_worker_flags():
    s, errors = Settings().merged({SECTION: {"inference": "chat", "endpoint": "http://localhost:11434/v1",
                                             "servedModel": "qwen2.5-coder:7b"}})
    assert errors == []
    assert s.command() == [*WORKER, "--model", "qwen2.5-coder-1.5b", "--inference", "chat", "--endpoint",
                           "http://localhost:11434/v1", "--served-model", "qwen2.5-coder:7b"]
    parser = argparse.ArgumentParser()
    add_arguments(parser, WORKER_OPTIONS)
    args = parser.parse_args(s.command()[len(WORKER):])
    assert (args.inference, args.endpoint, args.served_model, args.stream) == (
        "chat", "http://localhost:11434/v1", "qwen2.5-coder:7b", True)
    assert s.restart_needed(s.merged({"servedModel": "llama3.2:3b"})[0])


def test_the_worker_parses_the_command():
    """The flags as the worker's own parser (engine/options.py add_arguments) reads them."""
    s = Settings().merged({"inference": "remote", "endpoint": "https://gpu-box:8000/v1", "api": "openai",
                           "model": "qwen2.5-coder-0.5b", "quant": "gguf"})[0]
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(s.command()[len(WORKER):])
    assert (args.inference, args.endpoint, args.api, args.model, args.quant) == (
        "remote", "https://gpu-box:8000/v1", "openai", "qwen2.5-coder-0.5b", "gguf")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "https://gpu-box.example:8000/v1", "HTTP://localhost",
                                 "http://[::1]:8080/", "https://host/path?x=1"])
def test_endpoint_accepts_http_urls(url):
    s, errors = Settings().merged({"endpoint": url})
    assert (s.endpoint, errors) == (url, [])


def test_endpoint_blanks_and_empty():
    assert Settings().merged({"endpoint": "  http://h:1  "})[0].endpoint == "http://h:1"
    s = Settings().merged({"endpoint": "http://h:1"})[0]
    back, errors = s.merged({"endpoint": ""})  # empty: the worker's default again
    assert (back.endpoint, errors) == ("", []) and "--endpoint" not in back.command()
    assert s.merged({"endpoint": None})[0].endpoint == "http://h:1"  # null keeps the value


@pytest.mark.parametrize("url", ["127.0.0.1:8080", "ftp://h/", "file:///tmp/x", "http://", "http://h:port/",
                                 "http://h /x", "ws://h:1", "localhost", 8080, ["http://h"]])
def test_endpoint_refuses_other_values(url):
    s = Settings().merged({"endpoint": "http://kept:1"})[0]
    new, [error] = s.merged({"endpoint": url})
    assert new.endpoint == "http://kept:1"  # a bad value keeps the one before
    assert error.startswith(f"{SECTION}.endpoint must be")
    if isinstance(url, str):
        assert "http://" in error and "https://" in error


def test_inference_and_api_values():
    for bad in ({"inference": "cloud"}, {"inference": 1}, {"api": "grpc"}):
        new, [error] = Settings().merged(bad)
        key = next(iter(bad))
        assert new == Settings() and error.startswith(f"{SECTION}.{key} must be"), error
    _, [error] = Settings().merged({"inference": "cloud"})
    assert "local" in error and "remote" in error
    _, [error] = Settings().merged({"api": "grpc"})
    assert "llama.cpp" in error and "openai" in error
    assert Settings().merged({"inference": "", "api": "auto"}) == (Settings(api="auto"), [])


def test_a_changed_engine_restarts_the_worker():
    remote = Settings().merged({"inference": "remote", "endpoint": "http://127.0.0.1:8080"})[0]
    assert Settings().restart_needed(remote)
    assert remote.restart_needed(remote.merged({"endpoint": "http://127.0.0.1:8081"})[0])
    assert remote.restart_needed(remote.merged({"api": "openai"})[0])
    assert remote.restart_needed(remote.merged({"inference": "local"})[0])
    assert not remote.restart_needed(remote.merged({"endpoint": "http://127.0.0.1:8080", "review": "never"})[0])
    # a refused endpoint changes nothing, so nothing restarts
    assert not remote.restart_needed(remote.merged({"endpoint": "gpu-box:8080"})[0])


def test_vscode_declares_the_settings():
    """The VS Code extension offers every server setting (its package.json), and sends it (extension.ts)."""
    package = json.loads((ROOT / "extension-vscode" / "package.json").read_text())
    properties = package["contributes"]["configuration"]["properties"]
    source = (ROOT / "extension-vscode" / "src" / "extension.ts").read_text()
    for key in KEYS:
        assert f"{SECTION}.{key}" in properties, key
        assert f"('{key}')" in source, key
    assert properties[f"{SECTION}.inference"]["enum"] == ["", "local", "remote", "chat"]
    assert properties[f"{SECTION}.api"]["enum"] == ["", "auto", "llama.cpp", "openai"]
    assert "inference" in properties[f"{SECTION}.backend"]["markdownDeprecationMessage"]  # renamed: struck through
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "sync-vscode-settings.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
