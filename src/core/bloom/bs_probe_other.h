/*
 * bs_probe_other.h — the positions of the probing schemes that are offered
 * for comparison with double hashing (bs_probe_other.c), out of line: the
 * inline hot path of bs_probe.h calls them for those schemes.
 */
#ifndef BS_PROBE_OTHER_H
#define BS_PROBE_OTHER_H

#include "bloom/bs_bloom.h"

/* Positions of the schemes other than double and blocked. */
void		bs_probe_set_other(bs_bloom *filter, const bs_probe *probe,
							   uint64_t first, uint64_t step);
bool		bs_probe_test_other(const bs_bloom *filter, const bs_probe *probe,
								uint64_t first, uint64_t step);
void		bs_probe_positions_other(const bs_probe *probe, uint64_t first,
									 uint64_t step, uint64_t *positions);

/* The independent scheme, straight from the value's bytes. */
void		bs_independent_set(bs_bloom *filter, const bs_probe *probe,
							   const void *data, size_t length);
bool		bs_independent_test(const bs_bloom *filter, const bs_probe *probe,
								const void *data, size_t length);
void		bs_independent_positions(const bs_probe *probe, const void *data,
									 size_t length, uint64_t *positions);

#endif							/* BS_PROBE_OTHER_H */
