#!/usr/bin/env python3
"""Write docs/vectors/*.tsv from the values and shapes listed here, with the
Python client (clients/python).  The C core (test/unit/test_vectors.c) and the
server (test/regress/sql/format_vectors.sql) check every line, so a
vector that the client got wrong fails those tests; check_vectors.py checks the client
against them.

    python3 clients/python/tests/make_vectors.py      (from the top directory)
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))      # the package, when not installed
from bloomsketch import BloomFilter, CountMinSketch  # noqa: E402
from bloomsketch import families as F  # noqa: E402
from bloomsketch.positions import SCHEME_NAMES, cms_columns, positions  # noqa: E402
from bloomsketch import TopKSketch  # noqa: E402
from check_vectors import empty_filter, fit_agg, fit_values  # noqa: E402
from notation import canonical  # noqa: E402
from topk_builder import TopkBuilder  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "..", "docs", "vectors")

# id, SQL expression, type, payload
VALUES = [
    ("int2_1", "1::int2", "int2", 1),
    ("int4_1", "1::int4", "int4", 1),
    ("int8_42", "42::int8", "int8", 42),
    ("int8_min", "(-9223372036854775808)::int8", "int8", -9223372036854775808),
    # rejected mappings at m = 5999689301 (seed 0): h1 of double, h2 of
    # double, the first hash of independent
    ("int8_reject_h1", "2406930871::int8", "int8", 2406930871),
    ("int8_reject_h2", "3836073524::int8", "int8", 3836073524),
    ("int8_reject_ind", "256982491::int8", "int8", 256982491),
    ("text_alice", "'alice'::text", "text", "alice"),
    ("varchar_alice", "'alice'::varchar", "varchar", "alice"),
    ("literal_alice", "'alice'", "text", "alice"),
    ("text_utf8", "'héllo wörld'::text", "text", "héllo wörld"),
    ("text_empty", "''::text", "text", ""),
    ("text_300", "repeat('abcdefghij', 30)", "text", "abcdefghij" * 30),
    ("text_200", "repeat('0123456789', 20)", "text", "0123456789" * 20),
    ("text_100", "repeat('0123456789', 10)", "text", "0123456789" * 10),
    ("bpchar_ab", "'ab'::char(5)", "bpchar", "ab   "),
    ("name_pg_class", "'pg_class'::name", "name", "pg_class"),
    ("char_x", "'x'::\"char\"", "char", "x"),
    ("bytea_3", "'\\x00ff10'::bytea", "bytea", "00ff10"),
    ("bytea_empty", "''::bytea", "bytea", ""),
    ("uuid_1", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid", "uuid",
     "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
    ("numeric_1_50", "1.50::numeric", "numeric", "1.50"),
    ("numeric_1_00", "1.00::numeric", "numeric", "1.00"),
    ("numeric_neg", "(-0.0500)::numeric", "numeric", "-0.0500"),
    ("numeric_1e20", "1e20::numeric", "numeric", "1e20"),
    ("numeric_zero", "0.000::numeric", "numeric", "0.000"),
    ("numeric_nan", "'NaN'::numeric", "numeric", "NaN"),
    ("numeric_inf", "'-Infinity'::numeric", "numeric", "-Infinity"),
    ("float4_1_5", "1.5::float4", "float4", 1.5),
    ("float8_1_5", "1.5::float8", "float8", 1.5),
    ("float4_0_1", "0.1::float4", "float4", 0.1),
    ("float8_neg0", "'-0'::float8", "float8", "-0"),
    ("float8_nan", "'NaN'::float8", "float8", "NaN"),
    ("float8_inf", "'Infinity'::float8", "float8", "Infinity"),
    ("bool_true", "true", "bool", True),
    ("bool_false", "false", "bool", False),
    ("date_1", "'2000-01-02'::date", "date", "2000-01-02"),
    ("date_neg", "'1999-12-31'::date", "date", "1999-12-31"),
    ("date_2024", "'2024-03-01'::date", "date", "2024-03-01"),
    ("date_inf", "'infinity'::date", "date", "infinity"),
    ("timestamp_1", "'2024-03-01 12:34:56.789'::timestamp", "timestamp",
     "2024-03-01 12:34:56.789"),
    ("timestamptz_1", "'2024-03-01 12:34:56+02'::timestamptz", "timestamptz",
     "2024-03-01 12:34:56+02"),
    ("timestamptz_2", "'1970-01-01 00:00:00+00'::timestamptz", "timestamptz",
     "1970-01-01 00:00:00+00"),
    ("time_1", "'00:00:01'::time", "time", "00:00:01"),
    ("time_2", "'23:59:59.999999'::time", "time", "23:59:59.999999"),
    ("timetz_1", "'12:00:00+02'::timetz", "timetz", "12:00:00+02"),
    ("interval_1mon", "'1 mon'::interval", "interval", [1, 0, 0]),
    ("interval_30d", "'30 days'::interval", "interval", [0, 30, 0]),
    ("interval_neg", "'-1 hours'::interval", "interval", [0, 0, -3600000000]),
    ("interval_mix", "'1 mon 2 days 03:04:05.5'::interval", "interval", [1, 2, 11045500000]),
    ("inet_v4", "'192.168.0.1/24'::inet", "inet", "192.168.0.1/24"),
    ("cidr_v4", "'10.0.0.0/8'::cidr", "cidr", "10.0.0.0/8"),
    ("inet_v6", "'::1'::inet", "inet", "::1"),
    ("cidr_v6", "'2001:db8::/32'::cidr", "cidr", "2001:db8::/32"),
    ("macaddr_1", "'08:00:2b:01:02:03'::macaddr", "macaddr", "08:00:2b:01:02:03"),
    ("array_int4", "ARRAY[1,2]::int4[]", "int4[]", [1, 2]),
    ("array_int8", "ARRAY[1,2]::int8[]", "int8[]", [1, 2]),
    ("array_empty", "'{}'::int4[]", "int4[]", []),
    ("array_lb0", "'[0:1]={1,2}'::int4[]", "int4[]", {"dims": [[2, 0]], "items": [1, 2]}),
    ("array_text_2d", "ARRAY[['a','b'],['c',NULL]]::text[]", "text[]",
     {"dims": [[2, 1], [2, 1]], "items": ["a", "b", "c", None]}),
    ("array_numeric", "ARRAY[1.0,2.50]::numeric[]", "numeric[]", ["1.0", "2.50"]),
    ("array_interval", "ARRAY['1 day'::interval]", "interval[]", [[0, 1, 0]]),
    ("range_int4", "'[1,2]'::int4range", "range(int4)", {"lower": 1, "upper": 3, "bounds": "[)"}),
    ("range_num", "'[1.0,2.0]'::numrange", "range(numeric)",
     {"lower": "1.0", "upper": "2.0", "bounds": "[]"}),
    ("range_empty", "'empty'::int4range", "range(int4)", "empty"),
    ("range_date_open", "'[2024-01-01,)'::daterange", "range(date)",
     {"lower": "2024-01-01", "upper": None, "bounds": "[)"}),
    ("record_int_text", "ROW(1::int4, 'a'::text)", "record(int4,text)", [1, "a"]),
    ("record_int8_text", "ROW(1::int8, 'a'::text)", "record(int8,text)", [1, "a"]),
    ("record_null_array", "ROW(NULL::int4, ARRAY[1,2])", "record(int4,int4[])", [None, [1, 2]]),
    ("jsonb_obj", "'{\"a\":1.0,\"b\":[true,null,\"x\"]}'::jsonb", "jsonb",
     "{\"a\":1.0,\"b\":[true,null,\"x\"]}"),
    ("jsonb_a1", "'{\"a\":1}'::jsonb", "jsonb", "{\"a\":1}"),
    ("jsonb_a100", "'{\"a\":1.00}'::jsonb", "jsonb", "{\"a\":1.00}"),
    ("jsonb_order", "'{\"b\":1,\"a\":2,\"aa\":{}}'::jsonb", "jsonb", "{\"b\":1,\"a\":2,\"aa\":{}}"),
    ("jsonb_scalar", "'\"str\"'::jsonb", "jsonb", "\"str\""),
    ("jsonb_array", "'[1,{\"k\":\"v\"}]'::jsonb", "jsonb", "[1,{\"k\":\"v\"}]"),
    # anonymous records nested in a record or an array: signature "record"
    ("row_nested_row", "ROW(1::int4, ROW(2::int4, 'a'::text))", "row(int4,row(int4,text))",
     [1, [2, "a"]]),
    ("array_rows", "ARRAY[ROW(1::int4, 'a'::text)]", "row(int4,text)[]", [[1, "a"]]),
    ("row_array_rows", "ROW(ARRAY[ROW(1::int4)])", "row(row(int4)[])", [[[1]]]),
    # int2vector: an int2 array with lower bound 0
    ("int2vector_1_2", "'1 2'::int2vector", "int2vector", [1, 2]),
    # the proleptic Gregorian calendar, astronomical years (0000 = 1 BC)
    ("date_1bc", "'0001-12-31 BC'::date", "date", "0000-12-31"),
    ("date_first", "'4714-11-24 BC'::date", "date", "-4713-11-24"),
    ("date_1582", "'1582-10-05'::date", "date", "1582-10-05"),
]

BIG_M = 5999689301   # prime; 2^64 mod m and 2^64 mod (m - 1) are large
REJECTED = {"int8_reject_h1", "int8_reject_h2", "int8_reject_ind"}

# scheme, m, k, seed: every value is located with each of these
SHAPES = [
    ("double", 1009, 7, 0),
    ("double", 211, 4, -1),
    ("double_square", 1009, 5, 3),
    ("double_cube", 1009, 5, 3),
    ("partition", 1028, 4, 1),        # 4 subarrays of 257 bits
    ("independent", 1000, 6, 2),
    ("blocked", 2048, 6, 0),
    ("blocked", 4096, 20, 9),         # k > 7: the chunks of remixed words
    ("blocked", 1024, 64, 5),
    ("fit", 1024, 7, 0),
    ("fit", 64, 10, 5),               # k > 8: five remixed words
    ("fit", 16, 7, 0),                # a fit filter under a word
]
# shapes at the largest sizes, for the integers only (the server cannot hold them)
BIG_SHAPES = [
    ("double", BIG_M, 10, 0),
    ("double_square", BIG_M, 3, 0),
    ("independent", BIG_M, 3, 0),
    ("fit", 1 << 32, 10, 0),
]

# name, scheme, m, k, seed, value ids
FILTERS = [
    ("double_integer", "double", 1009, 7, 0, ["int2_1", "int4_1", "int8_42", "int8_min"]),
    ("double_text", "double", 211, 4, -1, ["text_alice", "text_utf8", "text_empty", "text_300",
                                          "bpchar_ab", "name_pg_class", "char_x"]),
    ("double_square_numeric", "double_square", 1009, 5, 3,
     ["numeric_1_50", "numeric_neg", "numeric_1e20", "numeric_nan"]),
    ("double_cube_float", "double_cube", 1009, 5, 3, ["float4_1_5", "float8_neg0", "float8_nan"]),
    ("partition_timestamptz", "partition", 1028, 4, 1, ["timestamptz_1", "timestamptz_2"]),
    ("independent_uuid", "independent", 1000, 6, 2, ["uuid_1"]),
    ("blocked_array", "blocked", 2048, 6, 0, ["array_int4", "array_empty", "array_lb0"]),
    ("blocked_jsonb", "blocked", 4096, 20, 9, ["jsonb_obj", "jsonb_order", "jsonb_scalar",
                                              "jsonb_array"]),
    ("blocked64_interval", "blocked", 1024, 64, 5, ["interval_1mon", "interval_neg"]),
    ("double_record", "double", 1009, 7, 0, ["record_int_text", "record_int8_text"]),
    ("double_inet", "double", 211, 4, -1, ["inet_v4", "cidr_v4", "inet_v6", "cidr_v6"]),
    ("double_date", "double", 211, 4, -1, ["date_1", "date_neg", "date_inf"]),
    ("fit_integer", "fit", 256, 7, 0, ["int2_1", "int8_42", "int8_min"]),
    ("fit_text", "fit", 1024, 10, 3, ["text_alice", "text_utf8", "text_empty", "bpchar_ab"]),
]

# every family the Python client hashes, under every scheme: a filter each
FAMILY_MEMBERS = [
    ("integer", ["int2_1", "int8_42", "int8_min"]),
    ("text", ["text_alice", "text_utf8", "text_empty", "bpchar_ab"]),
    ("bytea", ["bytea_3", "bytea_empty"]),
    ("uuid", ["uuid_1"]),
    ("numeric", ["numeric_1_50", "numeric_neg", "numeric_nan", "numeric_inf"]),
    ("float", ["float4_1_5", "float8_neg0", "float8_inf", "float8_nan"]),
    ("bool", ["bool_true"]),
    ("date", ["date_1", "date_neg", "date_inf", "date_1bc"]),
    ("timestamp", ["timestamp_1"]),
    ("timestamptz", ["timestamptz_1", "timestamptz_2"]),
]
GRID_SHAPES = [("double", 211, 4, -1), ("double_square", 1009, 5, 3), ("double_cube", 1009, 5, 3),
               ("partition", 1028, 4, 1), ("independent", 1000, 6, 2), ("blocked", 2048, 6, 0),
               ("fit", 256, 7, 0)]
FILTERS += [("%s_%s" % (family, scheme), scheme, m, k, seed, ids)
            for family, ids in FAMILY_MEMBERS for scheme, m, k, seed in GRID_SHAPES]

# bloom_fit_agg: name, fpr, max_bits, values (fit_reader.fit_values); the
# sets take every path of the final function: filters under a word (one
# value), a state of the bits form (more than max_bits / 256 distinct
# values), a group over its ceiling, k from 3 to 20; the size is the
# smallest power of two whose expected rate for n meets the rate: one value
# at 0.001 needs 32 bits, and 427 values at 0.01 are the first n that need
# 8,192 bits (426 take 4,096), from the hashes and from the bits form (n
# estimated from the fill)
FIT_FILTERS = [
    ("one_integer", 0.01, 1 << 27, "int8 1..1"),
    ("ten_integers", 0.01, 1 << 27, "int8 1..10"),
    ("text_spellings", 0.01, 1 << 27, "ids text_alice,varchar_alice,literal_alice,text_utf8,"
     "text_empty,text_300,bpchar_ab,name_pg_class"),
    ("arrays", 0.1, 1 << 27, "ids array_int4,array_empty,array_lb0,array_int4"),
    ("three_integers_1e-6", 1e-6, 1 << 27, "int8 1..3"),
    ("integers_200_0.001", 0.001, 1 << 27, "int8 1..200"),
    ("integers_1000", 0.01, 1 << 27, "int8 1..1000"),
    ("integers_1000_bits_state", 0.01, 65536, "int8 1..1000"),
    ("integers_300_over_ceiling", 0.01, 1024, "int8 1..300"),
    ("text_5_bits_state", 0.01, 1024, "text v1..v5"),
    ("text_500_0.05", 0.05, 1 << 27, "text v1..v500"),
    ("one_integer_0.001", 0.001, 1 << 27, "int8 1..1"),
    ("integers_426", 0.01, 1 << 27, "int8 1..426"),
    ("integers_427", 0.01, 1 << 27, "int8 1..427"),
    ("integers_427_bits_state", 0.01, 65536, "int8 1..427"),
]

# unions and intersections of lines of FIT_FILTERS: name, operator, left,
# right (sizes 16 and 128, 128 and 16384, the over-ceiling 1024 and 128,
# and two of 16384)
FIT_COMBINED = [
    ("mixed_union", "|", "ten_integers", "one_integer"),
    ("mixed_intersection", "&", "integers_1000", "ten_integers"),
    ("over_ceiling_mixed_union", "|", "integers_300_over_ceiling", "ten_integers"),
    ("equal_sizes_union", "|", "integers_1000", "integers_1000_bits_state"),
]
# states longer than this are written as md5: and the md5 of their text
FIT_STATE_INLINE = 2000

# bloom_info(f).items_added of filters whose item count is near the top:
# the stored count saturates at 2^64 - 1, the bigint column stops at 2^63 - 1
ITEM_COUNTS = [("one", 1), ("largest_bigint", (1 << 63) - 1), ("past_bigint", 1 << 63),
               ("saturated", (1 << 64) - 1)]

# w, d, copies, seed
CMS_SHAPES = [(101, 4, 1, 0), (53, 5, 2, 7), (2, 2, 1, 0), (1009, 7, 3, -5)]

# name, w, d, copies, seed, [(value id, count)]
SKETCHES = [
    ("integer", 11, 3, 2, 1, [("int2_1", 5), ("int8_42", 1), ("int8_min", 1000000)]),
    ("text", 13, 4, 1, 0, [("text_alice", 3), ("text_utf8", 1), ("text_300", 2)]),
    ("array", 7, 2, 1, -3, [("array_int4", 2), ("array_lb0", 1)]),
    ("jsonb", 5, 5, 3, 42, [("jsonb_a1", 7), ("jsonb_obj", 1)]),
]
SKETCHES += [("family_" + family, 13, 3, 2, -9, [(vid, 2 + n) for n, vid in enumerate(ids)])
             for family, ids in FAMILY_MEMBERS]


# summaries of every family the client reads, with 2 counters: the values
# counted 3 - n mod 3 times (no reduction before the last, so the order of
# the rows does not matter); numeric values whose text is their output, and
# a date before year 1 among those listed
TOPK_COUNTERS = 2
TOPK_MEMBERS = [(family, ids) for family, ids in FAMILY_MEMBERS if family not in ("numeric", "date")] + \
    [("numeric", ["numeric_1_50", "numeric_neg", "numeric_zero", "numeric_nan"]),
     ("date", ["date_1bc", "date_neg", "date_inf", "date_1"])]


def fit_values_sql(spec, sql_by_id):
    """An SQL query of a fit set's values, as column 1."""
    kind, _, rest = spec.partition(" ")
    if kind == "ids":
        return " UNION ALL ".join("SELECT " + sql_by_id[i] for i in rest.split(","))
    low, high = rest.replace("v", "").split("..")
    if kind == "int8":
        return "SELECT i::int8 FROM generate_series(%s, %s) i" % (low, high)
    return "SELECT 'v' || i FROM generate_series(%s, %s) i" % (low, high)


