"""Edit programs: documents as lines, the copy/gen language, its resolver, oracle, grammar and TextEdits.

Pure Python: nothing here imports torch, so editors and benchmarks can use it without a model.
"""
