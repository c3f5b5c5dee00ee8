/*
 * fresh_memory.c — what filling fresh memory costs on this machine.
 *
 * Maps 12 MB (a bloom_agg state for 10^7 values at 1%), writes every byte,
 * unmaps it, eight times, once on 4 kB pages and once with the huge pages
 * the extension asks for (MADV_HUGEPAGE), and prints the times in ms.  A
 * parallel bloom_agg fills about fourteen such buffers where a serial one
 * fills two (bench/README.md, "Server: parallel query"), so this is what
 * turns into its tail.  On a bare machine the costs are steady; on a VM that hands
 * freed memory back to its host (free page reporting) the first touch of a
 * block the host has taken back costs many times more.
 *
 *   cc -O2 -o fresh_memory fresh_memory.c && ./fresh_memory
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define BUFFER_BYTES ((size_t) 12 << 20)
#define HUGE_PAGE ((uintptr_t) 2 << 20)
#define ROUNDS 8

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Map, fill and unmap one buffer; returns the fill's ms, or -1. */
static double
fill_fresh(int huge)
{
	size_t		mapped = BUFFER_BYTES + HUGE_PAGE;
	char	   *map = mmap(NULL, mapped, PROT_READ | PROT_WRITE,
						   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char	   *buffer;
	double		start;
	double		took;

	if (map == MAP_FAILED)
		return -1;
	buffer = (char *) (((uintptr_t) map + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	if (huge)
		(void) madvise(buffer, BUFFER_BYTES, MADV_HUGEPAGE);
	start = now_ms();
	memset(buffer, 1, BUFFER_BYTES);
	took = now_ms() - start;
	munmap(map, mapped);
	return took;
}

int
main(void)
{
	for (int huge = 0; huge <= 1; huge++)
	{
		printf("fresh 12 MB on %s, ms per fill:", huge ? "huge pages" : "4 kB pages");
		for (int round = 0; round < ROUNDS; round++)
			printf(" %.2f", fill_fresh(huge));
		printf("\n");
	}
	return 0;
}
