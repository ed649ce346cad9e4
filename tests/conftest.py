import os
import signal

import pytest

# the model hubs are unreachable here: an unknown model name fails at once instead of after the hub's retries
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Ctrl-C as a terminal delivers it, to the processes the tests start (tests/test_apply_endpoint.py,
# test_chat_inference.py, test_cli_pick.py): a suite started in the background inherits SIGINT ignored, and an
# ignored signal stays ignored in every child, where a handled one is back to its default
signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def qwen_tokenizer():
    from copy_as_decode.engine.backends.models import load_tokenizer
    return load_tokenizer()


@pytest.fixture(scope="session")
def tiny_engine():
    """A seeded 2-layer random Qwen2 with the real tokenizer, fp32 on CPU: fast and deterministic."""
    from copy_as_decode.engine.local import LocalEngine
    return LocalEngine("tiny", device="cpu", dtype="float32")


@pytest.fixture(scope="session")
def humanevalfix_python():
    from copy_as_decode.cases.corpora import load
    return load("humanevalfix-python")


def pytest_collection_modifyitems(items):
    # a test that runs the tiny model is out of the fast lane wherever it lives (`./run check`)
    for item in items:
        if "tiny_engine" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.model)
