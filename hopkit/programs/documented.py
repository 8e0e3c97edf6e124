"""What ``help()`` and ``inspect.signature`` show for a public program class.

DSPy's module metaclass defines ``__call__(*args, **kwargs)``, which hides a program's constructor from
``inspect.signature``; a class documented here shows its real signature, and its docstring ends with its
knobs as declared (hopkit/knobs/declared.py)."""

from __future__ import annotations

import functools
import inspect

from hopkit.errors import UnknownNameError
from hopkit.knobs import knob_help


def documented(cls: type, group: str | None) -> type:
    init = inspect.signature(cls.__init__)
    cls.__signature__ = init.replace(parameters=list(init.parameters.values())[1:])
    cls.__init__ = _refusing_unknown(cls.__init__, cls.__name__, list(init.parameters)[1:])
    if group is not None:
        cls.__doc__ = f"{inspect.cleandoc(cls.__doc__ or '')}\n\n{knob_help(group)}"
    return cls


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
