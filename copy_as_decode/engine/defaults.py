"""The engine's settings and their defaults, which engine/backend.py offers as options: the model, how its weights
run, its caches and time-outs. Nothing here imports torch: the server checks its settings against these."""

# the 1.5B, because with the model run on the edit's window only it fixes far more of the HumanEvalFix bugs
# embedded in long files than the 0.5B, at a time per edit that stays usable on a CPU (docs/benchmarks.md,
# "Windows, measured")
DEFAULT_MODEL = "qwen2.5-coder-1.5b"
# how the weights run (engine/engine.py): the GGUF as it ships on llama.cpp, dequantized on torch, or chosen
QUANTS = ("auto", "gguf", "none")
PROMPT_CACHE_MB = 1024   # the torch engine's KV caches of recent prompts
REQUEST_TIMEOUT = 300.0  # seconds a remote engine may take for one completion request
BUILTIN_CONTEXT = 32768  # the built-in Qwen2.5-Coder models' context, for checking settings before a worker runs
