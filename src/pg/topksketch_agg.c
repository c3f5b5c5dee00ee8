/*
 * topksketch_agg.c — topk_agg's transition and final functions, the
 * merge that is topk_agg's combine function and topk_merge_agg's
 * transition, and the counting of values that topk_add shares.
 *
 * The state is the topksketch itself (docs/design.md decision 1), as an
 * expanded object (topksketch_state.c): built on the first non-NULL value,
 * then counted into in place, so a row costs one hash and one probe of a
 * table of at most 3c values, and now and then a reduction whose O(c) work
 * is shared by c rows.  A value entering the table keeps its SQL value (a
 * copy, for a type passed by reference), not its text: where its family
 * carries a text at all, the type's output function runs only for the
 * values still listed when the state is written out.  Partial states merge
 * by the rule of Agarwal et al. (bs_topk.h), in any order, with the
 * guarantees intact; the bytes of a merged summary may depend on how the
 * rows were split.
 */
#include "topksketch.h"

#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"

/* What the transition function remembers between calls of one call site. */
typedef struct TopkAggCache
{
	TopkValueType type;
	/* the sizing of the (k, epsilon) seen last */
	bool		sized;
	int32		k;
	double		epsilon;
	uint32		counters;
} TopkAggCache;

void
bs_topk_value_type_init(TopkValueType *type, FunctionCallInfo fcinfo)
{
	bool		is_varlena;

	bs_value_kind_for_agg_value(&type->kind, fcinfo);
	type->renders_key = bs_topk_family_renders_key(type->kind.family);
	type->check_utf8 = type->kind.family == BS_FAMILY_TEXT &&
		GetDatabaseEncoding() == PG_SQL_ASCII;
	getTypeOutputInfo(type->kind.typid, &type->output_oid, &is_varlena);
	get_typlenbyval(type->kind.typid, &type->typlen, &type->typbyval);
}

static TopkAggCache *
agg_cache(FunctionCallInfo fcinfo)
{
	TopkAggCache *cache = (TopkAggCache *) fcinfo->flinfo->fn_extra;

	if (unlikely(cache == NULL))
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(TopkAggCache));
		bs_topk_value_type_init(&cache->type, fcinfo);
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/*
 * The counters this row's k (argument k_arg) and epsilon (the next, when
 * passed) ask for, sized when they change.
 */
static pg_attribute_always_inline uint32
row_counters(FunctionCallInfo fcinfo, TopkAggCache *cache, int k_arg, const char *aggregate)
{
	bool		with_epsilon = PG_NARGS() > k_arg + 1;
	int32		k;
	double		epsilon = 0;

	if (PG_ARGISNULL(k_arg) || (with_epsilon && PG_ARGISNULL(k_arg + 1)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s k and epsilon must not be null", aggregate),
				 errhint("Pass k, and epsilon if given, as constants.")));
	k = PG_GETARG_INT32(k_arg);
	if (with_epsilon)
		epsilon = PG_GETARG_FLOAT8(k_arg + 1);
	if (unlikely(!cache->sized || cache->k != k || cache->epsilon != epsilon))
	{
		bs_error	err;

		if (bs_topk_size(k, epsilon, with_epsilon, &cache->counters, &err) != BS_OK)
			bs_report(&err, BS_SOURCE_TEXT);
		cache->k = k;
		cache->epsilon = epsilon;
		cache->sized = true;
	}
	return cache->counters;
}

pg_noreturn static void
counters_mismatch_error(const char *aggregate, uint32 state_counters, uint32 row_counters)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s k and epsilon must be the same on every row of a group", aggregate),
			 errdetail("The group's summary has %u counters; this row asks for %u.",
					   state_counters, row_counters),
			 errhint("Pass constants, not columns, as k and epsilon.")));
}

pg_noreturn static void
total_range_error(uint64 total, uint64 weight)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("topksketch total count is out of range"),
			 errdetail("Counting %llu more values would take the total of %llu past the largest bigint, %lld.",
					   (unsigned long long) weight, (unsigned long long) total,
					   (long long) PG_INT64_MAX),
			 errhint("Count fewer values per summary.")));
}

/*
 * Values of this type will be counted into the state: their output
 * function, set up once, unless their keys render them.  Inline, as it runs
 * once per row.
 */
