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
source "$root/scripts/llama-cpp-flags.sh"
version=$llama_cpp_version
flags=("${llama_cpp_cpu_flags[@]}" -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF
       -DBUILD_SHARED_LIBS=OFF)
out="$root/.tools/llama-server"
bin="$out/llama-server"
stamp="llama-cpp-python==$version sha256=$llama_cpp_sdist_sha256 ${flags[*]}"

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
sdist=$(llama_cpp_sdist "$work")
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
