"""Token ids -> text as they are decoded, for the decode loops and the remote engine."""


class TextStream:
    """Token ids -> text, holding back bytes of a character split across tokens."""

    def __init__(self, tok):
        self.tok, self.pending, self.text = tok, [], ""

    def push(self, ids: list[int]) -> str:
        self.pending += ids
        piece = self.tok.decode(self.pending)
        if piece.endswith("\ufffd"):
            return ""
        self.pending, self.text = [], self.text + piece
        return piece
