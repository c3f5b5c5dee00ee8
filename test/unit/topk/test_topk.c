/*
 * test_topk.c — unit tests of the heavy-hitters summary core
 * (src/core/topk/).
 *
 * The guarantees are deterministic, so they are checked exactly against
 * exact counts: on Zipf streams and uniform ones, for several numbers of
 * counters, and after merging partial summaries in many orders and splits.
 * Then the stored form: round trips through the serialized and text forms,
 * and the validator's refusals of hostile bytes.  The last line is
 * "topk: N checks, M failed"; the exit status is non-zero when M > 0.
 * Everything pseudo-random comes from fixed seeds.
 */
#include <inttypes.h>
#include <math.h>

#include "check.h"
#include "common/bs_hash.h"
#include "topk/bs_topk_select.h"
#include "topk_helpers.h"

unsigned long checks_run;
unsigned long checks_failed;

/* ---- the tests ---- */

static void
test_sizing(void)
{
	bs_error	err;
	uint32_t	c = 0;

	CHECK_STATUS(bs_topk_size(100, 0, false, &c, &err), BS_OK, &err);
	CHECK(c == 100);
	CHECK_STATUS(bs_topk_size(10, 0.01, true, &c, &err), BS_OK, &err);
	CHECK(c == 99);				/* N / 100 <= 0.01 N */
	CHECK_STATUS(bs_topk_size(500, 0.01, true, &c, &err), BS_OK, &err);
	CHECK(c == 500);
	CHECK_STATUS(bs_topk_size(1, 0.999, true, &c, &err), BS_OK, &err);
	CHECK(c == 1);
	CHECK_STATUS(bs_topk_size(0, 0, false, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_topk_size(-5, 0, false, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_topk_size(BS_TOPK_MAX_COUNTERS, 0, false, &c, &err), BS_OK, &err);
	CHECK_STATUS(bs_topk_size(BS_TOPK_MAX_COUNTERS + 1, 0, false, &c, &err), BS_ERR_TOO_LARGE,
				 &err);
	CHECK_STATUS(bs_topk_size(10, 0, true, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_topk_size(10, 1, true, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_topk_size(10, NAN, true, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_topk_size(10, 1e-7, true, &c, &err), BS_ERR_TOO_LARGE, &err);
}

/* With more counters than distinct values nothing is subtracted: exact counts. */
static void
test_exact_when_small(void)
{
	int64_t		stream[] = {5, 3, 5, 7, 5, 3, -1, 0, 5};
	size_t		n = sizeof(stream) / sizeof(stream[0]);
	bs_topk    *topk = summarize(stream, n, 5, true, NULL, NULL);
	uint64_t	offset = 0;
	int64_t		expect_value[] = {0, 3, 5, 7, -1};	/* in key order: LE bytes */
	uint64_t	expect_count[] = {1, 2, 4, 1, 1};

	CHECK(topk->entries == 5 && topk->error == 0 && topk->total == n);
	for (uint32_t i = 0; i < topk->entries && i < 5; i++)
	{
		bs_topk_entry e;

		bs_topk_read_entry(topk, &offset, &e);
		CHECKF(key_integer(e.key) == expect_value[i] && e.count == expect_count[i] &&
			   e.lower == e.count, "entry %u", i);
	}
	free(topk);
	/* one counter: the majority vote */
	topk = summarize(stream, n, 1, false, NULL, NULL);
	offset = 0;
	CHECK(topk->entries == 1);
	if (topk->entries == 1)
	{
		bs_topk_entry e;

		bs_topk_read_entry(topk, &offset, &e);
		CHECK(key_integer(e.key) == 5);
	}
	free(topk);
}

static void
test_guarantees_one_stream(void)
{
	static const uint32_t counters[] = {1, 2, 3, 10, 50, 200};
	uint32_t	domain = 20000;
	size_t		n = 200000;
	int64_t    *zipf = zipf_stream(n, domain, 1.1, 11);
	int64_t    *flat = zipf_stream(n, domain, 0.0, 12);
	uint64_t   *zipf_exact = exact_counts(zipf, n, domain);
	uint64_t   *flat_exact = exact_counts(flat, n, domain);
	char		what[64];

	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
	{
		bs_topk    *a = summarize(zipf, n, counters[i], true, NULL, NULL);
		bs_topk    *b = summarize(flat, n, counters[i], false, NULL, NULL);

		snprintf(what, sizeof(what), "Zipf(1.1), c = %u", counters[i]);
		check_guarantees(a, zipf_exact, domain, n, what);
		snprintf(what, sizeof(what), "uniform, c = %u", counters[i]);
		check_guarantees(b, flat_exact, domain, n, what);
		free(a);
		free(b);
	}
	/* the heaviest values of a Zipf stream are counted nearly exactly */
	{
		bs_topk    *a = summarize(zipf, n, 200, true, NULL, NULL);
		uint64_t	offset = 0;
		uint32_t	exact_top = 0;

		for (uint32_t i = 0; i < a->entries; i++)
		{
			bs_topk_entry e;

			bs_topk_read_entry(a, &offset, &e);
			if (key_integer(e.key) < 10 && e.lower == zipf_exact[key_integer(e.key)])
				exact_top++;
		}
		CHECKF(exact_top == 10, "%u of the 10 heaviest counted exactly", exact_top);
		free(a);
	}
	free(zipf);
	free(flat);
	free(zipf_exact);
	free(flat_exact);
}


/* Merging a with b gives the bytes of merging b with a; and mismatches. */
static void
test_merge_rules(void)
{
	uint32_t	domain = 1000;
	size_t		n = 20000;
	int64_t    *stream = zipf_stream(n, domain, 1.1, 31);
	uint32_t   *part = xcalloc(sizeof(uint32_t) * n);
	uint64_t	seed = 5;
	split		s0 = {part, 0};
	split		s1 = {part, 1};
	bs_topk    *a;
	bs_topk    *b;
	bs_topk    *ab;
	bs_topk    *ba;
	bs_topk_table table;
	bs_error	err;

	for (size_t i = 0; i < n; i++)
		part[i] = (uint32_t) (splitmix64(&seed) % 2);
	a = summarize(stream, n, 20, true, in_part, &s0);
	b = summarize(stream, n, 20, false, in_part, &s1);
	ab = merge_two(a, b);
	ba = merge_two(b, a);
	CHECK(ab->length_word == ba->length_word && memcmp(ab, ba, (size_t) ab->length_word) == 0);
	CHECK(bs_topk_compare(ab, ba) == 0 && bs_topk_compare(a, b) != 0);
	CHECK(bs_topk_compare(a, b) == -bs_topk_compare(b, a));

	/* other counters, other families: refused, the table unchanged */
	table_init(&table, 21);
	CHECK_STATUS(bs_topk_table_merge(&table, a, &err), BS_ERR_MISMATCH, &err);
	bs_topk_table_destroy(&table);
	table_init(&table, 20);
	table.family = BS_FAMILY_TEXT;
	CHECK_STATUS(bs_topk_table_merge(&table, a, &err), BS_ERR_MISMATCH, &err);
	bs_topk_table_destroy(&table);
	/* totals past bigint */
	table_init(&table, 20);
	table.family = BS_FAMILY_OTHER;
	table.total = BS_TOPK_MAX_TOTAL - 5;
	CHECK_STATUS(bs_topk_table_merge(&table, a, &err), BS_ERR_TOO_LARGE, &err);
	CHECK(table.used == 0 && table.total == BS_TOPK_MAX_TOTAL - 5);
	bs_topk_table_destroy(&table);
	free(a);
	free(b);
	free(ab);
	free(ba);
	free(part);
	free(stream);
}

/* Texts: equal to the key stored as the key; a merge keeps the smaller text. */
static void
test_texts(void)
{
	bs_topk_table table;
	bs_topk_slot *slot;
	bs_error	err;
	bool		inserted;
	bs_topk    *a;
	bs_topk    *b;
	bs_topk    *merged;
	bs_topk_entry e;
	uint64_t	offset = 0;
	const char *long_key = "a key longer than sixteen bytes";

	table_init(&table, 4);
	table.family = BS_FAMILY_NUMERIC;
	slot = bs_topk_table_count(&table, "1", 1, bs_topk_hash("1", 1), &inserted, &err);
	CHECK(inserted && bs_topk_table_set_text(&table, slot, (const uint8_t *) "1.00", 4, &err) == BS_OK);
	CHECK(slot->text_kind == BS_TOPK_TEXT_KNOWN);
	slot = bs_topk_table_count(&table, long_key, (uint32_t) strlen(long_key),
							   bs_topk_hash(long_key, strlen(long_key)), &inserted, &err);
	CHECK(inserted && slot->key_length > BS_TOPK_INLINE_KEY);
	CHECK(bs_topk_table_set_text(&table, slot, (const uint8_t *) long_key,
								 (uint32_t) strlen(long_key), &err) == BS_OK);
	CHECK(slot->text_kind == BS_TOPK_TEXT_KEY);
	table.family = BS_FAMILY_OTHER; /* a long key is no numeric */
	a = table_to_flat(&table);
	bs_topk_table_destroy(&table);

	table_init(&table, 4);
	table.family = BS_FAMILY_OTHER;
	slot = bs_topk_table_count(&table, "1", 1, bs_topk_hash("1", 1), &inserted, &err);
	CHECK(bs_topk_table_set_text(&table, slot, (const uint8_t *) "1.0", 3, &err) == BS_OK);
	b = table_to_flat(&table);
	bs_topk_table_destroy(&table);

	merged = merge_two(a, b);
	bs_topk_read_entry(merged, &offset, &e);
	CHECK(e.count == 2 && e.text_length == 3 && memcmp(e.text, "1.0", 3) == 0);
	bs_topk_read_entry(merged, &offset, &e);
	CHECK(e.text_is_key && e.key_length == strlen(long_key));
	free(a);
	free(b);
	free(merged);

	/* pending tokens are released when their slot leaves the table */
	tokens_released = 0;
	table_init(&table, 2);
	for (int64_t v = 0; v < 100; v++)
		count_integer(&table, v, true);
	bs_topk_table_destroy(&table);
	CHECK(tokens_released == 100);
}

/*
 * Keys of every size a table stores: in the slot, in the arena (rewritten
 * by every reduction), and apart beyond BS_TOPK_ARENA_KEY.  A Zipf stream of
 * strings of 1 to 400 bytes, counted exactly, against the same guarantees.
 */
static void
test_long_keys(void)
{
	uint32_t	domain = 3000;
	size_t		n = 100000;
	int64_t    *ranks = zipf_stream(n, domain, 1.1, 51);
	uint64_t   *exact = exact_counts(ranks, n, domain);
	bs_topk_table table;
	bs_error	err;
	bs_topk    *topk;
	uint64_t	offset = 0;
	char		key[420];
	uint32_t	listed = 0;

	table_init(&table, 40);
	table.family = BS_FAMILY_TEXT;
	for (size_t i = 0; i < n; i++)
	{
		/* rank r as a string of 8 + (r * 37) % 400 bytes, unique per rank */
		uint32_t	length = 8 + (uint32_t) (ranks[i] * 37 % 400);
		bool		inserted;
		bs_topk_slot *slot;

		memset(key, 'a' + (int) (ranks[i] % 26), length);
		snprintf(key, sizeof(key), "%" PRId64 "-", ranks[i]);
		key[strlen(key)] = 'x';
		slot = bs_topk_table_count(&table, key, length, bs_topk_hash(key, length), &inserted, &err);
		if (slot != NULL && inserted)
			CHECK(bs_topk_table_set_text(&table, slot, (const uint8_t *) key, length, &err) == BS_OK);
	}
	CHECK(table.arena_size > 0 && table.arena_used <= table.arena_size);
	topk = table_to_flat(&table);
	CHECK(topk->total == n && topk->entries <= 40);
	for (uint32_t i = 0; i < topk->entries; i++)
	{
		bs_topk_entry e;
		int64_t		rank = -1;

		bs_topk_read_entry(topk, &offset, &e);
		CHECK(e.text_is_key);
		/* the key's digits, terminated (keys are not) */
		snprintf(key, sizeof(key), "%.*s", (int) (e.key_length < 24 ? e.key_length : 24),
				 (const char *) e.key);
		if (sscanf(key, "%" SCNd64, &rank) != 1 || rank < 0 || rank >= domain)
		{
			CHECK(!"a listed key is one of the stream's");
			continue;
		}
		CHECKF(e.key_length == 8 + (uint32_t) (rank * 37 % 400) &&
			   e.lower <= exact[rank] && exact[rank] <= e.count + topk->error,
			   "rank %" PRId64 ": %" PRIu64 " occurrences, bounds [%" PRIu64 ", %" PRIu64 "]",
			   rank, exact[rank], e.lower, e.count + topk->error);
		listed++;
	}
	for (uint32_t r = 0; r < domain; r++)
		if (exact[r] * 41 > n)
			CHECKF(r < listed, "rank %u, %" PRIu64 " occurrences, is listed", r, exact[r]);
	free(topk);
	bs_topk_table_destroy(&table);
	free(ranks);
	free(exact);
}

/*
 * Growth to 3c slots, and the table never holding more: a full table is
 * reduced to 2c, keeping values whose counters fall to 0, and written out
 * with c of them.
 */
static void
test_table_growth(void)
{
	bs_topk_table table;
	bs_topk    *topk;

	table_init(&table, 1000);
	for (int64_t v = 0; v < 2999; v++)
		count_integer(&table, v, false);
	CHECK(table.used == 2999 && table.error == 0 && table.allocated == 3000);
	count_integer(&table, 2999, false);
	CHECK(table.used == 3000);
	count_integer(&table, 3000, false);
	/* all counts 1: the reduction subtracts 1, keeps 2000 at 0 and takes the new value */
	CHECK(table.used == 2001 && table.error == 1);
	topk = table_to_flat(&table);
	/* the new value (count 1) and the 999 best of those at 0: nothing subtracted */
	CHECK(topk->entries == 1000 && topk->total == 3001 && topk->error == 1);
	free(topk);
	bs_topk_table_destroy(&table);
}

/*
 * Count a run of `weight` occurrences of v (family other, its text given):
 * at once with bs_topk_table_count_many, or one by one.
 */
static void
count_run(bs_topk_table *table, int64_t v, uint64_t weight, bool at_once)
{
	uint8_t		key[8];
	bool		inserted = false;
	bs_topk_slot *slot = NULL;
	bs_error	err;
	char		text[24];

	integer_key(v, key);
	table->family = BS_FAMILY_OTHER;
	if (at_once)
		slot = bs_topk_table_count_many(table, key, 8, bs_topk_hash(key, 8), weight, &inserted,
										&err);
	for (uint64_t i = 0; !at_once && i < weight; i++)
	{
		slot = bs_topk_table_count(table, key, 8, bs_topk_hash(key, 8), &inserted, &err);
		if (inserted && slot != NULL)
		{
			snprintf(text, sizeof(text), "%" PRId64, v);
			CHECK(bs_topk_table_set_text(table, slot, (const uint8_t *) text,
										 (uint32_t) strlen(text), &err) == BS_OK);
		}
	}
	CHECK(slot != NULL);
	if (at_once && inserted)
	{
		snprintf(text, sizeof(text), "%" PRId64, v);
		CHECK(bs_topk_table_set_text(table, slot, (const uint8_t *) text,
									 (uint32_t) strlen(text), &err) == BS_OK);
	}
}

/*
 * A weighted count is that many single counts in a row: the same bytes, on
 * a Zipf stream of runs long enough to force reductions; and bs_topk_find
 * finds exactly the listed values.
 */
static void
test_weighted_count_and_find(void)
{
	const uint32_t domain = 500;
	int64_t    *stream = zipf_stream(20000, domain, 1.1, 77);
	uint64_t   *exact = xcalloc(sizeof(uint64_t) * domain);
	bs_topk_table at_once;
	bs_topk_table one_by_one;
	bs_topk    *a;
	bs_topk    *b;
	uint64_t	n = 0;
	uint32_t	found = 0;

	table_init(&at_once, 30);
	table_init(&one_by_one, 30);
	for (size_t i = 0; i < 20000; i++)
	{
		uint64_t	weight = 1 + (uint64_t) (i % 5);

		count_run(&at_once, stream[i], weight, true);
		count_run(&one_by_one, stream[i], weight, false);
		exact[stream[i]] += weight;
		n += weight;
	}
	a = table_to_flat(&at_once);
	b = table_to_flat(&one_by_one);
	CHECK(a->error > 0);
	CHECK(a->length_word == b->length_word && memcmp(a, b, (size_t) a->length_word) == 0);
	check_guarantees(a, exact, domain, n, "weighted counts");
	for (int64_t v = 0; v < domain; v++)
	{
		uint8_t		key[8];
		bs_topk_entry e;
		uint64_t	offset = 0;
		bool		listed = false;

		integer_key(v, key);
		for (uint32_t i = 0; i < a->entries; i++)
		{
			bs_topk_read_entry(a, &offset, &e);
			if (key_integer(e.key) == v)
			{
				listed = true;
				break;
			}
		}
		CHECKF(bs_topk_find(a, key, 8, &e) == listed, "find %" PRId64, v);
		if (listed)
		{
			found++;
			CHECK(e.key_length == 8 && key_integer(e.key) == v);
		}
		/* a prefix of a listed key is another key */
		CHECK(!bs_topk_find(a, key, 7, &e));
	}
	CHECK(found == a->entries);
	bs_topk_table_destroy(&at_once);
	bs_topk_table_destroy(&one_by_one);
	free(a);
	free(b);
	free(exact);
	free(stream);
}

/* ---- the reduction's choice ---- */

/* The listed value of a key in a table's slots, or -1. */
static int
slot_of(const bs_topk_table *table, int64_t v)
{
	for (uint32_t i = 0; i < table->used; i++)
		if (key_integer(bs_topk_slot_key(&table->slots[i])) == v)
			return (int) i;
	return -1;
}

/* Whether slot a ranks before slot b by lower bound, then counter (no key order). */
static bool
lower_first(const bs_topk_slot *a, const bs_topk_slot *b)
{
	return a->lower != b->lower ? a->lower > b->lower : a->count > b->count;
}

/*
 * What a reduction to keep slots would do if it kept the best by lower
 * bound: *fits says whether that keeps sum of counters + (c + 1) error <= N,
 * *clear whether no tie at the boundary leaves the choice to the key order;
 * kept[v] marks the values it keeps (values 0 .. domain - 1).
 */
static void
reduce_by_lower(const bs_topk_table *table, uint32_t keep, uint32_t domain, bool *kept,
				bool *fits, bool *clear)
{
	uint32_t	n = table->used;
	uint32_t   *order = malloc(sizeof(uint32_t) * n);
	uint64_t	cut = 0;
	uint64_t	sum = 0;

	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort, best first: a table of a few slots */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && lower_first(&table->slots[order[j]], &table->slots[order[j - 1]]); j--)
		{
			uint32_t	t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	memset(kept, 0, sizeof(bool) * domain);
	for (uint32_t i = keep; i < n; i++)
		cut = table->slots[order[i]].count > cut ? table->slots[order[i]].count : cut;
	for (uint32_t i = 0; i < keep; i++)
	{
		const bs_topk_slot *slot = &table->slots[order[i]];

		kept[key_integer(bs_topk_slot_key(slot))] = true;
		sum += slot->count >= cut ? slot->count - cut : slot->count;
	}
	*clear = keep >= n || lower_first(&table->slots[order[keep - 1]], &table->slots[order[keep]]);
	*fits = sum + (table->counters + UINT64_C(1)) * (table->error + cut) <= table->total;
	free(order);
}

/*
 * Every reduction keeps the values with the largest lower bounds when that
 * keeps sum of counters + (c + 1) error <= N, and some other choice within
 * it when not; both happen over these seeded streams of weighted runs of a
 * few values, and after each reduction the invariant and every value's
 * bounds hold against the exact counts.
 */
static void
test_reduction_budget(void)
{
	enum
	{
		DOMAIN = 12
	};
	uint64_t	state = 0x9e3779b97f4a7c15;
	unsigned long by_lower = 0;
	unsigned long within_budget = 0;

	for (int trial = 0; trial < 3000; trial++)
	{
		bs_topk_table table;
		uint64_t	exact[DOMAIN] = {0};
		bool		kept[DOMAIN];
		uint32_t	counters = 1 + (uint32_t) trial % 3;

		table_init(&table, counters);
		for (int step = 0; step < 60; step++)
		{
			int64_t		v;
			uint64_t	weight;
			bool		fits;
			bool		clear;
			uint64_t	sum = 0;

			state = state * 6364136223846793005u + 1442695040888963407u;
			v = (int64_t) ((state >> 33) % DOMAIN);
			weight = 1 + (state >> 20) % (step % 7 == 0 ? 30 : 3);
			if (table.used == table.capacity && slot_of(&table, v) < 0)
				continue;		/* the table would reduce by itself: only reductions made here are checked */
			count_run(&table, v, weight, true);
			exact[v] += weight;
			if ((state >> 8) % 4 != 0 || table.used <= counters)
				continue;
			reduce_by_lower(&table, counters, DOMAIN, kept, &fits, &clear);
			bs_topk_table_reduce(&table, counters);
			for (uint32_t i = 0; i < table.used; i++)
				sum += table.slots[i].count;
			CHECK(sum + (counters + UINT64_C(1)) * table.error <= table.total);
			CHECK(table.used == counters);
			for (int64_t x = 0; x < DOMAIN; x++)
			{
				int			i = slot_of(&table, x);

				if (i < 0)
					CHECK(exact[x] <= table.error);
				else
					CHECK(table.slots[i].lower <= exact[x] &&
						  exact[x] <= table.slots[i].count + table.error);
				if (fits && clear)
					CHECK((i >= 0) == kept[x]);
			}
			by_lower += fits;
			within_budget += !fits;
		}
		bs_topk_table_destroy(&table);
	}
	/* both kinds of reduction were exercised */
	CHECK(by_lower > 1000);
	CHECK(within_budget > 100);
	printf("  reductions checked: %lu by lower bound, %lu held within the budget\n",
		   by_lower, within_budget);
}

/* Larger first, for qsort. */
static int
descending(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return (x < y) - (x > y);
}

/* Whether slot a ranks before b by lower bound, counter and salted hash, as bs_topk_select.h says. */
static bool
ranks_first(const bs_topk_slot *a, const bs_topk_slot *b, uint64_t salt)
{
	if (a->lower != b->lower)
		return a->lower > b->lower;
	if (a->count != b->count)
		return a->count > b->count;
	return (a->hash ^ salt) < (b->hash ^ salt);
}

/*
 * The selections of a reduction against sorting, on keys the reductions of
 * the tests above rarely make: counters all equal, of two values, over the
 * whole 64-bit range, equal but for their low bits, and few values among
 * many slots; lower bounds with ties.  The k-th largest counter for k = 1,
 * a middle k and k = n, the slots unmoved; then the k best slots first,
 * also where slots tie in everything but the low half of their hashes.
 */
static void
test_selection(void)
{
	uint64_t	state = 0x2545f4914f6cdd1d;

	for (int trial = 0; trial < 500; trial++)
	{
		bs_topk_table table;
		uint32_t	counters = 2 + (uint32_t) trial % 70;
		uint64_t	sorted[3 * 71];
		uint64_t	before[3 * 71];
		uint32_t	n;
		uint64_t	salt;

		table_init(&table, counters);
		for (int64_t v = 0; table.used < 3 * counters - (uint32_t) trial % 3; v++)
			count_run(&table, v, 1, true);
		n = table.used;
		for (uint32_t i = 0; i < n; i++)
		{
			uint64_t	x;

			state = state * 6364136223846793005u + 1442695040888963407u;
			switch (trial % 5)
			{
				case 0:
					x = 7;
					break;
				case 1:
					x = state >> 63;
					break;
				case 2:
					x = state;
					break;
				case 3:
					x = UINT64_C(0xabcdef0000000000) | (state >> 58);
					break;
				default:
					x = (state >> 40) % 5;
					break;
			}
			table.slots[i].count = x;
			table.slots[i].lower = (state >> 20) % 3;
			if (trial / 5 % 2 == 1)
			{
				/*
				 * Pairs of slots whose hashes share their top halves and
				 * whose lower bounds are equal: their rank words tie, which
				 * the one-word selection must leave to the slower one.
				 */
				table.slots[i].hash = (UINT64_C(0x9E3779B97F4A7C15) * (i / 2 + 1) &
									   ~UINT64_C(0xffffffff)) | i;
				table.slots[i].lower = (i / 2) % 3;
				if (i % 2 == 1)
					table.slots[i].count = x = table.slots[i - 1].count;
			}
			sorted[i] = x;
		}
		memcpy(before, sorted, sizeof(sorted[0]) * n);
		qsort(sorted, n, sizeof(sorted[0]), descending);
		for (int t = 0; t < 3; t++)
		{
			uint32_t	k = t == 0 ? 1 : t == 1 ? (n + 1) / 2 : n;

			CHECK(bs_topk_kth_largest_count(&table, k) == sorted[k - 1]);
		}
		for (uint32_t i = 0; i < n; i++)
			CHECK(table.slots[i].count == before[i]);
		salt = bs_block_remix(table.total);
		{
			uint32_t	k = 1 + (uint32_t) (state >> 33) % n;
			bool		ordered = true;

			bs_topk_select_best(&table, table.slots, n, k, true);
			for (uint32_t i = 0; i < k; i++)
				for (uint32_t j = k; j < n; j++)
					ordered &= ranks_first(&table.slots[i], &table.slots[j], salt);
			CHECK(ordered);
		}
		bs_topk_table_destroy(&table);
	}
}

int
main(void)
{
	test_sizing();
	test_exact_when_small();
	test_guarantees_one_stream();
	test_guarantees_merged();
	test_merge_rules();
	test_texts();
	test_table_growth();
	test_long_keys();
	test_weighted_count_and_find();
	test_reduction_budget();
	test_selection();
	test_topk_codec();

	printf("topk: %lu checks, %lu failed\n", checks_run, checks_failed);
	return checks_failed > 0 ? 1 : 0;
}
