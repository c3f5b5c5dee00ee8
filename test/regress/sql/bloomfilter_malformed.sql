-- Malformed input through every way in (text, bytea cast, binary receive):
-- each is refused with its SQLSTATE, never half-read.
--   22P02 bad text, 22P03 bad binary, 22023 bad parameter, 54000 too large.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE FUNCTION try_text(input text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM input::bloomfilter;
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE FUNCTION try_bytea(input bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM input::bloomfilter;
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- A valid filter of m = 107 bits (two words, so bits 107..127 are padding),
-- 42 added; written out, so that it does not follow changes of sizing.
CREATE TABLE good AS
	SELECT 'bloom:v2:double:integer:k=6:m=107:seed=0:items=1:AAAgAAARAIAAAEAAAAIAAA=='::bloomfilter AS f;
SELECT f @> 42 AS holds_42 FROM good;
SELECT (bloom_info(f)).bits, length(f::bytea) AS serialized_bytes FROM good;

-- Little-endian field writers for building bad headers.
CREATE FUNCTION put_le(b bytea, offset_ int, width int, v numeric) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 0 .. width - 1 LOOP
		b := set_byte(b, offset_ + i, (v % 256)::int);
		v := div(v, 256);
	END LOOP;
	RETURN b;
END $$;

SELECT name, try_bytea(input) AS result
FROM good, LATERAL (VALUES
	('valid', f::bytea),
	('empty', ''::bytea),
	('truncated header', substring(f::bytea FROM 1 FOR 20)),
	('truncated bits', substring(f::bytea FROM 1 FOR 51)),
	('trailing byte', f::bytea || '\x00'::bytea),
	('wrong version', set_byte(f::bytea, 0, 3)),
	('version 0', set_byte(f::bytea, 0, 0)),
	('unknown scheme', set_byte(f::bytea, 1, 9)),
	('unknown family', set_byte(f::bytea, 2, 200)),
	('reserved byte set', set_byte(f::bytea, 3, 1)),
	('reserved word set', set_byte(f::bytea, 7, 1)),
	('type tag on integer family', set_byte(f::bytea, 8, 1)),
	('k = 0', put_le(f::bytea, 4, 2, 0)),
	('k = 2000', put_le(f::bytea, 4, 2, 2000)),
	('k > m', put_le(put_le(f::bytea, 4, 2, 5), 12, 8, 3)),
	('m = 0', put_le(f::bytea, 12, 8, 0)),
	('m not prime', put_le(f::bytea, 12, 8, 99)),
	('m prime, length for another m', put_le(f::bytea, 12, 8, 131)),
	('oversized m', put_le(f::bytea, 12, 8, 1099511627791)),
	('m = 2^64 - 59', put_le(f::bytea, 12, 8, 18446744073709551557)),
	('padding bit set', set_byte(f::bytea, 36 + 15, 128)),
	('more bits than items allow', put_le(f::bytea, 28, 8, 0)),
	('no family but items', set_byte(f::bytea, 2, 0))
) AS cases(name, input);

SELECT name, try_text(input) AS result
FROM good, LATERAL (VALUES
	('valid', f::text),
	('empty', ''),
	('no prefix', substring(f::text FROM 7)),
	('wrong magic', 'bloomx' || substring(f::text FROM 6)),
	('wrong version', replace(f::text, ':v2:', ':v3:')),
	('version with leading zero', replace(f::text, ':v2:', ':v02:')),
	('unknown scheme', replace(f::text, ':double:', ':triple:')),
	('unknown family', replace(f::text, ':integer:', ':complex:')),
	('k = 0', regexp_replace(f::text, ':k=[0-9]+:', ':k=0:')),
	('k with leading zero', regexp_replace(f::text, ':k=([0-9]+):', ':k=0\1:')),
	('k with plus sign', regexp_replace(f::text, ':k=([0-9]+):', ':k=+\1:')),
	('k missing', regexp_replace(f::text, ':k=[0-9]+:', ':k=:')),
	('m not prime', replace(f::text, ':m=107:', ':m=108:')),
	('oversized m', replace(f::text, ':m=107:', ':m=1099511627791:')),
	('m overflows 64 bits', replace(f::text, ':m=107:', ':m=99999999999999999999:')),
	('length not matching m', replace(f::text, ':m=107:', ':m=131:')),
	('seed out of range', replace(f::text, ':seed=0:', ':seed=9223372036854775808:')),
	('seed minus zero', replace(f::text, ':seed=0:', ':seed=-0:')),
	('truncated bits', left(f::text, -4)),
	('extra character', f::text || 'A'),
	('bad character', overlay(f::text PLACING '!' FROM length(f::text) - 5 FOR 1)),
	('whitespace', overlay(f::text PLACING ' ' FROM length(f::text) - 5 FOR 1)),
	('non-zero trailing bits', left(f::text, -3) || 'B==' ),
	('more bits than items allow', replace(f::text, ':items=1:', ':items=0:'))
) AS cases(name, input);

-- The same checks guard binary COPY (see bloomfilter_io) and errors carry a
-- detail that says what was wrong.
SELECT set_byte(f::bytea, 0, 3)::bloomfilter FROM good;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT replace(f::text, ':m=107:', ':m=131:')::bloomfilter FROM good;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT put_le(f::bytea, 12, 8, 99)::bloomfilter FROM good;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT put_le(f::bytea, 12, 8, 1099511627791)::bloomfilter FROM good;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