def write(name, header, lines):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(header + "\n")
        for line in lines:
            f.write("\t".join(map(str, line)) + "\n")


def filter_of(scheme, m, k, seed, ids, canon):
    bf = empty_filter(scheme, m, k, seed)
    for vid in ids:
        family, tag, data, _ = canon[vid]
        bf.add_canonical(data, family, tag)
    return bf


def position_lines(canon):
    for vid, *_ in VALUES:
        family, tag, data, typ = canon[vid]
        shapes = [] if vid in REJECTED else list(SHAPES)
        if typ.startswith("int"):
            shapes += BIG_SHAPES
        for scheme, m, k, seed in shapes:
            pos = positions(data, SCHEME_NAMES.index(scheme), m, k, seed)
            yield vid, scheme, m, k, seed, ",".join(map(str, pos))


def fit_lines(by_id):
    sql_by_id = {vid: sql for vid, sql, *_ in VALUES}
    for name, fpr, max_bits, spec in FIT_FILTERS:
        state, built = fit_agg(fit_values(spec, by_id), fpr, max_bits)
        state_text = BloomFilter(state.fields()).to_text()
        if len(state_text) > FIT_STATE_INLINE:
            state_text = "md5:" + hashlib.md5(state_text.encode()).hexdigest()
        yield name, repr(fpr), max_bits, spec, fit_values_sql(spec, sql_by_id), state_text, built.to_text()


