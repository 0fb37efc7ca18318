"""The command line run: every command registered, errors as one line, exit codes."""

from __future__ import annotations

import os
import re
import sys
import warnings

from cyclopts import CycloptsError

from pyvista_quake.cli import animate  # noqa: F401 - registers its command
from pyvista_quake.cli import catalogue  # noqa: F401 - registers its command
from pyvista_quake.cli import check  # noqa: F401 - registers its command
from pyvista_quake.cli import convert  # noqa: F401 - registers its command
from pyvista_quake.cli import demo  # noqa: F401 - registers its command
from pyvista_quake.cli import info  # noqa: F401 - registers its command
from pyvista_quake.cli import route  # noqa: F401 - registers its command
from pyvista_quake.cli import sheet  # noqa: F401 - registers its command
from pyvista_quake.cli import thumbnail  # noqa: F401 - registers its command
from pyvista_quake.cli import view  # noqa: F401 - registers its command
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import ERRORS
from pyvista_quake.cli._app import STATE
from pyvista_quake.cli._app import NoDisplayError
from pyvista_quake.cli._app import one_line


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Parameters
    ----------
    argv : list of str, optional
        Arguments; ``sys.argv[1:]`` by default.

    """
    tokens = list(sys.argv[1:] if argv is None else argv)
    debug = STATE.debug = '--debug' in tokens
    tokens = [t for t in tokens if t != '--debug']
    try:
        with warnings.catch_warnings():
            _SHOWN.clear()
            warnings.showwarning = _show_warning  # one line each, not the source line of the call that warned
            result = CLI_APP(tokens, exit_on_error=False, print_error=False)
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as Unix tools do
        _drop_stdout()
        return 141  # 128 + SIGPIPE, what a shell reports for a tool the pipe ended
    except NoDisplayError as error:
        ERRORS.print(str(error), markup=False, highlight=False, soft_wrap=True)
        return 1
    except CycloptsError as error:
        ERRORS.print(f'error: {one_line(str(error))}', markup=False, highlight=False, soft_wrap=True)
        return 2
    except SystemExit as exit_:  # --help and --version
        return int(exit_.code or 0)
    except Exception as error:  # noqa: BLE001 - one clear line for the user; --debug for the rest
        if debug:
            raise
        ERRORS.print(f'error: {type(error).__name__}: {one_line(str(error))}', markup=False, highlight=False, soft_wrap=True)
        return 1
    return int(result) if isinstance(result, int) else 0


#: What this command has warned of: a missing file is said once a run, whichever models miss it.
_SHOWN: set[str] = set()
_MISSING = re.compile(r': (.+?) not found; tried ')


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ARG001 - warnings' signature
    text = one_line(str(message))
    missing = _MISSING.search(text)
    key = missing.group(1) if missing else text
    if key in _SHOWN:
        return
    _SHOWN.add(key)
    ERRORS.print(f'warning: {text}', markup=False, highlight=False, soft_wrap=True)


def _drop_stdout() -> None:
    """Send what is left of stdout nowhere, so that Python's own flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's capture): nothing to flush
        pass


def run() -> None:
    """Console-script entry point."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        code = 141
    sys.exit(code)
