"""Refusals without a server: values of the wrong kind for a family, family
other, damaged bytes and texts, operands that do not combine."""

import datetime
import decimal
import uuid

import pytest

import bloomsketch
from bloomsketch import BloomFilter, CountMinSketch, TopKSketch

# docs/format.md's examples
FILTER_TEXT = "bloom:v2:double:integer:k=3:m=53:seed=7:items=1:BAAAAgAAAQA="
TOPK_TEXT = ("topk:v1:integer:counters=3:entries=3:total=7:error=1:bytes=33:"
             "AwEIAQAAAAAAAAACAQgCAAAAAAAAAAEBCAMAAAAAAAAA")


def test_every_error_is_a_value_error():
    for cls in (bloomsketch.FormatError, bloomsketch.ParameterError, bloomsketch.FamilyError,
                bloomsketch.MismatchError):
        assert issubclass(cls, bloomsketch.BloomsketchError) and issubclass(cls, ValueError)


@pytest.mark.parametrize("family, value", [
    ("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
    ("integer", 1.0), ("integer", True), ("integer", decimal.Decimal(1)), ("integer", 1 << 63),
    ("float", 1), ("numeric", 1.5), ("bool", 1), ("text", b"x"), ("bytea", "x"),
    ("date", datetime.datetime(2024, 1, 1)),
    ("timestamp", datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)),
    ("timestamptz", datetime.datetime(2024, 1, 1)), ("text", None), ("text", "a\0b"),
])
def test_wrong_kind_for_family(family, value):
    f = BloomFilter.create(family, 53, 3)
    with pytest.raises(bloomsketch.FamilyError):
        f.add(value)
    with pytest.raises(bloomsketch.FamilyError):
        CountMinSketch.create(family).estimate(value)


def test_int_probes_numeric_as_the_numeric_it_equals():
    f = BloomFilter.create("numeric", 1009, 7).add(decimal.Decimal("5.000"))
    assert f.contains(5) and f.contains(decimal.Decimal("5"))
    assert not f.contains(6)


def test_family_other_is_refused_with_its_reason():
    # an int4[] filter (tag of array(integer)) holding no bits, 2048 bits
    vectors = BloomFilter.from_text(
        "bloom:v2:blocked:other-4daaea92:k=6:m=2048:seed=0:items=1:" + "A" * 340 + "AA==")
    assert vectors.family == "other-4daaea92"
    with pytest.raises(bloomsketch.FamilyError, match="family other"):
        vectors.contains([1, 2])
    with pytest.raises(bloomsketch.FamilyError, match="family other"):
        BloomFilter.create("other", 53, 3)
    assert (vectors | vectors).family == "other-4daaea92"    # still combines


def test_empty_filter_needs_a_family_to_add():
    empty = BloomFilter.from_bytes(BloomFilter.create("text", 53, 3).to_bytes())
    assert empty.family == "none"
    with pytest.raises(bloomsketch.FamilyError, match="no family"):
        empty.add("x")


