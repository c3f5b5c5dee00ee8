/*
 * bs_primes.h — deterministic primality for 64-bit integers.
 */
#ifndef BS_PRIMES_H
#define BS_PRIMES_H

#include <stdbool.h>
#include <stdint.h>

/* True when n is prime (deterministic Miller–Rabin, exact for all 64-bit n). */
bool		bs_is_prime(uint64_t n);

/* The smallest prime >= n, or 0 when there is none below 2^64. */
uint64_t	bs_next_prime(uint64_t n);

/* The largest prime <= n, or 0 when n < 2. */
uint64_t	bs_prev_prime(uint64_t n);

#endif							/* BS_PRIMES_H */
