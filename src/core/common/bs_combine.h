/*
 * bs_combine.h — what combining two values shares between the types: the
 * checks that both make alike before a union, intersection or merge, and
 * the format version and family the result takes.
 *
 * type_name names the type in messages ("bloomfilter"), noun one value of it
 * in details ("filter").
 */
#ifndef BS_COMBINE_H
#define BS_COMBINE_H

#include "bloom/bs_bloom.h"			/* bs_versions_combine, bs_combined_version */

/* BS_ERR_MISMATCH unless values of these versions and families combine. */
bs_status	bs_check_versions_combine(const char *type_name, const char *noun,
									  uint8_t version_a, uint8_t family_a,
									  uint8_t version_b, uint8_t family_b,
									  bs_error *err);

/* BS_ERR_MISMATCH unless the seeds are equal. */
bs_status	bs_check_same_seed(const char *type_name, const char *noun,
							   uint64_t seed_a, uint64_t seed_b, bs_error *err);

/* BS_ERR_MISMATCH unless the families agree; no family yet agrees with any. */
bs_status	bs_check_same_family(const char *type_name, const char *noun,
								 uint8_t family_a, uint32_t type_tag_a,
								 uint8_t family_b, uint32_t type_tag_b,
								 bs_error *err);

/*
 * The format version of a combination, kept in *version, and b's family
 * taken when a had none yet.
 */
void		bs_adopt_combined_family(uint8_t *version, uint8_t *family,
									 uint32_t *type_tag, uint8_t version_b,
									 uint8_t family_b, uint32_t type_tag_b);

#endif							/* BS_COMBINE_H */
