/*
 * sketch_agg.c — the state of the aggregates that merge values in place
 * (bloom_union_agg, bloom_intersect_agg, cms_merge_agg, and the combine
 * functions of bloom_agg and cms_agg), alike for filters and sketches.
 */
#include "bloomsketch.h"

/*
 * The state starts as PostgreSQL's copy of the first non-NULL input (the
 * transition function is strict); if that copy is still TOASTed it is
 * expanded once into the aggregate context, and then updated in place
 * (docs/design.md decision 1).  Outside an aggregate, work on a copy.
 */
struct varlena *
bs_merge_state_arg(FunctionCallInfo fcinfo)
{
	MemoryContext aggcontext;
	struct varlena *raw = (struct varlena *) PG_GETARG_POINTER(0);
	struct varlena *state;
	MemoryContext old;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		return bs_detoast_copy(PG_GETARG_DATUM(0));
	if (!VARATT_IS_EXTENDED(raw))
		return raw;
	old = MemoryContextSwitchTo(aggcontext);
	state = bs_detoast_copy(PG_GETARG_DATUM(0));
	MemoryContextSwitchTo(old);
	return state;
}
