#!/usr/bin/env bash
# The GPU evidence in one run (docs/gpu.md): set-up, the copy kernel and its exactness per dtype, verified ==
# full on CUDA, edits held out with each model, a short training run with long files in. Every step has its own time
# limit and log; a step that fails or times out is recorded and the next one runs. Results go to $OUT
# (default results/gpu): a log per step, a JSON per benchmark, summary.txt, tables.txt (both appended to).
#   scripts/gpu-check.sh [--quick] [STAGE ...]   stages: setup kernel edit train (default: all, ~10 min on a GPU;
#                                                two calls, `setup kernel` then `edit train`, fit a 10-minute limit)
#   --quick: the tiny model on the CPU (a check of this script)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/results/gpu}
mkdir -p "$out"
cad="$root/.venv/bin/copy-as-decode"
summary="$out/summary.txt"

step() {  # step NAME SECONDS COMMAND...: run with a limit, log it, note the outcome in the summary
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  printf '%-28s rc=%-3s %4ss  %s\n' "$name" "$rc" "$((SECONDS - t0))" "$(tail -n 1 "$out/$name.log")" >> "$summary"
  { echo "== $name (rc $rc)"; tail -n 25 "$out/$name.log"; } >> "$out/tables.txt"
}

if [ "${1:-}" = "--quick" ]; then
  shift
  models=(tiny) trained=() device=cpu limit=2 lines=80-110
else
  models=(qwen2.5-coder-0.5b qwen2.5-coder-1.5b) trained=(qwen2.5-coder-1.5b-copy) device=cuda limit=8 lines=80-400
fi
stages=" ${*:-setup kernel edit train} "
want() { [[ $stages == *" $1 "* ]]; }

want setup && {
step setup 240 "$root/scripts/setup.sh" --torch
for m in "${trained[@]}"; do step "install-$m" 180 "$cad" models install "$m"; done
step torch 60 "$root/.venv/bin/python" -c \
  "import torch; print(torch.__version__, torch.cuda.is_available() and torch.cuda.get_device_name(0))"
}

# 1, 2: the kernel curve beside the paper's, and how far splice and stepwise part (bf16 and the fp32 reference)
want kernel && for m in "${models[@]}"; do
  for dt in bfloat16 float32; do
    step "kernel-$m-$dt" 120 "$cad" bench kernel --model "$m" --device "$device" --dtype "$dt" \
      --json "$out/kernel-$m-$dt.json"
  done
done

# 2, 3: edits held out (development cases excluded), every selector; verified's output against full's
want edit && {
for m in "${models[@]}" "${trained[@]}"; do
  step "edit-$m" 150 "$cad" bench edit --model "$m" --device "$device" --cases heldout --limit "$limit" \
    --corpora humanevalfix-python humanevalfix-js --selectors auto grammar verified full \
    --json "$out/edit-$m.json"
done
step "edit-long-${models[-1]}" 180 "$cad" bench edit --model "${models[-1]}" --device "$device" \
  --corpora long-python --lines "$lines" --limit 2 --selectors auto verified full --json "$out/edit-long.json"
}

# 4: training step time on long documents (activation checkpointing, docs/training.md)
want train && {
step train-data 120 "$cad" train data -n 200 --seed 0 --out "$out/train.jsonl"
step "train-${models[-1]}" 180 "$cad" train sft --model "${models[-1]}" --data "$out/train.jsonl" --examples 32 \
  --batch 4 --rank 12 --alpha 24 --max-tokens 40000 --grad-from all --checkpointing --checkpoint-every 0 \
  --device "$device" --out "$out/adapter"
}

cat "$summary"