def fit_combined_lines(by_id):
    texts = {name: fit_agg(fit_values(spec, by_id), fpr, max_bits)[1].to_text()
             for name, fpr, max_bits, spec in FIT_FILTERS}
    for name, op, left, right in FIT_COMBINED:
        a, b = BloomFilter.from_text(texts[left]), BloomFilter.from_text(texts[right])
        yield name, op, left, right, (a & b if op == "&" else a | b).to_text()


def sketch_lines(canon):
    for name, w, d, copies, seed, adds in SKETCHES:
        s = CountMinSketch(2, 0, 0, w, d, copies, seed & ((1 << 64) - 1), 0, [0] * (w * d * copies))
        for vid, count in adds:
            family, tag, data, _ = canon[vid]
            s.add_canonical(data, family, tag, count)
        yield (name, w, d, copies, seed, ",".join("%s*%d" % a for a in adds), s.to_bytes().hex(),
               s.to_text())


def topk_lines(canon):
    payloads = {vid: payload for vid, _, _, payload in VALUES}
    for family, ids in TOPK_MEMBERS:
        adds = [(vid, 3 - n % 3) for n, vid in enumerate(ids)]
        builder = TopkBuilder(TOPK_COUNTERS, F.NAMES.index(family))
        for vid, count in adds:
            data = canon[vid][2]
            text = payloads[vid].encode() if family == "numeric" and payloads[vid].encode() != data else None
            for _ in range(count):
                builder.count(data, text)
        text = builder.to_text()
        items = " ".join("%s:%d:%d:%d" % (i.text, i.count, i.lower_bound, i.upper_bound)
                         for i in TopKSketch.from_text(text).items())
        yield family, TOPK_COUNTERS, ",".join("%s*%d" % a for a in adds), text, items


