/*
 * topksketch.h — declarations shared by the PostgreSQL layer of topksketch.
 */
#ifndef TOPKSKETCH_H
#define TOPKSKETCH_H

#include "bloomsketch.h"

#include "utils/expandeddatum.h"

#include "../core/topk/bs_topk.h"
#include "../core/topk/bs_topk_codec.h"
#include "../core/topk/bs_topk_table.h"
#include "../core/topk/bs_topk_text.h"

/*
 * A summary being built or merged: a PostgreSQL expanded object of type
 * topksketch (topksketch_state.c) around the core's table.  Values of the
 * families that carry a text (numeric, other: bs_topk_text.h) keep their SQL
 * value until the summary is written out, when the type's output function,
 * under fixed settings, gives the text of those still listed.
 */
typedef struct TopkState
{
	ExpandedObjectHeader header;
	bs_topk_table table;
	/* how the pending values (a Datum each, in the slot's token) become text */
	bool		has_output;
	FmgrInfo	output;
	int16		typlen;
	bool		typbyval;
	/* the stored form, once written: valid until the next change */
	bs_topk    *flat;
} TopkState;

/* The kind of the values counted, and how their text is found. */
typedef struct TopkValueType
{
	ValueKind	kind;
	bool		renders_key;	/* no text stored: topk_items renders the key */
	bool		check_utf8;		/* text in a SQL_ASCII database: keys must be UTF-8 */
	Oid			output_oid;		/* the type's output function */
	int16		typlen;
	bool		typbyval;
} TopkValueType;

/* ---- the state (topksketch_state.c) ---- */

/* A new, empty state of `counters` counters in a context under parent. */
TopkState  *bs_topk_state_create(MemoryContext parent, uint32 counters);

/* A new state holding a validated stored summary. */
TopkState  *bs_topk_state_from_flat(MemoryContext parent, const bs_topk *flat);

/* The expanded-object methods of a state, which tell ours from others. */
extern const ExpandedObjectMethods bs_topk_state_methods;

/* Our state behind a read-write datum, or NULL for anything else. */
static inline TopkState *
bs_topk_state_of(Datum datum)
{
	ExpandedObjectHeader *header;

	if (!VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(datum)))
		return NULL;
	header = DatumGetEOHP(datum);
	return header->eoh_methods == &bs_topk_state_methods ? (TopkState *) header : NULL;
}

/*
 * Set up the output function of the values counted, for a state that has
 * none yet and a type whose keys do not render its values.
 */
void		bs_topk_state_set_output(TopkState *state, const TopkValueType *type);

/* The summary has changed: forget its stored form. */
static inline void
bs_topk_state_changed(TopkState *state)
{
	if (unlikely(state->flat != NULL))
	{
		pfree(state->flat);
		state->flat = NULL;
	}
}

/*
 * Count `weight` (>= 1) occurrences of a value of this type into the state
 * (topksketch_agg.c): 22023 for another family, 22003 past a bigint total.
 */
void		bs_topk_state_count(TopkState *state, const TopkValueType *type, Datum value,
								uint64 weight);

/*
 * Give the state the family of a value of this type without counting it
 * (a count of 0): 22023 for another family, as counting would.
 */
void		bs_topk_state_adopt_family(TopkState *state, const TopkValueType *type, Datum value);

/* 22023 for a negative count given to topk_add or topk_weighted_agg. */
pg_noreturn void bs_topk_negative_count_error(int64 count);

/* Merge a stored summary into the state (22000, 22003 on failure). */
void		bs_topk_state_merge(TopkState *state, const bs_topk *other);

/* The stored form of the state, in CurrentMemoryContext. */
bs_topk    *bs_topk_state_flatten(TopkState *state);

/* The stored form of a state made for one call, which is then deleted. */
bs_topk    *bs_topk_state_finish(TopkState *state);

/* ---- stored values (topksketch_io.c) ---- */

#define DatumGetTopkP(d) ((bs_topk *) DatumGetPointer(d))

/*
 * A stored summary argument, detoasted (an expanded one flattened) and
 * validated in full: XX001 when a stored value is corrupt.
 */
const bs_topk *bs_topk_stored_arg(FunctionCallInfo fcinfo, int argnum);

/* The type of the values a function argument carries, for counting them. */
void		bs_topk_value_type_init(TopkValueType *type, FunctionCallInfo fcinfo);

/* 22021 for a text that is not UTF-8 in a SQL_ASCII database (topksketch_state.c). */
pg_noreturn void bs_topk_not_utf8_error(void);

/* ---- texts (topksketch_render.c) ---- */

/*
 * A listed value's text as a text datum in the database encoding: rendered
 * from its key under the session's settings where the family allows it,
 * else the stored text.
 */
Datum		bs_topk_entry_text(const bs_topk *topk, const bs_topk_entry *entry);

/*
 * Enter the fixed settings under which values that carry a text are
 * rendered (ISO dates, UTC, IntervalStyle postgres, shortest exact floats,
 * hex bytea); returns the level to give bs_topk_leave_fixed_settings.
 */
int			bs_topk_enter_fixed_settings(void);
void		bs_topk_leave_fixed_settings(int level);

#endif							/* TOPKSKETCH_H */
