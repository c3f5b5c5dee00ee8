/*
 * topk_helpers.c — what the heavy-hitters unit tests share: tables on
 * malloc, streams of integers and their exact counts, and the exact check
 * of the summary's guarantees (topk_helpers.h).
 */
#include "topk_helpers.h"

#include <inttypes.h>
#include <math.h>

#include "check.h"

/* ---- memory of the tables: malloc, counting released tokens ---- */

unsigned long tokens_released;

static void
test_release(void *context, uint64_t token)
{
	(void) context;
	if (token != 0)
		tokens_released++;
}

const bs_topk_allocator test_memory = {bs_topk_malloc_alloc, bs_topk_malloc_free, test_release, NULL};

void
table_init(bs_topk_table *table, uint32_t counters)
{
	bs_error	err;

	if (bs_topk_table_init(table, counters, &test_memory, &err) != BS_OK)
	{
		fprintf(stderr, "test_topk: %s\n", err.message);
		exit(2);
	}
}

/* ---- streams of integer values, as the SQL layer keys them ---- */

/* The canonical bytes of an integer: little-endian int64. */
void
integer_key(int64_t v, uint8_t key[8])
{
	bs_store_le64(key, (uint64_t) v);
}

int64_t
key_integer(const uint8_t *key)
{
	return (int64_t) bs_load_le64(key);
}

/* Count one integer, its text pending (token v + 1) or known at once. */
void
count_integer(bs_topk_table *table, int64_t v, bool pending)
{
	uint8_t		key[8];
	bool		inserted;
	bs_error	err;
	bs_topk_slot *slot;

	integer_key(v, key);
	/*
	 * Family other, whose values carry a text (integers store none), so
	 * that pending and known texts go through every step.
	 */
	if (table->family == BS_FAMILY_NONE)
		table->family = BS_FAMILY_OTHER;
	slot = bs_topk_table_count(table, key, 8, bs_topk_hash(key, 8), &inserted, &err);
	if (slot == NULL)
	{
		fprintf(stderr, "test_topk: %s\n", err.message);
		exit(2);
	}
	if (inserted && pending)
		slot->label.token = (uint64_t) v + 1;
	else if (inserted)
	{
		char		text[24];

		snprintf(text, sizeof(text), "%" PRId64, v);
		CHECK(bs_topk_table_set_text(table, slot, (const uint8_t *) text,
									 (uint32_t) strlen(text), &err) == BS_OK);
	}
}

/* The stored form of a table: reduced, pending texts given, written. */
bs_topk *
table_to_flat(bs_topk_table *table)
{
	bs_error	err;
	uint64_t	bytes;
	bs_topk    *flat;

	bs_topk_table_reduce(table, table->counters);
	for (uint32_t i = 0; i < table->used; i++)
	{
		bs_topk_slot *slot = &table->slots[i];

		if (slot->text_kind == BS_TOPK_TEXT_PENDING)
		{
			char		text[24];

			snprintf(text, sizeof(text), "%" PRId64, (int64_t) slot->label.token - 1);
			CHECK(bs_topk_table_set_text(table, slot, (const uint8_t *) text,
										 (uint32_t) strlen(text), &err) == BS_OK);
		}
	}
	CHECK(bs_topk_table_flat_bytes(table, &bytes, &err) == BS_OK);
	flat = xcalloc(bytes);
	flat->length_word = (int32_t) bytes;
	CHECK(bs_topk_table_write(table, flat, &err) == BS_OK);
	CHECK_STATUS(bs_topk_validate(flat, bytes, &err), BS_OK, &err);
	return flat;
}

/* A summary of the values of a stream for which keep() says yes. */
bs_topk *
summarize(const int64_t *stream, size_t n, uint32_t counters, bool pending,
		  bool (*keep) (size_t i, void *arg), void *arg)
{
	bs_topk_table table;
	bs_topk    *flat;

	table_init(&table, counters);
	for (size_t i = 0; i < n; i++)
		if (keep == NULL || keep(i, arg))
			count_integer(&table, stream[i], pending);
	flat = table_to_flat(&table);
	bs_topk_table_destroy(&table);
	return flat;
}

