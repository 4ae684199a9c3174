"""Every public function has a docstring with examples, and they pass."""

import doctest

import pytest

import ito_codecs
from ito_codecs import hex, json, nostr

from conftest import ROOT

FUNCTIONS = [(m, name) for m in (json, hex, nostr) for name in m.__all__]


@pytest.mark.parametrize("module, name", FUNCTIONS, ids=[f"{m.__name__}.{n}" for m, n in FUNCTIONS])
def test_docstring_examples(module, name, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples read data/nostr/events.jsonl
    obj = getattr(module, name)
    assert obj.__doc__, f"{name} has no docstring"
    tests = doctest.DocTestFinder().find(obj, name, globs={})
    examples = sum(len(t.examples) for t in tests)
    assert examples > 0, f"{name} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_package_metadata():
    assert ito_codecs.__version__
    assert issubclass(ito_codecs.Error, ValueError)
    assert json.quote.__module__ == "ito_codecs.json"
