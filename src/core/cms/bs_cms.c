/*
 * bs_cms.c — layout, combination and sizing of the count-min sketch (the
 * values' path, hashing, updates and queries, is bs_cms_probe.c).
 */
#include "cms/bs_cms.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bs_combine.h"
#include "common/bs_primes.h"

#define TYPE_NAME "cmsketch"
#define NOUN "sketch"

#ifndef M_E
#define M_E 2.71828182845904523536
#endif

/* ---- layout ---- */

bs_status
bs_cms_total_bytes(uint64_t width, uint64_t depth, uint64_t copies,
				   uint64_t *bytes, bs_error *err)
{
	unsigned __int128 total;

	if (width == 0 || depth == 0 || copies == 0)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch dimensions must be positive",
					   "The dimensions given were w = %" PRIu64 ", d = %" PRIu64 ", copies = %" PRIu64 ".",
					   width, depth, copies);
	/* each factor is below 2^64, so the product of three needs a bound first */
	if (width > UINT32_MAX || depth > BS_CMS_MAX_DEPTH || copies > BS_CMS_MAX_COPIES)
		total = (unsigned __int128) UINT64_MAX;
	else
		total = (unsigned __int128) sizeof(bs_cms) +
			(unsigned __int128) 8 * width * depth * copies;
	if (total > BS_CMS_MAX_BYTES)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch is too large",
					   "A sketch with w = %" PRIu64 ", d = %" PRIu64 " and %" PRIu64 " copies "
					   "needs more than the largest value of %" PRIu64 " bytes "
					   "(so that its text form stays under PostgreSQL's 1 GB value limit).",
					   width, depth, copies, BS_CMS_MAX_BYTES);
	*bytes = (uint64_t) total;
	return BS_OK;
}

void
bs_cms_init(bs_cms *cms, uint32_t width, uint32_t depth, uint32_t copies,
			uint64_t seed)
{
	cms->version = BS_CMS_FORMAT_VERSION;
	cms->family = BS_FAMILY_NONE;
	cms->reserved16 = 0;
	cms->type_tag = 0;
	cms->width = width;
	cms->depth = (uint16_t) depth;
	cms->copies = (uint16_t) copies;
	cms->padding = 0;
	cms->seed = seed;
	cms->total = 0;
}

/* ---- combining sketches ---- */

bs_status
bs_cms_check_compatible(const bs_cms *a, const bs_cms *b, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_versions_combine(TYPE_NAME, NOUN, a->version, a->family,
											b->version, b->family, err)) != BS_OK)
		return status;
	if (a->width != b->width)
		return bs_fail(err, BS_ERR_MISMATCH, "cmsketch widths differ",
					   "One sketch has w = %u, the other w = %u.", a->width, b->width);
	if (a->depth != b->depth)
		return bs_fail(err, BS_ERR_MISMATCH, "cmsketch depths differ",
					   "One sketch has d = %u, the other d = %u.", a->depth, b->depth);
	if (a->copies != b->copies)
		return bs_fail(err, BS_ERR_MISMATCH, "cmsketch numbers of copies differ",
					   "One sketch has %u copies, the other %u.", a->copies, b->copies);
	if ((status = bs_check_same_seed(TYPE_NAME, NOUN, a->seed, b->seed, err)) != BS_OK)
		return status;
	return bs_check_same_family(TYPE_NAME, NOUN, a->family, a->type_tag, b->family,
								b->type_tag, err);
}

/* a takes the version and family of the combination with b. */
static void
adopt_family(bs_cms *a, const bs_cms *b)
{
	bs_adopt_combined_family(&a->version, &a->family, &a->type_tag, b->version, b->family,
							 b->type_tag);
}

