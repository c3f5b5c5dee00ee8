/*
 * sketch_value_family.c — canonical bytes per scalar family (docs/design.md decision 3).
 *
 * Values that SQL considers equal must hash alike, and a value must hash the
 * same whatever the session, the client or server encoding, the OIDs of the
 * database or the way it is stored (inline, compressed, out of line).  So
 * each value is first turned into bytes that depend only on its value within
 * its family:
 *   integer      int2, int4, int8 as little-endian int64
 *   text         text, varchar, name, "char", untyped literals and bpchar
 *                without its trailing blanks, as UTF-8 whatever the database
 *                encoding
 *   bytea        the bytes
 *   uuid         the 16 bytes
 *   numeric      the normalized decimal string (1.0 and 1.00 agree)
 *   float        float4 and float8 as a little-endian float8, -0 as 0, one NaN
 *   bool         one byte, 0 or 1
 *   date         the day number as little-endian int64
 *   timestamp, timestamptz   the microsecond count as little-endian int64
 *   other        arrays, ranges, composites and jsonb element by element
 *                under these same rules (sketch_value_structured.c), and time,
 *                timetz, interval, inet, cidr and macaddr by their compared
 *                fields; tagged with a hash of the family signature, such as
 *                "array(integer)", so that int4[] and int8[] agree
 * A type with no such form (enums, whose labels can be renamed and whose
 * OIDs change in a dump; citext and nondeterministic collations, whose
 * equality is not bytewise; types without equality) is refused with an error
 * that says what to cast to.
 */
#include "sketch_value_family.h"

#include <math.h>
#include <sys/socket.h>

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/inet.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* Length of a bpchar without the trailing blanks its equality ignores. */
static size_t
bpchar_significant_length(const char *s, size_t length)
{
	while (length > 0 && s[length - 1] == ' ')
		length--;
	return length;
}

/* The bytes of a text-family value, as UTF-8. */
static void
text_canonical(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	const char *data;
	size_t		length;
	char	   *converted;

	if (kind->is_name)
	{
		data = NameStr(*DatumGetName(value));
		length = strnlen(data, NAMEDATALEN);
	}
	else if (kind->is_char)
	{
		/* as the cast to text spells it (a byte above 127 as \ooo) */
		data = out->allocated = DatumGetCString(DirectFunctionCall1(charout, value));
		length = strlen(data);
	}
	else
	{
		struct varlena *t = PG_DETOAST_DATUM_PACKED(value);

		if ((Pointer) t != DatumGetPointer(value))
			out->allocated = t;
		data = VARDATA_ANY(t);
		length = VARSIZE_ANY_EXHDR(t);
		if (kind->is_bpchar)
			length = bpchar_significant_length(data, length);
	}
	out->data = data;
	out->length = length;
	if (!kind->to_utf8)
		return;
	converted = pg_server_to_any(data, (int) length, PG_UTF8);
	if (converted != data)
	{
		if (out->allocated != NULL)
			pfree(out->allocated);
		out->allocated = converted;
		out->data = converted;
		out->length = strlen(converted);
	}
}

/* The compared fields of a time, timetz, interval, inet or macaddr. */
static void
fixed_other_canonical(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	switch (kind->other)
	{
		case OTHER_TIME:
			store_le64(out->buffer, (uint64) DatumGetTimeADT(value));
			break;
		case OTHER_TIMETZ:
			{
				TimeTzADT  *t = DatumGetTimeTzADTP(value);

				store_le64(out->buffer, (uint64) t->time);
				store_le64(out->buffer + 8, (uint64) (int64) t->zone);
				out->length = 16;
				break;
			}
		case OTHER_INTERVAL:
			{
				/* the span interval_eq compares: months of 30 days, days of 24 h */
				Interval   *i = DatumGetIntervalP(value);
				int64		days = i->time / USECS_PER_DAY + (int64) i->month * 30 + i->day;
				int64		fraction = i->time % USECS_PER_DAY;

				if (fraction < 0)
				{
					fraction += USECS_PER_DAY;
					days--;
				}
				store_le64(out->buffer, (uint64) days);
				store_le64(out->buffer + 8, (uint64) fraction);
				out->length = 16;
				break;
			}
		case OTHER_INET:
			{
				inet	   *address = DatumGetInetPP(value);
				int			bytes = ip_addrsize(address);

				out->buffer[0] = ip_family(address) == PGSQL_AF_INET ? 4 : 6;
				out->buffer[1] = ip_bits(address);
				memset(out->buffer + 2, 0, 14);
				memcpy(out->buffer + 2, ip_addr(address), Min(bytes, 14));
				out->length = 2 + bytes;
				if (bytes > 14)
				{
					uint8	   *all = palloc(2 + bytes);

					memcpy(all, out->buffer, 2);
					memcpy(all + 2, ip_addr(address), bytes);
					out->allocated = all;
					out->data = all;
				}
				break;
			}
		case OTHER_MACADDR:
			memcpy(out->buffer, DatumGetMacaddrP(value), sizeof(macaddr));
			out->length = sizeof(macaddr);
			break;
		default:
			/* arrays, ranges, composites and jsonb go to sketch_value_structured.c */
			elog(ERROR, "unexpected bloomsketch value form %u", kind->other);
	}
}

