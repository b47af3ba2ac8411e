"""One module per `vidmem` subcommand: `add_parser(subparsers)` and `run(args) -> exit status`."""
