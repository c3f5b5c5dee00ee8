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

#include "../core/bloom/bs_fit_state.h"

#include "utils/expandeddatum.h"

/* Rows in flight in the bits form (a power of two; as bloom_agg's pipeline). */
#define FIT_RING_DEPTH 16

/* A small group's state stays flat up to this many distinct hashes (512 bytes). */
#define FIT_FLAT_MAX_HASHES 32

typedef struct FitExpanded
{
	ExpandedObjectHeader header;
	double		fpr;
	uint64		ceiling;
	/* the hashes form: pairs[0 .. sorted) sorted, then `tail` unsorted */
	uint64	   *pairs;
	uint64		sorted;
	uint64		tail;
	uint64		capacity;		/* pairs allocated, at most the threshold */
	/* the bits form: the group's filter at the ceiling, else NULL */
	uint64	   *bits;
	/* bits form: pairs whose lines are being prefetched, oldest at ring_head */
	uint64		ring[2 * FIT_RING_DEPTH];
	uint32		ring_head;
	uint32		ring_count;
	/* the header fields (last: its words, a flexible array, are not used) */
	bs_bloom	head;
} FitExpanded;

/* Our expanded state behind a datum (read-write or read-only), or NULL. */
FitExpanded *bs_fit_expanded(Datum datum);

/* A new expanded state, in its own context under `parent`, from a flat state. */
FitExpanded *bs_fit_expand(MemoryContext parent, const bs_bloom *flat);

/*
 * Sort the tail and merge it into the sorted part, or set the bits still in
 * flight: the content stays the same, and the fields are then exact.
 */
void		bs_fit_merge_tail(FitExpanded *state);

/* Add one hash pair (its item is counted by the caller). */
void		bs_fit_add_pair(FitExpanded *state, uint64 h1, uint64 h2);

/* Add every hash or bit of a flat state (the combine step); items add up. */
void		bs_fit_add_state(FitExpanded *state, const bs_bloom *flat);

/* A flat state of the hashes form with count hashes, its prefix and header from `like`. */
bs_bloom   *bs_fit_flat_alloc(MemoryContext context, const bs_bloom *like, uint64 count);

#endif							/* BLOOMFILTER_FIT_STATE_H */
