/*
 * bs_fit_build.h — bloom_fit_agg's state while a group is built, and the
 * one state machine it runs: a list of the group's distinct hash pairs (a
 * sorted part and an unsorted tail of arriving pairs) until the list would
 * take half the bytes of the filter at the ceiling, then that filter's bits
 * (bs_fit_build.c).  Its canonical bytes are a fit_partial value
 * (bs_fit_state.h).  The SQL layer allocates it, wraps it as an expanded
 * object and reports its errors; the core does everything in between.
 */
#ifndef BS_FIT_BUILD_H
#define BS_FIT_BUILD_H

#include "bloom/bs_fit_state.h"
#include "common/bs_error.h"

/* Rows in flight in the bits form (a power of two; as bloom_agg's pipeline). */
#define BS_FIT_RING_DEPTH 16

/* A small group's state stays flat up to this many distinct hashes (512 bytes). */
#define BS_FIT_FLAT_MAX_HASHES 32

/* The caller's memory: a NULL from alloc or grow is BS_ERR_TOO_LARGE. */
typedef struct bs_fit_memory
{
	void	   *context;
	void	   *(*alloc) (void *context, size_t size);
	void	   *(*grow) (void *context, void *pointer, size_t size);
	void		(*free) (void *context, void *pointer);
} bs_fit_memory;

typedef struct bs_fit_build
{
	bs_fit_memory memory;
	double		fpr;
	uint64_t	ceiling;
	/* the hashes form: pairs[0 .. sorted) sorted, then `tail` unsorted */
	uint64_t   *pairs;
	uint64_t	sorted;
	uint64_t	tail;
	uint64_t	capacity;		/* pairs allocated, at most the threshold */
	/* the bits form: the group's filter at the ceiling, else NULL */
	uint64_t   *bits;
	/* bits form: pairs whose lines are being prefetched, oldest at ring_head */
	uint64_t	ring[2 * BS_FIT_RING_DEPTH];
	uint32_t	ring_head;
	uint32_t	ring_count;
	/* the header fields (last: its words, a flexible array, are not used) */
	bs_bloom	head;
} bs_fit_build;

/* The build of a flat fit_partial state (zeroed by the caller but for memory). */
bs_status	bs_fit_build_init(bs_fit_build *build, const bs_bloom *flat, bs_error *err);

/*
 * Sort the tail and merge it into the sorted part, or set the bits still in
 * flight: the content stays the same, and the fields are then exact.
 */
bs_status	bs_fit_build_merge_tail(bs_fit_build *build, bs_error *err);

/* Add one hash pair (its item is counted by the caller). */
bs_status	bs_fit_build_add_pair(bs_fit_build *build, uint64_t h1, uint64_t h2,
								  bs_error *err);

/* Add every hash or bit of a flat state (the combine step); items add up. */
bs_status	bs_fit_build_add_state(bs_fit_build *build, const bs_bloom *flat,
								   bs_error *err);

/* m of the canonical flat value, once the tail is merged. */
bs_status	bs_fit_build_flat_bits(bs_fit_build *build, uint64_t *bits, bs_error *err);

/*
 * Write the canonical flat value into `flat`, zeroed and of
 * bs_bloom_total_bytes(bits) bytes for the bits of bs_fit_build_flat_bits
 * (its length word is the caller's to set after).
 */
void		bs_fit_build_flatten(const bs_fit_build *build, bs_bloom *flat, uint64_t bits);

/*
 * A small group's state stays a flat fit_partial value of the hashes form
 * (up to BS_FIT_FLAT_MAX_HASHES pairs).  Adding a pair to a flat state
 * takes one of three steps: the pair is known (count the item in place),
 * the state grows by one pair (bs_fit_flat_insert into a value the caller
 * allocates), or the group moves to a bs_fit_build.  *at is where the pair
 * goes in the sorted list.
 */
typedef enum bs_fit_flat_step
{
	BS_FIT_FLAT_KNOWN,
	BS_FIT_FLAT_GROW,
	BS_FIT_FLAT_BUILD
} bs_fit_flat_step;

bs_fit_flat_step bs_fit_flat_add_step(const bs_bloom *state, uint64_t h1, uint64_t h2,
									  uint64_t *at);

/* Count one item in a state's header (flat or built), saturating at 2^64 - 1. */
void		bs_fit_flat_count_item(bs_bloom *state);

/* grown (one pair longer, header and prefix of state's): state's pairs with (h1, h2) at at. */
void		bs_fit_flat_insert(const bs_bloom *state, bs_bloom *grown, uint64_t at,
							   uint64_t h1, uint64_t h2);

/* Whether the union of two flat states stays a flat state. */
bool		bs_fit_flat_combine_fits(const bs_bloom *a, const bs_bloom *b);

/* The items and family of the union of a and b, into result (a's header). */
void		bs_fit_flat_combine_head(bs_bloom *result, const bs_bloom *a, const bs_bloom *b);

#endif							/* BS_FIT_BUILD_H */
