"""The exceptions commsched raises. Every one is a :class:`CommschedError`; bad input is also a
:class:`ValueError`, a file that cannot be read or written also an :class:`OSError`. The message
is the one the command line prints after ``commsched: error:``."""


class CommschedError(Exception):
    """Any error of commsched (the command line's exit code 2)."""


class InputError(CommschedError, ValueError):
    """Bad input: which file (``<flags>`` for an argument), which field, and why."""


class NotApplicableError(CommschedError, ValueError):
    """A method or encoding does not apply to the instance."""


class BackendError(CommschedError):
    """A solver backend failed for a reason other than the instance."""


class RejectedError(CommschedError):
    """A producer (an algorithm, a backend, a paper's file) emitted a schedule the checker
    rejects: a bug in that producer."""


class FileError(CommschedError, OSError):
    """Reading or writing a file failed."""


class InternalError(CommschedError):
    """A bug in commsched (a panic), reported instead of crashing the interpreter."""


__all__ = [
    "CommschedError",
    "InputError",
    "NotApplicableError",
    "BackendError",
    "RejectedError",
    "FileError",
    "InternalError",
]
