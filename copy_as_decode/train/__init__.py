"""Training data and LoRA fine-tuning that teach a model to write copy/gen edit programs."""
