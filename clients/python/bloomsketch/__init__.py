"""bloomsketch: read, probe and build the values of the bloomsketch
PostgreSQL extension (bloomfilter, cmsketch, topksketch) in Python, byte for
byte as the server stores them (docs/format.md).

    >>> f = BloomFilter.from_bytes(row[0])       # a bytea fetched once
    >>> f.contains(42)
"""

from .bloom import BloomFilter, BloomInfo
from .cms import CmsInfo, CountMinSketch
from .errors import (BloomsketchError, FamilyError, FormatError, MismatchError,
                     ParameterError)
from .families import NAMES as FAMILY_NAMES
from .topk import Item, TopkInfo, TopKSketch

__version__ = "0.2.0"

__all__ = ["BloomFilter", "BloomInfo", "CountMinSketch", "CmsInfo", "TopKSketch", "TopkInfo",
           "Item", "BloomsketchError", "FormatError", "ParameterError", "FamilyError",
           "MismatchError", "FAMILY_NAMES"]