static pg_attribute_always_inline void
set_value_type(TopkState *state, const TopkValueType *type)
{
	if (!state->has_output && !type->renders_key)
		bs_topk_state_set_output(state, type);
}

/* A copy of a value in the state's memory, as the token of its pending text. */
static uint64
keep_value(TopkState *state, Datum value)
{
	MemoryContext context = state->header.eoh_context;
	const void *data;
	Size		size;
	void	   *copy;

	if (state->typbyval)
		return (uint64) value;
	if (state->typlen == -1)
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(value);

		data = v;
		size = VARSIZE_ANY(v);
	}
	else
	{
		data = DatumGetPointer(value);
		size = state->typlen == -2 ? strlen(data) + 1 : (Size) state->typlen;
	}
	copy = MemoryContextAlloc(context, size);
	memcpy(copy, data, size);
	return (uint64) (uintptr_t) copy;
}

/*
 * Count `weight` (>= 1) occurrences of one value into the state: inline,
 * since topk_agg runs it once per row with a weight of 1.
 */
static pg_attribute_always_inline void
count_value(TopkState *state, const TopkValueType *type, Datum value, uint64 weight)
{
	bs_topk_table *table = &state->table;
	CanonicalBytes bytes;
	bs_topk_slot *slot;
	bool		inserted;
	bs_error	err;

	if (unlikely(table->total > BS_TOPK_MAX_TOTAL - weight))
		total_range_error(table->total, weight);
	canonical_bytes(&type->kind, value, &bytes);
	bs_adopt_value_family("topksketch", "summary", BS_TOPK_FORMAT_VERSION, &table->version,
						  &table->family, &table->type_tag, &type->kind);
	bs_topk_state_changed(state);
	slot = bs_topk_table_count_many(table, bytes.data, (uint32) bytes.length,
									bs_topk_hash(bytes.data, bytes.length), weight, &inserted,
									&err);
	if (unlikely(slot == NULL))
		bs_report(&err, BS_SOURCE_BINARY);
	if (inserted)
	{
		if (unlikely(type->check_utf8) && !bs_utf8_is_valid(bytes.data, bytes.length))
			bs_topk_not_utf8_error();
		if (type->renders_key)
			slot->text_kind = BS_TOPK_TEXT_KEY;
		else
			slot->label.token = keep_value(state, value);
	}
	canonical_release(&bytes);
}

void
bs_topk_state_count(TopkState *state, const TopkValueType *type, Datum value, uint64 weight)
{
	set_value_type(state, type);
	count_value(state, type, value, weight);
}

void
bs_topk_state_adopt_family(TopkState *state, const TopkValueType *type, Datum value)
{
	CanonicalBytes bytes;

	/* the value's canonical bytes refuse what its family refuses (citext, say) */
	canonical_bytes(&type->kind, value, &bytes);
	bs_adopt_value_family("topksketch", "summary", BS_TOPK_FORMAT_VERSION, &state->table.version,
						  &state->table.family, &state->table.type_tag, &type->kind);
	bs_topk_state_changed(state);
	canonical_release(&bytes);
}

pg_noreturn void
bs_topk_negative_count_error(int64 count)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("topksketch count must not be negative"),
			 errdetail("The count given was %lld; a summary only counts up.", (long long) count),
			 errhint("Pass a count of 0 or more.")));
}

/*
 * The group's state for a row of topk_agg or topk_weighted_agg (k at
 * argument k_arg), created on the group's first counted row; inline, as it
 * runs once per row.
 */
static pg_attribute_always_inline TopkState *
row_state(FunctionCallInfo fcinfo, TopkAggCache *cache, int k_arg, const char *aggregate)
{
	MemoryContext aggcontext;
	TopkState  *state;
	uint32		counters;

	if (unlikely(!AggCheckCallContext(fcinfo, &aggcontext)))
		bs_not_in_aggregate_error(k_arg == 2 ? "topk_agg_trans" : "topk_weighted_agg_trans",
								  "topk_add(summary, value, count)");
	counters = row_counters(fcinfo, cache, k_arg, aggregate);
	if (unlikely(PG_ARGISNULL(0)))
		state = bs_topk_state_create(aggcontext, counters);
	else if ((state = bs_topk_state_of(PG_GETARG_DATUM(0))) == NULL)
	{
		/* a stored or foreign value (an INITCOND, say): counted into a copy */
		state = bs_topk_state_from_flat(aggcontext, bs_topk_stored_arg(fcinfo, 0));
	}
	if (unlikely(state->table.counters != counters))
		counters_mismatch_error(aggregate, state->table.counters, counters);
	set_value_type(state, &cache->type);
	return state;
}

