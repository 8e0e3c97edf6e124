"""``--config STUDY.toml`` for the study verbs (``reproduce``, ``ablate``, ``optimize``): a study's settings in one
file. It extends a run file (what ``hopkit eval --config`` reads): the run file's keys (``[knobs]``, ``cache``) mean
what they mean there, and the rest are the verb's flags (``--demos-from`` as ``demos_from``, ``--set`` as a ``[set]``
table of knobs) and the verb's file settings, which the command line leaves out so that it keeps to the study's main
concerns (``hopkit optimize --help`` lists them); a flag given on the command line overrides the file. Checked before
anything runs: an unknown key or a value of the wrong type is a one-line error."""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopkit.errors import InputError, MissingArtifactError, UnknownNameError
from hopkit.spec import SECRETS

NOT_SETTINGS = {"run", "config", "help", "verb_parser", "file_settings"}
# a study file extends a run file (hopkit.spec.RunSpec, what `hopkit eval --config` reads): the run file's names for
# the settings a flag names otherwise
RUN_FILE_NAMES = {"knobs": "set"}


@dataclass(frozen=True)
class FileSetting:
    """A setting a study gives in its file only: its name (the key), type, default and what it does."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] = ()

    def line(self) -> str:
        values = " | ".join(map(str, self.choices)) if self.choices else self.type.__name__
        return f"{self.name} ({values}, default {self.default}): {self.help}"


def flags_as_file_settings(add_flags: Callable[[argparse.ArgumentParser], None],
                           leave_out: Sequence[str] = ()) -> tuple[FileSetting, ...]:
    """The flags a shared adder (``add_lm_flags``, ``add_retrieval_flags``) declares, as file settings with the same
    names, types, defaults and help, for a verb that takes them from its study file instead."""
    parser = argparse.ArgumentParser(add_help=False)
    add_flags(parser)
    return tuple(FileSetting(action.dest, bool if action.nargs == 0 else _value_type(action), action.default,
                             action.help or "", tuple(action.choices or ()))
                 for action in parser._actions if action.dest not in leave_out)


def add_study_file_flag(parser: argparse.ArgumentParser, file_settings: Sequence[FileSetting] = ()) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="STUDY.toml",
                        help="the study's settings from a TOML file whose keys are this verb's flags"
                             + (" and the file settings below" if file_settings else "") + "; flags override")
    parser.set_defaults(verb_parser=parser, file_settings=tuple(file_settings),
                        **{setting.name: setting.default for setting in file_settings})
    if file_settings:
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        parser.epilog = "settings of the study file (--config STUDY.toml) only:\n" + "\n".join(
            f"  {setting.line()}" for setting in file_settings)


def apply_study_file(args: argparse.Namespace, required: tuple[str, ...] = ()) -> None:
    """Fill ``args`` from ``--config`` where no flag was given, then refuse what is still missing."""
    parser: argparse.ArgumentParser = args.verb_parser
    actions = {a.dest: a for a in parser._actions if a.dest not in NOT_SETTINGS}
    file_only = {setting.name: setting for setting in getattr(args, "file_settings", ())}
    if args.config is not None:
        for name, value in _read(args.config).items():
            dest = RUN_FILE_NAMES.get(name, name.replace("-", "_"))
            if dest in SECRETS:
                raise InputError(SECRETS[dest].format(path=args.config))
            if dest == "cache" and "no_cache" in actions:  # the run file's cache = false is the flag --no-cache
                if not isinstance(value, bool):
                    raise InputError(f"{args.config}: cache = {value!r} takes true or false")
                if not args.no_cache:
                    args.no_cache = not value
                continue
            if dest in file_only:
                setattr(args, dest, _file_typed(args.config, name, value, file_only[dest]))
                continue
            if dest not in actions:
                known = [*actions, *file_only]
                raise UnknownNameError("setting", name, known,
                                       f"{args.config}: {name!r} is not a setting of this verb{{hint}}; its settings: "
                                       f"{', '.join(known)}")
            action = actions[dest]
            if getattr(args, dest) != action.default:
                continue  # given on the command line: the flag wins
            setattr(args, dest, _typed(args.config, name, value, action))
    for name in required:
        if getattr(args, name, None) in (None, ""):
            flag = (actions[name].option_strings or [name.upper()])[0]
            raise InputError(f"{flag} is required: give it on the command line or as {name!r} in --config")


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise MissingArtifactError(f"no study file at {path}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path} is not TOML ({error})") from None


def _value_type(action: argparse.Action) -> type:
    """The type a flag's value has in a file: its parser where that is a type, else the text it parses."""
    return action.type if isinstance(action.type, type) else str


def _typed(path: Path, name: str, value: Any, action: argparse.Action) -> Any:
    if isinstance(action, argparse._AppendAction):  # --set: a table of knobs, or a list of KNOB=VALUE
        items = [f"{k}={_flag_text(v)}" for k, v in value.items()] if isinstance(value, dict) else value
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise InputError(f"{path}: {name} takes a table of knobs or a list of KNOB=VALUE strings")
        return items
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        if not isinstance(value, bool):
            raise InputError(f"{path}: {name} = {value!r} takes true or false")
        return value
    if action.choices is not None and value not in action.choices:
        raise UnknownNameError("value", str(value), [str(c) for c in action.choices],
                               f"{path}: {name} = {value!r} is not one of {', '.join(map(str, action.choices))}"
                               "{hint}")
    convert = action.type
    if callable(convert) and not isinstance(value, bool) and isinstance(value, (str, int, float)):
        try:
            return convert(str(value))  # as argparse would parse the flag's text
        except (TypeError, ValueError):
            raise InputError(f"{path}: {name} = {value!r} is not a {getattr(action.type, '__name__', 'value')}") \
                from None
    if isinstance(value, (dict, list)):
        raise InputError(f"{path}: {name} takes one value, got {type(value).__name__}")
    return value


def _file_typed(path: Path, name: str, value: Any, setting: FileSetting) -> Any:
    wanted = setting.type
    if setting.choices and value not in setting.choices:
        raise UnknownNameError("value", str(value), [str(c) for c in setting.choices],
                               f"{path}: {name} = {value!r} is not one of {', '.join(map(str, setting.choices))}"
                               "{hint}")
    if wanted is bool:
        ok = isinstance(value, bool)
    elif wanted is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif wanted is Path:
        ok = isinstance(value, str)
    else:
        ok = isinstance(value, wanted) and not isinstance(value, bool)
    if not ok:
        kind = {bool: "true or false", int: "an integer", float: "a number", str: "a string", Path: "a path"}
        raise InputError(f"{path}: {name} takes {kind.get(wanted, wanted.__name__)}, got {value!r}")
    return wanted(value) if wanted in (float, Path) else value


def _flag_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
