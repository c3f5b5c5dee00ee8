/*
 * bs_primes.c — deterministic Miller–Rabin for 64-bit integers.
 *
 * Testing against the first twelve primes as witnesses is exact for every
 * n < 3.3 * 10^24, which covers all of uint64_t.
 */
#include "common/bs_primes.h"

#include <stddef.h>

#define WITNESS_COUNT 12

static uint64_t
mul_mod(uint64_t a, uint64_t b, uint64_t n)
{
	return (uint64_t) (((unsigned __int128) a * b) % n);
}

static uint64_t
pow_mod(uint64_t base, uint64_t exponent, uint64_t n)
{
	uint64_t	result = 1;

	base %= n;
	while (exponent > 0)
	{
		if (exponent & 1)
			result = mul_mod(result, base, n);
		base = mul_mod(base, base, n);
		exponent >>= 1;
	}
	return result;
}

bool
bs_is_prime(uint64_t n)
{
	static const uint64_t witnesses[WITNESS_COUNT] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
	uint64_t	d;
	int			s = 0;

	if (n < 2)
		return false;
	for (size_t i = 0; i < WITNESS_COUNT; i++)
	{
		if (n == witnesses[i])
			return true;
		if (n % witnesses[i] == 0)
			return false;
	}

	d = n - 1;
	while ((d & 1) == 0)
	{
		d >>= 1;
		s++;
	}
	for (size_t i = 0; i < WITNESS_COUNT; i++)
	{
		uint64_t	x = pow_mod(witnesses[i], d, n);
		bool		composite = true;

		if (x == 1 || x == n - 1)
			continue;
		for (int r = 1; r < s; r++)
		{
			x = mul_mod(x, x, n);
			if (x == n - 1)
			{
				composite = false;
				break;
			}
		}
		if (composite)
			return false;
	}
	return true;
}

uint64_t
bs_next_prime(uint64_t n)
{
	if (n <= 2)
		return 2;
	if ((n & 1) == 0)
		n++;
	for (; n >= 3; n += 2)
	{
		if (bs_is_prime(n))
			return n;
	}
	return 0;					/* wrapped around: no 64-bit prime that large */
}

uint64_t
bs_prev_prime(uint64_t n)
{
	if (n < 2)
		return 0;
	if (n == 2)
		return 2;
	if ((n & 1) == 0)
		n--;
	for (; n >= 3; n -= 2)
	{
		if (bs_is_prime(n))
			return n;
	}
	return 2;
}
