"""The WorkspaceEdit that carries an edit's Outcome to the client, by workspace/applyEdit or as a resolved
code action's edit.

It is a versioned TextDocumentEdit, so the client refuses it if the document changed since the edit ran.
An edit that goes to review carries one change annotation per hunk, which needs confirmation: the client
shows the hunks (VS Code's Refactor Preview, the Neovim plugin's diff) and applies those the user accepts.
"""
from lsprotocol import types

from .edit_request import Outcome, shorten


def text_document_edit(outcome: Outcome, instruction: str, declares_document_changes: bool) -> types.WorkspaceEdit:
    """The edits of an `ok` Outcome; `instruction` describes the hunks of a review (unless the outcome's warning
    says why it is one).

    A client that does not declare documentChanges (Neovim 0.11 handles them without saying so) also gets the
    same edits as plain `changes`, which it falls back to."""
    edits, annotations = outcome.edits, None
    if outcome.reviewed:
        ids = [f"hunk-{k}" for k in range(1, len(edits) + 1)]
        edits = [types.AnnotatedTextEdit(range=e.range, new_text=e.new_text, annotation_id=i)
                 for e, i in zip(edits, ids)]
        about = outcome.warning or shorten(" ".join(instruction.split()))
        annotations = {i: types.ChangeAnnotation(label=h.label, needs_confirmation=True, description=about)
                       for h, i in zip(outcome.hunks, ids)}
    edit = types.WorkspaceEdit(change_annotations=annotations, document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=outcome.uri, version=outcome.version),
        edits=edits)])
    if not declares_document_changes:
        edit.changes = {outcome.uri: outcome.edits}
    return edit
