/*
 * pg_compat.h — what differs between the PostgreSQL major versions that
 * bloomsketch builds against (15, 17 and 18).  The one place that tests
 * PG_VERSION_NUM; everything else writes the newest spelling.
 */
#ifndef PG_COMPAT_H
#define PG_COMPAT_H

#include "postgres.h"

#include "fmgr.h"

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

/*
 * The magic block.  PostgreSQL 18's PG_MODULE_MAGIC_EXT also records the
 * module's name and version, which pg_get_loaded_modules() shows; the
 * version is the extension's default_version (test/harness/meta_spec.py checks).
 */
#ifdef PG_MODULE_MAGIC_EXT
#define BS_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "bloomsketch", .version = "0.2.0")
#else
#define BS_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * Export only what the server looks up: the entry points, the magic block and
 * _PG_init.  The Makefile compiles with -fvisibility=hidden; PostgreSQL 16
 * and later mark those symbols visible themselves (PGDLLEXPORT), and here 15
 * is given the same markings, so that no helper of ours can be bound to
 * another library's symbol of the same name, or the other way round.
 */
#if PG_VERSION_NUM < 160000 && defined(__GNUC__) && !defined(WIN32)
#undef PGDLLEXPORT
#define PGDLLEXPORT __attribute__((visibility("default")))

/* fmgr.h of 16, which declares the function itself PGDLLEXPORT too */
#undef PG_FUNCTION_INFO_V1
#define PG_FUNCTION_INFO_V1(funcname) \
extern PGDLLEXPORT Datum funcname(PG_FUNCTION_ARGS); \
extern PGDLLEXPORT const Pg_finfo_record * CppConcat(pg_finfo_,funcname)(void); \
const Pg_finfo_record * \
CppConcat(pg_finfo_,funcname) (void) \
{ \
	static const Pg_finfo_record my_finfo = { 1 }; \
	return &my_finfo; \
} \
extern int no_such_variable

/* declared by fmgr.h from 16 on */
extern PGDLLEXPORT void _PG_init(void);
#endif

#endif							/* PG_COMPAT_H */
