# The CPU target both llama.cpp builds use (sourced by build-llama-cpp.sh and build-llama-server.sh).
# Not -DGGML_NATIVE: on an AMX host that enables ggml's AMX path, which dies at its first matmul
# (general protection fault in ggml_backend_amx_mul_mat). An explicit x86-64-v3 target runs on every
# host of this kind and keeps ggml's CPU weight repacking.
llama_cpp_version="0.3.36"
llama_cpp_sdist_sha256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
llama_cpp_cpu_flags=(-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON
                     -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
                     -DGGML_AMX_BF16=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF
                     -DLLAMA_BUILD_EXAMPLES=OFF)

# Fetch the pinned source package into $1 (or take $LLAMA_CPP_PYTHON_SDIST), check it, print its path.
llama_cpp_sdist() {
  local sdist=${LLAMA_CPP_PYTHON_SDIST:-}
  if [ -z "$sdist" ]; then
    $pip download -q --no-deps --no-binary :all: "llama-cpp-python==$llama_cpp_version" -d "$1" >&2
    sdist="$1/llama_cpp_python-$llama_cpp_version.tar.gz"
  fi
  local got
  got=$(sha256sum "$sdist" | cut -d' ' -f1)
  if [ "$got" != "$llama_cpp_sdist_sha256" ]; then
    echo "llama.cpp: sha256 mismatch for $sdist: $got (want $llama_cpp_sdist_sha256)" >&2
    return 1
  fi
  echo "$sdist"
}
