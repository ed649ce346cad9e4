"""Where an edit lands, before it does, through the real language server with tests/fake_worker.py as the worker:
the place and preview notifications (server/place.py), the pick and its fallbacks, and that none of them
touches the buffer (docs/editors.md, "Place, pick and preview")."""
import asyncio
import contextlib
import time

import pytest
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import register_lsp_features
from test_lsp_server import FAKE_WORKER, SERVER, UTF16, Editor, capabilities, converter, edit, until

FEATURES = ["pick", "preview", "place"]
DOC = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
URI = "file:///tmp/copy-as-decode-test/place/a.py"


@contextlib.asynccontextmanager
async def session(features=FEATURES, show_message=True, pick=None, choose=None):
    """A server with the fake worker; yields (client, editor, events): every place, preview, pick, message
    request and applyEdit the client saw, in order, as (method, params, seconds). `pick(params)` answers
    copyAsDecode/pick; `choose(params)` window/showMessageRequest."""
    box, events = {}, []

    def factory():
        client = LanguageClient(converter_factory=converter)
        register_lsp_features(client)

        @client.feature(t.WORKSPACE_APPLY_EDIT)
        def apply_edit(ls, params):
            events.append(("applyEdit", params, time.monotonic()))
            return box["editor"].on_apply_edit(params)

        @client.feature("copyAsDecode/place")
        def on_place(ls, params):
            events.append(("place", params, time.monotonic()))

        @client.feature("copyAsDecode/preview")
        def on_preview(ls, params):
            events.append(("preview", params, time.monotonic()))

        @client.feature("copyAsDecode/pick")
        def on_pick(ls, params):
            events.append(("pick", params, time.monotonic()))
            return pick(params) if pick else {"index": 0}

        @client.feature(t.WINDOW_SHOW_MESSAGE_REQUEST)
        def on_message_request(ls, params):
            events.append(("showMessageRequest", params, time.monotonic()))
            return choose(params) if choose else None

        return client

    client = await ClientServerConfig(server_command=SERVER, client_factory=factory).start()
    editor = box["editor"] = Editor(client, UTF16)
    caps = capabilities()
    if show_message:
        caps.window.show_message = t.ShowMessageRequestClientCapabilities()
    options = {"workerCommand": FAKE_WORKER, "model": "fake-model"}
    if features is not None:
        options["clientFeatures"] = features
    await client.initialize_session(t.InitializeParams(capabilities=caps,
                                                       initialization_options={"copyAsDecode": options}))
    try:
        yield client, editor, events
    finally:
        await client.shutdown_session()
        await client.stop()


def plain(obj):
    """A message's params as JSON types (pygls gives the client objects for methods it does not know)."""
    if hasattr(obj, "_asdict"):
        obj = obj._asdict()
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    return [plain(v) for v in obj] if isinstance(obj, list | tuple) else obj


def field(obj, name):
    return obj[name]


def of(events, method):
    return [plain(e[1]) for e in events if e[0] == method]


pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_the_place_and_the_streamed_lines_come_before_the_answer():
    async with session() as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#place 5-6 g\n#stream 0.05\n<copy lines=\"1-1\"/><gen>    return 3\n</gen>",
                         editor=editor)
        assert res["status"] == "applied" and editor.text(URI) == DOC.replace("return 2", "return 3")
        kinds = [e[0] for e in events]
        assert kinds[0] == "place" and kinds[-1] == "applyEdit", kinds
        [place] = of(events, "place")
        assert field(place, "symbols") == ["g"] and field(place, "label") == "lines 5-6 (g)"
        assert field(place, "version") == 1 and len(field(place, "ranges")) == 1
        assert field(field(place, "ranges")[0], "start") == {"line": 4, "character": 0}
        previews = of(events, "preview")
        streamed = [field(p, "text") for p in previews if not field(p, "done")]
        assert streamed == ["def g():\n", "def g():\n    return 3\n"]
        final = previews[-1]
        assert field(final, "done") is True and field(final, "text") == "def g():\n    return 3\n"
        assert field(field(final, "range"), "end") == {"line": 6, "character": 0}
        # the progress names the place, for every client
        [reports] = client.progress_reports.values()
        assert any(getattr(r, "message", "") == "editing lines 5-6 (g)" for r in reports)


async def test_a_client_without_the_features_gets_the_progress_only():
    async with session(features=None) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#place 5-6 g\n#stream 0.01\n<copy lines=\"1-2\"/>", editor=editor)
        assert res["status"] == "unchanged" and not of(events, "place") and not of(events, "preview")


