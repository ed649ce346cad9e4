"""The verified selector's drafter: where it thinks the output is in the input, and what it proposes."""
from copy_as_decode.engine.decoding.drafter import LineDrafter

DOC = "import os\nimport sys\n\n\ndef main():\n    print(os.getcwd())\n\n\nmain()\n"


def proposal(drafter, tok, text):
    return tok.decode(drafter.propose(text))


def test_it_drafts_the_lines_after_the_output(qwen_tokenizer):
    d = LineDrafter(qwen_tokenizer, DOC, k=64)
    assert proposal(d, qwen_tokenizer, "import os\nimport sys\n").startswith("\n\ndef main():\n")
    assert proposal(d, qwen_tokenizer, "import os\nimport sys\n\n\ndef ma").startswith("in():\n    print(")


def test_an_inserted_line_resynchronises_on_the_next_one(qwen_tokenizer):
    d = LineDrafter(qwen_tokenizer, DOC, k=64)
    out = "import os\nimport sys\nimport re\n"
    proposal(d, qwen_tokenizer, out)
    assert (d.anchor, d.cursor) == (2, 3)  # taken for a replacement of line 3, searched again from line 3
    assert proposal(d, qwen_tokenizer, out + "\n\ndef main():\n").startswith("    print(os.getcwd())\n")


def test_an_output_that_goes_back_resynchronises_on_a_unique_line(qwen_tokenizer):
    """A model that repeats the file's header (the 0.5B does, looping) gets the header's continuation."""
    d = LineDrafter(qwen_tokenizer, DOC, k=64)
    out = "import os\nimport sys\n\n\ndef main():\n    print(os.getcwd())\n"
    assert proposal(d, qwen_tokenizer, out).startswith("\n\nmain()")
    assert proposal(d, qwen_tokenizer, out + "import sys\n").startswith("\n\ndef main():")


def test_a_repeated_line_does_not_jump_back(qwen_tokenizer):
    d = LineDrafter(qwen_tokenizer, DOC, k=64)
    out = "import os\nimport sys\n\n\ndef main():\n    print(os.getcwd())\n\n\nmain()\n"
    proposal(d, qwen_tokenizer, out)
    assert d.cursor == 9 and proposal(d, qwen_tokenizer, out + "\n") == ""  # "" occurs 4 times: no guess


def test_a_moved_block_is_drafted_with_its_new_indentation(qwen_tokenizer):
    """A method moved out of its class: once one of its lines is written dedented, the rest is drafted so."""
    doc = ("class Box:\n    def total(self):\n        return helper(self.items)\n\n"
           "    def helper(self, values):\n        out = 0\n\n        for v in values:\n            out += v\n"
           "        return out\n")
    d = LineDrafter(qwen_tokenizer, doc, k=64)
    out = "class Box:\n    def total(self):\n        return helper(self.items)\n\n\ndef helper(values):\n    out = 0\n"
    assert proposal(d, qwen_tokenizer, out).startswith("\n    for v in values:\n        out += v\n    return out\n")
    assert d.by == -4
    assert proposal(d, qwen_tokenizer, out + "\n").startswith("    for v in values:\n")  # a blank line keeps it
    # a line written as the input has it sets the shift back
    assert proposal(d, qwen_tokenizer, out + "\n        for v in values:\n").startswith("            out += v\n")
    assert d.by == 0
