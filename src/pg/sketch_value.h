/*
 * sketch_value.h — the canonical bytes of any value: what every per-row path
 * hashes.  The scalar families inline (sketch_value_family.h), arrays,
 * ranges, composites and jsonb element by element (sketch_value_structured.h).
 */
#ifndef SKETCH_VALUE_H
#define SKETCH_VALUE_H

#include "sketch_value_structured.h"

/* The canonical bytes of one value; free with canonical_release. */
static pg_attribute_always_inline void
canonical_bytes(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	if (unlikely(value_kind_is_structured(kind)))
	{
		bs_structured_canonical(kind, value, out);
		return;
	}
	canonical_scalar_bytes(kind, value, out);
}

#endif							/* SKETCH_VALUE_H */