bs_status
bs_cms_merge_into(bs_cms *a, const bs_cms *b, bs_error *err)
{
	bs_status	status;
	uint64_t	rows;
	uint64_t	width = a->width;
	unsigned __int128 smallest = ~(unsigned __int128) 0;

	if ((status = bs_cms_check_compatible(a, b, err)) != BS_OK)
		return status;
	rows = (uint64_t) a->copies * a->depth;

	/* first pass: nothing may overflow, and the new total (smallest row sum) */
	for (uint64_t r = 0; r < rows; r++)
	{
		const uint64_t *x = a->counters + r * width;
		const uint64_t *y = b->counters + r * width;
		unsigned __int128 sum = 0;

		for (uint64_t k = 0; k < width; k++)
		{
			bs_poll_at(k);
			if (x[k] > UINT64_MAX - y[k])
				return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch counter is out of range",
							   "Merging would add %" PRIu64 " to a counter holding %" PRIu64 " (row %" PRIu64 ", column %" PRIu64 "), passing %" PRIu64 ".",
							   y[k], x[k], r, k, UINT64_MAX);
			sum += x[k] + y[k];
		}
		if (sum < smallest)
			smallest = sum;
	}
	if (smallest > UINT64_MAX)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch total count is out of range",
					   "The merged sketch would count more than %" PRIu64 " in every row.",
					   UINT64_MAX);

	/* second pass: the sum itself */
	{
		uint64_t	count = rows * width;
		uint64_t   *restrict dst = a->counters;
		const uint64_t *restrict src = b->counters;

		for (uint64_t i = 0; i < count;)
			for (uint64_t end = bs_poll_stretch(i, count); i < end; i++)
				dst[i] += src[i];
	}
	/* a->total + b->total when both satisfy all-rows-equal; never less */
	a->total = (uint64_t) smallest;
	adopt_family(a, b);
	return BS_OK;
}

bs_status
bs_cms_intersect_into(bs_cms *a, const bs_cms *b, bs_error *err)
{
	bs_status	status;
	uint64_t	rows;
	uint64_t	width = a->width;
	unsigned __int128 smallest = ~(unsigned __int128) 0;

	if ((status = bs_cms_check_compatible(a, b, err)) != BS_OK)
		return status;
	rows = (uint64_t) a->copies * a->depth;
	for (uint64_t r = 0; r < rows; r++)
	{
		uint64_t   *restrict x = a->counters + r * width;
		const uint64_t *restrict y = b->counters + r * width;
		unsigned __int128 sum = 0;

		for (uint64_t k = 0; k < width;)
			for (uint64_t end = bs_poll_stretch(k, width); k < end; k++)
			{
				if (y[k] < x[k])
					x[k] = y[k];
				sum += x[k];
			}
		if (sum < smallest)
			smallest = sum;
	}

	/*
	 * Every row sum of the result is at least sum_i min(a_i, b_i), the L1
	 * norm of what the result summarizes, so the smallest row sum is the
	 * tightest upper bound the counters give on it, and it keeps the
	 * validator's invariant (total == smallest row sum).  It is at most
	 * min(a->total, b->total), so it fits.
	 */
	a->total = (uint64_t) smallest;
	adopt_family(a, b);
	return BS_OK;
}

bs_status
bs_cms_inner_product(const bs_cms *a, const bs_cms *b, uint64_t *product,
					 bs_error *err)
{
	bs_status	status;
	uint64_t	rows;
	uint64_t	width = a->width;
	unsigned __int128 smallest = ~(unsigned __int128) 0;
	const unsigned __int128 all_ones = ~(unsigned __int128) 0;

	if ((status = bs_cms_check_compatible(a, b, err)) != BS_OK)
		return status;
	rows = (uint64_t) a->copies * a->depth;
	for (uint64_t r = 0; r < rows; r++)
	{
		const uint64_t *x = a->counters + r * width;
		const uint64_t *y = b->counters + r * width;
		unsigned __int128 dot = 0;

		/*
		 * Each product is below 2^128; the sum saturates at 2^128 - 1 (a
		 * saturated row can only lose the minimum, and a minimum that large
		 * is reported as too large below anyway).
		 */
		for (uint64_t k = 0; k < width;)
			for (uint64_t end = bs_poll_stretch(k, width); k < end; k++)
			{
				unsigned __int128 term = (unsigned __int128) x[k] * y[k];

				dot = dot > all_ones - term ? all_ones : dot + term;
			}
		if (dot < smallest)
			smallest = dot;
	}
	if (smallest > UINT64_MAX)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch inner product is out of range",
					   "The estimate exceeds %" PRIu64 ".", UINT64_MAX);
	*product = (uint64_t) smallest;
	return BS_OK;
}

