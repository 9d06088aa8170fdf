"""Record classes for the modules every compile imports.

A build runs cass-cc once per file, and `dataclasses` costs each run about a third of
cass-cc's own start-up: importing it pulls in `inspect` (with `ast`, `dis`, `tokenize`),
and each class it makes execs generated code. `record` makes the same classes from the
annotations (strings, under `from __future__ import annotations`) at a fraction of that:

- `@record` (immutable): a `collections.namedtuple` subclass keeping the class's methods;
  equality, hashing and repr by value, like `@dataclass(frozen=True)`.
- `@record(frozen=False)`: a class with `__slots__`, keyword or positional construction,
  equality and repr by value; `= factory(list)` gives each instance its own default
  (dataclasses' `field(default_factory=list)`).

Type checkers see them as dataclasses (PEP 681). Modules off the compile path keep
using `dataclasses`.
"""
from __future__ import annotations

import collections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar, dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_: object):  # noqa: D103 - a no-op at run time
        return lambda f: f



class factory:  # noqa: N801 - reads as a function in class bodies
    """`targets: list[str] = factory(list)`: a fresh default per instance (mutable records)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def _fields(cls: type) -> tuple[list[str], dict[str, Any]]:
    own = cls.__dict__.get("__annotations__")
    names = list(own if own is not None else getattr(cls, "__annotations__", {}))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    return names, defaults


def _frozen(cls: type) -> type:
    names, defaults = _fields(cls)
    base = collections.namedtuple(cls.__name__, names, defaults=[defaults[n] for n in names if n in defaults])  # type: ignore[misc]
    body = {k: v for k, v in cls.__dict__.items() if k not in names and k not in ("__dict__", "__weakref__")}
    body["__slots__"] = ()
    new = type(cls.__name__, (base,), body)
    new.__qualname__, new.__module__ = cls.__qualname__, cls.__module__
    return new


def _mutable(cls: type) -> type:
    names, defaults = _fields(cls)
    fresh = {n: v.make for n, v in defaults.items() if isinstance(v, factory)}
    shared = [n for n, v in defaults.items() if isinstance(v, (list, dict, set))]
    if shared:
        raise TypeError(f"{cls.__name__}.{shared[0]}: a mutable default is shared by every instance; use factory()")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} positional arguments, {len(args)} given")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in given:
                raise TypeError(f"{cls.__name__}() got an unexpected or repeated argument '{k}'")
            given[k] = v
        for n in names:
            if n in given:
                object.__setattr__(self, n, given[n])
            elif n in fresh:
                object.__setattr__(self, n, fresh[n]())
            elif n in defaults:
                object.__setattr__(self, n, defaults[n])
            else:
                raise TypeError(f"{cls.__name__}() missing argument '{n}'")

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    def __repr__(self: Any) -> str:
        return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    body = {k: v for k, v in cls.__dict__.items() if k not in names and k not in ("__dict__", "__weakref__")}
    body.update(__slots__=tuple(names), __init__=__init__, __eq__=__eq__, __repr__=__repr__, __hash__=None)
    new = type(cls.__name__, cls.__bases__, body)
    new.__qualname__, new.__module__ = cls.__qualname__, cls.__module__
    return new


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, *, frozen: bool = True) -> Any:
    """`@record` or `@record(frozen=False)` on a class whose fields are annotations."""
    make: Callable[[type], type] = _frozen if frozen else _mutable
    if cls is None:
        return make
    return make(cls)
