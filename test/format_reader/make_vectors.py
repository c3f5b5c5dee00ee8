#!/usr/bin/env python3
"""Write docs/vectors/*.tsv from the values and shapes listed here, using the
Python reader.  The C core (test/test_vectors.c) and the server
(sql/format_vectors.sql) check every line, so a vector that the reader got
wrong fails those tests; check_vectors.py checks the reader against them.

    python3 test/format_reader/make_vectors.py      (from the top directory)
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bloomsketch_reader import (BloomFilter, CountMinSketch, canonical,  # noqa: E402
                                cms_columns, family_token, positions)
from fit_reader import fit_agg, fit_combine, fit_values, fit_values_sql  # noqa: E402
import json  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "vectors")

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


def signed(seed):
    return seed - (1 << 64) if seed >= 1 << 63 else seed


def main():
    os.makedirs(OUT, exist_ok=True)
    canon = {}
    with open(os.path.join(OUT, "values.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tsql\ttype\tvalue\tfamily\tcanonical\n")
        for vid, sql, typ, payload in VALUES:
            family, tag, data = canonical(typ, payload)
            canon[vid] = (family, tag, data, typ)
            f.write("\t".join([vid, sql, typ, json.dumps(payload, ensure_ascii=False),
                               family_token(family, tag), data.hex()]) + "\n")

    with open(os.path.join(OUT, "bloom_positions.tsv"), "w") as f:
        f.write("id\tscheme\tm\tk\tseed\tpositions\n")
        for vid, *_ in VALUES:
            family, tag, data, typ = canon[vid]
            shapes = [] if vid in REJECTED else list(SHAPES)
            if typ.startswith("int"):
                shapes += BIG_SHAPES
            for scheme, m, k, seed in shapes:
                pos = positions(data, scheme, m, k, seed)
                f.write("%s\t%s\t%d\t%d\t%d\t%s\n" % (vid, scheme, m, k, seed,
                                                      ",".join(map(str, pos))))

    with open(os.path.join(OUT, "bloom_filters.tsv"), "w") as f:
        f.write("name\tscheme\tm\tk\tseed\tvalues\tbytes\ttext\n")
        for name, scheme, m, k, seed, ids in FILTERS:
            bf = BloomFilter(scheme, m, k, seed)
            for vid in ids:
                family, tag, data, _ = canon[vid]
                bf.add(family, tag, data)
            f.write("\t".join([name, scheme, str(m), str(k), str(seed), ",".join(ids),
                               bf.to_bytes().hex(), bf.to_text()]) + "\n")

    with open(os.path.join(OUT, "bloom_items.tsv"), "w") as f:
        f.write("name\titems\titems_added\ttext\n")
        for name, items in ITEM_COUNTS:
            bf = BloomFilter("double", 53, 3, 7)
            bf.add(*canon["int8_42"][:3])
            bf.items = items
            f.write("\t".join([name, str(items), str(min(items, (1 << 63) - 1)),
                               bf.to_text()]) + "\n")

    with open(os.path.join(OUT, "fit_filters.tsv"), "w", encoding="utf-8") as f:
        f.write("name\tfpr\tmax_bits\tvalues\tsql\tstate\ttext\n")
        by_id = {vid: canon[vid][:3] for vid in canon}
        sql_by_id = {vid: sql for vid, sql, *_ in VALUES}
        for name, fpr, max_bits, spec in FIT_FILTERS:
            state, built = fit_agg(fit_values(spec, by_id), fpr, max_bits)
            state_text = state.to_filter().to_text()
            if len(state_text) > FIT_STATE_INLINE:
                state_text = "md5:" + hashlib.md5(state_text.encode()).hexdigest()
            f.write("\t".join([name, repr(fpr), str(max_bits), spec,
                               fit_values_sql(spec, sql_by_id), state_text,
                               built.to_text()]) + "\n")

    with open(os.path.join(OUT, "fit_combined.tsv"), "w", encoding="utf-8") as f:
        f.write("name\top\tleft\tright\ttext\n")
        fit_texts = {}
        for name, fpr, max_bits, spec in FIT_FILTERS:
            fit_texts[name] = fit_agg(fit_values(spec, by_id), fpr, max_bits)[1].to_text()
        for name, op, left, right in FIT_COMBINED:
            combined = fit_combine(BloomFilter.from_text(fit_texts[left]),
                                   BloomFilter.from_text(fit_texts[right]), op == "&")
            f.write("\t".join([name, op, left, right, combined.to_text()]) + "\n")

    with open(os.path.join(OUT, "cms_columns.tsv"), "w") as f:
        f.write("id\tw\td\tcopies\tseed\tcolumns\n")
        for vid, *_ in VALUES:
            if vid in REJECTED:
                continue
            data = canon[vid][2]
            for w, d, copies, seed in CMS_SHAPES:
                cols = cms_columns(data, w, d, copies, seed & ((1 << 64) - 1))
                f.write("%s\t%d\t%d\t%d\t%d\t%s\n" % (vid, w, d, copies, seed,
                                                      ",".join(map(str, cols))))

    with open(os.path.join(OUT, "cms_sketches.tsv"), "w") as f:
        f.write("name\tw\td\tcopies\tseed\tvalues\tbytes\ttext\n")
        for name, w, d, copies, seed, adds in SKETCHES:
            s = CountMinSketch(w, d, copies, seed)
            for vid, count in adds:
                family, tag, data, _ = canon[vid]
                s.add(family, tag, data, count)
            f.write("\t".join([name, str(w), str(d), str(copies), str(seed),
                               ",".join("%s*%d" % a for a in adds),
                               s.to_bytes().hex(), s.to_text()]) + "\n")


if __name__ == "__main__":
    main()
