"""The examples in the packages' docstrings run (those marked `+SKIP` need a memory or a model)."""

import doctest
import importlib
import pkgutil

import pytest

#: ingest is left out: importing every role module loads torch and the model runtimes.
PACKAGES = ("memory", "queries", "agents", "vidmem")
MODULES = sorted(
    info.name
    for package in PACKAGES
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}.")
    if not info.name.endswith(".__main__")  # runs the command line when imported
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name} (run with -s)"
