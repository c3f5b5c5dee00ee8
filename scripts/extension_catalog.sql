-- Every catalog fact of bloomsketch's SQL objects, one line each, sorted, in
-- a form free of OIDs: scripts/compare_installs.sh runs it after a fresh
-- CREATE EXTENSION and after 0.1.0 plus ALTER EXTENSION UPDATE and diffs the
-- two.  (Members are the objects pg_depend ties to the extension; a type's
-- implicit array type, a member on PostgreSQL 17 and later only, is left out.)
\pset format unaligned
\pset tuples_only on
WITH ext AS (
	SELECT oid FROM pg_extension WHERE extname = 'bloomsketch'
), members AS (
	SELECT d.classid, d.objid FROM pg_depend d, ext
	WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
		AND NOT (d.classid = 'pg_type'::regclass
			AND EXISTS (SELECT 1 FROM pg_type t WHERE t.typarray = d.objid))
), facts AS (
	SELECT pg_describe_object(m.classid, m.objid, 0) AS object, 'member' AS fact
	FROM members m
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), 'comment ' || quote_nullable(obj_description(m.objid,
		(SELECT relname FROM pg_class WHERE oid = m.classid)))
	FROM members m
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), 'init privileges ' || i.privtype::text || ' ' || i.initprivs::text
	FROM members m JOIN pg_init_privs i ON i.classoid = m.classid AND i.objoid = m.objid AND i.objsubid = 0
	UNION ALL
	SELECT p.oid::regprocedure::text, concat_ws(' ',
		'kind', p.prokind, 'language', l.lanname, 'owner', pg_get_userbyid(p.proowner),
		'returns', CASE WHEN p.proretset THEN 'setof ' ELSE '' END || p.prorettype::regtype::text,
		'all args', coalesce((SELECT string_agg(a::regtype::text, ',') FROM unnest(p.proallargtypes) a), '-'),
		'modes', coalesce(p.proargmodes::text, '-'), 'names', coalesce(p.proargnames::text, '-'),
		'defaults', coalesce(pg_get_expr(p.proargdefaults, 0), '-'),
		'volatile', p.provolatile, 'parallel', p.proparallel, 'strict', p.proisstrict,
		'leakproof', p.proleakproof, 'security definer', p.prosecdef, 'cost', p.procost, 'rows', p.prorows,
		'support', p.prosupport::text, 'config', coalesce(p.proconfig::text, '-'),
		'acl', coalesce(p.proacl::text, '-'), 'symbol', CASE WHEN l.lanname = 'c' THEN p.prosrc ELSE md5(p.prosrc) END,
		'file', coalesce(p.probin, '-'))
	FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
	JOIN pg_language l ON l.oid = p.prolang
	UNION ALL
	SELECT a.aggfnoid::regprocedure::text, concat_ws(' ',
		'aggkind', a.aggkind, 'direct', a.aggnumdirectargs,
		'trans', a.aggtransfn::oid::regprocedure::text, 'final', a.aggfinalfn::oid::regprocedure::text,
		'combine', a.aggcombinefn::oid::regprocedure::text, 'serial', a.aggserialfn::oid::regprocedure::text,
		'deserial', a.aggdeserialfn::oid::regprocedure::text, 'mtrans', a.aggmtransfn::oid::regprocedure::text,
		'minvtrans', a.aggminvtransfn::oid::regprocedure::text, 'mfinal', a.aggmfinalfn::oid::regprocedure::text,
		'finalextra', a.aggfinalextra, 'finalmodify', a.aggfinalmodify, 'sortop', a.aggsortop::regoperator::text,
		'stype', a.aggtranstype::regtype::text, 'sspace', a.aggtransspace,
		'mstype', a.aggmtranstype::regtype::text, 'initval', coalesce(a.agginitval, '-'))
	FROM members m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid
	UNION ALL
	SELECT t.oid::regtype::text, concat_ws(' ',
		'owner', pg_get_userbyid(t.typowner), 'len', t.typlen, 'byval', t.typbyval, 'type', t.typtype,
		'category', t.typcategory, 'preferred', t.typispreferred, 'delim', t.typdelim,
		'in', t.typinput::oid::regprocedure::text, 'out', t.typoutput::oid::regprocedure::text,
		'recv', t.typreceive::oid::regprocedure::text, 'send', t.typsend::oid::regprocedure::text,
		'modin', t.typmodin::text, 'modout', t.typmodout::text, 'analyze', t.typanalyze::text,
		'subscript', t.typsubscript::text, 'align', t.typalign, 'storage', t.typstorage,
		'collation', t.typcollation, 'array', t.typarray::regtype::text, 'acl', coalesce(t.typacl::text, '-'))
	FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	UNION ALL
	SELECT o.oid::regoperator::text, concat_ws(' ',
		'owner', pg_get_userbyid(o.oprowner), 'kind', o.oprkind, 'merges', o.oprcanmerge, 'hashes', o.oprcanhash,
		'result', o.oprresult::regtype::text, 'code', o.oprcode::oid::regprocedure::text,
		'commutator', o.oprcom::regoperator::text, 'negator', o.oprnegate::regoperator::text,
		'restrict', o.oprrest::text, 'join', o.oprjoin::text)
	FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), concat_ws(' ',
		'function', c.castfunc::regprocedure::text, 'context', c.castcontext, 'method', c.castmethod)
	FROM members m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), concat_ws(' ',
		'owner', pg_get_userbyid(c.opcowner), 'family', c.opcfamily::text IS NOT NULL, 'input', c.opcintype::regtype::text,
		'default', c.opcdefault, 'keytype', c.opckeytype::regtype::text)
	FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), pg_describe_object('pg_amop'::regclass, ao.oid, 0)
		|| ' purpose ' || ao.amoppurpose::text
	FROM members m JOIN pg_amop ao ON m.classid = 'pg_opfamily'::regclass AND ao.amopfamily = m.objid
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), pg_describe_object('pg_amproc'::regclass, ap.oid, 0)
	FROM members m JOIN pg_amproc ap ON m.classid = 'pg_opfamily'::regclass AND ap.amprocfamily = m.objid
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0), concat_ws(' ',
		'event', e.evtevent, 'owner', pg_get_userbyid(e.evtowner), 'function', e.evtfoid::regprocedure::text,
		'enabled', e.evtenabled, 'tags', e.evttags::text)
	FROM members m JOIN pg_event_trigger e ON m.classid = 'pg_event_trigger'::regclass AND e.oid = m.objid
	UNION ALL
	-- what the extension's objects depend on, other than the extension
	SELECT pg_describe_object(m.classid, m.objid, 0), 'depends ' || d.deptype::text || ' on '
		|| pg_describe_object(d.refclassid, d.refobjid, d.refobjsubid)
	FROM members m JOIN pg_depend d ON d.classid = m.classid AND d.objid = m.objid
	WHERE d.refclassid <> 'pg_extension'::regclass
)
SELECT object || ' | ' || fact FROM facts ORDER BY 1;
