"""Count-min sketches and summaries against the server, for every
supported family: sketches built in Python equal to cms_agg's and
cms_create's (=, and byte for byte), 10^5 estimates alike, merges, cms_info;
topk_items, topk_estimate, topk_bounds and topk_info read alike."""

import pytest

import bloomsketch
from server_values import FAMILY_VALUES, MEMBERS, PROBES

pytestmark = pytest.mark.server


def weight(i):
    """The count of value i (1-based) in the weighted streams."""
    return i % 7 + 1


def compare_info(cur, sql, mine):
    cur.execute(sql)
    expected = cur.fetchone()[0]
    for field, value in mine.__dict__.items():
        if isinstance(value, float):
            assert value == pytest.approx(expected[field], rel=1e-9, abs=0), field
        else:
            assert value == expected[field], field


@pytest.mark.parametrize("family", list(FAMILY_VALUES))
def test_cms(conn, probes, family):
    table, values = probes[family]
    with conn.cursor() as cur:
        cur.execute("SELECT cms_agg(v, i %% 7 + 1, 0.01, 0.0001)::bytea FROM %s WHERE i <= %d"
                    % (table, MEMBERS))
        sql_bytes = bytes(cur.fetchone()[0])
        built = bloomsketch.CountMinSketch.create(family, 0.01, 0.0001)
        for i, v in enumerate(values[:MEMBERS], 1):
            built.add(v, weight(i))
        assert built.to_bytes() == sql_bytes
        cur.execute("SELECT %%s::bytea::cmsketch = cms_agg(v, i %%%% 7 + 1, 0.01, 0.0001) FROM %s "
                    "WHERE i <= %d" % (table, MEMBERS), (built.to_bytes(),))
        assert cur.fetchone()[0] is True

        read = bloomsketch.CountMinSketch.from_bytes(sql_bytes)
        assert bloomsketch.CountMinSketch.from_text(read.to_text()) == read
        cur.execute("SELECT array_agg(cms_estimate(%%s::bytea::cmsketch, v) ORDER BY i) FROM %s"
                    % table, (sql_bytes,))
        expected = cur.fetchone()[0]
        got = [read.estimate(v) for v in values]
        assert got == expected
        if family != "bool":
            # non-members with a positive estimate: collisions happen
            assert 0 < sum(1 for e in got[MEMBERS:] if e) < PROBES - MEMBERS
        compare_info(cur, "SELECT to_jsonb(i) FROM cms_info('%s'::cmsketch) i" % read.to_text(),
                     read.info())

        # merge of halves; a seeded sketch of cms_create_dims with cms_add
        half = MEMBERS // 2
        a = bloomsketch.CountMinSketch.create(family, 0.01, 0.0001)
        b = bloomsketch.CountMinSketch.create(family, 0.01, 0.0001)
        for i, v in enumerate(values[:MEMBERS], 1):
            (a if i <= half else b).add(v, weight(i))
        assert (a + b).to_bytes() == sql_bytes
        dims = bloomsketch.CountMinSketch.create_dims(family, 100, 3, seed=-11)
        for v in values[:5]:
            dims.add(v, 3)
        cur.execute("WITH RECURSIVE r(n, s) AS (SELECT 0, cms_create_dims(100, 3, -11) UNION ALL "
                    "SELECT n + 1, cms_add(s, (SELECT v FROM %s WHERE i = n + 1), 3) FROM r "
                    "WHERE n < 5) SELECT s::bytea FROM r WHERE n = 5" % table)
        assert bytes(cur.fetchone()[0]) == dims.to_bytes()


@pytest.mark.parametrize("family", list(FAMILY_VALUES))
def test_topk(conn, probes, family):
    """A skewed stream: value i occurs 1 + 3000 // i times, i <= 3000."""
    table, values = probes[family]
    with conn.cursor() as cur:
        cur.execute("SELECT topk_agg(v, 25)::bytea FROM %s, generate_series(1, 1 + 3000 / i) r "
                    "WHERE i <= %d" % (table, MEMBERS))
        sql_bytes = bytes(cur.fetchone()[0])
        s = bloomsketch.TopKSketch.from_bytes(sql_bytes)
        assert bloomsketch.TopKSketch.from_text(s.to_text()) == s
        cur.execute("SELECT value, count, lower_bound, upper_bound FROM topk_items(%s::bytea::topksketch)",
                    (sql_bytes,))
        expected = cur.fetchall()
        got = [(item.text, item.count, item.lower_bound, item.upper_bound) for item in s.items()]
        assert got == expected and len(got) >= 2
        compare_info(cur, "SELECT to_jsonb(i) FROM topk_info('%s'::topksketch) i" % s.to_text(),
                     s.info())
        cur.execute("SELECT array_agg(topk_estimate(%%s::bytea::topksketch, v) ORDER BY i), "
                    "array_agg((topk_bounds(%%s::bytea::topksketch, v)).lower_bound ORDER BY i), "
                    "array_agg((topk_bounds(%%s::bytea::topksketch, v)).upper_bound ORDER BY i) "
                    "FROM %s WHERE i <= 200" % table, (sql_bytes,) * 3)
        estimates, lowers, uppers = cur.fetchone()
        assert [s.estimate(v) for v in values[:200]] == estimates
        assert [s.bounds(v) for v in values[:200]] == list(zip(lowers, uppers))
        if family not in ("bool", "numeric"):
            # the listed values come back as the Python values psycopg2 gives
            listed = {bytes(v) if isinstance(v, memoryview) else v for v in values[:MEMBERS]}
            assert all(item.value in listed for item in s.items())
