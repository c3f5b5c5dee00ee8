/*
 * sketch_value_structured.h — the canonical bytes of arrays, ranges,
 * composites and jsonb, element by element (sketch_value_structured.c).
 */
#ifndef SKETCH_VALUE_STRUCTURED_H
#define SKETCH_VALUE_STRUCTURED_H

#include "sketch_value_family.h"

#include "lib/stringinfo.h"

/* Whether values of this kind take the element-by-element form. */
static inline bool
value_kind_is_structured(const ValueKind *kind)
{
	return kind->family == BS_FAMILY_OTHER && kind->other != OTHER_NONE &&
		kind->other < OTHER_TIME;
}

/* The canonical bytes of a structured value; free with canonical_release. */
void		bs_structured_canonical(const ValueKind *kind, Datum value, CanonicalBytes *out);

/* Append a nested value's self-delimiting canonical form. */
void		bs_canonical_append(const ValueKind *kind, Datum value, StringInfo out);

#endif							/* SKETCH_VALUE_STRUCTURED_H */
