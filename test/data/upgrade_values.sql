-- What a database of bloomsketch 0.1.0 holds, and the answers it gives, for
-- the upgrade tests.  Run in a database whose extension is at version 0.1.0;
-- then "CREATE TABLE upgrade_answers_010 AS SELECT * FROM upgrade_answers()".
-- After the database is updated (ALTER EXTENSION bloomsketch UPDATE) or
-- dumped and restored into a server with a later version, upgrade_answers()
-- must give the same rows: the same serialized bytes for every stored value,
-- the same members found, the same false positives among 2,000 non-members,
-- the same count-min estimates.
--
-- Used by test/regress/sql/extension_upgrade.sql (0.1.0's SQL objects over
-- the current library, updated in place), test/harness/upgrade_dump.sh (dumped and restored) and
-- test/harness/upgrade_fixture.sh, which ran it under the 0.1.0 release itself to
-- make test/data/bloomsketch-0.1.0.dump.

-- One row per value family: how to spell the i-th value.  Members are
-- i = 1..100, the non-members probed for false positives i = 1001..3000.
CREATE TABLE upgrade_families (ord int PRIMARY KEY, family text NOT NULL, expr text NOT NULL);
INSERT INTO upgrade_families VALUES
	(1, 'integer', 'i'),
	(2, 'text', $e$'v' || i || CASE WHEN i % 3 = 0 THEN 'é' ELSE '' END$e$),
	(3, 'bytea', 'int4send(i)'),
	(4, 'uuid', 'md5(i::text)::uuid'),
	(5, 'numeric', 'i / 4.0'),
	(6, 'float', '(i / 8.0)::float8'),
	(7, 'date', $e$date '2024-01-01' + i$e$),
	(8, 'timestamp', $e$timestamp '2024-01-01' + i * interval '1 minute'$e$),
	(9, 'timestamptz', $e$timestamptz '2024-01-01 00:00+00' + i * interval '1 hour'$e$),
	(10, 'other', $e$('10.0.' || i / 256 || '.' || i % 256)::inet$e$);

-- A Bloom filter of every probing scheme for every family, a count-min
-- sketch (weighted counts: value i occurs i % 7 + 1 times) for every family
-- and one of other dimensions, and empty filters of every scheme with seeds
-- other than 0.  upgrade_build() makes them: once for the table, and again
-- after an update, which must give the same bytes.
CREATE FUNCTION upgrade_build() RETURNS TABLE (id int, family text, scheme text, f bloomfilter, c cmsketch)
LANGUAGE plpgsql AS $fn$
DECLARE
	fam record;
	schemes constant text[] := ARRAY['double', 'double_square', 'double_cube', 'partition', 'independent', 'blocked'];
BEGIN
	id := 0;
	FOR fam IN SELECT * FROM upgrade_families ORDER BY ord LOOP
		family := fam.family;
		c := NULL;
		FOREACH scheme IN ARRAY schemes LOOP
			id := id + 1;
			EXECUTE format('SELECT bloom_agg(%s, 100, 0.01, %L) FROM generate_series(1, 100) i', fam.expr, scheme)
				INTO f;
			RETURN NEXT;
		END LOOP;
		id := id + 1;
		scheme := NULL;
		f := NULL;
		EXECUTE format('SELECT cms_agg(%s, i %% 7 + 1, 0.01, 0.01) FROM generate_series(1, 100) i', fam.expr)
			INTO c;
		RETURN NEXT;
	END LOOP;
	family := 'none';
	c := NULL;
	FOREACH scheme IN ARRAY schemes LOOP
		id := id + 1;
		f := bloom_create(1000, 0.001, -7 * id, scheme);
		RETURN NEXT;
	END LOOP;
	-- the integer counts again, in a narrow sketch with a seed, by cms_add
	id := id + 1;
	family := 'integer';
	scheme := NULL;
	f := NULL;
	SELECT cms_merge_agg(cms_add(cms_create_dims(50, 4, 11), i::int8, i % 7 + 1)) INTO c
	FROM generate_series(1, 100) i;
	RETURN NEXT;
END
$fn$;
CREATE TABLE upgrade_sketches (
	id int PRIMARY KEY,
	family text NOT NULL,
	scheme text,
	f bloomfilter,
	c cmsketch,
	spare bloomfilter DEFAULT bloom_create(10)
);
INSERT INTO upgrade_sketches (id, family, scheme, f, c) SELECT * FROM upgrade_build();

