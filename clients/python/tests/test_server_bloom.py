"""Filters against the server, for every supported family and scheme: 10^5
probes (members and non-members) answered alike in SQL and in Python;
filters built in Python equal (=, and byte for byte) to the same built in
SQL; unions; bloom_info's fields."""

import pytest

import bloomsketch
from server_values import FAMILY_VALUES, MEMBERS, PROBES, SCHEMES

pytestmark = pytest.mark.server


def sql_answers(cur, table, filter_bytes):
    cur.execute("SELECT array_agg(bloom_contains(%%s::bytea::bloomfilter, v) ORDER BY i) FROM %s"
                % table, (filter_bytes,))
    return cur.fetchone()[0]


def check_probes(cur, family, table, values, f_bytes):
    """Every probe answered alike; returns the positives among non-members."""
    expected = sql_answers(cur, table, f_bytes)
    f = bloomsketch.BloomFilter.from_bytes(f_bytes)
    got = [f.contains(v) for v in values]
    assert len(got) == PROBES
    differ = [i for i in range(PROBES) if got[i] != expected[i]]
    assert not differ, "%s: %d probes differ, first %r" % (family, len(differ), values[differ[0]])
    assert all(got[:MEMBERS]), "a member is missing"
    return sum(got[MEMBERS:])


def check_info(cur, f_bytes):
    cur.execute("SELECT to_jsonb(i) FROM bloom_info(%s::bytea::bloomfilter) i", (f_bytes,))
    sql = cur.fetchone()[0]
    mine = bloomsketch.BloomFilter.from_bytes(f_bytes).info()
    compared = 0
    for field, value in mine.__dict__.items():
        if value is None:
            continue
        if isinstance(value, float):
            assert value == pytest.approx(sql[field], rel=1e-9, abs=0), field
        else:
            assert value == sql[field], field
        compared += 1
    assert compared >= 10
    # the estimates the library computes (estimates.py) were compared
    assert mine.estimated_items is not None or sql["estimated_items"] is None
    if mine.scheme in ("independent", "blocked", "fit"):
        assert mine.current_fpr is not None


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("family", list(FAMILY_VALUES))
def test_scheme_family(conn, probes, family, scheme):
    table, values = probes[family]
    with conn.cursor() as cur:
        cur.execute("SELECT bloom_agg(v, 1000, 0.01, %%s)::bytea FROM %s WHERE i <= %d"
                    % (table, MEMBERS), (scheme,))
        sql_bytes = bytes(cur.fetchone()[0])
        positives = check_probes(cur, family, table, values, sql_bytes)
        if family != "bool":
            # capacity 1000 holding 3000 values: false positives must occur
            assert 0 < positives < PROBES - MEMBERS
        check_info(cur, sql_bytes)

        # the same filter built in Python, from the shape bloom_create gives
        info = bloomsketch.BloomFilter.from_bytes(sql_bytes).info()
        built = bloomsketch.BloomFilter.create(family, info.bits, info.hashes, 0, scheme)
        built.update(values[:MEMBERS])
        assert built.to_bytes() == sql_bytes
        cur.execute("SELECT %%s::bytea::bloomfilter = bloom_agg(v, 1000, 0.01, %%s) FROM %s "
                    "WHERE i <= %d" % (table, MEMBERS), (built.to_bytes(), scheme))
        assert cur.fetchone()[0] is True

        # union of two halves, and a seeded filter built value by value
        half = MEMBERS // 2
        a = bloomsketch.BloomFilter.create(family, info.bits, info.hashes, 0, scheme)
        b = bloomsketch.BloomFilter.create(family, info.bits, info.hashes, 0, scheme)
        a.update(values[:half])
        b.update(values[half:MEMBERS])
        cur.execute("SELECT %%s::bytea::bloomfilter = (SELECT bloom_agg(v, 1000, 0.01, %%s) FROM %s "
                    "WHERE i <= %d) | (SELECT bloom_agg(v, 1000, 0.01, %%s) FROM %s WHERE i > %d "
                    "AND i <= %d)" % (table, half, table, half, MEMBERS),
                    ((a | b).to_bytes(), scheme, scheme))
        assert cur.fetchone()[0] is True
        assert (a | b).to_bytes() == built.to_bytes()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_seeded_create(conn, probes, scheme):
    """bloom_create(capacity, fpr, seed, scheme) then bloom_add, per family."""
    with conn.cursor() as cur:
        for family, (table, values) in probes.items():
            cur.execute("SELECT bloom_create(500, 0.001, -7, %s)::bytea", (scheme,))
            empty = bloomsketch.BloomFilter.from_bytes(cur.fetchone()[0])
            info = empty.info()
            built = bloomsketch.BloomFilter.create(family, info.bits, info.hashes, -7, scheme)
            assert built.to_bytes() == empty.to_bytes()
            built.update(values[:20])
            cur.execute("WITH RECURSIVE r(n, f) AS (SELECT 0, bloom_create(500, 0.001, -7, %%s) "
                        "UNION ALL SELECT n + 1, bloom_add(f, (SELECT v FROM %s WHERE i = n + 1)) "
                        "FROM r WHERE n < 20) SELECT f::bytea FROM r WHERE n = 20" % table, (scheme,))
            assert bytes(cur.fetchone()[0]) == built.to_bytes(), family


@pytest.mark.parametrize("family", list(FAMILY_VALUES))
def test_fit(conn, probes, family):
    """bloom_fit_agg: probes, the filter built in Python, unions of halves."""
    table, values = probes[family]
    with conn.cursor() as cur:
        cur.execute("SELECT bloom_fit_agg(v, 0.02)::bytea, ((SELECT bloom_fit_agg(v, 0.02) FROM %s "
                    "WHERE i <= 100) | (SELECT bloom_fit_agg(v, 0.02) FROM %s WHERE i > 100 "
                    "AND i <= %d))::bytea FROM %s WHERE i <= %d" % (table, table, MEMBERS, table, MEMBERS))
        sql_bytes, sql_union = (bytes(x) for x in cur.fetchone())
        positives = check_probes(cur, family, table, values, sql_bytes)
        if family != "bool":
            assert 0 < positives < PROBES - MEMBERS
        check_info(cur, sql_bytes)
        built = bloomsketch.BloomFilter.fit(values[:MEMBERS], family, 0.02)
        assert built.to_bytes() == sql_bytes
        union = (bloomsketch.BloomFilter.fit(values[:100], family, 0.02)
                 | bloomsketch.BloomFilter.fit(values[100:MEMBERS], family, 0.02))
        assert union.to_bytes() == sql_union
        check_info(cur, sql_union)
        cur.execute("SELECT %%s::bytea::bloomfilter = bloom_fit_agg(v, 0.02) FROM %s WHERE i <= %d"
                    % (table, MEMBERS), (built.to_bytes(),))
        assert cur.fetchone()[0] is True
        # a small ceiling: the bits form of the state, over the ceiling
        cur.execute("SELECT bloom_fit_agg(v, 0.01, 1024)::bytea FROM %s WHERE i <= %d"
                    % (table, MEMBERS))
        assert bloomsketch.BloomFilter.fit(values[:MEMBERS], family, 0.01, 1024).to_bytes() == \
            bytes(cur.fetchone()[0])
