/*
 * pg_compat.h — what differs between the PostgreSQL major versions that
 * bloomsketch builds against (15, 17 and 18).  The one place that tests
 * PG_VERSION_NUM; everything else writes the newest spelling.
 */
#ifndef PG_COMPAT_H
#define PG_COMPAT_H

#include "postgres.h"

/* PostgreSQL 16 moved the varlena macros (VARSIZE, VARDATA, ...) to varatt.h. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * A function that never returns.  PostgreSQL 18 has pg_noreturn, a function
 * specifier (C11 _Noreturn) written before the declaration, in place of the
 * attribute pg_attribute_noreturn(); before 18, the attribute written in the
 * same place does the same.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

#endif							/* PG_COMPAT_H */