PG_FUNCTION_INFO_V1(topk_agg_trans);
/*
 * topk_agg transition: count one value into the group's summary, in place.
 * Arguments: state, value, k, and epsilon in the four-argument form.
 */
Datum
topk_agg_trans(PG_FUNCTION_ARGS)
{
	TopkAggCache *cache;
	TopkState  *state;

	if (PG_ARGISNULL(1))
	{
		/* NULL values are skipped, as count(value) skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	cache = agg_cache(fcinfo);
	state = row_state(fcinfo, cache, 2, "topk_agg");
	count_value(state, &cache->type, PG_GETARG_DATUM(1), 1);
	PG_RETURN_DATUM(EOHPGetRWDatum(&state->header));
}

PG_FUNCTION_INFO_V1(topk_weighted_agg_trans);
/*
 * topk_weighted_agg transition: count a value `count` times into the group's
 * summary, in place.  Arguments: state, value, count, k, and epsilon in the
 * five-argument form.  Rows with a NULL value or count are skipped, as
 * sum() skips them; a count of 0 counts nothing but makes the group's
 * summary (of the value's family), as cms_agg's does.
 */
Datum
topk_weighted_agg_trans(PG_FUNCTION_ARGS)
{
	TopkAggCache *cache;
	TopkState  *state;
	int64		count;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	count = PG_GETARG_INT64(2);
	if (count < 0)
		bs_topk_negative_count_error(count);
	cache = agg_cache(fcinfo);
	state = row_state(fcinfo, cache, 3, "topk_weighted_agg");
	if (count > 0)
		count_value(state, &cache->type, PG_GETARG_DATUM(1), (uint64) count);
	else
		bs_topk_state_adopt_family(state, &cache->type, PG_GETARG_DATUM(1));
	PG_RETURN_DATUM(EOHPGetRWDatum(&state->header));
}

/* Merge two stored summaries into a new one. */
static Datum
merge_values(FunctionCallInfo fcinfo)
{
	const bs_topk *a = bs_topk_stored_arg(fcinfo, 0);
	const bs_topk *b = bs_topk_stored_arg(fcinfo, 1);
	TopkState  *state = bs_topk_state_from_flat(CurrentMemoryContext, a);

	bs_topk_state_merge(state, b);
	PG_RETURN_POINTER(bs_topk_state_finish(state));
}

PG_FUNCTION_INFO_V1(topk_merge);
/* topk_merge(a, b): the summary of both streams (Agarwal et al.'s merge); also operator +. */
Datum
topk_merge(PG_FUNCTION_ARGS)
{
	return merge_values(fcinfo);
}

PG_FUNCTION_INFO_V1(topk_merge_trans);
/*
 * Transition and combine function of topk_merge_agg, combine function of
 * topk_agg: merge a summary into the state in place (outside an aggregate,
 * into a new summary).
 */
Datum
topk_merge_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	TopkState  *state;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		return merge_values(fcinfo);
	if ((state = bs_topk_state_of(PG_GETARG_DATUM(0))) == NULL)
		state = bs_topk_state_from_flat(aggcontext, bs_topk_stored_arg(fcinfo, 0));
	bs_topk_state_merge(state, bs_topk_stored_arg(fcinfo, 1));
	PG_RETURN_DATUM(EOHPGetRWDatum(&state->header));
}

PG_FUNCTION_INFO_V1(topk_agg_final);
/* Final function of topk_agg and topk_merge_agg: the summary's stored form. */
Datum
topk_agg_final(PG_FUNCTION_ARGS)
{
	/* detoasting flattens a state (topksketch_state.c) */
	PG_RETURN_POINTER(bs_detoast_copy(PG_GETARG_DATUM(0)));
}
