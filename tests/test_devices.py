"""One device answer for every role (the detector and the encoders used to disagree on 'auto')."""

import logging
import sys

import pytest

from ingest.models.devices import torch_device


@pytest.mark.parametrize(
    ("setting", "gpu", "expected"),
    [
        ("cpu", True, "cpu"),
        ("cpu", False, "cpu"),
        ("auto", True, "cuda:0"),
        ("auto", False, "cpu"),
        ("cuda", True, "cuda"),
        ("cuda:1", True, "cuda:1"),
        ("cuda", False, "cpu"),
        ("cuda:1", False, "cpu"),
    ],
)
def test_torch_device_follows_the_setting_and_the_gpu(
    monkeypatch: pytest.MonkeyPatch, setting: str, gpu: bool, expected: str
) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: gpu)  # the GPU is the collaborator faked here
    assert torch_device(setting) == expected


def test_a_missing_gpu_that_was_asked_for_is_said(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with caplog.at_level(logging.WARNING, logger="ingest.models.devices"):
        assert torch_device("cuda:0") == "cpu"
    assert "no CUDA device" in caplog.text


def test_without_torch_everything_runs_on_the_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch then raises ImportError
    assert torch_device("auto") == "cpu"
    assert torch_device("cuda") == "cpu"


def test_every_role_uses_the_one_function() -> None:
    import ingest.models.encoders
    import ingest.roles.tracking

    assert ingest.roles.tracking.torch_device is torch_device
    assert ingest.models.encoders.torch_device is torch_device
