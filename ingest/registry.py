"""The ordered registry of model roles. Adding a role: one module, one line here.

Order matters: a role that reads another's output (appearance reads tracks; text embeddings read
transcript, OCR spans and captions) comes after it.
"""

from ingest.actions import ActionRecognizer
from ingest.appearance import AppearanceDescriber
from ingest.asr import SpeechRecognizer
from ingest.captions import Captioner
from ingest.clip import FrameEmbedder
from ingest.extractor import Extractor
from ingest.ocr import TextReader
from ingest.text_embeddings import TextEmbedder
from ingest.tracking import Tracker

EXTRACTORS: tuple[type[Extractor], ...] = (
    Tracker,
    SpeechRecognizer,
    TextReader,
    FrameEmbedder,
    AppearanceDescriber,
    ActionRecognizer,
    Captioner,
    TextEmbedder,
)
