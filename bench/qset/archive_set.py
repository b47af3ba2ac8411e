"""Archive questions over the generated set's 12 videos, asked with no video named: "Which video
mentions <topic>?" for every spoken topic only one video has, and "In which video is the text
'<sign>' shown on screen?" for every sign text only one video shows. The answer is the file.

    python -m bench.qset.archive_set /tmp/archive.jsonl
    vidmem eval /tmp/archive.jsonl --video-root ~/.cache/vidmem/qset --memory qset.duckdb \\
        --only asr,ocr,text_embeddings --sample 20 --seed 0
"""

import json
import sys
from collections import Counter
from typing import Any

from bench.qset.spec import VIDEOS


def archive_questions() -> list[dict[str, Any]]:
    topics = Counter(line.topic for v in VIDEOS for line in v.lines)
    signs = Counter(s.text for v in VIDEOS for s in v.signs)
    out: list[dict[str, Any]] = []
    for v in VIDEOS:
        base = {"video": v.file, "type": "archive", "answer": v.file, "accept": [v.name], "scope": "archive"}
        out += [{"id": f"{v.name}-arch-line{i}", "question": f"Which video mentions {line.topic}?", **base}
                for i, line in enumerate(v.lines) if topics[line.topic] == 1]
        out += [{"id": f"{v.name}-arch-sign{i}", "question": f"In which video is the text '{s.text}' shown on screen?",
                 **base} for i, s in enumerate(v.signs) if signs[s.text] == 1]
    return out


if __name__ == "__main__":
    records = archive_questions()
    with open(sys.argv[1], "w") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in records)
    print(f"{len(records)} questions -> {sys.argv[1]}")
