"""The validator on damaged bytes: every input either reads back to the
same bytes or raises a BloomsketchError (never another exception); with
--server, the library accepts exactly what the server's bytea casts accept."""

import pytest

import bloomsketch
from mutations import mutations, text_mutations

TYPES = {
    "bloomfilter": bloomsketch.BloomFilter,
    "cmsketch": bloomsketch.CountMinSketch,
    "topksketch": bloomsketch.TopKSketch,
}
COUNT = 3000


def verdicts(read, write, inputs):
    """Per input, whether read accepts it; what it accepts must be written
    back identically (one spelling per value)."""
    out = []
    for data in inputs:
        try:
            value = read(data)
        except bloomsketch.BloomsketchError:
            out.append(False)
            continue
        assert write(value) == data
        out.append(True)
    return out


def binary_of(cls):
    return lambda text: cls.from_text(text).to_bytes()


@pytest.mark.parametrize("kind", list(TYPES))
def test_damaged_bytes_raise_library_errors(kind):
    cls = TYPES[kind]
    got = verdicts(cls.from_bytes, cls.to_bytes, mutations(kind, binary_of(cls), COUNT))
    # most changes break a rule; some (a seed, a counter, a bit) do not
    assert 0 < sum(got) < COUNT


@pytest.mark.server
@pytest.mark.parametrize("kind", list(TYPES))
def test_accepts_what_the_server_accepts(conn, kind):
    cls = TYPES[kind]
    inputs = mutations(kind, binary_of(cls), COUNT)
    mine = verdicts(cls.from_bytes, cls.to_bytes, inputs)
    with conn.cursor() as cur:
        cur.execute("CREATE OR REPLACE FUNCTION pg_temp.accepts_%s(b bytea) RETURNS boolean "
                    "LANGUAGE plpgsql AS $$ BEGIN PERFORM b::%s; RETURN true; "
                    "EXCEPTION WHEN OTHERS THEN RETURN false; END $$" % (kind, kind))
        cur.execute("SELECT array_agg(pg_temp.accepts_%s(b) ORDER BY n) FROM unnest(%%s::bytea[]) "
                    "WITH ORDINALITY u(b, n)" % kind, ([bytes(d) for d in inputs],))
        server = cur.fetchone()[0]
    differ = [i for i in range(COUNT) if mine[i] != server[i]]
    assert not differ, "%d verdicts differ; first %s: library %s, server %s" % (
        len(differ), inputs[differ[0]].hex(), mine[differ[0]], server[differ[0]])


@pytest.mark.server
@pytest.mark.parametrize("kind", list(TYPES))
def test_accepts_the_texts_the_server_accepts(conn, kind):
    cls = TYPES[kind]
    inputs = text_mutations(kind, COUNT)
    mine = verdicts(cls.from_text, cls.to_text, inputs)
    assert 0 < sum(mine) < COUNT
    with conn.cursor() as cur:
        cur.execute("CREATE OR REPLACE FUNCTION pg_temp.accepts_text_%s(t text) RETURNS boolean "
                    "LANGUAGE plpgsql AS $$ BEGIN PERFORM t::%s; RETURN true; "
                    "EXCEPTION WHEN OTHERS THEN RETURN false; END $$" % (kind, kind))
        cur.execute("SELECT array_agg(pg_temp.accepts_text_%s(t) ORDER BY n) FROM unnest(%%s::text[]) "
                    "WITH ORDINALITY u(t, n)" % kind, (inputs,))
        server = cur.fetchone()[0]
    differ = [i for i in range(COUNT) if mine[i] != server[i]]
    assert not differ, "%d verdicts differ; first %r: library %s, server %s" % (
        len(differ), inputs[differ[0]], mine[differ[0]], server[differ[0]])
