-- What the catalog says about the extension's types matches what they do:
-- each type's input function comment names the text form, with its format
-- version, that the type's output writes today for a freshly built value.
-- (test/harness/type_count_words.py checks the count of types in files and docs.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

-- the sketch types: base types of the extension with a C input function
-- (bloomsketch_literal borrows text's and has no format of its own)
CREATE TEMP VIEW sketch_types AS
SELECT t.typname::text AS typname, t.typinput
FROM pg_type t
JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomsketch'
JOIN pg_proc p ON p.oid = t.typinput
JOIN pg_language l ON l.oid = p.prolang AND l.lanname = 'c'
WHERE t.typtype = 'b';

-- a value of each type, built now, in its text form
CREATE TEMP TABLE fresh_output AS
SELECT 'bloomfilter' AS typname, bloom_add(bloom_create(10), 42)::text AS output
UNION ALL
SELECT 'cmsketch', cms_add(cms_create(0.01, 0.01), 42)::text
UNION ALL
SELECT 'topksketch', (SELECT topk_agg(i, 3) FROM generate_series(1, 5) i)::text;

-- the form and version each input comment names, beside the one written
SELECT s.typname,
       substring(obj_description(s.typinput, 'pg_proc') FROM ': ([a-z]+:v[0-9]+):') AS comment_names,
       substring(f.output FROM '^([a-z]+:v[0-9]+):') AS output_writes
FROM sketch_types s LEFT JOIN fresh_output f USING (typname)
ORDER BY 1;

-- no type whose comment names another form or version, or that has no
-- fresh value here (a new type must be added to fresh_output above)
SELECT s.typname, obj_description(s.typinput, 'pg_proc') AS comment
FROM sketch_types s LEFT JOIN fresh_output f USING (typname)
WHERE substring(obj_description(s.typinput, 'pg_proc') FROM ': ([a-z]+:v[0-9]+):')
      IS DISTINCT FROM substring(f.output FROM '^([a-z]+:v[0-9]+):')
   OR f.output IS NULL;
