/*
 * sketch_value_kind.c — which canonical form the values of an SQL type take
 * (docs/design.md decision 3): the scalar family of a built-in type, the
 * compared fields of time, interval, inet and macaddr, or element by element
 * for arrays, ranges, composites and jsonb, whose element kinds are resolved
 * here too.  A type with no such form is refused with an error that says
 * what to cast to; sketch_value_family.c lists the forms themselves.
 */
#include "sketch_value_kind.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

/* The scalar families of the built-in types, or false. */
static bool
scalar_kind_init(ValueKind *kind, Oid base)
{
	switch (base)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			kind->family = BS_FAMILY_INTEGER;
			kind->int_width = base == INT2OID ? 2 : base == INT4OID ? 4 : 8;
			return true;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
		case NAMEOID:
		case CHAROID:
			kind->family = BS_FAMILY_TEXT;
			kind->is_bpchar = base == BPCHAROID;
			kind->is_name = base == NAMEOID;
			kind->is_char = base == CHAROID;
			kind->to_utf8 = GetDatabaseEncoding() != PG_UTF8 &&
				GetDatabaseEncoding() != PG_SQL_ASCII;
			kind->bytes_as_stored = (base == TEXTOID || base == VARCHAROID) && !kind->to_utf8;
			return true;
		case BYTEAOID:
			kind->family = BS_FAMILY_BYTEA;
			kind->bytes_as_stored = true;
			return true;
		case UUIDOID:
			kind->family = BS_FAMILY_UUID;
			return true;
		case NUMERICOID:
			kind->family = BS_FAMILY_NUMERIC;
			return true;
		case FLOAT4OID:
		case FLOAT8OID:
			kind->family = BS_FAMILY_FLOAT;
			kind->is_float4 = base == FLOAT4OID;
			return true;
		case BOOLOID:
			kind->family = BS_FAMILY_BOOL;
			return true;
		case DATEOID:
			kind->family = BS_FAMILY_DATE;
			return true;
		case TIMESTAMPOID:
			kind->family = BS_FAMILY_TIMESTAMP;
			return true;
		case TIMESTAMPTZOID:
			kind->family = BS_FAMILY_TIMESTAMPTZ;
			return true;
		default:
			return false;
	}
}

/* Fixed-layout types of family other whose equality compares their fields. */
static bool
fixed_other_kind_init(ValueKind *kind, Oid base)
{
	switch (base)
	{
		case TIMEOID:
			kind->other = OTHER_TIME;
			break;
		case TIMETZOID:
			kind->other = OTHER_TIMETZ;
			break;
		case INTERVALOID:
			kind->other = OTHER_INTERVAL;
			break;
		case INETOID:
		case CIDROID:
			kind->other = OTHER_INET;
			break;
		case MACADDROID:
			kind->other = OTHER_MACADDR;
			break;
		default:
			return false;
	}
	kind->family = BS_FAMILY_OTHER;
	return true;
}

/* Whether a type has this name, whatever its schema. */
static bool
type_named(Oid typid, const char *name)
{
	HeapTuple	tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	bool		match = false;

	if (HeapTupleIsValid(tuple))
	{
		match = strcmp(NameStr(((Form_pg_type) GETSTRUCT(tuple))->typname), name) == 0;
		ReleaseSysCache(tuple);
	}
	return match;
}

/*
 * The extension's own type for untyped literals, whose values are text
 * (its I/O functions are text's).
 */
static bool
is_literal_type(Oid typid)
{
	return type_named(typid, "bloomsketch_literal") &&
		getExtensionOfObject(TypeRelationId, typid) == get_extension_oid("bloomsketch", true);
}

/* 0A000 for a type with no canonical form, with the detail and cast to use. */
pg_noreturn static void
unhashable_type_error(Oid typid, const char *detail, const char *cast)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("bloomsketch cannot hash values of type %s", format_type_be(typid)),
			 errdetail("%s", detail),
			 errhint("Cast the values to %s, for example value::%s.", cast, cast)));
}

/* Refuse text compared under a collation whose equality is not bytewise. */
static void
check_collation(Oid typid, Oid collation)
{
	if (OidIsValid(collation) && collation != DEFAULT_COLLATION_OID &&
		!get_collation_isdeterministic(collation))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomsketch cannot hash values of type %s under the nondeterministic collation %s",
						format_type_be(typid), get_collation_name(collation)),
				 errdetail("Strings that this collation calls equal may differ in their bytes, and a filter compares bytes."),
				 errhint("Apply a deterministic collation, for example value COLLATE \"C\", or normalize the values first.")));
}
/* The kind of a nested type, in the parent's context. */
static ValueKind *
nested_kind(const ValueKind *parent, Oid typid, Oid collation)
{
	ValueKind  *kind = MemoryContextAlloc(parent->context, sizeof(ValueKind));

	bs_value_kind_init(kind, typid, collation, parent->context);
	return kind;
}