def test_typed_values_of_each_family():
    cases = {"integer": -5, "text": "é", "bytea": b"\x00", "uuid": uuid.uuid4(),
             "numeric": decimal.Decimal("NaN"), "float": float("-inf"), "bool": False,
             "date": datetime.date(1, 1, 1), "timestamp": "infinity",
             "timestamptz": datetime.datetime(2024, 1, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))}
    for family, value in cases.items():
        f = BloomFilter.create(family, 1009, 7).add(value)
        assert f.contains(value) and f.family == family
    utc = BloomFilter.create("timestamptz", 1009, 7).add(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    assert utc.contains(cases["timestamptz"])


def damaged_filters():
    good = BloomFilter.from_text(FILTER_TEXT).to_bytes()
    yield "truncated", good[:-1]
    yield "version 3", b"\x03" + good[1:]
    yield "scheme 9", good[:1] + b"\x09" + good[2:]
    yield "family 12", good[:2] + b"\x0c" + good[3:]
    yield "reserved byte", good[:3] + b"\x01" + good[4:]
    yield "reserved field", good[:6] + b"\x01\x00" + good[8:]
    yield "tag without family other", good[:8] + b"\x01" + good[9:]
    yield "m not prime", good[:12] + (54).to_bytes(8, "little") + good[20:]
    yield "bit beyond m", good[:-1] + bytes([good[-1] | 0x80])
    yield "more bits than k items", good[:28] + (0).to_bytes(8, "little") + good[36:]
    yield "k zero", good[:4] + b"\x00\x00" + good[6:]


@pytest.mark.parametrize("what, data", list(damaged_filters()))
def test_damaged_filter_bytes(what, data):
    with pytest.raises(bloomsketch.FormatError):
        BloomFilter.from_bytes(data)


@pytest.mark.parametrize("text", [
    FILTER_TEXT.replace("k=3", "k=03"), FILTER_TEXT.replace("seed=7", "seed=+7"),
    FILTER_TEXT.replace("BAAAAgAAAQA=", "BAAAAgAAAQB="), FILTER_TEXT.replace("v2", "v3"),
    FILTER_TEXT.replace(":integer:", ":other-1:"), FILTER_TEXT.replace("double", "triple"),
    FILTER_TEXT + "=", FILTER_TEXT.replace("items=1", "items=-1"), FILTER_TEXT[:-1],
])
def test_damaged_filter_text(text):
    with pytest.raises(bloomsketch.FormatError):
        BloomFilter.from_text(text)


def test_damaged_sketch_and_summary():
    s = CountMinSketch.create_dims("text", 5, 2).add("a", 3)
    good = s.to_bytes()
    assert CountMinSketch.from_bytes(good) == s
    with pytest.raises(bloomsketch.FormatError):
        CountMinSketch.from_bytes(good[:24] + (4).to_bytes(8, "little") + good[32:])   # total
    with pytest.raises(bloomsketch.FormatError):
        CountMinSketch.from_bytes(good[:8] + (6).to_bytes(4, "little") + good[12:])    # w not prime
    t = TopKSketch.from_text(TOPK_TEXT).to_bytes()
    swapped = t[:40] + t[51:62] + t[40:51] + t[62:]                                    # keys unsorted
    with pytest.raises(bloomsketch.FormatError):
        TopKSketch.from_bytes(swapped)
    long_varint = t[:32] + (34).to_bytes(8, "little") + b"\x83\x00" + t[41:]          # 3 as 2 bytes
    with pytest.raises(bloomsketch.FormatError):
        TopKSketch.from_bytes(long_varint)


def test_operands_that_do_not_combine():
    a = BloomFilter.create("integer", 53, 3, 7).add(1)
    with pytest.raises(bloomsketch.MismatchError):
        a | BloomFilter.create("integer", 53, 3, 8)
    with pytest.raises(bloomsketch.MismatchError):
        a | BloomFilter.create("text", 53, 3, 7).add("x")
    assert (a | BloomFilter.create("text", 53, 3, 7)).contains(1)   # family none combines
    with pytest.raises(bloomsketch.MismatchError):
        CountMinSketch.create_dims("text", 5, 2) + CountMinSketch.create_dims("text", 7, 2)


def test_parameters():
    with pytest.raises(bloomsketch.ParameterError):
        BloomFilter.create("integer", 54, 3)                  # not prime
    with pytest.raises(bloomsketch.ParameterError):
        BloomFilter.create("integer", 1024, 4, 0, "fit")      # fit filters come from fit()
    with pytest.raises(bloomsketch.ParameterError):
        CountMinSketch.create("integer", 0.0, 0.1)
    with pytest.raises(bloomsketch.ParameterError):
        CountMinSketch.create_dims("integer", 5, 2).add(1, -1)


def test_cms_create_sizes_as_the_reference_table():
    # docs/reference.md's table: (epsilon, delta) -> w x d x copies
    for (epsilon, delta), shape in {(0.01, 0.01): (547, 5, 1), (0.01, 0.0001): (547, 5, 2),
                                    (0.001, 0.001): (5437, 7, 1)}.items():
        info = CountMinSketch.create("integer", epsilon, delta).info()
        assert (info.width, info.depth, info.copies) == shape


def test_topk_reads_the_documented_example():
    s = TopKSketch.from_text(TOPK_TEXT)
    assert [(i.value, i.count, i.upper_bound) for i in s.items()] == [(1, 3, 3), (2, 2, 2), (3, 1, 1)]
    assert s.estimate(1) == 3 and s.bounds(4) == (0, 1) and s.to_text() == TOPK_TEXT


def test_empty_values_read_back_take_a_declared_family():
    empty = BloomFilter.create("integer", 53, 3, 7).to_bytes()     # as bloom_create's bytes
    f = BloomFilter.from_bytes(empty, family="integer").add(42)
    assert f.to_text() == FILTER_TEXT
    with pytest.raises(bloomsketch.FamilyError):
        BloomFilter.from_text(FILTER_TEXT, family="text")
    s = CountMinSketch.from_bytes(CountMinSketch.create("text").to_bytes(), family="text").add("a")
    assert s.estimate("a") == 1 and s.family == "text"


def test_capacity_sizing_is_for_the_independent_and_blocked_schemes():
    f = BloomFilter.create("integer", scheme="independent", capacity=1000, fpr=0.01)
    assert (f.bits, f.hashes) == (9595, 7)      # bloom_optimal_bits(1000, 0.01) and its k
    assert BloomFilter.create("integer", scheme="blocked", capacity=1000).hashes == 5
    for scheme in ("double", "double_square", "double_cube", "partition"):
        with pytest.raises(bloomsketch.ParameterError, match="bloom_create"):
            BloomFilter.create("integer", scheme=scheme, capacity=1000)
    with pytest.raises(bloomsketch.ParameterError):
        BloomFilter.create("integer", 9595, 7, scheme="independent", capacity=1000)
    with pytest.raises(bloomsketch.ParameterError):
        BloomFilter.create("integer", scheme="independent", capacity=0)
