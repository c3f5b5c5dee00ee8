/*
 * bloomfilter_fit_agg.c — bloom_fit_agg: a filter sized for the distinct
 * values its group received (docs/fit.md).
 *
 * The state is a bloomfilter of scheme fit_partial (docs/design.md decision
 * 1): the group's distinct 128-bit hashes while they are few, its filter at
 * the ceiling once they are not (bs_fit_state.h), both functions of the set
 * of hashes alone.  A small group's state is a flat value that grows by one
 * pair per new distinct value; a larger one is an expanded object
 * (bloomfilter_fit_state.c) around the core's state machine (bs_fit_build.h),
 * which also decides every step between the forms.  The final function decides the size once, from the whole
 * group: the smallest power of two at which the filter's own false-positive
 * rate is within the rate asked for (bs_fit.h), built from the hashes or
 * folded down from the ceiling.  So the result depends only on the set of
 * values, never on how the rows were split or ordered.
 */
#include "bloomsketch.h"
#include "bloomfilter_fit_state.h"

#include "../core/common/bs_combine.h"
#include "../core/bloom/bs_probe.h"

#include "utils/memutils.h"

/* The fixed seed of aggregate-built filters, as bloom_agg's. */
#define FIT_AGG_SEED 0
#define FIT_AGG_DEFAULT_FPR 0.01

/* What the transition function remembers between calls of one call site. */
typedef struct FitCache
{
	ValueKind	kind;
	bool		checked;
	double		fpr;
	int64		max_bits;
	uint64		ceiling;		/* of the (fpr, max_bits) checked last */
} FitCache;

static FitCache *
fit_cache(FunctionCallInfo fcinfo)
{
	FitCache   *cache = (FitCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FitCache));
		bs_value_kind_for_agg_value(&cache->kind, fcinfo);
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/* Check this row's rate and ceiling, unless they are those of the last row. */
static void
row_parameters(FunctionCallInfo fcinfo, FitCache *cache)
{
	double		fpr = FIT_AGG_DEFAULT_FPR;
	int64		max_bits = (int64) BS_FIT_DEFAULT_CEILING;
	bs_error	err;

	if ((PG_NARGS() > 2 && PG_ARGISNULL(2)) || (PG_NARGS() > 3 && PG_ARGISNULL(3)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_fit_agg false-positive rate and max_bits must not be null")));
	if (PG_NARGS() > 2)
		fpr = PG_GETARG_FLOAT8(2);
	if (PG_NARGS() > 3)
		max_bits = PG_GETARG_INT64(3);
	if (cache->checked && cache->fpr == fpr && cache->max_bits == max_bits)
		return;
	if (bs_check_fpr(fpr, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	if (max_bits > (int64) BS_BLOOM_MAX_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_fit_agg max_bits %lld is too large", (long long) max_bits),
				 errdetail("The largest self-sized filter has %llu bits (512 MB).",
						   (unsigned long long) BS_FIT_MAX_BITS)));
	if (max_bits < (int64) BS_FIT_MIN_CEILING)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_fit_agg max_bits must be at least %llu",
						(unsigned long long) BS_FIT_MIN_CEILING),
				 errdetail("The value given was %lld.", (long long) max_bits)));
	cache->fpr = fpr;
	cache->max_bits = max_bits;
	cache->ceiling = bs_fit_ceiling((uint64) max_bits);
	cache->checked = true;
}

/* 22023 unless the group's state was built with this row's rate and ceiling. */
static void
check_same_parameters(double fpr, uint64 ceiling, const FitCache *cache)
{
	if (fpr != cache->fpr || ceiling != cache->ceiling)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_fit_agg false-positive rate and max_bits must be the same on every row of a group"),
				 errdetail("The group's state has rate %g and ceiling %llu bits; this row asks for rate %g and ceiling %llu.",
						   fpr, (unsigned long long) ceiling, cache->fpr,
						   (unsigned long long) cache->ceiling),
				 errhint("Pass constants, not columns, as the rate and max_bits.")));
}

/* The state of a group's first value: a flat list of one hash. */
static Datum
first_state(const FitCache *cache, XXH128_hash_t hash)
{
	uint64		bits = bs_fit_hashes_state_bits(1);
	bs_bloom   *state = bs_alloc_value(CurrentMemoryContext, bs_bloom_total_bytes(bits),
									   "bloomfilter");

	/* PostgreSQL copies what the first call returns into the aggregate context */
	bs_fit_state_init(state, bits, cache->fpr, cache->ceiling,
					  FIT_AGG_SEED);
	adopt_family(state, &cache->kind);
	state->items = 1;
	state->words[BS_FIT_PREFIX_WORDS] = hash.low64;
	state->words[BS_FIT_PREFIX_WORDS + 1] = hash.high64;
	return PointerGetDatum(state);
}

