"""The engine's options as engine/options.py declares them once: which command offers which, `edit` with the
user's options only, the environment route for what a command does not offer, and the renamed spelling
refused with its new name. (The server's settings made from them, and package.json: test_settings.py.)"""
import argparse
from pathlib import Path

import pytest

from copy_as_decode import cli
from copy_as_decode.engine import local, make, options
from copy_as_decode.server.settings import ENGINE, KEYS, Settings

ROOT = Path(__file__).resolve().parents[1]


def flags(parser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings if a.help != argparse.SUPPRESS}


def subparser(name: str) -> argparse.ArgumentParser:
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def test_edit_offers_the_users_options_only():
    edit = flags(subparser("edit")) - {"-h", "--help", "-i"}
    assert len(edit) <= 17, sorted(edit)
    research = {o.flag for o in options.OPTIONS if o.offered > options.EDIT}
    assert research and not research & edit
    assert {"--layout", "--no-tokenizer-check", "--temperature", "--show-program"}.isdisjoint(edit)
    assert "--no-tokenizer-check" in flags(subparser("worker")) and "--layout" not in flags(subparser("worker"))


def test_every_option_reaches_a_benchmark():
    p = argparse.ArgumentParser()
    options.add_arguments(p, options.RESEARCH)
    assert {o.flag for o in options.OPTIONS} <= flags(p)
    args = p.parse_args([])
    assert (args.model, args.quant, args.inference, args.layout, args.tokenizer_check) == (
        options.DEFAULT_MODEL, "auto", "local", "instruction-first", True)


@pytest.fixture
def built(monkeypatch):
    """What make_engine builds, without loading a model: the class's keyword arguments."""
    made = []

    class Fake:
        layout = "instruction-first"

        def __init__(self, model, **kwargs):
            made.append((model, kwargs))

    monkeypatch.setattr(local, "LocalEngine", Fake)
    return made


def test_the_environment_gives_what_a_command_does_not_offer(built, monkeypatch):
    args = cli.build_parser().parse_args(["edit", "f.py", "-i", "x", "--model", "tiny", "--threads", "1"])
    assert make.make_engine(args).layout == "instruction-first"
    assert built[-1] == ("tiny", {"threads": 1, "quant": "auto"})
    monkeypatch.setenv("COPY_AS_DECODE_LAYOUT", "file-first")
    assert make.make_engine(args).layout == "file-first"
    monkeypatch.setenv("COPY_AS_DECODE_LAYOUT", "sideways")
    with pytest.raises(ValueError, match="COPY_AS_DECODE_LAYOUT"):
        make.make_engine(args)


def test_the_old_spelling_is_refused_with_the_new_one(monkeypatch, capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["edit", "f.py", "-i", "x", "--backend", "remote"])
    assert "--backend is now --inference" in capsys.readouterr().err
    monkeypatch.setenv("COPY_AS_DECODE_BACKEND", "remote")
    with pytest.raises(ValueError, match=r"\$COPY_AS_DECODE_BACKEND is now \$COPY_AS_DECODE_INFERENCE"):
        make.make_engine(argparse.Namespace())
    s, errors = Settings().merged({"backend": "remote"})
    assert s == Settings() and errors == ["copyAsDecode.backend is now copyAsDecode.inference"]
    assert Settings().merged({"backend": ""}) == (Settings(), [])  # declared, deprecated, not set: nothing to say


def test_the_worker_command_is_made_of_the_settings_options():
    s = Settings().merged({"quant": "gguf", "inference": "remote", "endpoint": "http://h:1"})[0]
    command = s.command()
    assert [a for a in command if a.startswith("--")] == ["--model", "--quant", "--inference", "--endpoint"]
    assert list(ENGINE) == ["model", "quant", "device", "dtype", "inference", "endpoint", "served_model", "api"]


def test_the_neovim_plugin_names_every_setting():
    """The plugin passes its `settings` table on as it is, so its docs are where a user finds the names."""
    source = (ROOT / "nvim" / "lua" / "copy_as_decode" / "init.lua").read_text()
    listed = source[source.index("-- The `copyAsDecode` settings:"):source.index("settings = {}")]
    assert [k for k in KEYS if k not in listed] == []
    readme = (ROOT / "nvim" / "README.md").read_text()
    assert [c for c in ENGINE["api"].allowed() if f"`{c}`" not in readme] == []
    assert 'inference = "remote"' in readme