#define COMPARE_FIELD(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

int
bs_cms_compare(const bs_cms *a, const bs_cms *b)
{
	uint64_t	count;

	COMPARE_FIELD(a->version, b->version);
	COMPARE_FIELD(a->family, b->family);
	COMPARE_FIELD(a->type_tag, b->type_tag);
	COMPARE_FIELD(a->width, b->width);
	COMPARE_FIELD(a->depth, b->depth);
	COMPARE_FIELD(a->copies, b->copies);
	COMPARE_FIELD(a->seed, b->seed);
	COMPARE_FIELD(a->total, b->total);
	count = bs_cms_counter_count(a);
	for (uint64_t i = 0; i < count; i++)
	{
		bs_poll_at(i);
		COMPARE_FIELD(a->counters[i], b->counters[i]);
	}
	return 0;
}

/* ---- sizing ---- */

double
bs_cms_failure_bound(double epsilon, uint64_t width, uint32_t depth)
{
	double		w = (double) width;

	return 2.0 / (epsilon * w * (w - 1.0)) + pow(2.0 / (epsilon * w), (double) depth);
}

static bs_status
check_error_bounds(double epsilon, double delta, bs_error *err)
{
	if (!(epsilon > 0.0 && epsilon < 1.0))
		return bs_fail(err, BS_ERR_PARAM,
					   "cmsketch error bound epsilon must be greater than 0 and less than 1",
					   "The epsilon given was %.15g.", epsilon);
	if (!(delta > 0.0 && delta < 1.0))
		return bs_fail(err, BS_ERR_PARAM,
					   "cmsketch failure probability delta must be greater than 0 and less than 1",
					   "The delta given was %.15g.", delta);
	return BS_OK;
}

/*
 * Theorem 9.1 (Kirsch and Mitzenmacher, tech report 2006, section 9.2): for
 * one copy with d tables of prime width w,
 *   Pr(estimate > a_i + epsilon ||a||_1) <= 2/(epsilon w^2) + (2/(epsilon w))^d,
 * and "in particular, for w >= 2e/epsilon and d >= ln 1/(epsilon (1 - 1/2e^2))"
 * the bound is at most epsilon: then 2/(epsilon w^2) <= epsilon/(2e^2) and
 * (2/(epsilon w))^d <= e^-d <= epsilon (1 - 1/(2e^2)).  (The printed
 * statement reads "delta >= ln 1/epsilon(1 - 1/2e^2)"; the last line of the
 * proof shows the condition is on d.)  So
 *   w = the smallest prime >= 2e/epsilon,
 *   d = ceil(ln(1 / (epsilon (1 - 1/(2e^2))))).
 * Our b ranges over [1, w - 1], which turns the first term into
 * 2/(epsilon w (w - 1)) (see bs_cms_locate above); d is raised while the bound with
 * that term and the actual w exceeds epsilon (it almost never does: w is
 * rarely close to 2e/epsilon).
 *
 * Section 9.2 then reaches delta < epsilon with independent copies answering
 * the minimum: all copies must fail together, so c copies fail with
 * probability <= epsilon^c <= delta when c >= ln(1/delta)/ln(1/epsilon),
 * i.e. 2 ceil(ln(1/delta)/ln(1/epsilon)) hash functions in the paper's count.
 * The ratio is rounded up after a relative slack of 1e-12 so that
 * delta = epsilon^c, as typed in decimal, gives c and not c + 1.
 */
