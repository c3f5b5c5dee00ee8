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


def verdicts(cls, inputs):
    out = []
    for data in inputs:
        try:
            value = cls.from_bytes(data)
        except bloomsketch.BloomsketchError:
            out.append(False)
            continue
        assert value.to_bytes() == data
        assert cls.from_text(value.to_text()) == value
        out.append(True)
    return out


def binary_of(cls):
    return lambda text: cls.from_text(text).to_bytes()


@pytest.mark.parametrize("kind", list(TYPES))
def test_damaged_bytes_raise_library_errors(kind):
    cls = TYPES[kind]
    got = verdicts(cls, mutations(kind, binary_of(cls), COUNT))
    # most changes break a rule; some (a seed, a counter, a bit) do not
    assert 0 < sum(got) < COUNT


@pytest.mark.server
@pytest.mark.parametrize("kind", list(TYPES))
def test_accepts_what_the_server_accepts(conn, kind):
    cls = TYPES[kind]
    inputs = mutations(kind, binary_of(cls), COUNT)
    mine = verdicts(cls, inputs)
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


def text_verdicts(cls, inputs):
    out = []
    for text in inputs:
        try:
            value = cls.from_text(text)
        except bloomsketch.BloomsketchError:
            out.append(False)
            continue
        assert value.to_text() == text
        out.append(True)
    return out


@pytest.mark.server
@pytest.mark.parametrize("kind", list(TYPES))
def test_accepts_the_texts_the_server_accepts(conn, kind):
    cls = TYPES[kind]
    inputs = text_mutations(kind, COUNT)
    mine = text_verdicts(cls, inputs)
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
