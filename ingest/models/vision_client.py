"""One client for models behind an OpenAI-compatible chat-completions endpoint, shared by the
captions and action roles (vision models) and the summaries role (text only): each request carries
a prompt and JPEG images (or none), is bounded by a
timeout, and is retried a bounded number of times (the `openai` client's own retry with backoff,
on timeouts, connection errors and 429/5xx answers). An answer that is not usable text is an error,
never an empty string.

The endpoint is the given base URL, else $OPENAI_BASE_URL, else OpenAI's own API ($OPENAI_API_KEY).
"""

import base64
import io
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ingest.errors import IngestError


class VisionError(IngestError):
    """The vision endpoint gave no usable answer to one request."""


class VisionRefused(VisionError):
    """The endpoint refused the model (authentication, permission, unknown model): every later request would too."""


@dataclass(frozen=True)
class Completion:
    text: str  # whitespace-normalized, never empty
    prompt_tokens: int  # as the endpoint counted them (0 when it did not say)
    completion_tokens: int


def endpoint(base_url: str | None) -> str | None:
    """The base URL requests go to (None: the openai client's default, OpenAI's API)."""
    return base_url or os.environ.get("OPENAI_BASE_URL") or None


def jpeg_data_url(image: np.ndarray, max_side: int) -> str:
    """An RGB image as a `data:image/jpeg;base64,...` URL, its longest side at most `max_side`."""
    from PIL import Image

    pic = Image.fromarray(image)
    scale = max_side / max(pic.size)
    if scale < 1:
        size = (max(1, round(pic.width * scale)), max(1, round(pic.height * scale)))
        pic = pic.resize(size, Image.Resampling.BICUBIC)
    buf = io.BytesIO()
    pic.save(buf, format="JPEG", quality=85)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


class VisionClient:
    """`ask(prompt, images)` -> the model's answer, whitespace-normalized. Thread-safe (one HTTP pool)."""

    def __init__(self, model: str, base_url: str | None = None, timeout_s: float = 60.0, max_retries: int = 2) -> None:
        self.model, self.timeout_s, self.max_retries = model, timeout_s, max_retries
        self.base_url = endpoint(base_url)
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return self.base_url or "OpenAI's API"

    def _openai(self) -> Any:
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                self._client = OpenAI(
                    base_url=self.base_url,
                    api_key=os.environ.get("OPENAI_API_KEY") or "unused",  # local servers take any key
                    timeout=self.timeout_s,
                    max_retries=self.max_retries,
                )
            return self._client

    def ask(self, prompt: str, image_urls: Sequence[str], max_tokens: int) -> str:
        """The answer to `prompt` about the images (data URLs, see `jpeg_data_url`), in one request."""
        return self.complete(prompt, image_urls, max_tokens).text

    def complete(self, prompt: str, image_urls: Sequence[str], max_tokens: int) -> Completion:
        """`ask` with the tokens the request cost. Without images the message is plain text, which
        every chat endpoint takes (text-only servers may refuse a list of content parts)."""
        import openai

        content: str | list[dict[str, Any]] = prompt
        if image_urls:
            content = [{"type": "text", "text": prompt}]
            content += [{"type": "image_url", "image_url": {"url": url}} for url in image_urls]
        try:
            response = self._openai().chat.completions.create(
                model=self.model,
                messages=[{"role": "user", "content": content}],
                max_tokens=max_tokens,
                temperature=0.0,
            )
        except (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError) as exc:
            raise VisionRefused(f"{self.where} refused model {self.model!r}: {exc}") from exc
        except openai.APITimeoutError as exc:
            raise VisionError(f"no answer within {self.timeout_s:g} s ({self.max_retries} retries)") from exc
        except openai.APIError as exc:  # connection errors, 4xx/5xx answers, bodies that are not JSON
            raise VisionError(f"{type(exc).__name__}: {exc}") from exc
        try:
            text = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError) as exc:
            raise VisionError(f"malformed chat completion (no choices[0].message.content): {response!r:.200}") from exc
        if not isinstance(text, str) or not text.strip():
            raise VisionError(f"empty answer from {self.model!r}")
        usage = getattr(response, "usage", None)
        return Completion(
            " ".join(text.split()),
            int(getattr(usage, "prompt_tokens", 0) or 0),
            int(getattr(usage, "completion_tokens", 0) or 0),
        )
