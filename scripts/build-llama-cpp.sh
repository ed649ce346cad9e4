#!/usr/bin/env bash
# Builds llama-cpp-python (its bindings and libllama, from the pinned source package) into the virtualenv:
# the local engine's quantized model runs on it (engine/backends/llama_cpp.py). Idempotent: when the installed
# build's stamp matches, nothing is fetched or built. The built wheel is kept per machine (beside the models, in
# ${COPY_AS_DECODE_HOME:-~/.cache/copy-as-decode}/wheels, keyed by the stamp and the Python): a new clone or a
# new virtualenv installs it in seconds.
#
#   scripts/build-llama-cpp.sh              build if needed
#   LLAMA_CPP_PYTHON_SDIST=path.tar.gz ...  use an already downloaded source package
#
# Takes 3-8 minutes on 2 cores, once a machine. Needs cmake and a C++17 compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
source "$root/scripts/llama-cpp-flags.sh"
flags=("${llama_cpp_cpu_flags[@]}" -DLLAVA_BUILD=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_TOOLS=OFF)
stamp="llama-cpp-python==$llama_cpp_version sha256=$llama_cpp_sdist_sha256 ${flags[*]}"
if [ "$(cat "$venv/.llama-cpp" 2>/dev/null)" = "$stamp" ] && "$venv/bin/python" -c "import llama_cpp" 2>/dev/null; then
  exit 0
fi
pip="$venv/bin/pip"
tag=$("$venv/bin/python" -c 'import sys; print(sys.implementation.cache_tag)')
wheels="${COPY_AS_DECODE_HOME:-$HOME/.cache/copy-as-decode}/wheels/$(echo "$stamp $tag" | sha256sum | cut -c1-16)"
wheel=$(ls "$wheels"/llama_cpp_python-*.whl 2>/dev/null | head -n 1 || true)
if [ -n "$wheel" ]; then
  "$pip" install -q --no-deps --force-reinstall "$wheel"
  echo "$stamp" > "$venv/.llama-cpp"
  exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/llama-cpp-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "setup: building llama.cpp for the quantized model (once; 3-8 minutes on 2 cores) ..." >&2
sdist=$(llama_cpp_sdist "$work")
"$pip" install -q scikit-build-core==1.1.2 pathspec==1.1.1  # its build backend, pinned (no build isolation)
start=$(date +%s)
# pip -v prints the build's "[35/140] g++ ..." lines: they become one progress line
CMAKE_ARGS="${flags[*]}" CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
  "$pip" wheel -v --no-deps --no-build-isolation -w "$work/wheel" "$sdist" 2>&1 | tee "$work/build.log" \
  | { grep --line-buffered -o '^ *\[[0-9]*/[0-9]*\]' || true; } \
  | while read -r step; do printf '\rsetup: llama.cpp compiling %s' "${step//[\[\] ]/}" >&2; done
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo >&2; tail -40 "$work/build.log" >&2; exit 1; }
"$pip" install -q --no-deps --force-reinstall "$work"/wheel/llama_cpp_python-*.whl
mkdir -p "$wheels.part" && cp "$work"/wheel/llama_cpp_python-*.whl "$wheels.part/" && rm -rf "$wheels" \
  && mv "$wheels.part" "$wheels"
echo "$stamp" > "$venv/.llama-cpp"
echo -e "\rsetup: llama.cpp built in $(( $(date +%s) - start )) s" >&2