bs_status
bs_cms_size_error(double epsilon, double delta, uint32_t *width,
				  uint32_t *depth, uint32_t *copies, bs_error *err)
{
	bs_status	status;
	double		raw_width;
	double		raw_depth;
	double		raw_copies = 1.0;
	uint64_t	w;
	uint64_t	d;
	uint64_t	bytes;

	if ((status = check_error_bounds(epsilon, delta, err)) != BS_OK)
		return status;

	raw_width = ceil(2.0 * M_E / epsilon);
	if (raw_width > (double) UINT32_MAX)
	{
		if (!isfinite(raw_width))
			return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch for this epsilon is too large",
						   "Epsilon %.3g needs a width of 2e/epsilon counters, beyond any number a double holds. Ask for a larger epsilon.",
						   epsilon);
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch for this epsilon is too large",
					   "Epsilon %.3g needs a width of 2e/epsilon = %.3g counters; the largest sketch has %" PRIu64 " bytes. Ask for a larger epsilon.",
					   epsilon, raw_width, BS_CMS_MAX_BYTES);
	}
	w = bs_next_prime((uint64_t) raw_width);

	raw_depth = ceil(log(1.0 / (epsilon * (1.0 - 1.0 / (2.0 * M_E * M_E)))));
	d = raw_depth < 1.0 ? 1 : (uint64_t) raw_depth;
	while (bs_cms_failure_bound(epsilon, w, (uint32_t) d) > epsilon && d < w)
		d++;

	if (delta < epsilon)
	{
		double		ratio = log(delta) / log(epsilon);

		raw_copies = ceil(ratio * (1.0 - 1e-12));
		if (raw_copies < 1.0)
			raw_copies = 1.0;
		if (raw_copies > BS_CMS_MAX_COPIES)
			return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch for this delta needs too many copies",
						   "Delta %.15g at epsilon %.15g needs %.0f independent copies; the largest sketch has %u.",
						   delta, epsilon, raw_copies, BS_CMS_MAX_COPIES);
	}

	if (w > UINT32_MAX || d > w)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch for this epsilon is too large",
					   "Epsilon %.15g needs w = %" PRIu64 " and d = %" PRIu64 ".", epsilon, w, d);
	if ((status = bs_cms_total_bytes(w, d, (uint64_t) raw_copies, &bytes, err)) != BS_OK)
		return status;

	*width = (uint32_t) w;
	*depth = (uint32_t) d;
	*copies = (uint32_t) raw_copies;
	return BS_OK;
}

bs_status
bs_cms_size_dims(int64_t width, int64_t depth, int64_t copies,
				 uint32_t *width_out, uint32_t *depth_out, uint32_t *copies_out,
				 bs_error *err)
{
	uint64_t	w;
	uint64_t	bytes;
	bs_status	status;

	if (width < 1)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch width must be at least 1",
					   "The width given was %" PRId64 ".", width);
	if (depth < 1)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch depth must be at least 1",
					   "The depth given was %" PRId64 ".", depth);
	if (copies < 1)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch number of copies must be at least 1",
					   "The number of copies given was %" PRId64 ".", copies);
	if (width > (int64_t) UINT32_MAX)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch is too large",
					   "The width given was %" PRId64 "; the largest value has %" PRIu64 " bytes.",
					   width, BS_CMS_MAX_BYTES);
	if (depth > BS_CMS_MAX_DEPTH || copies > BS_CMS_MAX_COPIES)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch is too large",
					   "Depth (%" PRId64 ") and copies (%" PRId64 ") are each at most %u.",
					   depth, copies, BS_CMS_MAX_DEPTH);
	w = bs_next_prime(width < BS_CMS_MIN_WIDTH ? BS_CMS_MIN_WIDTH : (uint64_t) width);
	if ((uint64_t) depth > w)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch depth must not exceed its width",
					   "The depth given was %" PRId64 " for the prime width %" PRIu64 "; rows j and j + w would coincide.",
					   depth, w);
	if ((status = bs_cms_total_bytes(w, (uint64_t) depth, (uint64_t) copies, &bytes, err)) != BS_OK)
		return status;
	*width_out = (uint32_t) w;
	*depth_out = (uint32_t) depth;
	*copies_out = (uint32_t) copies;
	return BS_OK;
}
