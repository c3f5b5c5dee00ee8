/*
 * topksketch_state.c — a summary being built or merged: an expanded object
 * of type topksketch around the core's table (bs_topk_table.h).
 *
 * topk_agg's state is the topksketch itself (docs/design.md decision 1), but
 * its working form is a hash table of up to 3c values that the stored form,
 * sorted and reduced to c, is not.  So the state is a PostgreSQL expanded
 * object (utils/expandeddatum.h), as bloom_agg's large state is: PostgreSQL
 * keeps it as the aggregate's state without copying it (its memory context
 * is a child of the aggregate's), and whoever needs the value's bytes (the
 * final function, a parallel worker handing its partial state to the
 * leader, a distributed engine printing it with the type's output function)
 * asks it to flatten itself.  Flattening reduces the table to c values,
 * turns the values still listed into text with their type's output
 * function where their family carries a text (under fixed settings), and
 * writes the stored form, which it keeps until the next change.  Reducing is itself a step of the algorithm, so a state may go on
 * counting after it was flattened (a window aggregate does that).
 */
#include "topksketch.h"

#include "mb/pg_wchar.h"
#include "utils/memutils.h"

/* ---- the table's memory: the state's context ---- */

static void *
state_alloc(void *context, size_t size)
{
	TopkState  *state = context;

	return MemoryContextAlloc(state->header.eoh_context, size);
}

static void
state_free(void *context, void *pointer)
{
	(void) context;
	pfree(pointer);
}

/* A pending value leaves the table: free its copy. */
static void
state_release(void *context, uint64_t token)
{
	TopkState  *state = context;

	if (!state->typbyval && token != 0)
		pfree((void *) (uintptr_t) token);
}

/* ---- the stored form ---- */

pg_noreturn void
bs_topk_not_utf8_error(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
			 errmsg("topk_agg needs text in UTF-8"),
			 errdetail("A summary keeps its texts in UTF-8, and this SQL_ASCII database holds a value that is not."),
			 errhint("Convert the values to UTF-8, or count them as bytea.")));
}

/*
 * The text of a pending value, as UTF-8, into the table.  A SQL_ASCII
 * database's text has no encoding: its bytes are kept when they are UTF-8.
 */
static void
give_text(TopkState *state, bs_topk_slot *slot)
{
	Datum		value = (Datum) slot->label.token;
	char	   *text = OutputFunctionCall(&state->output, value);
	size_t		length = strlen(text);
	char	   *utf8 = text;
	bs_error	err;

	if (GetDatabaseEncoding() != PG_SQL_ASCII)
		utf8 = pg_server_to_any(text, (int) length, PG_UTF8);
	else if (!bs_utf8_is_valid((const uint8 *) text, length))
		bs_topk_not_utf8_error();
	if (utf8 != text)
		length = strlen(utf8);
	if (bs_topk_table_set_text(&state->table, slot, (const uint8 *) utf8, (uint32) length,
							   &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
}

/*
 * Give every pending value its text, under fixed settings so that the
 * stored bytes do not depend on the session's.
 */
static void
give_pending_texts(TopkState *state)
{
	bs_topk_table *table = &state->table;
	MemoryContext texts = NULL;
	MemoryContext old = CurrentMemoryContext;
	int			level = -1;

	for (uint32 i = 0; i < table->used; i++)
	{
		if (table->slots[i].text_kind != BS_TOPK_TEXT_PENDING)
			continue;
		if (!state->has_output)
			elog(ERROR, "topksketch state holds a value without its type");
		if (texts == NULL)
		{
			/* the output functions' garbage goes with a context of its own */
			texts = AllocSetContextCreate(old, "topksketch texts", ALLOCSET_SMALL_SIZES);
			/* numeric's output reads no setting */
			if (table->family == BS_FAMILY_OTHER)
				level = bs_topk_enter_fixed_settings();
			MemoryContextSwitchTo(texts);
		}
		give_text(state, &table->slots[i]);
		MemoryContextReset(texts);
	}
	if (texts != NULL)
	{
		MemoryContextSwitchTo(old);
		MemoryContextDelete(texts);
		if (level >= 0)
			bs_topk_leave_fixed_settings(level);
	}
}

/* The stored form of the state, written once per change into its context. */
static const bs_topk *
ensure_flat(TopkState *state)
{
	bs_topk_table *table = &state->table;
	uint64		bytes;
	bs_error	err;

	if (state->flat != NULL)
		return state->flat;
	bs_topk_table_reduce(table, table->counters);
	give_pending_texts(state);
	if (bs_topk_table_flat_bytes(table, &bytes, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	state->flat = bs_alloc_value(state->header.eoh_context, bytes, "topksketch");
	if (bs_topk_table_write(table, state->flat, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return state->flat;
}

/* Expanded-object method: the size of the stored form. */
static Size
state_flat_size(ExpandedObjectHeader *header)
{
	return VARSIZE(ensure_flat((TopkState *) header));
}

/* Expanded-object method: the stored form. */
static void
state_flatten_into(ExpandedObjectHeader *header, void *result, Size allocated_size)
{
	const bs_topk *flat = ensure_flat((TopkState *) header);

	if (allocated_size != VARSIZE(flat))
		elog(ERROR, "topksketch state flattened into %zu bytes instead of %u",
			 allocated_size, VARSIZE(flat));
	bs_copy_polled(result, flat, allocated_size);
}

const ExpandedObjectMethods bs_topk_state_methods = {
	state_flat_size,
	state_flatten_into
};

bs_topk    *
bs_topk_state_flatten(TopkState *state)
{
	const bs_topk *flat = ensure_flat(state);
	bs_topk    *copy = palloc(VARSIZE(flat));

	bs_copy_polled(copy, flat, VARSIZE(flat));
	return copy;
}

bs_topk    *
bs_topk_state_finish(TopkState *state)
{
	bs_topk    *result = bs_topk_state_flatten(state);

	DeleteExpandedObject(EOHPGetRWDatum(&state->header));
	return result;
}

/* ---- making and changing states ---- */

TopkState *
bs_topk_state_create(MemoryContext parent, uint32 counters)
{
	/* small blocks: a GROUP BY may keep one state per group */
	MemoryContext context = AllocSetContextCreate(parent, "topksketch state",
												  ALLOCSET_SMALL_SIZES);
	TopkState  *state = MemoryContextAllocZero(context, sizeof(TopkState));
	bs_topk_allocator memory = {state_alloc, state_free, state_release, state};
	bs_error	err;

	EOH_init_header(&state->header, &bs_topk_state_methods, context);
	state->typbyval = true;
	if (bs_topk_table_init(&state->table, counters, &memory, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return state;
}

TopkState *
bs_topk_state_from_flat(MemoryContext parent, const bs_topk *flat)
{
	TopkState  *state = bs_topk_state_create(parent, flat->counters);

	bs_topk_state_merge(state, flat);
	return state;
}

void
bs_topk_state_set_output(TopkState *state, const TopkValueType *type)
{
	fmgr_info_cxt(type->output_oid, &state->output, state->header.eoh_context);
	state->typlen = type->typlen;
	state->typbyval = type->typbyval;
	state->has_output = true;
	/* a value passed by value is its own token: nothing to free */
	state->table.memory.release = state->typbyval ? NULL : state_release;
}

void
bs_topk_state_merge(TopkState *state, const bs_topk *other)
{
	bs_error	err;

	bs_topk_state_changed(state);
	if (bs_topk_table_merge(&state->table, other, &err) != BS_OK)
		bs_report_arith(&err);
}
