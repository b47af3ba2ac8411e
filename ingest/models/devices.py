"""Which torch device a role runs on, from the `device` setting: one answer for every role, so that
the detector, CLIP and the text encoder never end up on different devices for one setting."""

import logging

log = logging.getLogger(__name__)


def torch_device(setting: str) -> str:
    """'cpu' -> 'cpu'; 'auto' -> 'cuda:0' when torch sees a GPU, else 'cpu'; 'cuda[:N]' -> itself when
    torch sees a GPU, else 'cpu' with a warning (asked for, not there). Without torch: 'cpu'."""
    if setting == "cpu":
        return "cpu"
    try:
        import torch

        available = bool(torch.cuda.is_available())
    except ImportError:
        available = False
    if available:
        return "cuda:0" if setting == "auto" else setting
    if setting.startswith("cuda"):
        log.warning("device %s: no CUDA device visible to torch; running on the CPU", setting)
    return "cpu"
