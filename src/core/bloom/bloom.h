/*
 * bloom.h — the index of src/core/bloom: the Bloom filter.
 *
 *	bs_bloom.h		the filter's layout, families, creation, counting and
 *					textbook sizing, merging (bs_bloom_merge.c)
 *	bs_probe.h		the hot path, inline: hashing a value to its positions
 *					and setting or testing them, and the same one call at a
 *					time (bs_probe.c); bs_probe_other.h the schemes offered
 *					for comparison; bs_block_simd.h its vector form
 *	bs_scheme.h		what each probing scheme allows and what its bits mean
 *	bs_estimate.h	item counts and current rates from a filter's bits
 *	bs_batch.h		many values against one filter in one call
 *	bs_fit.h		self-sized filters of bloom_fit_agg (bs_fit_size.c: the
 *					size a group gets); bs_fit_state.h the aggregate's state
 *	bs_bloom_codec.h	the validator, the stored and the text forms
 *
 * Exact rates and the sizing of new filters are in src/core/analysis.
 */
#ifndef BS_BLOOM_INDEX_H
#define BS_BLOOM_INDEX_H

#include "bloom/bs_batch.h"
#include "bloom/bs_block_simd.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_bloom_codec.h"
#include "bloom/bs_estimate.h"
#include "bloom/bs_fit.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_probe.h"
#include "bloom/bs_scheme.h"

#endif							/* BS_BLOOM_INDEX_H */
