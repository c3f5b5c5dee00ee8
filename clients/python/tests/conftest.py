"""pytest options: --server runs the tests against the PostgreSQL server of
PGHOST/PGPORT/PGUSER (and PGDATABASE), and fails when none is reachable."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def pytest_addoption(parser):
    parser.addoption("--server", action="store_true",
                     help="run the tests against the server given by PGHOST/PGPORT/PGUSER")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--server"):
        return
    skip = pytest.mark.skip(reason="server tests run with --server")
    for item in items:
        if "server" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "server: needs the server of PGHOST/PGPORT (--server)")


@pytest.fixture(scope="session")
def conn(request):
    """One connection for the server tests, with the session settings under
    which topk_items renders as the library does."""
    psycopg2 = pytest.importorskip("psycopg2")
    import psycopg2.extras
    try:
        connection = psycopg2.connect(dbname=os.environ.get("PGDATABASE", "postgres"))
    except psycopg2.OperationalError as e:
        pytest.fail("server tests were asked for (--server) but no server is reachable "
                    "through PGHOST/PGPORT/PGUSER: %s" % e)
    psycopg2.extras.register_uuid(conn_or_curs=connection)
    connection.autocommit = True
    with connection.cursor() as cur:
        cur.execute("CREATE EXTENSION IF NOT EXISTS bloomsketch")
        cur.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 1")
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def probes(conn):
    """Per supported family: a temp table probe_<family>(i, v) of the values
    of server_values.py, and those values as psycopg2 hands them to Python."""
    from server_values import FAMILY_VALUES, PROBES
    out = {}
    with conn.cursor() as cur:
        for family, expr in FAMILY_VALUES.items():
            table = "probe_" + family
            cur.execute("CREATE TEMP TABLE %s AS SELECT i, %s AS v FROM generate_series(1, %d) i"
                        % (table, expr, PROBES))
            # timestamptz values arrive with an offset of minutes (and DST)
            cur.execute("SET TimeZone = 'America/St_Johns'")
            cur.execute("SELECT v FROM %s ORDER BY i" % table)
            out[family] = (table, [r[0] for r in cur.fetchall()])
            cur.execute("SET TimeZone = 'UTC'")
    return out
