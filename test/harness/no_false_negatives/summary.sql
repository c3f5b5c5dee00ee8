-- Appended by check() in test/harness/no_false_negatives.sh to every check's SQL.
--
-- The check has defined the temporary view "probes" in one of two shapes:
--  * one row per probed value, one boolean column per prober (the column's
--    name says what was asked), or
--  * one row per probe, with columns (prober text, hit boolean).
-- A probe that answered false or NULL is a miss (a false negative, or a
-- count-min estimate below the true count).  The view "side_checks" (what,
-- passed) holds further assertions of the check (plan shapes, byte identity).
--
-- Prints one line: probes|misses|failed side checks|details.
WITH per_probe AS (
	SELECT j.key AS prober, j.value AS answer
	FROM probes q,
		jsonb_each(CASE WHEN to_jsonb(q) ?& ARRAY['prober', 'hit'] AND (SELECT count(*) FROM jsonb_object_keys(to_jsonb(q))) = 2
			THEN jsonb_build_object(to_jsonb(q) ->> 'prober', to_jsonb(q) -> 'hit')
			ELSE to_jsonb(q) END) j),
by_prober AS (
	SELECT prober, count(*) AS n, count(*) FILTER (WHERE answer IS DISTINCT FROM 'true'::jsonb) AS m
	FROM per_probe GROUP BY prober),
side AS (
	SELECT count(*) FILTER (WHERE passed IS NOT TRUE) AS failed,
		string_agg(what || ': ' || CASE WHEN passed THEN 'yes' ELSE 'NO' END, '; ') AS txt
	FROM side_checks)
SELECT coalesce(sum(n), 0) || '|' || coalesce(sum(m), 0) || '|' || (SELECT failed FROM side) || '|' ||
	coalesce(string_agg(format('%s: %s missed of %s', prober, m, n), '; ' ORDER BY prober), 'nothing was probed') ||
	coalesce(' [' || (SELECT txt FROM side) || ']', '')
FROM by_prober;
