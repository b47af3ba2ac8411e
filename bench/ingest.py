"""Ingest benchmark: seconds per video-second per stage and overall (x realtime), decoding against
ffmpeg's own decode speed, the pipeline's overhead over its stages measured alone, peak memory.

    .venv/bin/python -m bench.ingest                          # the fixed sample set, default settings
    .venv/bin/python -m bench.ingest --videos vtest --tracking-variants

Videos: vtest.avi (79.5 s pedestrians, no audio), bikes.mp4 (10 s street montage), and the two
generated speech clips (12 s of vtest footage with known speech and a burned-in sign).

Every measurement runs in a fresh child process whose models were first warmed up on the first
2 s of the same video (model loading and the one-off ONNX export are reported apart, as `load`):
- `full`: the default pipeline on the video; its wall time is the pipeline's time.
- `alone`: decoding the pipeline's sampling plan with no role attached; loading the audio; then
  each group of roles with only those roles enabled (tracking + appearance + actions; ASR + OCR +
  text embeddings; CLIP; captions), each role's own stage time taken from its run.
Overhead = pipeline wall / (decode alone + audio alone + sum of the roles alone) - 1.
Peak RSS is that of the `full` child (ru_maxrss). CPU s/s is the child's user+sys time per
video-second: it shows the work done even when other processes share the cores.

Recall beside speed: the `full` run is compared with a `reference` run of the same video on the same
machine with every speed feature off (the detector on every sample, in float32; OCR reading every
sampled frame). A speed-up must keep every person (bench/recall.py: people and boxes, not track counts)
and the OCR span and transcript texts unchanged. Never a reference stored from another machine: int8
kernels differ between processors, and the generated clips between ffmpeg and espeak-ng builds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

VIDEOS = ("vtest", "bikes", "speech_sign", "speech_count")
RESULT = "RESULT "
GROUPS = (("tracking", "appearance", "actions"), ("asr", "ocr", "text_embeddings"), ("clip",), ("captions",))
WARMUP_S = 2.0


# ------------------------------------------------------------------ child side


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _settings(device: str, tracking: dict[str, Any] | None = None) -> Any:
    """The defaults, with the VIDMEM_ROLE_FIELD variables that `vidmem ingest` reads (a weights path where
    the default downloads, say), on `device`."""
    from vidmem.config import settings_from

    settings = dataclasses.replace(settings_from(None), device=device)
    if tracking:
        settings = dataclasses.replace(settings, tracking=dataclasses.replace(settings.tracking, **tracking))
    return settings


def _reference_settings(device: str) -> Any:
    """The defaults with every speed feature off: what a speed-up must keep."""
    settings = _settings(device, {"motion_skip": False, "precision": "fp32"})
    return dataclasses.replace(settings, ocr=dataclasses.replace(settings.ocr, presence_scale=None))


def _run(settings: Any, video: Path, warmup: Path, workdir: Path) -> dict[str, Any]:
    """Warm a pipeline up on the short clip, then time it on the video."""
    from ingest import Pipeline, ingest_video
    from memory import open_memory

    t0 = time.perf_counter()
    pipeline = Pipeline(settings)
    with open_memory(workdir / "warmup.duckdb") as mem:
        ingest_video(warmup, mem, pipeline, force=True)
    load_s = time.perf_counter() - t0
    cpu0 = _cpu_s()
    with open_memory(workdir / "bench.duckdb") as mem:
        result = ingest_video(video, mem, pipeline, force=True)
        recall = _recall(mem)
    if result.status == "failed":  # 'skipped': no role of this group could run here (no CLIP weights, no endpoint)
        raise SystemExit(f"{video}: {result.error}")
    return {
        "recall": recall,
        "wall_s": result.seconds,
        "cpu_s": _cpu_s() - cpu0,
        "load_s": load_s,
        "stages": result.stage_seconds,
        "roles": result.roles,
        "rows": result.rows,
    }


def _recall(mem: Any) -> dict[str, Any]:
    """What the run found, in the terms recall is judged by: tracks per category and their boxes, OCR span
    texts, transcript."""
    counts = mem.query("SELECT category, count(*) AS n FROM tracks GROUP BY category ORDER BY category").to_pylist()
    boxes = mem.query("SELECT frame_index, track_id, x1, y1, x2, y2, confidence FROM detections").to_pylist()
    spans = mem.query("SELECT text FROM ocr_spans ORDER BY start_s, y1, x1").to_pylist()
    segments = mem.query("SELECT text FROM transcript ORDER BY start_s").to_pylist()
    return {
        "tracks": {r["category"]: r["n"] for r in counts},
        "boxes": [list(r.values()) for r in boxes],
        "ocr_spans": [r["text"] for r in spans],
        "transcript": " ".join(r["text"].strip() for r in segments),
    }


def recall_problems(got: dict[str, Any], ref: dict[str, Any]) -> list[str]:
    """How `got` falls short of the reference: people lost or boxes not found again, changed texts.

    >>> walker = [[f, 1, 10.0 * f, 0.0, 10.0 * f + 50, 100.0, 0.9] for f in range(10)]
    >>> recall_problems({"boxes": walker, "ocr_spans": ["EXIT"], "transcript": "hi"},
    ...                 {"boxes": walker, "ocr_spans": ["EXIT"], "transcript": "hi"})
    []
    >>> recall_problems({"boxes": [], "ocr_spans": [], "transcript": "hi"},
    ...                 {"boxes": walker, "ocr_spans": ["EXIT"], "transcript": "hi"})  # doctest: +NORMALIZE_WHITESPACE
    ['people lost (track: share of boxes found): {1: 0.0}', 'reference boxes found 0% (< 90%)',
     "OCR spans ['EXIT'] -> []"]
    """
    from bench.recall import tracking_problems

    problems = tracking_problems(ref["boxes"], got["boxes"])
    if got["ocr_spans"] != ref["ocr_spans"]:
        problems.append(f"OCR spans {ref['ocr_spans']} -> {got['ocr_spans']}")
    if got["transcript"] != ref["transcript"]:
        problems.append(f"transcript {ref['transcript']!r} -> {got['transcript']!r}")
    return problems


def _decode_alone(settings: Any, video: Path) -> dict[str, float]:
    """The pipeline's sampling plan decoded with nothing attached, plus the audio load."""
    from ingest import Pipeline, probe
    from ingest.media.audio import load_audio
    from ingest.media.frames import decode, sampling_plan

    info = probe(video)
    pipeline = Pipeline(settings)
    rates = {ex.role: rate for ex in pipeline.extractors if (rate := ex.sample_rate()) is not None}
    plan = sampling_plan(info, rates)
    t0 = time.perf_counter()
    frames = sum(len(batch) for batch in decode(info, plan, settings.decode_batch, settings.device))
    decode_s = time.perf_counter() - t0
    audio_s = 0.0
    if info.has_audio and any(ex.needs_audio() for ex in pipeline.extractors):
        t0 = time.perf_counter()
        load_audio(info)
        audio_s = time.perf_counter() - t0
    return {"decode_s": decode_s, "audio_s": audio_s, "frames": frames}


