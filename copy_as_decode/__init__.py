"""Copy-as-Decode: LLM edits as copy/gen programs. Each folder here is the import path of the same name:
core/ (the language, its grammar and resolver, windows), engine/ (models and decode loops), server/ (the
language server), bench/, train/ and synthesis/ (benchmarks, training and the data both are made from)."""
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent  # where this package runs from: its .tools/ and data/
