-- test/harness/mutation_fuzz.sql — the server side of test/harness/mutation_fuzz.sh: tables of
-- attempts and outcomes, the checks run on every accepted value, and
-- mf_run(first, last), which sends each attempt with an id in [first, last]
-- through its input path (text input, the bytea cast, or binary receive via
-- COPY FORMAT binary) in its own subtransaction and records the SQLSTATE it
-- ended in.

CREATE TABLE mf_attempt (id int PRIMARY KEY, kind text, path text, op text,
	payload_hex text, file text);
CREATE TABLE mf_outcome (id int, kind text, path text, op text, state text, post text);
CREATE TABLE mf_recv_bloom (id int, v bloomfilter);
CREATE TABLE mf_recv_cms (id int, v cmsketch);
CREATE TABLE mf_recv_topk (id int, v topksketch);

-- bloom_fit_agg's combine and final functions over partial states, as a
-- coordinator merges the states its workers ship.
CREATE AGGREGATE mf_fit_merge(bloomfilter) (SFUNC = bloom_fit_agg_combine, STYPE = bloomfilter,
	FINALFUNC = bloom_fit_agg_final);

-- Checks on an accepted partial state of bloom_fit_agg (scheme fit_partial):
-- its forms round-trip, every function but the aggregate's refuses it
-- (22023), and the final function makes of it, alone or merged with itself
-- (the same set of hashes), the same fit filter, which must pass the
-- filter checks.
CREATE FUNCTION mf_check_fit_state(s bloomfilter) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	f bloomfilter;
	merged bloomfilter;
	st text;
BEGIN
	IF bloomfilter_send(s::text::bloomfilter) <> bloomfilter_send(s) THEN
		RETURN 'state-round-trip';
	END IF;
	BEGIN
		PERFORM bloom_info(s);
		RETURN 'state-not-refused';
	EXCEPTION WHEN invalid_parameter_value THEN
		NULL;
	END;
	BEGIN
		PERFORM s | s;
		RETURN 'state-not-refused';
	EXCEPTION WHEN invalid_parameter_value THEN
		NULL;
	END;
	f := bloom_fit_agg_final(s);
	IF split_part(f::text, ':', 3) NOT IN ('fit', 'fit_over_ceiling') THEN
		RETURN 'final-scheme';
	END IF;
	-- a merge adds the items, so only the size, flag and bits must agree
	merged := (SELECT mf_fit_merge(x) FROM (VALUES (s), (s)) v(x));
	IF split_part(merged::text, ':', 3) <> split_part(f::text, ':', 3)
		OR split_part(merged::text, ':', 6) <> split_part(f::text, ':', 6)
		OR split_part(merged::text, ':', 9) <> split_part(f::text, ':', 9) THEN
		RETURN 'self-merge';
	END IF;
	st := mf_check_bloom(f, NULL, NULL);
	RETURN CASE WHEN st LIKE 'ok%' THEN 'ok-fit-state' ELSE 'final-' || st END;
END $$;