void
bs_record_resolve(const ValueKind *kind, Oid row_type, int32 row_typmod)
{
	RecordKind *record = kind->record;
	MemoryContext old;
	TupleDesc	tupdesc;
	StringInfoData signature;

	if (record->row_type == row_type && record->row_typmod == row_typmod &&
		OidIsValid(row_type))
		return;
	old = MemoryContextSwitchTo(kind->context);
	tupdesc = lookup_rowtype_tupdesc(row_type, row_typmod);
	record->tupdesc = CreateTupleDescCopy(tupdesc);
	ReleaseTupleDesc(tupdesc);
	tupdesc = record->tupdesc;
	record->columns = palloc0(sizeof(ValueKind) * Max(tupdesc->natts, 1));
	record->values = palloc(sizeof(Datum) * Max(tupdesc->natts, 1));
	record->nulls = palloc(sizeof(bool) * Max(tupdesc->natts, 1));
	initStringInfo(&signature);
	appendStringInfoString(&signature, "record(");
	for (int i = 0, live = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		char	   *column;

		if (att->attisdropped)
			continue;
		bs_value_kind_init(&record->columns[i], att->atttypid, att->attcollation, kind->context);
		column = bs_value_kind_signature(&record->columns[i]);
		appendStringInfo(&signature, "%s%s", live++ > 0 ? "," : "", column);
		pfree(column);
	}
	appendStringInfoChar(&signature, ')');
	record->tag = bs_type_tag(signature.data, signature.len);
	record->signature = signature.data;
	record->row_type = row_type;
	record->row_typmod = row_typmod;
	MemoryContextSwitchTo(old);
}

uint32
bs_record_kind_tag(const RecordKind *record)
{
	return record->tag;
}

/* Arrays, ranges, composites and jsonb: their kinds, or false. */
static bool
structured_kind_init(ValueKind *kind, Oid base, Oid collation)
{
	Oid			element = get_element_type(base);

	kind->family = BS_FAMILY_OTHER;
	if (OidIsValid(element) && type_is_array(base))
	{
		kind->other = OTHER_ARRAY;
		kind->element = nested_kind(kind, element, collation);
		get_typlenbyvalalign(element, &kind->element_length, &kind->element_byval,
							 &kind->element_align);
		return true;
	}
	if (type_is_range(base))
	{
		kind->other = OTHER_RANGE;
		kind->range_type = lookup_type_cache(base, TYPECACHE_RANGE_INFO);
		kind->element = nested_kind(kind, get_range_subtype(base),
									get_range_collation(base));
		return true;
	}
	if (type_is_rowtype(base))
	{
		kind->other = OTHER_RECORD;
		kind->record = MemoryContextAllocZero(kind->context, sizeof(RecordKind));
		/* a named composite is resolved now; an anonymous record per row type */
		if (base != RECORDOID)
			bs_record_resolve(kind, base, -1);
		return true;
	}
	if (base == JSONBOID)
	{
		kind->other = OTHER_JSONB;
		return true;
	}
	kind->family = BS_FAMILY_NONE;
	return false;
}

/* The signature of an array, range, composite or jsonb kind. */
static char *
structured_signature(const ValueKind *kind)
{
	char	   *element;
	char	   *result;

	switch (kind->other)
	{
		case OTHER_ARRAY:
		case OTHER_RANGE:
			element = bs_value_kind_signature(kind->element);
			result = psprintf("%s(%s)", kind->other == OTHER_ARRAY ? "array" : "range",
							  element);
			pfree(element);
			return result;
		case OTHER_RECORD:
			/* an anonymous record's row type is known from its first value */
			return pstrdup(kind->record->signature != NULL ? kind->record->signature :
						   "record");
		case OTHER_JSONB:
			return pstrdup("jsonb");
		default:
			elog(ERROR, "unexpected bloomsketch value form %u", kind->other);
	}
}

