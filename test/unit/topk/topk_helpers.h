/*
 * topk_helpers.h — what the heavy-hitters unit tests (test_topk.c,
 * test_topk_codec.c, test_topk_merge.c) share.
 */
#ifndef TOPK_HELPERS_H
#define TOPK_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topk/bs_topk.h"
#include "topk/bs_topk_codec.h"
#include "topk/bs_topk_table.h"

/* malloc and free; release counts the pending tokens released */
extern const bs_topk_allocator test_memory;
extern unsigned long tokens_released;

/* An empty table on test_memory (exits when that fails). */
void		table_init(bs_topk_table *table, uint32_t counters);

/* The canonical bytes of an integer (little-endian int64), and back. */
void		integer_key(int64_t v, uint8_t key[8]);
int64_t		key_integer(const uint8_t *key);

/*
 * Count one integer as a value of family other (whose values carry a text),
 * its text pending (token v + 1) or given at once.
 */
void		count_integer(bs_topk_table *table, int64_t v, bool pending);

/* The stored form of a table (malloc'd): reduced, pending texts given, written, validated. */
bs_topk    *table_to_flat(bs_topk_table *table);

/* A part of a split stream: the rows i with part[i] == which. */
typedef struct split
{
	const uint32_t *part;
	uint32_t	which;
} split;

/* summarize's filter for a split (arg: a split). */
bool		in_part(size_t i, void *arg);

/*
 * The parts merged into one table, in order, and written once: what an
 * aggregate's fold does.
 */
bs_topk    *fold_all(const bs_topk *const *parts, uint32_t count);

/* Merge b into a copy of a: the fold of the two. */
bs_topk    *merge_two(const bs_topk *a, const bs_topk *b);

/* The summary of the values of a stream for which keep (when not NULL) says yes. */
bs_topk    *summarize(const int64_t *stream, size_t n, uint32_t counters, bool pending,
					  bool (*keep) (size_t i, void *arg), void *arg);

/* n Zipf(s) ranks 0 .. domain - 1 from a fixed seed (s = 0: uniform). */
int64_t    *zipf_stream(size_t n, uint32_t domain, double s, uint64_t seed);

/* The exact count of each value 0 .. domain - 1 of a stream. */
uint64_t   *exact_counts(const int64_t *stream, size_t n, uint32_t domain);

/*
 * The guarantees of bs_topk.h, checked exactly against exact counts of a
 * stream of n values from 0 .. domain - 1, and the texts of the values.
 */
void		check_guarantees(const bs_topk *topk, const uint64_t *exact, uint32_t domain,
							 uint64_t n, const char *what);

/* The codec's tests (test_topk_codec.c). */
void		test_topk_codec(void);

/* Guarantees after merging parts in many orders (test_topk_merge.c). */
void		test_guarantees_merged(void);

#endif							/* TOPK_HELPERS_H */
