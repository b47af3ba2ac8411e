"""The ordered registry of model roles. Adding a role: one module, one line here.

Roles run side by side (ingest/overlap.py); a role that reads another's output names it in
`Extractor.after` (appearance reads tracks; text embeddings read transcript, OCR spans and
captions) and is listed after it here, so `begin` calls and `vidmem models` follow data flow.
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

#: Every role's name, in data-flow order: what `--only`, `--skip` and the settings sections accept.
ROLE_NAMES: tuple[str, ...] = tuple(cls.role for cls in EXTRACTORS)