void
bs_value_kind_init(ValueKind *kind, Oid typid, Oid collation, MemoryContext context)
{
	Oid			base = getBaseType(typid);

	/* an untyped literal is text, and errors should call it that */
	if (is_literal_type(base))
		typid = base = TEXTOID;
	memset(kind, 0, sizeof(*kind));
	kind->typid = typid;
	kind->context = context;
	if (base == UNKNOWNOID || base == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_DATATYPE),
				 errmsg("could not determine the type of the value"),
				 errhint("Cast the value to a type, for example 'abc'::text.")));
	if (scalar_kind_init(kind, base))
	{
		if (kind->family == BS_FAMILY_TEXT && !kind->is_char)
			check_collation(typid, collation);
		return;
	}
	if (type_is_enum(base))
		unhashable_type_error(typid,
							  "An enum value hashes by neither its label, which ALTER TYPE can rename, nor its OID, which differs after a dump and restore.",
							  "text");
	if (type_named(base, "citext"))
		unhashable_type_error(typid,
							  "citext compares case-insensitively under the database's locale, and a filter compares bytes: cast lower(value) to text to ignore case.",
							  "text");
	if (fixed_other_kind_init(kind, base) || structured_kind_init(kind, base, collation))
	{
		char	   *signature = bs_value_kind_signature(kind);

		kind->type_tag = bs_type_tag(signature, strlen(signature));
		pfree(signature);
		return;
	}
	unhashable_type_error(typid,
						  "bloomsketch hashes a value through a canonical form that SQL equality and a dump and restore preserve, and this type has none.",
						  "text");
}

/*
 * The type of a function's argument: the one the call site describes
 * (fn_expr), or else the function's declared type when that is not
 * polymorphic.  Whoever calls through a bare FmgrInfo (Citus's worker-side
 * aggregate wrapper does) leaves fn_expr unset; the concrete overloads of
 * bloom_agg and cms_agg still know their type from their declaration.
 */
static Oid
arg_type(FmgrInfo *flinfo, int argnum)
{
	Oid			typid = get_fn_expr_argtype(flinfo, argnum);
	Oid		   *argtypes;
	int			nargs;

	if (OidIsValid(typid))
		return typid;
	get_func_signature(flinfo->fn_oid, &argtypes, &nargs);
	if (argnum < nargs && !IsPolymorphicType(argtypes[argnum]))
		typid = argtypes[argnum];
	pfree(argtypes);
	return typid;
}

void
bs_value_kind_for_arg(ValueKind *kind, FunctionCallInfo fcinfo, int argnum)
{
	bs_value_kind_init(kind, arg_type(fcinfo->flinfo, argnum),
					   PG_GET_COLLATION(), fcinfo->flinfo->fn_mcxt);
}

/* Whether values of kind source, once cast to kind target, hash as they did. */
static bool
cast_keeps_hash(const ValueKind *source, const ValueKind *target)
{
	if (source->family != target->family)
		return false;
	if (source->family == BS_FAMILY_OTHER)
		return value_kind_tag(source) == value_kind_tag(target);
	/* "char" hashes as its escaped output, its cast to text as the raw byte */
	return source->is_char == target->is_char;
}

void
bs_value_kind_for_agg_value(ValueKind *kind, FunctionCallInfo fcinfo)
{
	Aggref	   *aggref;
	Node	   *expr;
	Oid			source;
	ValueKind	uncast;

	bs_value_kind_for_arg(kind, fcinfo, 1);
	/* without a described call there is no argument expression to look at */
	if (fcinfo->flinfo->fn_expr == NULL || (aggref = AggGetAggref(fcinfo)) == NULL ||
		aggref->args == NIL)
		return;
	expr = (Node *) linitial_node(TargetEntry, aggref->args)->expr;
	if (exprType(expr) != kind->typid)
		return;
	source = exprType(strip_implicit_coercions(expr));
	if (getBaseType(source) == getBaseType(kind->typid))
		return;
	/* refuses the types that anyelement refuses (citext, enums) */
	bs_value_kind_init(&uncast, source, PG_GET_COLLATION(), CurrentMemoryContext);
	if (!cast_keeps_hash(&uncast, kind))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomsketch cannot hash values of type %s through their implicit cast to %s",
						format_type_be(source), format_type_be(kind->typid)),
				 errdetail("The cast values would not hash as values of type %s do, so probing with them would miss.",
						   format_type_be(source)),
				 errhint("Cast the values explicitly, for example value::%s, and probe with values of that type.",
						 format_type_be(kind->typid))));
}

char *
bs_value_kind_signature(const ValueKind *kind)
{
	switch (kind->family == BS_FAMILY_OTHER ? kind->other : OTHER_NONE)
	{
		case OTHER_NONE:
			return pstrdup(bs_family_name(kind->family));
		case OTHER_TIME:
			return pstrdup("time");
		case OTHER_TIMETZ:
			return pstrdup("timetz");
		case OTHER_INTERVAL:
			return pstrdup("interval");
		case OTHER_INET:
			return pstrdup("inet");
		case OTHER_MACADDR:
			return pstrdup("macaddr");
		default:
			return structured_signature(kind);
	}
}