def item_lines(canon):
    for name, items in ITEM_COUNTS:
        bf = filter_of("double", 53, 3, 7, ["int8_42"], canon)
        bf._f.items = items
        yield name, items, min(items, (1 << 63) - 1), bf.to_text()


def main():
    os.makedirs(OUT, exist_ok=True)
    canon, value_lines = {}, []
    for vid, sql, typ, payload in VALUES:
        family, tag, data = canonical(typ, payload)
        canon[vid] = (family, tag, data, typ)
        value_lines.append((vid, sql, typ, json.dumps(payload, ensure_ascii=False),
                            F.token(family, tag), data.hex()))
    by_id = {vid: canon[vid][:3] for vid in canon}
    write("values.tsv", "id\tsql\ttype\tvalue\tfamily\tcanonical", value_lines)
    write("bloom_positions.tsv", "id\tscheme\tm\tk\tseed\tpositions", position_lines(canon))
    write("bloom_filters.tsv", "name\tscheme\tm\tk\tseed\tvalues\tbytes\ttext",
          ((name, scheme, m, k, seed, ",".join(ids), bf.to_bytes().hex(), bf.to_text())
           for name, scheme, m, k, seed, ids in FILTERS
           for bf in [filter_of(scheme, m, k, seed, ids, canon)]))
    write("bloom_items.tsv", "name\titems\titems_added\ttext", item_lines(canon))
    write("fit_filters.tsv", "name\tfpr\tmax_bits\tvalues\tsql\tstate\ttext", fit_lines(by_id))
    write("fit_combined.tsv", "name\top\tleft\tright\ttext", fit_combined_lines(by_id))
    write("cms_columns.tsv", "id\tw\td\tcopies\tseed\tcolumns",
          ((vid, w, d, copies, seed, ",".join(map(str, cms_columns(canon[vid][2], w, d, copies, seed))))
           for vid, *_ in VALUES if vid not in REJECTED for w, d, copies, seed in CMS_SHAPES))
    write("cms_sketches.tsv", "name\tw\td\tcopies\tseed\tvalues\tbytes\ttext", sketch_lines(canon))
    write("topk_summaries.tsv", "name\tcounters\tvalues\ttext\titems", topk_lines(canon))


if __name__ == "__main__":
    main()
