/*
 * bloomfilter_fit_state.h — bloom_fit_agg's state while it is being built: a flat
 * fit_partial bloomfilter for a small group, or an expanded object (the
 * hash list with an unsorted tail, or the bits at the ceiling) for a larger
 * one, which flattens to the canonical fit_partial value whenever
 * PostgreSQL needs its bytes (a partial aggregate's tuple, the output
 * function).
 */
#ifndef BLOOMFILTER_FIT_STATE_H
#define BLOOMFILTER_FIT_STATE_H

#include "bloomsketch.h"

#include "../core/bloom/bs_fit_build.h"

#include "utils/expandeddatum.h"

typedef struct FitExpanded
{
	ExpandedObjectHeader header;
	bs_fit_build build;			/* the state machine, in the core */
} FitExpanded;

/* Our expanded state behind a datum (read-write or read-only), or NULL. */
FitExpanded *bs_fit_expanded(Datum datum);

/* A new expanded state, in its own context under `parent`, from a flat state. */
FitExpanded *bs_fit_expand(MemoryContext parent, const bs_bloom *flat);

/* bs_fit_build_merge_tail, its errors reported. */
void		bs_fit_merge_tail(FitExpanded *state);

/* bs_fit_build_add_pair (its item is counted by the caller), its errors reported. */
void		bs_fit_add_pair(FitExpanded *state, uint64 h1, uint64 h2);

/* bs_fit_build_add_state (the combine step), its errors reported. */
void		bs_fit_add_state(FitExpanded *state, const bs_bloom *flat);

/* A flat state of the hashes form with count hashes, its prefix and header from `like`. */
bs_bloom   *bs_fit_flat_alloc(MemoryContext context, const bs_bloom *like, uint64 count);

#endif							/* BLOOMFILTER_FIT_STATE_H */
