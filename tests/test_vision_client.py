"""The one vision-model client (captions and actions): request shape, bounded retry, timeout,
refusals and unusable answers, against a local OpenAI-compatible server."""

import base64
import io
import time
from collections.abc import Iterator

import numpy as np
import pytest

from ingest.models.vision_client import VisionClient, VisionError, VisionRefused, endpoint, jpeg_data_url
from tests.vision_endpoint import VisionServer, vision_server


@pytest.fixture
def server() -> Iterator[VisionServer]:
    with vision_server() as s:
        yield s


def _image_url() -> str:
    return jpeg_data_url(np.full((40, 20, 3), 200, np.uint8), 64)


def test_one_request_carries_the_prompt_and_every_image(server: VisionServer) -> None:
    client = VisionClient("vlm", server.url, timeout_s=5, max_retries=0)
    assert client.ask("What is happening?", [_image_url(), _image_url()], max_tokens=7) == "The person is walking."
    (request,) = server.requests
    assert request["model"] == "vlm" and request["max_tokens"] == 7
    content = request["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "What is happening?"}
    assert [part["type"] for part in content[1:]] == ["image_url", "image_url"]
    assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,")


def test_a_failed_request_is_retried(server: VisionServer) -> None:
    server.mode = "fail_first"
    client = VisionClient("vlm", server.url, timeout_s=5, max_retries=1)
    assert client.ask("?", [_image_url()], 5) == "The person is walking."
    assert len(server.requests) == 2


@pytest.mark.parametrize("retries", [0, 2])
def test_retries_are_bounded(server: VisionServer, retries: int) -> None:
    server.mode = "always_500"
    client = VisionClient("vlm", server.url, timeout_s=5, max_retries=retries)
    with pytest.raises(VisionError, match="InternalServerError"):
        client.ask("?", [_image_url()], 5)
    assert len(server.requests) == 1 + retries


def test_a_silent_endpoint_times_out_within_the_bound(server: VisionServer) -> None:
    server.mode = "slow"  # answers after 2 s
    client = VisionClient("vlm", server.url, timeout_s=0.3, max_retries=0)
    start = time.monotonic()
    with pytest.raises(VisionError, match=r"no answer within 0.3 s"):
        client.ask("?", [_image_url()], 5)
    assert time.monotonic() - start < 1.5


def test_an_unknown_model_is_a_refusal_and_not_retried(server: VisionServer) -> None:
    server.mode = "unknown_model"
    client = VisionClient("no-such-vlm", server.url, timeout_s=5, max_retries=2)
    with pytest.raises(VisionRefused, match="refused model 'no-such-vlm'"):
        client.ask("?", [_image_url()], 5)
    assert len(server.requests) == 1


def test_an_empty_answer_is_an_error_not_a_caption(server: VisionServer) -> None:
    server.mode = "empty"
    with pytest.raises(VisionError, match="empty answer"):
        VisionClient("vlm", server.url, timeout_s=5, max_retries=0).ask("?", [_image_url()], 5)


def test_nothing_listening_is_an_error_within_the_bound() -> None:
    with vision_server() as s:
        url = s.url
    start = time.monotonic()
    with pytest.raises(VisionError, match="APIConnectionError"):
        VisionClient("vlm", url, timeout_s=1, max_retries=0).ask("?", [_image_url()], 5)
    assert time.monotonic() - start < 3


def test_the_endpoint_falls_back_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env.example/v1")
    assert endpoint("http://set.example/v1") == "http://set.example/v1"
    assert endpoint(None) == "http://env.example/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert endpoint(None) is None


def test_images_go_out_as_bounded_jpegs() -> None:
    from PIL import Image

    url = jpeg_data_url(np.zeros((576, 768, 3), np.uint8), 512)
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert (image.format, image.size) == ("JPEG", (512, 384))
