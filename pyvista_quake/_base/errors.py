"""Errors and warnings raised by pyvista-quake."""

from __future__ import annotations

from typing import Any


class QuakeFormatError(ValueError):
    """A Quake model file is malformed.

    The message names the file, the field and the offending value, so a
    user holding a batch of models knows which one failed and why.

    Parameters
    ----------
    source : str
        The file (or ``<bytes>``) that was being read.
    field : str
        The field of the format that is wrong, named as in the spec.
    value : Any
        The value found in the file.
    reason : str
        What is wrong with it.

    """

    def __init__(self, source: str, field: str, value: Any, reason: str) -> None:
        self.source = source
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f'{source}: {field} = {value!r}: {reason}')

    def __reduce__(self):  # keep the error picklable for multiprocessing batch jobs
        return (type(self), (self.source, self.field, self.value, self.reason))


class QuakeWarning(UserWarning):
    """Something in a model is unusual but the model still loads."""


class MissingMemberError(QuakeFormatError, KeyError):
    """A PAK or PK3 has no member of that name (a :class:`QuakeFormatError` and a ``KeyError``)."""

    __str__ = BaseException.__str__  # the message, not KeyError's repr of it


class NothingToDrawError(ValueError):
    """A model with no triangle to draw: an MD3 of tags only (a weapon's ``*_hand.md3``), or surfaces with no vertices."""
