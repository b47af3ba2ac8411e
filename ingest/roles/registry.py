"""The ordered registry of model roles. Adding a role: one module, one line here.

Roles run side by side (ingest/overlap.py); a role that reads another's output names it in
`Extractor.after` (appearance reads tracks; summaries read what was said, shown and seen; text
embeddings read transcript, OCR spans, captions and summaries) and is listed after it here, so
`begin` calls and `vidmem models` follow data flow.
"""

from ingest.roles.actions import ActionRecognizer
from ingest.roles.appearance import AppearanceDescriber
from ingest.roles.asr import SpeechRecognizer
from ingest.roles.captions import Captioner
from ingest.roles.clip import FrameEmbedder
from ingest.roles.extractor import Extractor
from ingest.roles.ocr import TextReader
from ingest.roles.summaries import Summarizer
from ingest.roles.text_embeddings import TextEmbedder
from ingest.roles.tracking import Tracker

EXTRACTORS: tuple[type[Extractor], ...] = (
    Tracker,
    SpeechRecognizer,
    TextReader,
    FrameEmbedder,
    AppearanceDescriber,
    ActionRecognizer,
    Captioner,
    Summarizer,
    TextEmbedder,
)

#: Every role's name, in data-flow order: what `--only`, `--skip` and the settings sections accept.
ROLE_NAMES: tuple[str, ...] = tuple(cls.role for cls in EXTRACTORS)
