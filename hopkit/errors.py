"""One exception hierarchy: every error a user can fix says how to fix it."""

from __future__ import annotations

import sys
from collections.abc import Callable


class HopkitError(Exception):
    """Base class of the errors hopkit raises on purpose.

    The CLI prints ``str(error)`` on one line and exits non-zero, so the message
    must name what went wrong and the command or argument that fixes it.
    """


class InputError(HopkitError):
    """The user's input (a question, a file, a flag) is invalid."""


class CorpusError(InputError):
    """A corpus file is malformed: duplicate pids, empty text, bad columns."""


def closest(name: str, known: list[str]) -> list[str]:
    """The known names a mistyped one most likely meant: those it begins (a shortened name: "hotpot"), else the
    closest spelling ("hopkit")."""
    import difflib

    known = sorted(known)
    close = [k for k in known if k.lower().startswith(name.lower())] if name else []
    return (close or difflib.get_close_matches(name, known, n=1))[:3]


class UnknownNameError(InputError):
    """A name that is not one of the known ones: a method, dataset, metric, model pack, knob, keyword, choice or
    profile. The message says "did you mean" with the closest; ``template`` words it for its place, with
    ``{hint}`` where the suggestion goes."""

    def __init__(self, kind: str, name: str, known: list[str], template: str | None = None) -> None:
        close = closest(str(name), [str(k) for k in known])
        if template is None:
            hint = f" Did you mean {' or '.join(repr(k) for k in close)}?" if close else ""
            super().__init__(f"unknown {kind} {name!r}.{hint} Known: {', '.join(sorted(map(str, known)))}.")
        else:
            hint = f" (did you mean {' or '.join(repr(k) for k in close)}?)" if close else ""
            super().__init__(template.format(hint=hint))


class StorageError(InputError):
    """An optuna storage URL (the study file's ``storage``) cannot be opened."""


class MissingArtifactError(HopkitError):
    """An index, a model file or a dataset is not where it should be."""


class HubUnavailableError(MissingArtifactError):
    """A hub dataset that could not be loaded; ``reason`` says why in a few words, for a note that gives its own
    advice."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class ModelIntegrityError(HopkitError):
    """A model file exists but its checksum does not match the pinned one."""


class LMUnavailableError(HopkitError):
    """The language model endpoint cannot be reached or refuses requests."""


class RetrieverUnavailableError(HopkitError):
    """A retrieval server cannot be reached."""


def exit_on_error(main: Callable[[], None]) -> None:
    """Run a script's ``main``: an error a user can fix is one line on stderr and exit status 2, as in the CLI."""
    try:
        main()
    except HopkitError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
