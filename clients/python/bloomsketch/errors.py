"""The exceptions of the library: every one is a ValueError, so callers that
already catch ValueError for bad input keep working."""


class BloomsketchError(ValueError):
    """Base class of every error the library raises."""


class FormatError(BloomsketchError):
    """Bytes or text that are not a valid value (the server's 22P02/22P03)."""


class ParameterError(BloomsketchError):
    """A parameter out of range (the server's 22023 and 54000)."""


class FamilyError(BloomsketchError):
    """A value of a family the filter or sketch does not hold, or of a family
    the library does not hash (the server's 22023 and 0A000)."""


class MismatchError(BloomsketchError):
    """Operands of a union or merge that do not combine (the server's 22000)."""
