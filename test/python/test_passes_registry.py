"""Every entry of the pass and pipeline tables imports, and its name matches its key."""

from __future__ import annotations

import importlib
import re

import pytest
from mlc.passes import PASSES, PIPELINES

from mlc.pass_manager import Pass, PassPipeline, get_pass_class, get_pipeline

_KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def _load(ref: str) -> type:
    module, _, cls = ref.partition(":")
    return getattr(importlib.import_module(f"mlc.passes.{module}"), cls)


@pytest.mark.parametrize("name", sorted(PASSES))
def test_pass_entry(name: str) -> None:
    cls = _load(PASSES[name])
    assert issubclass(cls, Pass)
    assert cls.name == name and _KEBAB.match(name)
    assert cls.summary, f"{name} has no summary"
    assert get_pass_class(name) is cls
    for opt in cls.option_defs():
        assert _KEBAB.match(opt.name), opt.name
        assert opt.help, f"{name}: option {opt.name} has no help"
        opt.check(opt.default)  # the default satisfies the option's own type
    for stat in cls.statistic_defs():
        assert stat.description
    cls()  # constructible with defaults


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_pipeline_entry(name: str) -> None:
    cls = _load(PIPELINES[name])
    assert issubclass(cls, PassPipeline) and cls.name == name and cls.summary
    assert get_pipeline(name) is cls
