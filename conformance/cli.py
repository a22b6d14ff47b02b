"""The `hrc` command line. Sub-commands live in their own modules.

Each module listed in SUBCOMMAND_MODULES exposes `register(subparsers) -> None`, which adds its
sub-commands with `set_defaults(func=handler)`; a handler takes the parsed arguments and
returns the exit status. A module that cannot be imported does not break the others: the
sub-commands it was expected to provide stay visible and explain the import error when used.

Exit statuses: 0 success, 1 the check failed (a case, a diff, a regen check), 2 usage error.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # issue 40: `hrc --version` imports neither typing, argparse nor commands
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Any

#: (module, sub-commands it is expected to provide), in help order.
SUBCOMMAND_MODULES: list[tuple[str, tuple[str, ...]]] = [
    ("conformance.commands.run", ("run",)),
    ("conformance.commands.listing", ("list",)),
    ("conformance.commands.report", ("report",)),
    ("conformance.commands.diff", ("diff",)),
    ("conformance.commands.bundle", ("bundle",)),
    ("conformance.commands.regen", ("regen",)),
    ("reference.cli", ("index", "search")),
    ("conformance.commands.selftest", ("selftest",)),
    ("conformance.commands.properties", ("properties",)),
    ("conformance.commands.eval", ("eval",)),
    ("conformance.commands.init_port", ("init-port",)),
    ("conformance.commands.data_path", ("data-path",)),
    ("conformance.commands.pin", ("pin",)),
]


#: What to install when a command's module needs a library the plain install lacks.
TEST_EXTRA_HINT = ("install the kit's test extra: pip install 'PATH/TO/KIT[test]' "
                   "(in a clone: pip install -e '.[test]')")


def unavailable_reason(module: str, error: BaseException) -> str:
    """Why a command cannot run, with what to install when a library is missing (issue 38:
    `hrc --help` said `properties (unavailable …)` without saying what to do)."""
    if isinstance(error, ModuleNotFoundError) and error.name:
        return f"needs the {error.name.split('.')[0]} library; {TEST_EXTRA_HINT}"
    return f"cannot import {module}: {type(error).__name__}: {error}"


def _unavailable(module: str, error: BaseException) -> Callable[[argparse.Namespace], int]:
    from conformance.common import errors

    def handler(args: argparse.Namespace) -> int:
        return errors.emit(args.command, f"unavailable: {unavailable_reason(module, error)}")

    handler.accepts_any_arguments = True  # type: ignore[attr-defined]
    return handler


def version_line() -> str:
    """`hrc --version`: the kit, the spec and the protocol it checks."""
    from conformance.common.version import PROTOCOL_VERSION, kit_version
    from reference import SPEC_VERSION

    return f"hrc {kit_version()} (spec {SPEC_VERSION}, adapter protocol {PROTOCOL_VERSION})"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `command`, only the module expected to provide that sub-command is
    imported (issue 40: `hrc run` need not import hypothesis for `hrc properties`)."""
    from conformance.common import errors

    parser = errors.OneLineParser(
        prog="hrc",
        description="Hybrid retrieval conformance kit: run golden cases against a port, "
        "bundle, regenerate and compare results.",
    )
    parser.add_argument("--version", action="version", version=version_line())
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name, commands in SUBCOMMAND_MODULES:
        if command is not None and command not in commands:
            continue
        try:
            module = importlib.import_module(module_name)
            register: Any = module.register
        except Exception as exc:  # a broken or missing module must not take hrc down
            for command in commands:
                if command in subparsers.choices:
                    continue
                sub = subparsers.add_parser(
                    command, help=f"(unavailable: {unavailable_reason(module_name, exc)})"
                )
                sub.set_defaults(func=_unavailable(module_name, exc))
            continue
        register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:
        # issue 40: the answer needs no sub-command module; printed and exited as argparse's
        # version action does
        print(version_line())
        raise SystemExit(0)
    from conformance.common import errors, signals

    words = sys.argv[1:] if argv is None else argv
    # A known sub-command as the first word needs only its own module; anything else (hrc's
    # options first, an unknown command, none) builds the whole parser, as before.
    named = words[0] if words else None
    known = any(named in commands for _, commands in SUBCOMMAND_MODULES)
    parser = build_parser(named if known else None)
    args, unknown = parser.parse_known_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.func
    if unknown and not getattr(handler, "accepts_any_arguments", False):
        return errors.emit(args.command, f"unrecognized arguments: {' '.join(unknown)}")
    restore = signals.install()  # PROTO-51: SIGTERM and SIGHUP end a command as Ctrl-C does
    try:
        status = handler(args)
        sys.stdout.flush()  # a full disk shows here, as one line (PROTO-44)
        return status
    except BrokenPipeError:  # `hrc ... | head`
        return 1
    except errors.HrcError as exc:
        return errors.emit(args.command, str(exc))
    except OSError as exc:  # a full disk, an output that vanished: one line (PROTO-44)
        return errors.emit(args.command, errors.os_message(exc))
    except KeyboardInterrupt:
        print(f"hrc: interrupted ({signals.cause()})", file=sys.stderr)
        return signals.exit_status()
    finally:
        restore()


if __name__ == "__main__":
    sys.exit(main())
