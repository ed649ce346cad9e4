#!/usr/bin/env bash
# Builds the native llama.cpp `llama-server` from the llama.cpp sources vendored in the pinned
# llama-cpp-python source package, into .tools/llama-server/. Idempotent: when the binary exists and its
# recorded version matches, nothing is downloaded or built (that is the build cache).
#
#   scripts/build-llama-server.sh           build if needed, print the binary's path
#   LLAMA_SERVER_JOBS=4 scripts/build-llama-server.sh                 parallel compile jobs (default: nproc)
#   LLAMA_CPP_PYTHON_SDIST=path.tar.gz scripts/build-llama-server.sh  use an already downloaded source package
#
# Takes 12-18 minutes on 2 cores. Needs cmake, a C++17 compiler and pip (to fetch the source package).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version="0.3.36"
sdist_sha256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
# Not -DGGML_NATIVE: on an AMX host that enables ggml's AMX path, which dies at its first matmul
# (general protection fault in ggml_backend_amx_mul_mat). An explicit x86-64-v3 target runs on every
# host of this kind and keeps ggml's CPU weight repacking.
flags=(-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
       -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
       -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF
       -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF
       -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF)
out="$root/.tools/llama-server"
bin="$out/llama-server"
stamp="llama-cpp-python==$version sha256=$sdist_sha256 ${flags[*]}"

if [ -x "$bin" ] && [ "$(cat "$out/VERSION" 2>/dev/null)" = "$stamp" ]; then
  echo "$bin"
  exit 0
fi

pip=${PIP:-}
if [ -z "$pip" ]; then
  if [ -x "$root/.venv/bin/pip" ]; then pip="$root/.venv/bin/pip"; else pip="python3 -m pip"; fi
fi
jobs=${LLAMA_SERVER_JOBS:-$(nproc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/llama-server-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "build-llama-server: fetching llama-cpp-python==$version (source package) ..." >&2
sdist=${LLAMA_CPP_PYTHON_SDIST:-}
if [ -z "$sdist" ]; then
  $pip download -q --no-deps --no-binary :all: "llama-cpp-python==$version" -d "$work" >&2
  sdist="$work/llama_cpp_python-$version.tar.gz"
fi
got=$(sha256sum "$sdist" | cut -d' ' -f1)
if [ "$got" != "$sdist_sha256" ]; then
  echo "build-llama-server: sha256 mismatch for $sdist: $got (want $sdist_sha256)" >&2
  exit 1
fi
tar xzf "$sdist" -C "$work"
src="$work/llama_cpp_python-$version/vendor/llama.cpp"

echo "build-llama-server: configuring and building with $jobs jobs (12-18 minutes on 2 cores) ..." >&2
start=$(date +%s)
cmake -S "$src" -B "$work/build" -G "Unix Makefiles" "${flags[@]}" >"$work/configure.log" 2>&1 \
  || { tail -40 "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" --target llama-server -j "$jobs" >"$work/build.log" 2>&1 \
  || { tail -60 "$work/build.log" >&2; exit 1; }
built=$(find "$work/build" -type f -name llama-server -perm -u+x | head -1)
[ -n "$built" ] || { echo "build-llama-server: no llama-server binary produced" >&2; exit 1; }

mkdir -p "$out"
cp "$built" "$bin.tmp" && mv "$bin.tmp" "$bin"
echo "$stamp" > "$out/VERSION"
echo "build-llama-server: built in $(( $(date +%s) - start )) s" >&2
echo "$bin"
