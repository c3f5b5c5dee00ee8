/*
 * topksketch_render.c — the texts of a summary's values: rendered from the
 * key under the reading session's settings where the key determines the
 * value, and the fixed settings under which the others' texts are written
 * (bs_topk_text.h, docs/topk.md "Texts").
 */
#include "topksketch.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/*
 * The settings that change how values of family other print: dates and
 * times in ISO form and UTC, intervals in PostgreSQL's own style, floats
 * shortest exact, bytea in hex.
 */
static const char *const fixed_settings[][2] = {
	{"DateStyle", "ISO, YMD"},
	{"IntervalStyle", "postgres"},
	{"TimeZone", "UTC"},
	{"extra_float_digits", "1"},
	{"bytea_output", "hex"},
};

int
bs_topk_enter_fixed_settings(void)
{
	int			level = NewGUCNestLevel();

	/* saved like a function's SET clause: allowed in parallel workers too */
	for (size_t i = 0; i < lengthof(fixed_settings); i++)
		(void) set_config_option(fixed_settings[i][0], fixed_settings[i][1], PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return level;
}

void
bs_topk_leave_fixed_settings(int level)
{
	AtEOXact_GUC(true, level);
}

/* A value of a family rendered from its key, by its type's output function. */
static char *
render_key(uint8 family, const uint8 *key, uint32 length)
{
	uint64		word = length == 8 ? bs_load_le64(key) : 0;
	double		d;
	bytea	   *bytes;

	switch (family)
	{
		case BS_FAMILY_INTEGER:
			return DatumGetCString(DirectFunctionCall1(int8out, Int64GetDatum((int64) word)));
		case BS_FAMILY_FLOAT:
			memcpy(&d, &word, sizeof(d));
			return DatumGetCString(DirectFunctionCall1(float8out, Float8GetDatum(d)));
		case BS_FAMILY_DATE:
			return DatumGetCString(DirectFunctionCall1(date_out,
													   DateADTGetDatum((DateADT) (int64) word)));
		case BS_FAMILY_TIMESTAMP:
			return DatumGetCString(DirectFunctionCall1(timestamp_out,
													   TimestampGetDatum((Timestamp) word)));
		case BS_FAMILY_TIMESTAMPTZ:
			return DatumGetCString(DirectFunctionCall1(timestamptz_out,
													   TimestampTzGetDatum((TimestampTz) word)));
		case BS_FAMILY_BOOL:
			return DatumGetCString(DirectFunctionCall1(boolout, BoolGetDatum(key[0] != 0)));
		case BS_FAMILY_UUID:
			return DatumGetCString(DirectFunctionCall1(uuid_out, PointerGetDatum(key)));
		case BS_FAMILY_BYTEA:
			bytes = palloc(VARHDRSZ + length);
			SET_VARSIZE(bytes, VARHDRSZ + length);
			memcpy(VARDATA(bytes), key, length);
			return DatumGetCString(DirectFunctionCall1(byteaout, PointerGetDatum(bytes)));
		default:
			elog(ERROR, "topksketch family %u is not rendered from its key", family);
	}
	return NULL;				/* not reached */
}

Datum
bs_topk_entry_text(const bs_topk *topk, const bs_topk_entry *entry)
{
	const char *utf8 = (const char *) entry->text;
	char	   *converted;

	if (bs_topk_family_renders_key(topk->family) && topk->family != BS_FAMILY_TEXT)
		return CStringGetTextDatum(render_key(topk->family, entry->key, entry->key_length));
	/* a text key, or a stored text: UTF-8 (the validator saw to it) */
	converted = pg_any_to_server(utf8, (int) entry->text_length, PG_UTF8);
	if (converted != utf8)
		return CStringGetTextDatum(converted);
	return PointerGetDatum(cstring_to_text_with_len(utf8, (int) entry->text_length));
}