/*
 * Add a hash to a flat state: in place when it is already there, else a new
 * flat value one pair longer (PostgreSQL copies it into the aggregate
 * context and frees the old one), else an expanded state.
 */
static Datum
add_to_flat(bs_bloom *state, XXH128_hash_t hash, MemoryContext aggcontext)
{
	uint64		at;
	bs_bloom   *grown;
	FitExpanded *expanded;

	switch (bs_fit_flat_add_step(state, hash.low64, hash.high64, &at))
	{
		case BS_FIT_FLAT_KNOWN:
			bs_fit_flat_count_item(state);
			return PointerGetDatum(state);
		case BS_FIT_FLAT_GROW:
			grown = bs_fit_flat_alloc(CurrentMemoryContext, state, bs_fit_state_count(state) + 1);
			bs_fit_flat_insert(state, grown, at, hash.low64, hash.high64);
			return PointerGetDatum(grown);
		case BS_FIT_FLAT_BUILD:
			break;
	}
	expanded = bs_fit_expand(aggcontext, state);
	bs_fit_flat_count_item(&expanded->build.head);
	bs_fit_add_pair(expanded, hash.low64, hash.high64);
	return EOHPGetRWDatum(&expanded->header);
}

/* A stored or shipped state: its shape checked, and of scheme fit_partial. */
static bs_bloom *
flat_state(Datum datum)
{
	bs_bloom   *state = (bs_bloom *) PG_DETOAST_DATUM(datum);
	bs_error	err;

	if (bs_bloom_check_state_shape(state, VARSIZE(state), &err) != BS_OK)
		bs_report_corrupt(&err);
	if (state->scheme != BS_SCHEME_FIT_PARTIAL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_fit_agg state must be a partial state of bloom_fit_agg"),
				 errdetail("The state has scheme \"%s\".", bs_scheme_name(state->scheme))));
	return state;
}

PG_FUNCTION_INFO_V1(bloom_fit_agg_trans);
/* bloom_fit_agg transition: add one value's hash to the group's state. */
Datum
bloom_fit_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	FitCache   *cache;
	CanonicalBytes bytes;
	XXH128_hash_t hash;
	FitExpanded *expanded;
	bs_bloom   *state;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		bs_not_in_aggregate_error("bloom_fit_agg_trans", "bloom_add(filter, value)");
	if (PG_ARGISNULL(1))
	{
		/* NULL values are skipped, as bloom_agg skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	cache = fit_cache(fcinfo);
	row_parameters(fcinfo, cache);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	hash = bs_hash128(bytes.data, bytes.length, FIT_AGG_SEED);
	canonical_release(&bytes);
	if (PG_ARGISNULL(0))
		return first_state(cache, hash);
	if ((expanded = bs_fit_expanded(PG_GETARG_DATUM(0))) != NULL)
	{
		check_same_parameters(expanded->build.fpr, expanded->build.ceiling, cache);
		adopt_family(&expanded->build.head, &cache->kind);
		bs_fit_flat_count_item(&expanded->build.head);
		bs_fit_add_pair(expanded, hash.low64, hash.high64);
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	state = flat_state(PG_GETARG_DATUM(0));
	check_same_parameters(bs_fit_state_fpr(state), bs_fit_state_ceiling(state), cache);
	adopt_family(state, &cache->kind);
	return add_to_flat(state, hash, aggcontext);
}

/* 22000 unless two states were built with the same rate, ceiling, seed and family. */
static void
check_states_combine(const bs_bloom *a, double fpr, uint64 ceiling, const bs_bloom *b)
{
	bs_error	err;

	if (fpr != bs_fit_state_fpr(b) || ceiling != bs_fit_state_ceiling(b))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("bloom_fit_agg states differ in rate or ceiling"),
				 errdetail("One state has rate %g and ceiling %llu bits, the other rate %g and ceiling %llu.",
						   fpr, (unsigned long long) ceiling, bs_fit_state_fpr(b),
						   (unsigned long long) bs_fit_state_ceiling(b))));
	if (bs_check_versions_combine("bloomfilter", "filter", a->version, a->family,
								  b->version, b->family, &err) != BS_OK ||
		bs_check_same_seed("bloomfilter", "filter", a->seed, b->seed, &err) != BS_OK ||
		bs_check_same_family("bloomfilter", "filter", a->family, a->type_tag, b->family,
							 b->type_tag, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
}

/* Two small lists whose union stays small: a new flat state. */
static Datum
merge_flat(const bs_bloom *a, const bs_bloom *b)
{
	uint64		na = bs_fit_state_count(a);
	uint64		nb = bs_fit_state_count(b);
	uint64	   *merged = palloc((na + nb) * 2 * sizeof(uint64));
	uint64		count = bs_fit_merge_unique(a->words + BS_FIT_PREFIX_WORDS, na,
											b->words + BS_FIT_PREFIX_WORDS, nb, merged);
	bs_bloom   *result = bs_fit_flat_alloc(CurrentMemoryContext, a, count);

	memcpy(result->words + BS_FIT_PREFIX_WORDS, merged, count * 2 * sizeof(uint64));
	pfree(merged);
	bs_fit_flat_combine_head(result, a, b);
	return PointerGetDatum(result);
}

PG_FUNCTION_INFO_V1(bloom_fit_agg_combine);
/* bloom_fit_agg combine: the union of two partial states (their sets of hashes). */
Datum
bloom_fit_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	FitExpanded *expanded;
	bs_bloom   *other;
	bs_bloom   *state;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		bs_not_in_aggregate_error("bloom_fit_agg_combine", "bloom_fit_agg(value)");
	other = flat_state(PG_GETARG_DATUM(1));
	if ((expanded = bs_fit_expanded(PG_GETARG_DATUM(0))) != NULL)
		check_states_combine(&expanded->build.head, expanded->build.fpr,
							 expanded->build.ceiling, other);
	else
	{
		state = flat_state(PG_GETARG_DATUM(0));
		check_states_combine(state, bs_fit_state_fpr(state), bs_fit_state_ceiling(state),
							 other);
		if (bs_fit_flat_combine_fits(state, other))
			return merge_flat(state, other);
		expanded = bs_fit_expand(aggcontext, state);
	}
	bs_fit_add_state(expanded, other);
	PG_RETURN_DATUM(EOHPGetRWDatum(&expanded->header));
}