def _child(mode: str, video: Path, warmup: Path, device: str, tracking: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="vidmem-bench-") as tmp:
        workdir = Path(tmp)
        settings = _settings(device, tracking)
        if mode == "full":
            out = _run(settings, video, warmup, workdir)
        elif mode == "reference":
            out = _run(_reference_settings(device), video, warmup, workdir)
        elif mode in ("alone", "decode"):
            out = {**_decode_alone(settings, video), "roles_alone": {}, "load_s": 0.0}
            for group in GROUPS if mode == "alone" else ():
                sub = settings.only(*group)
                run = _run(sub, video, warmup, workdir)
                out["load_s"] += run["load_s"]
                for role in group:
                    if run["roles"].get(role) == "ran":
                        out["roles_alone"][role] = run["stages"].get(role, 0.0)
        elif mode == "tracking":  # tracking by itself, for comparing configurations
            out = _run(settings.only("tracking"), video, warmup, workdir)
        else:
            raise SystemExit(f"unknown mode {mode}")
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


# ------------------------------------------------------------------ parent side


def _spawn(mode: str, video: Path, warmup: Path, device: str, tracking: dict[str, Any] | None = None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "bench.ingest", "--child", mode, "--video", str(video), "--warmup", str(warmup)]
    cmd += ["--device", device, "--tracking", json.dumps(tracking or {})]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT)]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"bench child {mode} on {video.name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return dict(json.loads(lines[-1][len(RESULT) :]))


def _ffmpeg_decode_s(video: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(["ffmpeg", "-v", "error", "-i", str(video), "-f", "null", "-"], check=True)
    return time.perf_counter() - t0


def _cut(video: Path, seconds: float, out: Path) -> Path:
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-i", str(video), "-t", str(seconds), str(out)], check=True, capture_output=True
    )
    return out


def _load_avg() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "?"


