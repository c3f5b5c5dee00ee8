-- The server against the test vectors of docs/vectors/ (docs/format.md
-- specifies them; test/unit/test_vectors.c checks the C core and the Python
-- client, clients/python, an independent reader, against the same files).
-- Here each value is built from its SQL expression, so what is checked is
-- the server's canonical bytes and family tags: a value must set exactly
-- the bits its canonical bytes (given as bytea) set, carry the family token
-- of the vector, and land on the vector's positions; whole filters and
-- sketches built from the expressions must have the vectors' bytes and text.

SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
CREATE TEMP TABLE fv_values (id text, sql text, type text, value text, family text, canonical text);
CREATE TEMP TABLE fv_positions (id text, scheme text, m bigint, k int, seed bigint, positions text);
CREATE TEMP TABLE fv_filters (name text, scheme text, m bigint, k int, seed bigint, ids text,
	bytes text, text text);
CREATE TEMP TABLE fv_columns (id text, w int, d int, copies int, seed bigint, columns text);
CREATE TEMP TABLE fv_sketches (name text, w int, d int, copies int, seed bigint, adds text,
	bytes text, text text);
\copy fv_values FROM 'docs/vectors/values.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01', FORCE_NOT_NULL (canonical))
\copy fv_positions FROM 'docs/vectors/bloom_positions.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
\copy fv_filters FROM 'docs/vectors/bloom_filters.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
\copy fv_columns FROM 'docs/vectors/cms_columns.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
\copy fv_sketches FROM 'docs/vectors/cms_sketches.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')

-- base64 of n zero bytes, on one line
CREATE FUNCTION pg_temp.zeros64(n bigint) RETURNS text LANGUAGE sql AS $$
	SELECT translate(encode(decode(repeat('00', n::int), 'hex'), 'base64'), E'\n', '')
$$;
CREATE FUNCTION pg_temp.empty_filter(scheme text, m bigint, k int, seed bigint)
RETURNS bloomfilter LANGUAGE sql AS $$
	SELECT format('bloom:v2:%s:none:k=%s:m=%s:seed=%s:items=0:%s', scheme, k, m, seed,
				  pg_temp.zeros64(8 * ((m + 63) / 64)))::bloomfilter
$$;
CREATE FUNCTION pg_temp.empty_sketch(w int, d int, copies int, seed bigint)
RETURNS cmsketch LANGUAGE sql AS $$
	SELECT format('cms:v2:none:w=%s:d=%s:copies=%s:seed=%s:total=0:%s', w, d, copies, seed,
				  pg_temp.zeros64(8::bigint * w * d * copies))::cmsketch
$$;
-- the positions of the set bits of a filter, in order
CREATE FUNCTION pg_temp.set_bits(f bloomfilter) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
	b bytea := f::bytea;
	out bigint[] := '{}';
	byte int;
BEGIN
	FOR i IN 36 .. length(b) - 1 LOOP
		byte := get_byte(b, i);
		CONTINUE WHEN byte = 0;
		FOR bit IN 0 .. 7 LOOP
			IF byte & (1 << bit) <> 0 THEN
				out := out || (8::bigint * (i - 36) + bit);
			END IF;
		END LOOP;
	END LOOP;
	RETURN out;
END
$$;
CREATE FUNCTION pg_temp.add_sql(f bloomfilter, expression text) RETURNS bloomfilter
LANGUAGE plpgsql AS $$
DECLARE
	result bloomfilter;
BEGIN
	EXECUTE format('SELECT bloom_add($1, %s)', expression) INTO result USING f;
	RETURN result;
END
$$;
CREATE FUNCTION pg_temp.cms_add_sql(s cmsketch, expression text, n bigint) RETURNS cmsketch
LANGUAGE plpgsql AS $$
DECLARE
	result cmsketch;
BEGIN
	EXECUTE format('SELECT cms_add($1, %s, $2)', expression) INTO result USING s, n;
	RETURN result;
END
$$;
CREATE FUNCTION pg_temp.sorted_unique(list text) RETURNS bigint[] LANGUAGE sql AS $$
	SELECT array_agg(DISTINCT p ORDER BY p) FROM unnest(string_to_array(list, ',')::bigint[]) p
$$;

-- canonical bytes and family tokens: the value and its canonical bytes as
-- bytea set the same bits of a 1009-bit filter with k = 7
WITH probe AS (
	SELECT v.id, v.family,
		   pg_temp.add_sql(pg_temp.empty_filter('double', 1009, 7, 0), v.sql) AS by_value,
		   bloom_add(pg_temp.empty_filter('double', 1009, 7, 0), decode(v.canonical, 'hex')) AS by_bytes
	FROM fv_values v)
