"""The analyst notebook runs top to bottom on a real ingested sample, and its pictures render."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "analyst_tour.ipynb"


@pytest.mark.slow
def test_analyst_tour_runs_and_draws(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")

    # A memory of its own unless one is given (VIDMEM_TOUR_MEMORY reuses an ingest across runs).
    if "VIDMEM_TOUR_MEMORY" not in os.environ:
        monkeypatch.setenv("VIDMEM_TOUR_MEMORY", str(tmp_path_factory.mktemp("tour") / "tour.duckdb"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, if any cell fails

    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 3, "the timeline, counts and track-path figures should render"
    text = "\n".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "train" in text.lower() or "count" in text.lower()  # the transcript search printed its hits
    assert "QueryError: Invalid Input Error: gap_s must be >= 0" in text
