/*
 * bs_endian.h — little-endian loads and stores of 16, 32 and 64 bits, the
 * byte order of every stored form.
 */
#ifndef BS_ENDIAN_H
#define BS_ENDIAN_H

#include <stdint.h>

static inline uint16_t
bs_load_le16(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static inline uint32_t
bs_load_le32(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[3] << 24);
}

static inline uint64_t
bs_load_le64(const uint8_t *p)
{
	return (uint64_t) bs_load_le32(p) | ((uint64_t) bs_load_le32(p + 4) << 32);
}

static inline void
bs_store_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
}

static inline void
bs_store_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static inline void
bs_store_le64(uint8_t *p, uint64_t v)
{
	bs_store_le32(p, (uint32_t) v);
	bs_store_le32(p + 4, (uint32_t) (v >> 32));
}

#endif							/* BS_ENDIAN_H */