SELECT id,
	   split_part(by_value::text, ':', 4) AS family, family AS expected_family,
	   pg_temp.set_bits(by_value) = pg_temp.set_bits(by_bytes) AS same_bits
FROM probe
WHERE split_part(by_value::text, ':', 4) <> family
   OR pg_temp.set_bits(by_value) <> pg_temp.set_bits(by_bytes);
SELECT count(*) AS canonical_forms_checked FROM fv_values;

-- positions of every value under every scheme the server can hold
SELECT p.id, p.scheme, p.m, p.k, p.seed
FROM fv_positions p JOIN fv_values v USING (id)
WHERE p.m <= 65536
  AND pg_temp.set_bits(pg_temp.add_sql(pg_temp.empty_filter(p.scheme, p.m, p.k, p.seed), v.sql))
	  <> pg_temp.sorted_unique(p.positions);
SELECT count(*) AS position_lists_checked FROM fv_positions WHERE m <= 65536;

-- whole filters: bytes and text
CREATE FUNCTION pg_temp.build_filter(r fv_filters) RETURNS bloomfilter LANGUAGE plpgsql AS $$
DECLARE
	f bloomfilter := pg_temp.empty_filter(r.scheme, r.m, r.k, r.seed);
	one text;
BEGIN
	FOREACH one IN ARRAY string_to_array(r.ids, ',') LOOP
		f := pg_temp.add_sql(f, (SELECT sql FROM fv_values WHERE id = one));
	END LOOP;
	RETURN f;
END
$$;
SELECT r.name,
	   encode(pg_temp.build_filter(r)::bytea, 'hex') = r.bytes AS same_bytes,
	   pg_temp.build_filter(r)::text = r.text AS same_text,
	   decode(r.bytes, 'hex')::bloomfilter = r.text::bloomfilter AS forms_agree
FROM fv_filters r ORDER BY r.name;

-- count-min sketch columns: one occurrence of a value adds 1 at index
-- (c d + j) w + column of each copy c and row j, and nothing elsewhere
CREATE FUNCTION pg_temp.columns_ok(r fv_columns) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	s bytea := pg_temp.cms_add_sql(pg_temp.empty_sketch(r.w, r.d, r.copies, r.seed),
								   (SELECT sql FROM fv_values WHERE id = r.id), 1)::bytea;
	columns int[] := string_to_array(r.columns, ',')::int[];
	total bigint := 0;
BEGIN
	FOR row_index IN 0 .. r.d * r.copies - 1 LOOP
		IF get_byte(s, 32 + 8 * (row_index * r.w + columns[row_index + 1])) <> 1 THEN
			RETURN false;
		END IF;
	END LOOP;
	FOR i IN 32 .. length(s) - 1 LOOP
		total := total + get_byte(s, i);
	END LOOP;
	RETURN total = r.d * r.copies;
END
$$;
SELECT id, w, d, copies, seed FROM fv_columns r WHERE NOT pg_temp.columns_ok(r);
SELECT count(*) AS column_lists_checked FROM fv_columns;

-- whole sketches
CREATE FUNCTION pg_temp.build_sketch(r fv_sketches) RETURNS cmsketch LANGUAGE plpgsql AS $$
DECLARE
	s cmsketch := pg_temp.empty_sketch(r.w, r.d, r.copies, r.seed);
	one text;
BEGIN
	FOREACH one IN ARRAY string_to_array(r.adds, ',') LOOP
		s := pg_temp.cms_add_sql(s, (SELECT sql FROM fv_values WHERE id = split_part(one, '*', 1)),
								 split_part(one, '*', 2)::bigint);
	END LOOP;
	RETURN s;
END
$$;
SELECT r.name,
	   encode(pg_temp.build_sketch(r)::bytea, 'hex') = r.bytes AS same_bytes,
	   pg_temp.build_sketch(r)::text = r.text AS same_text,
	   decode(r.bytes, 'hex')::cmsketch = r.text::cmsketch AS forms_agree
FROM fv_sketches r ORDER BY r.name;

-- bloom_info(f).bytes counts the 4-byte varlena header: the serialized
-- length plus 4
SELECT name, (bloom_info(text::bloomfilter)).bytes - length(decode(bytes, 'hex')) AS extra
FROM fv_filters WHERE name = 'double_integer';
SELECT name, (cms_info(text::cmsketch)).bytes - length(decode(bytes, 'hex')) AS extra
FROM fv_sketches WHERE name = 'integer';

