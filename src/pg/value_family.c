/*
 * value_family.c — canonical bytes per value family (design.md decision 3).
 *
 * Values that SQL considers equal must hash alike, so each value is first
 * turned into bytes that depend only on its value within its family:
 *   integer      int2, int4, int8 as little-endian int64
 *   text         text, varchar, name, and bpchar without its trailing blanks
 *   bytea        the bytes
 *   uuid         the 16 bytes
 *   numeric      the normalized decimal string (1.0 and 1.00 agree)
 *   float        float4 and float8 as a little-endian float8, -0 as 0, one NaN
 *   bool         one byte, 0 or 1
 *   date         the day number as little-endian int64
 *   timestamp, timestamptz   the microsecond count as little-endian int64
 *   other        the type's binary send form (equality is followed only where
 *                that form is canonical), tagged with the qualified type name
 */
#include "bloomsketch.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/uuid.h"

void
value_kind_init(ValueKind *kind, Oid typid, MemoryContext context)
{
	Oid			base = getBaseType(typid);

	memset(kind, 0, sizeof(*kind));
	kind->typid = typid;
	switch (base)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			kind->family = BS_FAMILY_INTEGER;
			kind->int_width = base == INT2OID ? 2 : base == INT4OID ? 4 : 8;
			break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
		case NAMEOID:
			kind->family = BS_FAMILY_TEXT;
			kind->is_bpchar = base == BPCHAROID;
			kind->is_name = base == NAMEOID;
			break;
		case BYTEAOID:
			kind->family = BS_FAMILY_BYTEA;
			break;
		case UUIDOID:
			kind->family = BS_FAMILY_UUID;
			break;
		case NUMERICOID:
			kind->family = BS_FAMILY_NUMERIC;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			kind->family = BS_FAMILY_FLOAT;
			kind->is_float4 = base == FLOAT4OID;
			break;
		case BOOLOID:
			kind->family = BS_FAMILY_BOOL;
			break;
		case DATEOID:
			kind->family = BS_FAMILY_DATE;
			break;
		case TIMESTAMPOID:
			kind->family = BS_FAMILY_TIMESTAMP;
			break;
		case TIMESTAMPTZOID:
			kind->family = BS_FAMILY_TIMESTAMPTZ;
			break;
		default:
			{
				Oid			send_oid;
				bool		is_varlena;
				char	   *name;

				if (base == UNKNOWNOID || base == InvalidOid)
					ereport(ERROR,
							(errcode(ERRCODE_INDETERMINATE_DATATYPE),
							 errmsg("could not determine the type of the value"),
							 errhint("Cast the value to a type, for example 'abc'::text.")));
				getTypeBinaryOutputInfo(base, &send_oid, &is_varlena);
				fmgr_info_cxt(send_oid, &kind->send, context);
				name = format_type_extended(base, -1, FORMAT_TYPE_FORCE_QUALIFY);
				kind->family = BS_FAMILY_OTHER;
				kind->type_tag = bs_type_tag(name, strlen(name));
				pfree(name);
				break;
			}
	}
}

/* Length of a bpchar without the trailing blanks its equality ignores. */
static size_t
bpchar_significant_length(const char *s, size_t length)
{
	while (length > 0 && s[length - 1] == ' ')
		length--;
	return length;
}

void
canonical_bytes_general(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	/* the caller (canonical_bytes) has set data = buffer and length = 8 */
	switch (kind->family)
	{
		case BS_FAMILY_TEXT:
			if (kind->is_name)
			{
				const char *s = NameStr(*DatumGetName(value));

				out->data = s;
				out->length = strnlen(s, NAMEDATALEN);
			}
			else
			{
				struct varlena *t = PG_DETOAST_DATUM_PACKED(value);

				if ((Pointer) t != DatumGetPointer(value))
					out->allocated = t;
				out->data = VARDATA_ANY(t);
				out->length = VARSIZE_ANY_EXHDR(t);
				if (kind->is_bpchar)
					out->length = bpchar_significant_length(out->data, out->length);
			}
			break;
		case BS_FAMILY_BYTEA:
			{
				struct varlena *b = PG_DETOAST_DATUM_PACKED(value);

				if ((Pointer) b != DatumGetPointer(value))
					out->allocated = b;
				out->data = VARDATA_ANY(b);
				out->length = VARSIZE_ANY_EXHDR(b);
				break;
			}
		case BS_FAMILY_UUID:
			out->data = DatumGetUUIDP(value)->data;
			out->length = UUID_LEN;
			break;
		case BS_FAMILY_NUMERIC:
			{
				/* "normalized" output: equal numerics give equal strings */
				char	   *s = numeric_normalize(DatumGetNumeric(value));

				out->allocated = s;
				out->data = s;
				out->length = strlen(s);
				break;
			}
		case BS_FAMILY_FLOAT:
			{
				double		d = kind->is_float4 ? (double) DatumGetFloat4(value) :
				DatumGetFloat8(value);
				uint64		bits;

				if (d == 0.0)
					d = 0.0;	/* -0 = 0 in SQL */
				if (isnan(d))
					bits = UINT64CONST(0x7ff8000000000000);	/* all NaNs are equal */
				else
					memcpy(&bits, &d, sizeof(bits));
				store_le64(out->buffer, bits);
				break;
			}
		case BS_FAMILY_BOOL:
			out->buffer[0] = DatumGetBool(value) ? 1 : 0;
			out->length = 1;
			break;
		case BS_FAMILY_OTHER:
			{
				bytea	   *b = SendFunctionCall((FmgrInfo *) &kind->send, value);

				out->allocated = b;
				out->data = VARDATA(b);
				out->length = VARSIZE(b) - VARHDRSZ;
				break;
			}
		default:
			/* integer, date and timestamps are handled inline */
			elog(ERROR, "unexpected bloomsketch value family %u", kind->family);
	}
}

/* The cast that moves a value into a family, for hints. */
static const char *
family_cast(uint8 family)
{
	switch (family)
	{
		case BS_FAMILY_INTEGER:
			return "bigint";
		case BS_FAMILY_TEXT:
			return "text";
		case BS_FAMILY_BYTEA:
			return "bytea";
		case BS_FAMILY_UUID:
			return "uuid";
		case BS_FAMILY_NUMERIC:
			return "numeric";
		case BS_FAMILY_FLOAT:
			return "double precision";
		case BS_FAMILY_BOOL:
			return "boolean";
		case BS_FAMILY_DATE:
			return "date";
		case BS_FAMILY_TIMESTAMP:
			return "timestamp";
		case BS_FAMILY_TIMESTAMPTZ:
			return "timestamptz";
		default:
			return NULL;
	}
}

void
family_mismatch_error(const char *type_name, const char *noun, uint8 family,
					  uint32 type_tag, const ValueKind *kind)
{
	const char *cast = family_cast(family);

	if (family == BS_FAMILY_OTHER && kind->family == BS_FAMILY_OTHER)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s holds values of another type than %s",
						type_name, format_type_be(kind->typid)),
				 errdetail("The %s was built from values of a type with tag %08x; type %s has tag %08x.",
						   noun, type_tag, format_type_be(kind->typid), kind->type_tag),
				 errhint("Cast the value to the type the %s was built from.", noun)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s holds %s values, not values of type %s",
					type_name, bs_family_name(family), format_type_be(kind->typid)),
			 errdetail("Type %s belongs to value family \"%s\"; values of different families never hash alike.",
					   format_type_be(kind->typid), bs_family_name(kind->family)),
			 cast ? errhint("Cast the value to %s, for example value::%s.", cast, cast)
			 : errhint("Cast the value to the type the %s was built from.", noun)));
}

