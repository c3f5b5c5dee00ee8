"""bloom_create's sizing of independent and blocked filters, computed by
the library, against the server's on a grid of capacities and rates."""

import pytest

import bloomsketch

pytestmark = pytest.mark.server

CAPACITIES = [1, 2, 3, 10, 100, 1000, 12345, 100000, 1000000]
RATES = [0.5, 0.1, 0.01, 0.001, 1e-6, 1e-9]


@pytest.mark.parametrize("scheme", ["independent", "blocked"])
@pytest.mark.parametrize("fpr", RATES)
def test_sizing(conn, fpr, scheme):
    with conn.cursor() as cur:
        for capacity in CAPACITIES:
            cur.execute("SELECT bloom_create(%s, %s, -3, %s)::bytea", (capacity, fpr, scheme))
            expected = bytes(cur.fetchone()[0])
            built = bloomsketch.BloomFilter.create("integer", seed=-3, scheme=scheme,
                                                   capacity=capacity, fpr=fpr)
            assert built.to_bytes() == expected, (capacity, fpr)


def test_too_large_is_refused_on_both_sides(conn):
    with pytest.raises(bloomsketch.ParameterError):
        bloomsketch.BloomFilter.create("integer", scheme="independent", capacity=400000000, fpr=1e-4)
    with conn.cursor() as cur:
        with pytest.raises(Exception, match="too large"):
            cur.execute("SELECT bloom_create(400000000, 1e-4, 0, 'independent')")
