/*
 * bytes.h — little-endian reading and writing of the fixed-width fields
 * that the core's unit tests (test_core, test_cms) make keys of, build into
 * serialized forms and read back out of them.  Written apart from the
 * core's own (bs_codec_util.h), so that the tests do not check the codecs
 * against the code they use.
 */
#ifndef BS_TEST_BYTES_H
#define BS_TEST_BYTES_H

#include <stdint.h>

static inline void
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
}

static inline void
put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static inline void
put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static inline uint16_t
get_le16(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	uint32_t	v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline uint64_t
get_le64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

#endif							/* BS_TEST_BYTES_H */
