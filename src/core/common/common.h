/*
 * common.h — the index of src/core/common: what every type of the core
 * shares and nothing else needs from the others.
 *
 *	bs_error.h		error codes and messages the core returns, interrupt
 *					polling and polled copies of long arrays (bs_poll.c)
 *	bs_primes.h		deterministic primality for 64-bit integers
 *	bs_base64.h		strict base64 of the text forms
 *	bs_codec_util.h	little-endian loads and stores, header and length checks,
 *					the framing of the text forms
 *	bs_combine.h	checks and result versions of combining two values
 *	bs_batch_key.h	one value's bytes for the batch calls of every type
 *	bs_hash.h		XXH3 of a value's bytes, unbiased mapping onto a range,
 *					a 64-bit mixer (inline: every type's hot path uses them)
 *	bs_endian.h		little-endian loads and stores
 */
#ifndef BS_COMMON_H
#define BS_COMMON_H

#include "common/bs_base64.h"
#include "common/bs_batch_key.h"
#include "common/bs_codec_util.h"
#include "common/bs_combine.h"
#include "common/bs_endian.h"
#include "common/bs_error.h"
#include "common/bs_hash.h"
#include "common/bs_primes.h"

#endif							/* BS_COMMON_H */
