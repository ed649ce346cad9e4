#!/usr/bin/env bash
# Idempotent set-up: a virtualenv with the pinned stack, the project, and the default model.
#   scripts/setup.sh          runtime (what `./run edit` needs: requirements.txt, llama.cpp, no torch)
#   scripts/setup.sh --torch  also the torch engine (requirements-torch.txt: --quant none, GPUs, adapters, training)
#   scripts/setup.sh --dev    also torch, the test stack and the 0.5B the tests use (the fast lane, ./run check)
#   scripts/setup.sh --test   also the test stack, the built-in trained model, the editors the end-to-end tests
#                             drive, llama-server and vLLM
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
py=${PYTHON:-python3.11}
command -v "$py" >/dev/null || py=python3

stamp() { sha256sum "$@" | sha256sum | cut -c1-16; }

if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip==26.0.1 >/dev/null 2>&1 || true
fi
want=$(stamp "$root/requirements.txt" "$root/pyproject.toml")
if [ "$(cat "$venv/.deps" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing the Python stack (pinned; no torch) ..." >&2
  "$venv/bin/pip" install -q -r "$root/requirements.txt"
  "$venv/bin/pip" install -q --no-deps -e "$root"
  echo "$want" > "$venv/.deps"
fi
"$root/scripts/build-llama-cpp.sh"  # the quantized engine the default runs on
if [ "${1:-}" = "--test" ]; then
  # llama-server compiles (CPU) while the installs below download and unpack (network, disk); waited for last
  "$root/scripts/build-llama-server.sh" >/dev/null &
  server_build=$!
  trap 'kill "$server_build" 2>/dev/null || true' EXIT
fi

if [ -n "${1:-}" ]; then  # --torch, --dev, --test: the torch engine too
  want=$(stamp "$root/requirements-torch.txt")
  if [ "$(cat "$venv/.torch-deps" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing torch and transformers (pinned, CPU torch) ..." >&2
    "$venv/bin/pip" install -q -r "$root/requirements-torch.txt"
    echo "$want" > "$venv/.torch-deps"
  fi
fi
# after torch where it is wanted: an install with transformers also keeps the model's Hugging Face tokenizer
"$venv/bin/copy-as-decode" models install "${COPY_AS_DECODE_DEFAULT_MODEL:-qwen2.5-coder-1.5b}" >/dev/null

if [ "${1:-}" = "--test" ] || [ "${1:-}" = "--dev" ]; then
  want=$(stamp "$root/requirements-test.txt")
  if [ "$(cat "$venv/.test-deps" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing the test stack ..." >&2
    "$venv/bin/pip" install -q -r "$root/requirements-test.txt"
    echo "$want" > "$venv/.test-deps"
  fi
  # the model the tests run (and `tiny` borrows the tokenizer of)
  "$venv/bin/copy-as-decode" models install qwen2.5-coder-0.5b >/dev/null
fi
if [ "${1:-}" = "--test" ]; then
  # the built-in trained model (its base: the 1.5B above; a slow test runs it, dequantizing the base once)
  "$venv/bin/copy-as-decode" models install qwen2.5-coder-1.5b-copy >/dev/null
  "$root/scripts/setup-editors.sh"
  "$root/scripts/setup-vllm.sh"
  wait "$server_build"
  trap - EXIT
  "$venv/bin/python" "$root/scripts/check-llama-server.py"
fi
