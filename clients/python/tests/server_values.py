"""The probe values of the server tests: per supported family an SQL
expression of i (1 .. PROBES); values 1 .. MEMBERS are added, the rest are
non-members.  psycopg2 hands them to Python as int, str, bytes, UUID,
Decimal, float, bool, date and datetime (naive, or aware in UTC)."""

PROBES = 100000
MEMBERS = 3000

FAMILY_VALUES = {
    "integer": "(i * 7919 - 400000000)::int8",
    "text": "'v' || i::text || repeat('é', i % 3)",
    "bytea": "decode(md5(i::text), 'hex')",
    "uuid": "md5(i::text)::uuid",
    "numeric": "(i / 8.0 - 300)::numeric(20, 4)",
    "float": "(i * 0.1 - 77)::float8",
    "bool": "(i % 2 = 0)",
    "date": "date '2000-01-01' + (i - 60000)",
    "timestamp": "timestamp '2024-01-01' + i * interval '1 second 7 microseconds'",
    "timestamptz": "timestamptz '1999-12-31 23:00+00' + i * interval '1 minute 3 microseconds'",
}

SCHEMES = ["double", "double_square", "double_cube", "partition", "independent", "blocked"]