/* Zipf(s) ranks 0 .. domain - 1 from a fixed seed, by inverting the CDF. */
int64_t *
zipf_stream(size_t n, uint32_t domain, double s, uint64_t seed)
{
	double	   *cdf = xcalloc(sizeof(double) * domain);
	int64_t    *stream = xcalloc(sizeof(int64_t) * n);
	double		sum = 0;

	for (uint32_t r = 0; r < domain; r++)
		cdf[r] = (sum += pow(r + 1.0, -s));
	for (size_t i = 0; i < n; i++)
	{
		double		u = (double) (splitmix64(&seed) >> 11) / 9007199254740992.0 * sum;
		uint32_t	low = 0;
		uint32_t	high = domain - 1;

		while (low < high)
		{
			uint32_t	mid = low + (high - low) / 2;

			if (cdf[mid] < u)
				low = mid + 1;
			else
				high = mid;
		}
		stream[i] = low;
	}
	free(cdf);
	return stream;
}

/*
 * The guarantees of bs_topk.h, checked exactly: exact[v] is the true count
 * of value v (0 <= v < domain) in a stream of n values.
 */
void
check_guarantees(const bs_topk *topk, const uint64_t *exact, uint32_t domain, uint64_t n,
				 const char *what)
{
	bool	   *listed = xcalloc(domain);
	uint64_t	offset = 0;
	uint32_t	distinct = 0;
	unsigned __int128 counts = 0;
	bs_error	err;

	CHECK_STATUS_WHAT(bs_topk_validate(topk, (uint64_t) topk->length_word, &err), BS_OK, &err,
					  what);
	CHECKF(topk->total == n, "%s: total %" PRIu64 ", stream %" PRIu64, what, topk->total, n);
	CHECKF(topk->entries <= topk->counters, "%s", what);
	for (uint32_t i = 0; i < topk->entries; i++)
	{
		bs_topk_entry e;
		int64_t		v;
		char		text[24];

		bs_topk_read_entry(topk, &offset, &e);
		v = key_integer(e.key);
		CHECKF(e.key_length == 8 && v >= 0 && v < domain, "%s: key", what);
		if (v < 0 || v >= domain)
			continue;
		listed[v] = true;
		counts += e.count;
		CHECKF(e.lower <= exact[v] && exact[v] <= e.count + topk->error,
			   "%s: value %" PRId64 " occurs %" PRIu64 " times, bounds [%" PRIu64 ", %" PRIu64 "]",
			   what, v, exact[v], e.lower, e.count + topk->error);
		snprintf(text, sizeof(text), "%" PRId64, v);
		CHECKF(e.text_length == strlen(text) && memcmp(e.text, text, e.text_length) == 0,
			   "%s: text of %" PRId64, what, v);
	}
	CHECKF(counts + (unsigned __int128) (topk->counters + 1) * topk->error <= topk->total,
		   "%s: counts and error", what);
	for (uint32_t v = 0; v < domain; v++)
		distinct += exact[v] > 0;
	/* as many values as it has counters, or all of them */
	CHECKF(topk->entries == (distinct < topk->counters ? distinct : topk->counters),
		   "%s: %u values listed of %u distinct with %u counters", what, topk->entries,
		   distinct, topk->counters);
	for (uint32_t v = 0; v < domain; v++)
	{
		/* f > N / (c + 1) implies listed; unlisted implies f <= error */
		if ((unsigned __int128) exact[v] * (topk->counters + 1) > topk->total)
			CHECKF(listed[v], "%s: value %u occurs %" PRIu64 " > %" PRIu64 " / %u times but is not listed",
				   what, v, exact[v], n, topk->counters + 1);
		if (!listed[v])
			CHECKF(exact[v] <= topk->error, "%s: unlisted value %u occurs %" PRIu64 " > error %" PRIu64 " times",
				   what, v, exact[v], topk->error);
	}
	free(listed);
}

uint64_t *
exact_counts(const int64_t *stream, size_t n, uint32_t domain)
{
	uint64_t   *exact = xcalloc(sizeof(uint64_t) * domain);

	for (size_t i = 0; i < n; i++)
		exact[stream[i]]++;
	return exact;
}

bs_topk *
fold_all(const bs_topk *const *parts, uint32_t count)
{
	bs_topk_table table;
	bs_error	err;
	bs_topk    *flat;

	table_init(&table, parts[0]->counters);
	for (uint32_t i = 0; i < count; i++)
		CHECK_STATUS(bs_topk_table_merge(&table, parts[i], &err), BS_OK, &err);
	flat = table_to_flat(&table);
	bs_topk_table_destroy(&table);
	return flat;
}

bs_topk *
merge_two(const bs_topk *a, const bs_topk *b)
{
	const bs_topk *pair[2] = {a, b};

	return fold_all(pair, 2);
}

bool
in_part(size_t i, void *arg)
{
	const split *s = arg;

	return s->part[i] == s->which;
}
