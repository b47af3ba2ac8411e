"""The `vidmem` command line: reads settings, composes each package's settings object, prints."""

__version__ = "0.1.0"
