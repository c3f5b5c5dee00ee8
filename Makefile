# bloomsketch — PGXS build.  `make && make install`, then `make installcheck`
# against a running server (scripts/test.sh does all of it on a throwaway one).

EXTENSION = bloomsketch
MODULE_big = bloomsketch
# The install scripts: 0.1.0 as released, then the current version's complete
# script and the update to it, both written by scripts/gen_sql.py from
# sql/src/ (`make sql` after editing those; `make sql-check` fails when a
# committed one differs).
DATA = sql/bloomsketch--0.1.0.sql sql/bloomsketch--0.2.0.sql sql/bloomsketch--0.1.0--0.2.0.sql

CORE_OBJS = src/core/bs_error.o src/core/bs_poll.o src/core/bs_primes.o src/core/bs_base64.o src/core/bs_codec_util.o \
	src/core/bs_bloom.o src/core/bs_probe_other.o src/core/bs_scheme.o src/core/bs_batch.o \
	src/core/bs_bloom_merge.o src/core/bs_bloom_codec.o \
	src/core/bs_estimate.o src/core/bs_analysis.o src/core/bs_analysis_work.o \
	src/core/bs_hit_chain.o src/core/bs_rate_standard.o src/core/bs_rate_classic.o \
	src/core/bs_k_bounds.o src/core/bs_k_search.o src/core/bs_optimal_k.o src/core/bs_optimal_bits.o \
	src/core/bs_chain_step.o src/core/bs_sizing.o \
	src/core/bs_blocked_model.o src/core/bs_block_simd.o src/core/bs_scheme_sizing.o \
	src/core/bs_km_model.o src/core/bs_km_exact.o src/core/bs_km_filter_rate.o \
	src/core/bs_fit.o src/core/bs_fit_size.o src/core/bs_fit_state.o \
	src/core/bs_cms.o src/core/bs_cms_codec.o src/core/bs_cms_batch.o src/core/bs_combine.o \
	src/core/bs_topk.o src/core/bs_topk_codec.o src/core/bs_topk_table.o src/core/bs_topk_select.o \
	src/core/bs_topk_keys.o src/core/bs_topk_text.o
PG_OBJS = src/pg/bloomsketch.o src/pg/report.o src/pg/bloomfilter_alloc.o src/pg/bloomfilter_finished.o \
	src/pg/cmsketch_alloc.o \
	src/pg/sketch_io.o src/pg/sketch_compare.o src/pg/sketch_agg.o src/pg/huge_pages.o \
	src/pg/value_family.o src/pg/value_structured.o src/pg/stored_cache.o src/pg/bloomfilter_io.o \
	src/pg/bloomfilter_probe.o src/pg/bloomfilter_funcs.o src/pg/bloomfilter_agg.o \
	src/pg/bloomfilter_setops.o src/pg/bloomfilter_estimate.o src/pg/bloom_analysis.o \
	src/pg/bloom_scheme_rates.o src/pg/fit_state.o src/pg/bloomfilter_fit_agg.o \
	src/pg/cmsketch_io.o src/pg/cmsketch_funcs.o src/pg/cmsketch_agg.o \
	src/pg/topksketch_state.o src/pg/topksketch_io.o src/pg/topksketch_agg.o \
	src/pg/topksketch_funcs.o src/pg/topksketch_render.o src/pg/topksketch_values.o \
	src/pg/batch_values.o src/pg/batch_bloom.o src/pg/batch_cms.o src/pg/batch_topk.o
OBJS = $(CORE_OBJS) $(PG_OBJS)

REGRESS = bloomfilter_io bloomfilter_create bloomfilter_families \
	bloomfilter_membership bloomfilter_aggregate bloomfilter_malformed \
	bloomfilter_setops bloomfilter_estimates bloomfilter_analysis \
	bloomfilter_format bloomfilter_distributed bloomfilter_schemes bloomfilter_fit \
	bloomfilter_fit_edges \
	bloomfilter_batch \
	value_canonical value_citext cmsketch_basics cmsketch_accuracy cmsketch_format \
	topksketch_basics topksketch_accuracy topksketch_format topksketch_settings vocabulary \
	format_vectors \
	hardening_limits extension_upgrade extension_trusted extension_metadata

# The inputs are test/regress/sql/<test>.sql and test/regress/expected/<test>.out;
# results/, regression.diffs and regression.out stay in the build directory.
# The tests hash non-ASCII text: run them in a UTF-8 database whatever the server default.
REGRESS_OPTS = --inputdir=$(srcdir)/test/regress --encoding=UTF8

PG_CONFIG ?= pg_config
# Floating point must round the same on every platform, so that sizing gives
# the same filter for the same parameters everywhere (filters built on
# different nodes must combine): no fused multiply-add, which GCC otherwise
# makes of a*b + c wherever the target has it (arm64, for one) and clang
# within an expression.  Also for the bitcode that JIT inlining uses.
# Symbols are hidden unless marked (src/pg/pg_compat.h): PostgreSQL 16 and
# later pass the flag themselves, 15 needs it here.
PG_CFLAGS = -Wall -Wextra -ffp-contract=off -fvisibility=hidden
# PostgreSQL's headers are included as system headers: -Wextra is for our code.
PG_CPPFLAGS = -I$(srcdir)/src/core -isystem $(shell $(PG_CONFIG) --includedir-server)
SHLIB_LINK =

EXTRA_CLEAN = results regression.diffs regression.out

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
override BITCODE_CFLAGS += -ffp-contract=off

# Rebuild every object when a header changes (PGXS tracks no header dependencies).
$(OBJS): $(wildcard $(srcdir)/src/core/*.h $(srcdir)/src/pg/*.h)

# The pure C core's unit tests, outside the server.
.PHONY: check-core print-regress sql sql-check
check-core:
	$(MAKE) -C test/unit run

print-regress:
	@echo $(REGRESS)

# Regenerate the install scripts from sql/src/, or check that they are current.
sql:
	python3 $(srcdir)/scripts/gen_sql.py

sql-check:
	python3 $(srcdir)/scripts/gen_sql.py --check
