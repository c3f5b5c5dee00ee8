/*
 * bs_combine.c — checks and results of combining two values, alike for the
 * three types (bs_combine.h).
 */
#include "common/bs_combine.h"

#include <inttypes.h>

bs_status
bs_check_versions_combine(const char *type_name, const char *noun, uint8_t version_a,
						  uint8_t family_a, uint8_t version_b, uint8_t family_b,
						  bs_error *err)
{
	if (bs_versions_combine(version_a, family_a, version_b, family_b))
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_MISMATCH, "%s format versions differ", type_name,
						 "One %s has format version %u, the other %u, and their value family hashes differently in the two.",
						 noun, version_a, version_b);
}

bs_status
bs_check_same_seed(const char *type_name, const char *noun, uint64_t seed_a,
				   uint64_t seed_b, bs_error *err)
{
	if (seed_a == seed_b)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_MISMATCH, "%s seeds differ", type_name,
						 "One %s has seed %" PRId64 ", the other seed %" PRId64 ".",
						 noun, (int64_t) seed_a, (int64_t) seed_b);
}

bs_status
bs_check_same_family(const char *type_name, const char *noun, uint8_t family_a,
					 uint32_t type_tag_a, uint8_t family_b, uint32_t type_tag_b,
					 bs_error *err)
{
	char		token_a[32];
	char		token_b[32];

	if (family_a == BS_FAMILY_NONE || family_b == BS_FAMILY_NONE ||
		(family_a == family_b && type_tag_a == type_tag_b))
		return BS_OK;
	bs_family_token(family_a, type_tag_a, token_a, sizeof(token_a));
	bs_family_token(family_b, type_tag_b, token_b, sizeof(token_b));
	return bs_fail_typed(err, BS_ERR_MISMATCH, "%s value families differ", type_name,
						 "One %s holds family \"%s\", the other \"%s\".", noun, token_a, token_b);
}

void
bs_adopt_combined_family(uint8_t *version, uint8_t *family, uint32_t *type_tag,
						 uint8_t version_b, uint8_t family_b, uint32_t type_tag_b)
{
	*version = bs_combined_version(*version, *family, version_b, family_b);
	if (*family == BS_FAMILY_NONE)
	{
		*family = family_b;
		*type_tag = type_tag_b;
	}
}