-- item counts near the top (bloom_items.tsv): the stored count (bytes 28 to
-- 35, little-endian) saturates at 2^64 - 1, bloom_info's bigint items_added
-- stops at 2^63 - 1
CREATE TEMP TABLE fv_items (name text, items numeric, items_added bigint, text text);
\copy fv_items FROM 'docs/vectors/bloom_items.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
SELECT name,
	   (SELECT sum(get_byte(text::bloomfilter::bytea, 28 + i) * 256::numeric ^ i)
		FROM generate_series(0, 7) i) = items AS stored_items,
	   (bloom_info(text::bloomfilter)).items_added = items_added AS items_added,
	   text::bloomfilter::text = text AS same_text
FROM fv_items ORDER BY items;

-- self-sized filters (fit_filters.tsv): from each line's values the server
-- must build the vector's bloom_fit_agg filter and, with the transition
-- function alone, its partial state (compared by the md5 of its text when
-- the vector gives one); a state read back from its text and finalised
-- gives the filter again
CREATE TEMP TABLE fv_fit (name text, fpr float8, max_bits bigint, vals text, sql text, state text,
	text text);
\copy fv_fit FROM 'docs/vectors/fit_filters.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE AGGREGATE pg_temp.fit_state(anyelement, float8, bigint) (SFUNC = bloom_fit_agg_trans,
	STYPE = bloomfilter);
CREATE FUNCTION pg_temp.fit_built(r fv_fit, OUT filter text, OUT state text) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT bloom_fit_agg(v, $1, $2)::text, pg_temp.fit_state(v, $1, $2)::text FROM (%s) x(v)',
				   r.sql)
		INTO filter, state USING r.fpr, r.max_bits;
END
$$;
SELECT r.name, b.filter = r.text AS same_filter,
	   CASE WHEN r.state LIKE 'md5:%' THEN 'md5:' || md5(b.state) ELSE b.state END = r.state AS same_state,
	   r.state LIKE 'md5:%' OR bloom_fit_agg_final(r.state::bloomfilter)::text = r.text AS state_finalises
FROM fv_fit r, LATERAL pg_temp.fit_built(r) b ORDER BY r.name COLLATE "C";

-- unions and intersections of those filters (fit_combined.tsv), across
-- sizes too: the server must give each line's text, flags included
CREATE TEMP TABLE fv_fit_combined (name text, op text, lhs text, rhs text, text text);
\copy fv_fit_combined FROM 'docs/vectors/fit_combined.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
SELECT c.name, c.op,
	   CASE c.op WHEN '|' THEN l.text::bloomfilter | r.text::bloomfilter
				 ELSE l.text::bloomfilter & r.text::bloomfilter END::text = c.text AS same_text
FROM fv_fit_combined c JOIN fv_fit l ON l.name = c.lhs JOIN fv_fit r ON r.name = c.rhs
ORDER BY c.name COLLATE "C";

-- summaries of every family the clients read (topk_summaries.tsv): built
-- from each line's values, the server must write the vector's text and
-- list its values as the vector does (texts rendered under ISO dates, UTC)
CREATE TEMP TABLE fv_topk (name text, counters int, adds text, text text, items text);
\copy fv_topk FROM 'docs/vectors/topk_summaries.tsv' (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE FUNCTION pg_temp.build_topk(r fv_topk) RETURNS topksketch LANGUAGE plpgsql AS $$
DECLARE
	result topksketch;
BEGIN
	EXECUTE format('SELECT topk_agg(v, %s) FROM (%s) x(v)', r.counters,
		(SELECT string_agg(format('SELECT %s FROM generate_series(1, %s)',
								  (SELECT sql FROM fv_values WHERE id = split_part(a, '*', 1)),
								  split_part(a, '*', 2)), ' UNION ALL ')
		 FROM unnest(string_to_array(r.adds, ',')) a))
		INTO result;
	RETURN result;
END
$$;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 1;
SELECT r.name, pg_temp.build_topk(r)::text = r.text AS same_text,
	   (SELECT string_agg(format('%s:%s:%s:%s', value, count, lower_bound, upper_bound), ' ' ORDER BY n)
		FROM topk_items(r.text::topksketch) WITH ORDINALITY t(value, count, lower_bound, upper_bound, n))
	   = r.items AS same_items
FROM fv_topk r ORDER BY r.name COLLATE "C";
RESET TimeZone;
RESET DateStyle;
RESET extra_float_digits;