/*
 * The group's filter, at the smallest power of two whose expected rate for
 * the group's n meets fpr (bs_fit_size): built there from its hashes, or,
 * when the state is the filter at the ceiling, folded down to the size
 * for the n its fill gives (bs_fit_size_of_bits).
 */
static bs_bloom *
fit_result(const bs_bloom *head, double fpr, uint64 ceiling, const uint64 *pairs,
		   uint64 count, const uint64 *ceiling_bits)
{
	uint32		hashes = head->hashes;
	uint64		chosen;
	bool		met;
	bs_bloom   *result;

	if (ceiling_bits != NULL)
		chosen = bs_fit_size_of_bits(ceiling_bits, ceiling, hashes, fpr, &met);
	else
		chosen = bs_fit_size(count, hashes, fpr, ceiling, &met);
	result = bs_bloom_alloc(CurrentMemoryContext, BS_SCHEME_FIT, chosen, hashes, head->seed);
	if (ceiling_bits != NULL)
	{
		uint64	   *work = palloc_extended(ceiling / 8, MCXT_ALLOC_HUGE);

		bs_copy_polled(work, ceiling_bits, ceiling / 8);
		bs_fit_fold_down(work, ceiling, chosen);
		bs_copy_polled(result->words, work, 8 * bs_bloom_word_count(chosen));
		pfree(work);
	}
	else
		bs_fit_set_pairs(result->words, chosen, hashes, pairs, count);
	result->version = head->version;
	result->family = head->family;
	result->type_tag = head->type_tag;
	result->items = head->items;
	result->reserved8 = met ? 0 : BS_FIT_OVER_CEILING;
	return result;
}

PG_FUNCTION_INFO_V1(bloom_fit_agg_final);
/* bloom_fit_agg final: the group's filter at the smallest size that meets the rate. */
Datum
bloom_fit_agg_final(PG_FUNCTION_ARGS)
{
	FitExpanded *expanded = bs_fit_expanded(PG_GETARG_DATUM(0));
	const bs_bloom *state;

	if (expanded != NULL)
	{
		/* read in place: merging the tail changes no content */
		bs_fit_merge_tail(expanded);
		PG_RETURN_POINTER(fit_result(&expanded->build.head, expanded->build.fpr,
									 expanded->build.ceiling, expanded->build.pairs,
									 expanded->build.sorted, expanded->build.bits));
	}
	state = flat_state(PG_GETARG_DATUM(0));
	if (bs_fit_state_form(state) == BS_FIT_FORM_BITS)
		PG_RETURN_POINTER(fit_result(state, bs_fit_state_fpr(state), bs_fit_state_ceiling(state),
									 NULL, 0, state->words + BS_FIT_PREFIX_WORDS));
	PG_RETURN_POINTER(fit_result(state, bs_fit_state_fpr(state), bs_fit_state_ceiling(state),
								 state->words + BS_FIT_PREFIX_WORDS,
								 bs_fit_state_count(state), NULL));
}
