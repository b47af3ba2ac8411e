"""Ingest settings from a TOML file, the environment and flags, in that order of precedence
(flags win). Names derive from the settings dataclasses, so a new field is configurable
everywhere without touching this module:

    [tracking]            VIDMEM_TRACKING_FPS=2      --tracking-fps 2
    fps = 2
"""

import argparse
import math
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from ingest import ROLE_NAMES, IngestSettings, SettingsError

_TOP_LEVEL = ("device", "decode_batch")


def _role_hints(role: str) -> dict[str, Any]:
    """Field name -> type of one role's settings class (enabled included)."""
    cls = typing.get_type_hints(IngestSettings)[role]
    return {f.name: typing.get_type_hints(cls)[f.name] for f in fields(cls)}


def _parse(value: str, hint: Any, name: str) -> Any:
    """Convert text from the environment or a flag to the field's type."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):  # X | None
        if value.lower() in ("", "none", "null"):
            return None
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    try:
        if hint is bool:
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if origin is tuple:
            return tuple(v.strip() for v in value.split(",") if v.strip())
        out = hint(value)
    except ValueError:
        raise SettingsError(f"{name}: cannot read {value!r} as {getattr(hint, '__name__', hint)}") from None
    if isinstance(out, float) and not math.isfinite(out):
        raise SettingsError(f"{name}: expected a finite number, got {value!r}")
    return out


def _from_toml(value: Any, hint: Any, name: str) -> Any:
    """A TOML value checked against the field's type (text is read like a flag's)."""
    if isinstance(value, str):
        return _parse(value, hint, name)
    allowed = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    if isinstance(value, list) and any(typing.get_origin(a) is tuple for a in allowed):
        return tuple(value)
    if isinstance(value, bool):
        ok = bool in allowed
    elif isinstance(value, int | float):
        ok = float in allowed or (int in allowed and isinstance(value, int))
        if ok and not math.isfinite(value):
            raise SettingsError(f"{name}: expected a finite number, got {value}")
    else:
        ok = False
    if not ok:
        raise SettingsError(f"{name}: expected {_type_name(hint)}, got {value!r}")
    return float(value) if float in allowed and not isinstance(value, bool) else value


def _type_name(hint: Any) -> str:
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    return " or ".join(getattr(a, "__name__", str(a)) for a in args)


def add_settings_args(parser: argparse.ArgumentParser) -> None:
    """Flags for every role's settings (`--ROLE-FIELD`), plus --only/--skip/--device/--config."""
    group = parser.add_argument_group("model roles")
    group.add_argument("--config", type=Path, help="TOML file with [role] tables of settings")
    group.add_argument("--only", help=f"comma-separated roles to run ({','.join(ROLE_NAMES)})")
    group.add_argument("--skip", help="comma-separated roles not to run")
    group.add_argument("--device", help="auto (default), cpu, cuda or cuda:N")
    for role in ROLE_NAMES:
        for name in _role_hints(role):
            flag = f"--{role.replace('_', '-')}-{name.replace('_', '-')}"
            group.add_argument(flag, dest=f"set_{role}__{name}", metavar=name.upper(), help=argparse.SUPPRESS)
    group.add_argument(
        "--ROLE-FIELD",
        dest="_doc",
        metavar="VALUE",
        help="any role setting, e.g. --tracking-fps 2 --asr-model tiny.en --clip-pretrained ckpt.pt "
        "(see 'vidmem models' and README; env: VIDMEM_ROLE_FIELD)",
    )


def settings_from(args: argparse.Namespace | None = None, environ: Mapping[str, str] | None = None) -> IngestSettings:
    env = os.environ if environ is None else environ
    values: dict[str, dict[str, Any]] = {role: {} for role in ROLE_NAMES}
    top: dict[str, Any] = {}
    config = getattr(args, "config", None) if args else None
    if config:
        try:
            data = tomllib.loads(Path(config).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"cannot read settings file {config}: {exc}") from exc
        for key, section in data.items():
            if key in _TOP_LEVEL:
                top[key] = section
            elif key in values and isinstance(section, dict):
                hints = _role_hints(key)
                for k, v in section.items():
                    if k not in hints:
                        raise SettingsError(f"{config}: [{key}] has no setting {k!r}; known: {', '.join(hints)}")
                    values[key][k] = _from_toml(v, hints[k], f"{config}: [{key}] {k}")
            else:
                raise SettingsError(f"{config}: unknown section or key {key!r}; known roles: {list(ROLE_NAMES)}")
    for role in ROLE_NAMES:
        for name, hint in _role_hints(role).items():
            env_name = f"VIDMEM_{role}_{name}".upper()
            if env_name in env:
                values[role][name] = _parse(env[env_name], hint, env_name)
            flag_value = getattr(args, f"set_{role}__{name}", None) if args else None
            if flag_value is not None:
                values[role][name] = _parse(flag_value, hint, f"--{role}-{name}".replace("_", "-"))
    for key in _TOP_LEVEL:
        env_name = f"VIDMEM_{key}".upper()
        if env_name in env:
            top[key] = env[env_name]
    if args is not None and getattr(args, "device", None):
        top["device"] = args.device
    if "decode_batch" in top:
        top["decode_batch"] = _parse(str(top["decode_batch"]), int, "decode_batch")
    if "device" in top and not isinstance(top["device"], str):
        raise SettingsError(f"device: expected auto, cpu, cuda or cuda:N, got {top['device']!r}")
    try:
        settings = IngestSettings(**top)
        settings = replace(settings, **{role: replace(getattr(settings, role), **v) for role, v in values.items() if v})
    except TypeError as exc:
        raise SettingsError(f"unknown setting: {exc}") from exc
    only = _roles(getattr(args, "only", None) if args else None, "--only")
    skip = _roles(getattr(args, "skip", None) if args else None, "--skip")
    if only is not None:
        settings = settings.only(*only)
    if skip is not None:
        keep = [r for r in ROLE_NAMES if r not in skip and getattr(settings, r).enabled]
        if not keep:
            raise SettingsError(f"--skip {','.join(skip)} leaves no role to run")
        settings = settings.only(*keep)
    missing = settings.missing_weights()
    if missing:
        raise SettingsError(missing)
    return settings


def _roles(text: str | None, flag: str) -> list[str] | None:
    """The role names of --only/--skip, checked; None when the flag was not given."""
    if text is None:
        return None
    names = [r.strip() for r in text.split(",") if r.strip()]
    if not names:
        raise SettingsError(f"{flag} {text!r} names no role; give one or more of {', '.join(ROLE_NAMES)}")
    unknown = [r for r in names if r not in ROLE_NAMES]
    if unknown:
        raise SettingsError(f"{flag}: unknown role {', '.join(unknown)}; known: {', '.join(ROLE_NAMES)}")
    return names
