"""What ``help()`` and ``inspect.signature`` show for a public program class.

DSPy's module metaclass defines ``__call__(*args, **kwargs)``, which hides a program's constructor from
``inspect.signature``. A program takes its knobs as ``**knobs``, so that it names each knob only where it uses
it; a class documented here shows its real signature with every declared knob (hopkit/knobs/declared.py) as a
keyword, refuses an unknown keyword with "did you mean", and its docstring ends with its knobs."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Literal, Optional

from hopkit.errors import UnknownNameError
from hopkit.knobs import knob_help
from hopkit.knobs.knob import Knob
from hopkit.knobs.profiles import declared


def documented(cls: type, group: str | None) -> type:
    patched: Any = cls  # a class whose signature and __init__ are set at run time
    init = inspect.signature(patched.__init__)
    parameters = [p for p in list(init.parameters.values())[1:] if p.kind is not inspect.Parameter.VAR_KEYWORD]
    if group is not None:
        parameters += [inspect.Parameter(knob.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                         annotation=_annotation(knob)) for knob in declared(group).values()]
    patched.__signature__ = init.replace(parameters=parameters)
    patched.__init__ = _refusing_unknown(patched.__init__, cls.__name__, [p.name for p in parameters])
    if group is not None:
        cls.__doc__ = f"{inspect.cleandoc(cls.__doc__ or '')}\n\n{knob_help(group)}"
    return cls


def _annotation(knob: Knob) -> Any:
    """The type a knob takes, or None (the profile's value)."""
    kind = knob.kind
    if kind == "choice":
        return Optional[Literal[tuple(knob.choices or ())]]  # noqa: UP045 (a Literal built at run time)
    return Optional[{"bool": bool, "int": int, "float": float}[kind]]  # noqa: UP045


def _refusing_unknown(init, owner: str, names: list[str]):
    """The constructor, with an unknown keyword refused in one line that says "did you mean"."""

    @functools.wraps(init)
    def checked(self, *args, **kwargs):
        for name in kwargs:
            if name not in names:
                raise UnknownNameError("keyword", name, names,
                                       f"{owner} has no keyword {name!r}{{hint}}; see help({owner}) for its knobs")
        init(self, *args, **kwargs)

    return checked