-- Objects of the database that use the extension: a view over a 0.1.0 text
-- overload (@>(bloomfilter, text), which 0.2.0 removes; restored from a dump
-- it calls the anyelement operator), hash and btree indexes through the
-- extension's operator classes, the column default above, and a
-- materialized view, which a restore fills again with the new version.
CREATE VIEW upgrade_text_probe AS
SELECT id, f @> 'v1'::text AS has_v1, f @> 'v3é'::text AS has_v3
FROM upgrade_sketches WHERE family = 'text' AND f IS NOT NULL;
CREATE INDEX upgrade_sketches_f ON upgrade_sketches USING hash (f);
CREATE INDEX upgrade_sketches_c ON upgrade_sketches (c);
CREATE MATERIALIZED VIEW upgrade_daily AS
SELECT i % 3 AS day, bloom_agg(i, 100) AS users, cms_agg(i) AS counts
FROM generate_series(1, 300) i GROUP BY 1;

-- The answers, one row per stored value (id) plus the views (negative ids).
-- A value that the version in use refuses gives its error instead of
-- answers; its bytes are still compared.  Equal filters are counted through
-- the hash index.
CREATE FUNCTION upgrade_answers() RETURNS TABLE (id int, what text, bytes text, answer text)
LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
DECLARE
	r record;
	probes constant text := 'FROM upgrade_sketches s, (SELECT generate_series(1, 100)
		UNION ALL SELECT generate_series(1001, 3000)) g(i) WHERE s.id = $1';
BEGIN
	FOR r IN SELECT s.id, s.family, s.scheme, s.f IS NOT NULL AS is_bloom, e.expr
		FROM upgrade_sketches s LEFT JOIN upgrade_families e USING (family) ORDER BY s.id LOOP
		id := r.id;
		what := concat_ws(' ', CASE WHEN r.is_bloom THEN 'bloomfilter' ELSE 'cmsketch' END, r.family, r.scheme);
		SELECT coalesce(md5(s.f::bytea), md5(s.c::bytea)) INTO bytes FROM upgrade_sketches s WHERE s.id = r.id;
		BEGIN
			IF r.is_bloom THEN
				SELECT format('m=%s k=%s seed=%s %s items=%s set=%s equal=%s', b.bits, b.hashes, b.seed,
						b.scheme, b.items_added, b.bits_set, (SELECT count(*) FROM upgrade_sketches t WHERE t.f = s.f))
					INTO answer FROM upgrade_sketches s, bloom_info(s.f) b WHERE s.id = r.id;
				IF r.expr IS NOT NULL THEN
					EXECUTE format('SELECT %L || format(''members %%s/100, false positives %%s/2000'',
						count(*) FILTER (WHERE i <= 100 AND s.f @> (%s)), count(*) FILTER (WHERE i > 100 AND s.f @> (%s))) ',
						answer || ' ', r.expr, r.expr) || probes INTO answer USING r.id;
				END IF;
			ELSE
				SELECT format('w=%s d=%s copies=%s seed=%s total=%s', b.width, b.depth, b.copies, b.seed, b.total)
					INTO answer FROM upgrade_sketches s, cms_info(s.c) b WHERE s.id = r.id;
				IF r.expr IS NOT NULL THEN
					EXECUTE format('SELECT %L || format(''member estimates %%s of %%s, under %%s, largest non-member %%s'',
						sum(cms_estimate(s.c, %s)) FILTER (WHERE i <= 100), sum(i %% 7 + 1) FILTER (WHERE i <= 100),
						count(*) FILTER (WHERE i <= 100 AND cms_estimate(s.c, %s) < i %% 7 + 1),
						max(cms_estimate(s.c, %s)) FILTER (WHERE i > 100)) ',
						answer || ' ', r.expr, r.expr, r.expr) || probes INTO answer USING r.id;
				END IF;
			END IF;
		EXCEPTION WHEN OTHERS THEN
			answer := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
		END;
		RETURN NEXT;
	END LOOP;
	id := -1;
	what := 'view upgrade_text_probe';
	bytes := NULL;
	SELECT string_agg(format('%s:%s,%s', v.id, v.has_v1, v.has_v3), ' ' ORDER BY v.id)
		INTO answer FROM upgrade_text_probe v;
	RETURN NEXT;
	id := -2;
	what := 'materialized view upgrade_daily';
	SELECT string_agg(format('day %s: %s members, estimates %s', d.day,
			(SELECT count(*) FROM generate_series(1, 300) i WHERE i % 3 = d.day AND d.users @> i),
			(SELECT sum(cms_estimate(d.counts, i)) FROM generate_series(1, 300) i WHERE i % 3 = d.day)),
			'; ' ORDER BY d.day)
		INTO answer FROM upgrade_daily d;
	RETURN NEXT;
END
$fn$;
