"""Ingest settings from a TOML file, the environment and flags, in that order of precedence
(flags win). Names derive from the settings dataclasses, so a new field is configurable
everywhere without touching this module:

    [tracking]            VIDMEM_TRACKING_FPS=2      --tracking-fps 2
    fps = 2
"""

import argparse
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
        return hint(value)
    except ValueError:
        raise SettingsError(f"{name}: cannot read {value!r} as {getattr(hint, '__name__', hint)}") from None


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
            data = tomllib.loads(Path(config).read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"cannot read settings file {config}: {exc}") from exc
        for key, section in data.items():
            if key in _TOP_LEVEL:
                top[key] = section
            elif key in values and isinstance(section, dict):
                values[key].update({k: tuple(v) if isinstance(v, list) else v for k, v in section.items()})
            else:
                raise SettingsError(f"{config}: unknown section or key {key!r}; known roles: {list(ROLE_NAMES)}")
    for role in ROLE_NAMES:
        for name, hint in _role_hints(role).items():
            env_name = f"VIDMEM_{role}_{name}".upper()
            if env_name in env:
                values[role][name] = _parse(env[env_name], hint, env_name)
            flag_value = getattr(args, f"set_{role}__{name}", None) if args else None
            if flag_value is not None:
                values[role][name] = _parse(flag_value, hint, f"--{role}-{name}")
    for key in _TOP_LEVEL:
        env_name = f"VIDMEM_{key}".upper()
        if env_name in env:
            top[key] = env[env_name]
    if args is not None and getattr(args, "device", None):
        top["device"] = args.device
    if "decode_batch" in top:
        top["decode_batch"] = int(top["decode_batch"])
    try:
        settings = IngestSettings(**top)
        settings = replace(settings, **{role: replace(getattr(settings, role), **v) for role, v in values.items() if v})
    except TypeError as exc:
        raise SettingsError(f"unknown setting: {exc}") from exc
    only = _roles(getattr(args, "only", None) if args else None)
    skip = _roles(getattr(args, "skip", None) if args else None)
    if only:
        settings = settings.only(*only)
    if skip:
        keep = [r for r in ROLE_NAMES if r not in skip and getattr(settings, r).enabled]
        settings = settings.only(*keep)
    return settings


def _roles(text: str | None) -> list[str]:
    return [r.strip() for r in text.split(",") if r.strip()] if text else []