async def test_the_pick_chooses_the_lines_the_edit_rewrites():
    async with session(pick=lambda params: {"index": 1}) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#pick 1-3:f 5-6:g\n<gen>def g():\n    return 4\n</gen>", editor=editor)
        assert res["status"] == "applied" and res["stats"]["lines"] is None  # the place goes as it was found
        assert res["stats"]["place"] == {"windows": [{"lines": [5, 6], "symbols": ["g"]}], "reason": "the user's pick: g"}
        assert editor.text(URI) == DOC.replace("return 2", "return 4")
        [asked] = of(events, "pick")
        cands = field(asked, "candidates")
        assert [field(c, "label") for c in cands] == ["f", "g"] and field(asked, "version") == 1
        assert field(cands[1], "detail") == "lines 5-6: def g():"
        assert field(field(cands[1], "range"), "start") == {"line": 4, "character": 0}


async def test_a_decided_place_is_not_asked_and_goes_to_the_edit():
    async with session() as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#decided 5-6:g\n<gen>def g():\n    return 5\n</gen>", editor=editor)
        assert res["status"] == "applied" and placed(res) == [5, 6] and not of(events, "pick")


def placed(res: dict) -> list[int]:
    """The lines of the place the edit was sent with (the worker finds no place of its own then)."""
    [window] = res["stats"]["place"]["windows"]
    return window["lines"]


async def test_a_cancelled_pick_changes_nothing():
    async with session(pick=lambda params: None) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#pick 1-3:f 5-6:g\n<gen>x\n</gen>", editor=editor)
        assert res["status"] == "cancelled" and editor.text(URI) == DOC and not editor.applied
        assert not client.messages  # cancelling is silent


async def test_without_the_pick_feature_the_candidates_are_message_actions():
    def second(params):
        assert [a.title for a in params.actions] == ["f (lines 1-3)", "g (lines 5-6)"]
        return params.actions[1]

    async with session(features=["preview"], choose=second) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#pick 1-3:f 5-6:g\n<gen>def g():\n    return 6\n</gen>", editor=editor)
        assert res["status"] == "applied" and placed(res) == [5, 6] and not of(events, "pick")
        assert len(of(events, "showMessageRequest")) == 1
    async with session(features=[], choose=lambda params: None) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#pick 1-3:f 5-6:g\n<gen>x\n</gen>", editor=editor)
        assert res["status"] == "cancelled" and editor.text(URI) == DOC


async def test_a_client_that_cannot_be_asked_gets_the_first_candidate():
    async with session(features=[], show_message=False) as (client, editor, events):
        editor.open(URI, DOC)
        res = await edit(client, URI, "#pick 1-3:f 5-6:g\n<gen>def f():\n    return 0\n\n</gen>", editor=editor)
        assert res["status"] == "applied" and placed(res) == [1, 3]
        assert editor.text(URI) == DOC.replace("return 1", "return 0")
        assert not of(events, "pick") and not of(events, "showMessageRequest")


async def test_previews_stop_when_the_buffer_leaves_the_version_and_a_stale_edit_clears():
    async with session() as (client, editor, events):
        editor.open(URI, DOC)
        task = asyncio.ensure_future(edit(client, URI, "#place 5-6 g\n#stream 0.3\n<copy lines=\"1-1\"/>"
                                               "<gen>    a = 1\n    b = 2\n    c = 3\n    return 3\n</gen>",
                                          editor=editor))
        await until(lambda: of(events, "preview"), what="the first preview")
        editor.change(URI, DOC + "# typed\n")
        changed = time.monotonic()
        res = await task
        assert res["status"] == "stale" and editor.text(URI) == DOC + "# typed\n"
        late = [e for e in events if e[0] == "preview" and plain(e[1])["text"] is not None and e[2] > changed + 0.1]
        previews = of(events, "preview")
        assert all(field(p, "version") == 1 for p in previews)
        assert field(previews[-1], "text") is None and field(previews[-1], "done") is True  # cleared
        assert len([p for p in previews if field(p, "text") is not None]) < 5 and not late


async def test_a_cancelled_edit_clears_its_preview():
    async with session() as (client, editor, events):
        editor.open(URI, DOC)
        task = asyncio.ensure_future(edit(client, URI, "#place 5-6 g\n#stream 0.5\n<copy lines=\"1-2\"/>",
                                          editor=editor))
        await until(lambda: of(events, "preview"), what="the first preview")
        await client.workspace_execute_command_async(
            t.ExecuteCommandParams(command="copyAsDecode.cancel", arguments=[{"uri": URI}]))
        res = await task
        assert res["status"] == "cancelled" and editor.text(URI) == DOC and not editor.applied
        last = of(events, "preview")[-1]
        assert field(last, "text") is None and field(last, "done") is True
