"""Value families (docs/format.md section 1): their codes, the names the
text forms and the info functions print, and which ones the library hashes."""

from typing import Optional, Tuple

from .errors import FamilyError, FormatError

NONE, INTEGER, TEXT, BYTEA, UUID, NUMERIC, FLOAT, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ, OTHER = range(12)

NAMES = ("none", "integer", "text", "bytea", "uuid", "numeric", "float", "bool", "date",
         "timestamp", "timestamptz", "other")

# the families whose canonical bytes the library computes from Python values
SUPPORTED = frozenset(range(INTEGER, OTHER))

OTHER_REFUSAL = (
    "family other (arrays, ranges, composite types, jsonb, time, timetz, interval, inet, "
    "cidr, macaddr) is not supported by the bloomsketch Python library: the canonical bytes of "
    "such a value depend on its SQL type's structure, which a Python value does not carry; "
    "probe these values in SQL, or store a scalar key (text, integer, ...) instead")


def code_of(family) -> int:
    """The code of a family given by name ('integer', ...) or code."""
    if isinstance(family, int) and not isinstance(family, bool):
        if 0 <= family < len(NAMES):
            return family
    elif isinstance(family, str) and family in NAMES:
        return NAMES.index(family)
    raise FamilyError("unknown value family %r; the families are %s" % (family, ", ".join(NAMES)))


def supported_code(family) -> int:
    """The code of a family the library hashes; other families are refused."""
    code = code_of(family)
    if code == OTHER:
        raise FamilyError(OTHER_REFUSAL)
    if code == NONE:
        raise FamilyError("family none holds no values: name the family of the values to add")
    return code


def token(family: int, tag: int) -> str:
    """The family as text forms and the info functions write it."""
    return "other-%08x" % tag if family == OTHER else NAMES[family]


def parse_token(text: str) -> Tuple[int, int]:
    """(family, tag) of a family token, accepting only its one spelling."""
    if text.startswith("other-"):
        digits = text[6:]
        if len(digits) != 8 or any(c not in "0123456789abcdef" for c in digits):
            raise FormatError("invalid family %r: other- takes 8 lower-case hex digits" % text)
        return OTHER, int(digits, 16)
    if text in NAMES and text != "other":
        return NAMES.index(text), 0
    raise FormatError("invalid family %r" % text)


def declared_family(stored: int, tag: int, family) -> Optional[int]:
    """The family values will be added as, when a caller names one for a
    value read back: it must agree with the stored family unless that is none."""
    if family is None:
        return None
    code = supported_code(family)
    if stored not in (NONE, code):
        raise FamilyError("the value holds %s values, not %s ones" % (token(stored, tag), NAMES[code]))
    return code