void
bs_canonical_bytes_general(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	/* the caller (canonical_bytes) has set data = buffer and length = 8 */
	switch (kind->family)
	{
		case BS_FAMILY_TEXT:
			text_canonical(kind, value, out);
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
			fixed_other_canonical(kind, value, out);
			break;
		default:
			/* integer, date and timestamps are handled inline */
			elog(ERROR, "unexpected bloomsketch value family %u", kind->family);
	}
}

/*
 * Whether a value of this format version hashes its family, in this
 * database, as the current version does: version 1 hashed family other
 * through the binary send form, and text in the database encoding, which is
 * UTF-8 itself in UTF-8 and SQL_ASCII databases (docs/format.md §8).
 */
static bool
hashes_as_current(uint8 version, uint8 family)
{
	int			encoding = GetDatabaseEncoding();

	if (version != 1)
		return true;
	if (family == BS_FAMILY_OTHER)
		return false;
	return family != BS_FAMILY_TEXT || encoding == PG_UTF8 || encoding == PG_SQL_ASCII;
}

uint8
bs_align_hash_version(uint8 *owned_version, uint8 owned_family, uint8 other_version,
					  uint8 other_family)
{
	uint8		newer = Max(*owned_version, other_version);

	if (bs_versions_combine(*owned_version, owned_family, other_version, other_family) ||
		!hashes_as_current(*owned_version, owned_family) ||
		!hashes_as_current(other_version, other_family))
		return 0;
	*owned_version = other_version;
	return newer;
}

void
bs_check_hash_rules(const char *type_name, uint8 version, uint8 family)
{
	if (hashes_as_current(version, family))
		return;
	if (family == BS_FAMILY_OTHER)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s of format version 1 holds values of family other, whose hashing has changed",
						type_name),
				 errdetail("Version 1 hashed such values through their binary send form, which depends on the client encoding and on OIDs."),
				 errhint("Build it again from its values with this version of bloomsketch.")));
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s of format version 1 holds text hashed in an unknown encoding", type_name),
			 errdetail("Version 1 hashed text in the database encoding; text is now hashed as UTF-8, and this database's encoding is %s.",
					   GetDatabaseEncodingName()),
			 errhint("Build it again from its values with this version of bloomsketch.")));
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
bs_family_mismatch_error(const char *type_name, const char *noun, uint8 family,
						 uint32 type_tag, const ValueKind *kind)
{
	const char *cast = family_cast(family);

	if (family == BS_FAMILY_OTHER && kind->family == BS_FAMILY_OTHER)
	{
		char	   *signature = bs_value_kind_signature(kind);

		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s holds values of another type than %s",
						type_name, format_type_be(kind->typid)),
				 errdetail("The %s was built from values whose signature has tag %08x; type %s has signature %s, tag %08x.",
						   noun, type_tag, format_type_be(kind->typid), signature,
						   value_kind_tag(kind)),
				 errhint("Cast the value to the type the %s was built from.", noun)));
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s holds %s values, not values of type %s",
					type_name, bs_family_name(family), format_type_be(kind->typid)),
			 errdetail("Type %s belongs to value family \"%s\"; values of different families never hash alike.",
					   format_type_be(kind->typid), bs_family_name(kind->family)),
			 cast ? errhint("Cast the value to %s, for example value::%s.", cast, cast)
			 : errhint("Cast the value to the type the %s was built from.", noun)));
}
