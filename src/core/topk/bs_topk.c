/*
 * bs_topk.c — entries, sizing, compatibility and order of heavy-hitters
 * summaries (bs_topk.h).
 */
#include "topk/bs_topk.h"

#include <math.h>
#include <string.h>

#include "common/bs_combine.h"

uint64_t
bs_topk_write_entry(uint8_t *p, uint8_t family, uint64_t count, uint64_t lower,
					const uint8_t *key, uint32_t key_length, const uint8_t *text,
					uint32_t text_length, bool text_is_key)
{
	uint8_t    *start = p;

	p += bs_topk_put_varint(p, lower);
	p += bs_topk_put_varint(p, lower - count);
	p += bs_topk_put_varint(p, key_length);
	if (bs_topk_family_has_text(family))
		p += bs_topk_put_varint(p, text_is_key ? 0 : text_length + UINT64_C(1));
	if (key_length > 0)
		memcpy(p, key, key_length);
	p += key_length;
	if (bs_topk_family_has_text(family) && !text_is_key)
	{
		if (text_length > 0)
			memcpy(p, text, text_length);
		p += text_length;
	}
	return (uint64_t) (p - start);
}

int
bs_topk_key_compare(const uint8_t *a, uint32_t a_length, const uint8_t *b,
					uint32_t b_length)
{
	uint32_t	common = a_length < b_length ? a_length : b_length;
	int			c = common > 0 ? memcmp(a, b, common) : 0;

	if (c != 0)
		return c < 0 ? -1 : 1;
	return a_length < b_length ? -1 : a_length > b_length ? 1 : 0;
}

bool
bs_topk_find(const bs_topk *topk, const uint8_t *key, uint32_t key_length,
			 bs_topk_entry *entry)
{
	uint64_t	offset = 0;

	for (uint32_t i = 0; i < topk->entries; i++)
	{
		int			c;

		bs_poll_at(i);
		bs_topk_read_entry(topk, &offset, entry);
		c = bs_topk_key_compare(entry->key, entry->key_length, key, key_length);
		if (c == 0)
			return true;
		if (c > 0)
			break;
	}
	return false;
}

bs_status
bs_topk_size(int64_t k, double epsilon, bool with_epsilon, uint32_t *counters,
			 bs_error *err)
{
	double		needed;

	if (k < BS_TOPK_MIN_COUNTERS)
		return bs_hint(err, bs_fail(err, BS_ERR_PARAM, "topksketch k must be at least 1",
									"The value given was %lld.", (long long) k),
					   "Ask for the number of most frequent values you want, such as 10.");
	if (k > BS_TOPK_MAX_COUNTERS)
		return bs_hint(err, bs_fail(err, BS_ERR_TOO_LARGE, "topksketch k is too large",
									"A summary holds at most %d counters; %lld were asked for.",
									BS_TOPK_MAX_COUNTERS, (long long) k),
					   "Ask for fewer values.");
	*counters = (uint32_t) k;
	if (!with_epsilon)
		return BS_OK;
	if (!(epsilon > 0.0 && epsilon < 1.0))
		return bs_hint(err, bs_fail(err, BS_ERR_PARAM, "topksketch epsilon must be between 0 and 1",
									"The value given was %g.", epsilon),
					   "Use the error allowed as a fraction of the total, such as 0.01.");
	/* every bound within epsilon * N needs N / (c + 1) <= epsilon * N */
	needed = ceil(1.0 / epsilon) - 1.0;
	/* not the count itself: 1e-300 needs a 300-digit one, 1e-320 infinitely many */
	if (!(needed <= BS_TOPK_MAX_COUNTERS))
		return bs_hint(err, bs_fail(err, BS_ERR_TOO_LARGE, "topksketch epsilon is too small",
									"Epsilon %.3g needs more than the %d counters a summary holds at most.",
									epsilon, BS_TOPK_MAX_COUNTERS),
					   "Use an epsilon of 0.000001 or more.");
	if (needed > *counters)
		*counters = (uint32_t) needed;
	return BS_OK;
}

bs_status
bs_topk_check_compatible(uint32_t counters_a, uint8_t version_a, uint8_t family_a,
						 uint32_t type_tag_a, const bs_topk *b, bs_error *err)
{
	bs_status	status;

	if (counters_a != b->counters)
		return bs_hint(err, bs_fail(err, BS_ERR_MISMATCH, "topksketch numbers of counters differ",
									"One summary has %u counters, the other %u.", counters_a,
									b->counters),
					   "Merge summaries built with the same k and epsilon.");
	if ((status = bs_check_versions_combine("topksketch", "summary", version_a, family_a,
											b->version, b->family, err)) != BS_OK)
		return status;
	return bs_check_same_family("topksketch", "summary", family_a, type_tag_a, b->family,
								b->type_tag, err);
}

/* -1, 0 or 1 as a is below, equal to or above b. */
static int
order(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

int
bs_topk_compare(const bs_topk *a, const bs_topk *b)
{
	int			c;

	if ((c = order(a->counters, b->counters)) != 0 ||
		(c = order(a->family, b->family)) != 0 ||
		(c = order(a->type_tag, b->type_tag)) != 0 ||
		(c = order(a->version, b->version)) != 0 ||
		(c = order(a->total, b->total)) != 0 ||
		(c = order(a->error, b->error)) != 0 ||
		(c = order(a->entries, b->entries)) != 0)
		return c;
	/* the payloads, as byte strings */
	return bs_topk_key_compare(a->payload, (uint32_t) a->payload_bytes, b->payload,
							   (uint32_t) b->payload_bytes);
}