def _tracking_variants(video: Path, warmup: Path, device: str, seconds: float) -> None:
    """Tracking alone under a few configurations: what the default costs and what each fix buys."""
    from ingest.settings import TrackingSettings

    base = TrackingSettings()
    variants: list[tuple[str, dict[str, Any]]] = [
        ("torch, batch 1", {"runtime": "torch", "batch_size": 1}),
        ("torch, batch 8", {"runtime": "torch"}),
        ("onnxruntime, batch 8 (default)", {}),
        ("onnxruntime, imgsz 512", {"image_size": 512}),
        ("onnxruntime, 2.5 fps", {"fps": base.fps / 2}),
    ]
    with tempfile.TemporaryDirectory(prefix="vidmem-bench-") as tmp:
        clip = _cut(video, seconds, Path(tmp) / f"first{seconds:g}s{video.suffix}")
        print(f"\ntracking alone on the first {seconds:g} s of {video.name} (load avg {_load_avg()})")
        print(f"{'configuration':<32}{'s/frame':>9}{'s/video-s':>11}{'x realtime':>12}{'CPU s/s':>9}{'tracks':>8}")
        for label, overrides in variants:
            run = _spawn("tracking", clip, warmup, device, overrides)
            fps = overrides.get("fps", base.fps)
            frames = seconds * fps
            per_s = run["stages"]["tracking"] / seconds
            print(
                f"{label:<32}{run['stages']['tracking'] / frames:>9.3f}{per_s:>11.3f}{1 / per_s:>12.2f}"
                f"{run['cpu_s'] / seconds:>9.2f}{run['rows'].get('tracks', 0):>8}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--videos", nargs="*", default=list(VIDEOS), choices=VIDEOS)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--tracking-variants", action="store_true", help="also compare tracking configurations")
    parser.add_argument("--variant-seconds", type=float, default=20.0)
    parser.add_argument(
        "--quick", action="store_true", help="skip the roles measured alone (no stage sum or overhead): ~3x sooner"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--video", help=argparse.SUPPRESS)
    parser.add_argument("--warmup", help=argparse.SUPPRESS)
    parser.add_argument("--tracking", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        out = _child(args.child, Path(args.video), Path(args.warmup), args.device, json.loads(args.tracking))
        print(RESULT + json.dumps(out), flush=True)
        return 0

    from bench.report import Figure, emit, machine
    from ingest import probe
    from tests.fixtures.make_fixtures import ensure_fixtures

    media = ensure_fixtures()
    print(f"machine: {machine()}; load avg at start {_load_avg()}", flush=True)
    table: list[dict[str, Any]] = []
    roles_seen: list[str] = []
    with tempfile.TemporaryDirectory(prefix="vidmem-bench-") as tmp:
        for name in args.videos:
            video = media[name]
            info = probe(video)
            warmup = _cut(video, WARMUP_S, Path(tmp) / f"{name}-warmup{video.suffix}")
            ffmpeg_s = _ffmpeg_decode_s(video)
            alone = _spawn("decode" if args.quick else "alone", video, warmup, args.device)
            full = _spawn("full", video, warmup, args.device)
            reference = _spawn("reference", video, warmup, args.device)
            dur = info.duration_s
            for role in alone["roles_alone"]:
                if role not in roles_seen:
                    roles_seen.append(role)
            sum_alone = alone["decode_s"] + alone["audio_s"] + sum(alone["roles_alone"].values())
            table.append(
                {
                    "video": name,
                    "duration_s": dur,
                    "ffmpeg": ffmpeg_s / dur,
                    "decode": alone["decode_s"] / dur,
                    "frames": alone["frames"],
                    "audio": alone["audio_s"] / dur,
                    "roles": {r: s / dur for r, s in alone["roles_alone"].items()},
                    "sum_alone": sum_alone / dur,
                    "pipeline": full["wall_s"] / dur,
                    "overhead": full["wall_s"] / sum_alone - 1 if alone["roles_alone"] else None,
                    "cpu": full["cpu_s"] / dur,
                    "rss": full["peak_rss_mb"],
                    "load_s": full["load_s"],
                    "stages_full": {k: v / dur for k, v in full["stages"].items()},
                    "skipped": {r: s for r, s in full["roles"].items() if s != "ran"},
                    "recall": full["recall"],
                    "reference": reference["recall"],
                }
            )
            print(f"  {name}: done (load avg {_load_avg()})", flush=True)

    if args.tracking_variants:
        with tempfile.TemporaryDirectory(prefix="vidmem-bench-") as tmp:
            warm = _cut(media["vtest"], WARMUP_S, Path(tmp) / "vtest-warmup.avi")
            _tracking_variants(media["vtest"], warm, args.device, args.variant_seconds)
    if not table:
        return 0
    _print_table(table, roles_seen)
    recall_ok = _print_recall(table)
    total_dur = sum(r["duration_s"] for r in table)
    total_pipe = sum(r["pipeline"] * r["duration_s"] for r in table)
    total_alone = sum(r["sum_alone"] * r["duration_s"] for r in table)
    total_ffmpeg = sum(r["ffmpeg"] * r["duration_s"] for r in table)
    total_decode = sum(r["decode"] * r["duration_s"] for r in table)
    total_cpu = sum(r["cpu"] * r["duration_s"] for r in table)
    staged = all(r["overhead"] is not None for r in table)
    overhead = f"{100 * (total_pipe / total_alone - 1):+.1f}%" if staged else "not measured (--quick)"
    print(
        f"\nall videos ({total_dur:.1f} s of video): pipeline {total_pipe / total_dur:.3f} s/s = "
        f"{total_dur / total_pipe:.2f}x realtime, {total_cpu / total_dur:.2f} CPU s per video-s; "
        f"overhead over stages alone {overhead}; decode "
        f"{total_dur / total_decode:.1f}x realtime vs ffmpeg {total_dur / total_ffmpeg:.1f}x (ffmpeg decodes every "
        f"frame, the pipeline only its sampling plan); peak RSS {max(r['rss'] for r in table):.0f} MB"
    )
    for row in table:
        if row["skipped"]:
            print(
                f"  {row['video']}: roles not run: " + "; ".join(f"{r} ({s[:70]})" for r, s in row["skipped"].items())
            )
    emit(
        "ingest",
        [
            Figure("pipeline speed, all sample videos", total_dur / total_pipe, "x realtime"),
            Figure("pipeline CPU time, all sample videos", total_cpu / total_dur, "CPU s per video-s"),
            *(
                [
                    Figure(
                        "pipeline vs sum of stages alone",
                        total_pipe / total_dur,
                        "s per video-s",
                        "stages alone",
                        total_alone / total_dur,
                        total_alone / total_pipe,
                    )
                ]
                if staged
                else []
            ),
            Figure(
                "decode of the sampling plan",
                total_dur / total_decode,
                "x realtime",
                "ffmpeg decode",
                total_dur / total_ffmpeg,
                total_ffmpeg / total_decode,
            ),
            Figure("peak RSS", max(r["rss"] for r in table), "MB"),
        ],
    )
    return 0 if recall_ok else 1


def _print_recall(table: list[dict[str, Any]]) -> bool:
    """Recall per video beside the reference run's; False when a video falls short of it."""
    from bench.recall import detected, matched

    print("\nrecall against the reference run (detector on every sample in float32, OCR on every sampled frame)")
    ok = True
    for row in table:
        got, ref = row["recall"], row["reference"]
        tracks = ", ".join(f"{c} {n}" for c, n in got["tracks"].items()) or "none"
        ref_tracks = ", ".join(f"{c} {n}" for c, n in ref["tracks"].items()) or "none"
        found = matched(detected(ref["boxes"]), got["boxes"])
        line = f"{row['video']:<13}tracks {tracks} (ref {ref_tracks}); reference boxes found {found:.0%}; "
        line += f"detector boxes {len(detected(got['boxes']))} (ref {len(detected(ref['boxes']))}); "
        line += f"OCR spans {len(got['ocr_spans'])}; transcript {len(got['transcript'].split())} words: "
        problems = recall_problems(got, ref)
        ok = ok and not problems
        print(line + ("same as the reference" if not problems else "DIFFERS: " + "; ".join(problems)))
    return ok


def _print_table(table: list[dict[str, Any]], roles: list[str]) -> None:
    print("\nseconds of wall time per second of video (stages measured alone; lower is better)")
    head = f"{'video':<13}{'dur s':>6}{'ffmpeg':>8}{'decode':>8}{'audio':>7}"
    head += "".join(f"{r[:9]:>10}" for r in roles)
    head += f"{'sum':>7}{'pipeline':>9}{'x rt':>6}{'ovh':>7}{'CPU s/s':>8}{'RSS MB':>7}{'load s':>7}"
    print(head)
    for row in table:
        line = (
            f"{row['video']:<13}{row['duration_s']:>6.1f}{row['ffmpeg']:>8.3f}{row['decode']:>8.3f}{row['audio']:>7.3f}"
        )
        line += "".join(f"{row['roles'][r]:>10.3f}" if r in row["roles"] else f"{'-':>10}" for r in roles)
        line += f"{row['sum_alone']:>7.3f}{row['pipeline']:>9.3f}{1 / row['pipeline']:>6.2f}"
        line += f"{100 * row['overhead']:>+6.1f}%" if row["overhead"] is not None else f"{'-':>7}"
        line += f"{row['cpu']:>8.2f}{row['rss']:>7.0f}{row['load_s']:>7.1f}"
        print(line)


if __name__ == "__main__":
    raise SystemExit(main())
