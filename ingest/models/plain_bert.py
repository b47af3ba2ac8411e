"""A sentence-transformers BERT model with mean pooling, run on torch alone.

`vidmem ask` is one process per question, and importing sentence-transformers costs about 5 s of it
on 2 cores (it imports transformers, scikit-learn and their integrations) for a 6-layer encoder that
needs 0.02 s per question. A directory that holds exactly what that encoder is (modules.json: a BERT
Transformer, mean Pooling, optionally Normalize; config.json model_type 'bert', absolute positions;
tokenizer.json; model.safetensors) loads here with torch, tokenizers and safetensors: the same
weights, tokenizer and pooling, so vectors agree with sentence-transformers' to float error
(tests/test_plain_bert.py) and query vectors stay comparable with the stored ones. Anything else
(another architecture or pooling) is None here and loads with sentence-transformers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["PlainBert", "load_plain_bert"]

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _eligible(folder: Path) -> tuple[dict[str, Any], int] | None:
    """The BERT config and max sequence length of a folder this module can run, else None."""
    try:
        modules = _read_json(folder / "modules.json")
        config = _read_json(folder / "config.json")
        types = [m["type"] for m in modules]
        if types not in ([_TRANSFORMER, _POOLING], [_TRANSFORMER, _POOLING, _NORMALIZE]) or modules[0]["path"]:
            return None
        pooling = _read_json(folder / modules[1]["path"] / "config.json")
        modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v}
        if modes != {"pooling_mode_mean_tokens"}:
            return None
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu" \
                or config.get("position_embedding_type", "absolute") != "absolute":
            return None
        if not (folder / "tokenizer.json").is_file() or not (folder / "model.safetensors").is_file():
            return None
        st_config = folder / "sentence_bert_config.json"
        max_len = int(_read_json(st_config).get("max_seq_length", 512)) if st_config.is_file() else 512
        return config, min(max_len, int(config["max_position_embeddings"]))
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


class PlainBert:
    """Mean-pooled BERT sentence vectors; the subset of SentenceTransformer's interface TextEncoder uses."""

    def __init__(self, folder: Path, config: dict[str, Any], max_len: int, device: str) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self._torch = torch
        self.device = device
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.dim = int(config["hidden_size"])
        weights = load_file(str(folder / "model.safetensors"), device=device)
        # checkpoints saved from BertModel have no prefix; some carry the 'bert.' of a task model
        self.w = {k.removeprefix("bert."): v.float() for k, v in weights.items()}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_len)

    def get_sentence_embedding_dimension(self) -> int:
        return self.dim

    def encode(self, texts: Sequence[str], batch_size: int = 64, normalize_embeddings: bool = True,
               convert_to_numpy: bool = True, show_progress_bar: bool = False) -> np.ndarray:
        del convert_to_numpy, show_progress_bar  # always numpy, never a bar
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # by length, as sentence-transformers batches: less padding
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            out[idx] = self._batch([texts[i] for i in idx])
        if normalize_embeddings:
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out

    def _batch(self, texts: list[str]) -> np.ndarray:
        torch = self._torch
        encodings = self.tokenizer.encode_batch([str(t).strip() for t in texts])  # as sentence-transformers
        width = max(len(e.ids) for e in encodings)
        ids = torch.zeros((len(texts), width), dtype=torch.long)
        mask = torch.zeros((len(texts), width), dtype=torch.float32)
        types = torch.zeros((len(texts), width), dtype=torch.long)
        for row, e in enumerate(encodings):
            ids[row, :len(e.ids)] = torch.tensor(e.ids)
            types[row, :len(e.ids)] = torch.tensor(e.type_ids)
            mask[row, :len(e.ids)] = 1.0
        ids, mask, types = ids.to(self.device), mask.to(self.device), types.to(self.device)
        with torch.inference_mode():
            hidden = self._forward(ids, types, mask)
            summed = (hidden * mask[:, :, None]).sum(dim=1)
            mean = summed / mask.sum(dim=1, keepdim=True).clamp(min=1e-9)
        return mean.cpu().numpy().astype(np.float32)

    def _forward(self, ids: Any, types: Any, mask: Any) -> Any:
        torch, w = self._torch, self.w
        functional = torch.nn.functional

        def norm(x: Any, name: str) -> Any:
            return functional.layer_norm(x, (self.dim,), w[f"{name}.weight"], w[f"{name}.bias"], self.eps)

        def dense(x: Any, name: str) -> Any:
            return functional.linear(x, w[f"{name}.weight"], w[f"{name}.bias"])

        positions = torch.arange(ids.shape[1], device=ids.device)
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][positions]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = norm(x, "embeddings.LayerNorm")
        batch, width, head_dim = ids.shape[0], ids.shape[1], self.dim // self.heads
        bias = (1.0 - mask)[:, None, None, :] * torch.finfo(torch.float32).min  # padding gets no attention

        def split(t: Any) -> Any:
            return t.view(batch, width, self.heads, head_dim).transpose(1, 2)

        for n in range(self.layers):
            p = f"encoder.layer.{n}"
            q, k, v = (split(dense(x, f"{p}.attention.self.{name}")) for name in ("query", "key", "value"))
            scores = q @ k.transpose(-1, -2) / math.sqrt(head_dim) + bias
            context = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(batch, width, self.dim)
            x = norm(dense(context, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
            inner = functional.gelu(dense(x, f"{p}.intermediate.dense"))
            x = norm(dense(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
        return x


def load_plain_bert(folder: str | Path, device: str) -> PlainBert | None:
    """The model in `folder` run on torch alone, or None when it is not a mean-pooled BERT (`_eligible`)."""
    found = _eligible(Path(folder))
    if found is None:
        return None
    config, max_len = found
    return PlainBert(Path(folder), config, max_len, device)
