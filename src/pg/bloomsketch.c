/*
 * bloomsketch.c — the module's set-up: the magic block, and _PG_init, which
 * hands the pure C core the server's memory and interrupt handling.
 */
#include "bloomsketch.h"

#include "miscadmin.h"

#include "../core/analysis/bs_analysis.h"

BS_MODULE_MAGIC;

/* The core's long loops poll this, so a long computation can be cancelled. */
static void
core_interrupt_check(void)
{
	CHECK_FOR_INTERRUPTS();
}

static void *
analysis_alloc(size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
analysis_free(void *pointer)
{
	pfree(pointer);
}

/*
 * Module load: let the pure C analysis core allocate with palloc (so an error
 * or a cancel thrown from CHECK_FOR_INTERRUPTS frees its arrays with the
 * memory context) and poll for interrupts.
 */
void
_PG_init(void)
{
	bs_interrupt_check = core_interrupt_check;
	bs_analysis_alloc = analysis_alloc;
	bs_analysis_free = analysis_free;
}
