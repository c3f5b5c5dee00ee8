/*
 * bs_topk_memory.h — how the files of the heavy-hitters table allocate:
 * through the caller's allocator (bs_topk_table.h), reporting a NULL as
 * BS_ERR_TOO_LARGE.  Internal to bs_topk_table.c and bs_topk_keys.c.
 */
#ifndef BS_TOPK_MEMORY_H
#define BS_TOPK_MEMORY_H

#include <inttypes.h>

#include "topk/bs_topk_slots.h"

static inline bs_status
bs_topk_out_of_memory(bs_error *err, uint64_t bytes)
{
	return bs_fail(err, BS_ERR_TOO_LARGE, "out of memory for a topksketch",
				   "Allocating %" PRIu64 " bytes failed.", bytes);
}

static inline void *
bs_topk_alloc(bs_topk_table *table, size_t size)
{
	return table->memory.alloc(table->memory.context, size);
}

static inline void
bs_topk_free(bs_topk_table *table, void *pointer)
{
	if (pointer != NULL)
		table->memory.free(table->memory.context, pointer);
}

#endif							/* BS_TOPK_MEMORY_H */