-- Checks on an accepted filter: 'ok', 'ok-fit' (a self-sized filter),
-- 'ok-fit-state' (a partial state of bloom_fit_agg), 'ok-known' (a check
-- skipped for a bug already reported), or the name of the check that failed.
CREATE FUNCTION mf_check_bloom(b bloomfilter, input bytea, input_text text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	info record;
	bounds record;
	known boolean := false;
BEGIN
	IF input IS NOT NULL AND bloomfilter_send(b) <> input THEN
		RETURN 'bytes-differ';
	END IF;
	IF input_text IS NOT NULL AND b::text <> input_text THEN
		RETURN 'text-differs';
	END IF;
	IF split_part(b::text, ':', 3) = 'fit_partial' THEN
		RETURN mf_check_fit_state(b);
	END IF;
	IF bloomfilter_send(b::text::bloomfilter) <> bloomfilter_send(b) OR b::text::bloomfilter <> b THEN
		RETURN 'text-round-trip';
	END IF;
	IF (b & b) <> b THEN
		RETURN 'self-intersection';
	END IF;
	info := bloom_info(b);
	PERFORM bloom_fpr(b), b | b, bloomfilter_hash(b), bloomfilter_hash_extended(b, 1), b < b;
	IF split_part(b::text, ':', 3) LIKE 'fit%mixed' THEN
		-- a combination of fit filters of different sizes: no count estimate
		BEGIN
			PERFORM bloom_cardinality(b);
			RETURN 'mixed-estimated';
		EXCEPTION WHEN invalid_parameter_value THEN
			NULL;
		END;
		RETURN 'ok-fit';
	END IF;
	bounds := bloom_cardinality_bounds(b);
	IF NOT bounds.lower <= bounds.upper THEN
		-- test/fuzz/regressions/fuzz_bloom_text/bounds_order_x_below_k
		IF info.bits_set >= info.hashes THEN
			RETURN 'bounds-order';
		END IF;
		known := true;
	END IF;
	PERFORM bloom_cardinality(b), bloom_jaccard(b, b), bloom_union_cardinality(b, b),
		bloom_intersection_cardinality(b, b);
	IF info.family IN ('none', 'integer', 'text') THEN
		IF substring(bloomfilter_send(b) FROM 29 FOR 8) = '\xffffffffffffffff'::bytea THEN
			-- test/fuzz/regressions/fuzz_bloom_text/add_items_wrap
			known := true;
		ELSIF info.family = 'text' THEN
			IF NOT bloom_contains(bloom_add(b, 'mf'::text)::text::bloomfilter, 'mf'::text) THEN
				RETURN 'add-lost';
			END IF;
		ELSIF NOT bloom_contains(bloom_add(b, 7::bigint)::text::bloomfilter, 7::bigint) THEN
			RETURN 'add-lost';
		END IF;
	END IF;
	RETURN CASE WHEN known THEN 'ok-known' WHEN info.scheme = 'fit' THEN 'ok-fit' ELSE 'ok' END;
END $$;

-- Checks on an accepted sketch: 'ok' or the name of the check that failed.
-- Counts past bigint (22003) and sums past 2^64 (54000) are documented
-- outcomes of the functions that return or combine counts.
CREATE FUNCTION mf_check_cms(c cmsketch, input bytea, input_text text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	family text;
	estimate bigint;
BEGIN
	IF input IS NOT NULL AND c::bytea <> input THEN
		RETURN 'bytes-differ';
	END IF;
	IF input_text IS NOT NULL AND c::text <> input_text THEN
		RETURN 'text-differs';
	END IF;
	IF c::text::cmsketch::bytea <> c::bytea OR c::text::cmsketch <> c THEN
		RETURN 'text-round-trip';
	END IF;
	IF cms_intersect(c, c) <> c THEN
		RETURN 'self-intersection';
	END IF;
	PERFORM cmsketch_hash(c), cmsketch_hash_extended(c, 1), c < c;
	BEGIN
		family := (cms_info(c)).family;
		PERFORM cms_total(c), cms_merge(c, c), cms_inner_product(c, c);
		IF family IN ('none', 'integer') THEN
			estimate := cms_estimate(c, 7::bigint);
			IF estimate > cms_total(c) THEN
				RETURN 'estimate-above-total';
			END IF;
			IF cms_estimate(cms_add(c, 7::bigint, 5)::text::cmsketch, 7::bigint) <> estimate + 5 THEN
				RETURN 'add-lost';
			END IF;
		END IF;
	EXCEPTION WHEN numeric_value_out_of_range OR program_limit_exceeded THEN
		NULL;
	END;
	RETURN 'ok';
END $$;

-- Checks on an accepted summary: 'ok' or the name of the check that failed.
-- A merge whose total passes bigint (22003) is a documented outcome.
CREATE FUNCTION mf_check_topk(t topksketch, input bytea, input_text text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	info record;
	merged topksketch;
BEGIN
	IF input IS NOT NULL AND t::bytea <> input THEN
		RETURN 'bytes-differ';
	END IF;
	IF input_text IS NOT NULL AND t::text <> input_text THEN
		RETURN 'text-differs';
	END IF;
	IF t::text::topksketch::bytea <> t::bytea OR t::text::topksketch <> t THEN
		RETURN 'text-round-trip';
	END IF;
	info := topk_info(t);
	IF (SELECT count(*) FROM topk_items(t)) <> info.entries
		OR EXISTS (SELECT 1 FROM topk_items(t)
		           WHERE NOT (count = lower_bound AND lower_bound <= upper_bound
		                      AND upper_bound <= info.total AND upper_bound - lower_bound <= info.max_error)) THEN
		RETURN 'items';
	END IF;
	PERFORM topksketch_hash(t), topksketch_hash_extended(t, 1), t < t;
	BEGIN
		merged := t + t;
		IF topk_total(merged) <> 2 * info.total OR merged::text::topksketch <> merged THEN
			RETURN 'self-merge';
		END IF;
		IF info.family IN ('none', 'integer') AND
			topk_total(t + (SELECT topk_agg(7::bigint, info.counters))) <> info.total + 1 THEN
			RETURN 'count-lost';
		END IF;
	EXCEPTION WHEN numeric_value_out_of_range THEN
		NULL;
	END;
	RETURN 'ok';
END $$;

CREATE FUNCTION mf_run(first_id int, last_id int) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r mf_attempt;
	input bytea;
	input_text text;
	b bloomfilter;
	c cmsketch;
	k topksketch;
	state text;
	post text;
	n bigint := 0;
BEGIN
	FOR r IN SELECT * FROM mf_attempt WHERE id BETWEEN first_id AND last_id ORDER BY id LOOP
		input := decode(r.payload_hex, 'hex');
		input_text := NULL;
		post := '';
		BEGIN
			IF r.path = 'text' THEN
				input_text := convert_from(input, 'SQL_ASCII');
				input := NULL;
				IF r.kind = 'bloom' THEN
					b := input_text::bloomfilter;
				ELSIF r.kind = 'cms' THEN
					c := input_text::cmsketch;
				ELSE
					k := input_text::topksketch;
				END IF;
			ELSIF r.path = 'bytea' THEN
				IF r.kind = 'bloom' THEN
					b := input::bloomfilter;
				ELSIF r.kind = 'cms' THEN
					c := input::cmsketch;
				ELSE
					k := input::topksketch;
				END IF;
			ELSE
				EXECUTE format('COPY mf_recv_%s FROM %L WITH (FORMAT binary)', r.kind, r.file);
				IF r.kind = 'bloom' THEN
					DELETE FROM mf_recv_bloom WHERE id = r.id RETURNING v INTO STRICT b;
				ELSIF r.kind = 'cms' THEN
					DELETE FROM mf_recv_cms WHERE id = r.id RETURNING v INTO STRICT c;
				ELSE
					DELETE FROM mf_recv_topk WHERE id = r.id RETURNING v INTO STRICT k;
				END IF;
			END IF;
			state := '00000';
		EXCEPTION WHEN OTHERS THEN
			state := SQLSTATE;
		END;
		IF state = '00000' THEN
			BEGIN
				IF r.kind = 'bloom' THEN
					post := mf_check_bloom(b, input, input_text);
				ELSIF r.kind = 'cms' THEN
					post := mf_check_cms(c, input, input_text);
				ELSE
					post := mf_check_topk(k, input, input_text);
				END IF;
			EXCEPTION WHEN OTHERS THEN
				post := 'error-' || SQLSTATE;
			END;
		END IF;
		INSERT INTO mf_outcome VALUES (r.id, r.kind, r.path, r.op, state, post);
		n := n + 1;
	END LOOP;
	RETURN n;
END $$;
