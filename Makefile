# bloomsketch — PGXS build.  `make && make install`, then `make installcheck`
# against a running server (scripts/test.sh does all of it on a throwaway one).

EXTENSION = bloomsketch
# A clean build compiles about 80 files twice (objects, and bitcode for JIT
# inlining): one job per processor by default; a -j on the command line wins.
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
MODULE_big = bloomsketch
# The install scripts: 0.1.0 as released, then the current version's complete
# script and the update to it, both written by scripts/gen_sql.py from
# sql/src/ (`make sql` after editing those; `make sql-check` fails when a
# committed one differs).
DATA = sql/bloomsketch--0.1.0.sql sql/bloomsketch--0.2.0.sql sql/bloomsketch--0.1.0--0.2.0.sql

# the pure C core, folder by folder (src/core/<folder>/<folder>.h says what each offers)
CORE_COMMON = $(addprefix src/core/common/,$(addsuffix .o,bs_error bs_poll bs_primes bs_base64 bs_codec_util bs_combine))
CORE_BLOOM = $(addprefix src/core/bloom/,$(addsuffix .o,bs_bloom bs_probe bs_probe_other bs_scheme bs_batch bs_bloom_merge bs_bloom_codec \
	bs_estimate bs_block_simd bs_fit bs_fit_size bs_fit_state bs_fit_build))
CORE_ANALYSIS = $(addprefix src/core/analysis/,$(addsuffix .o,bs_analysis bs_analysis_memory bs_rate_chain bs_rate_standard bs_rate_classic \
	bs_optimal_k_bounds bs_optimal_k_search bs_optimal_k bs_optimal_bits \
	bs_rate_chain_step bs_sizing bs_blocked_rate bs_scheme_sizing \
	bs_double_hash_rate bs_double_hash_exact bs_double_hash_filter_rate))
CORE_CMS = $(addprefix src/core/cms/,$(addsuffix .o,bs_cms bs_cms_probe bs_cms_codec bs_cms_batch))
CORE_TOPK = $(addprefix src/core/topk/,$(addsuffix .o,bs_topk bs_topk_codec bs_topk_table bs_topk_select bs_topk_keys bs_topk_text))
CORE_OBJS = $(CORE_COMMON) $(CORE_BLOOM) $(CORE_ANALYSIS) $(CORE_CMS) $(CORE_TOPK)
# the PostgreSQL layer: the extension's entry and cmsketch.h's errors, what the types share
# (sketch_*), then each type's files (<type>_<role>)
PG_OBJS = src/pg/bloomsketch.o src/pg/cmsketch.o \
	$(addprefix src/pg/sketch_,$(addsuffix .o,report io compare agg huge_pages value_kind \
	value_family value_structured stored_cache batch)) \
	$(addprefix src/pg/bloomfilter_,$(addsuffix .o,alloc finished io probe funcs agg setops \
	estimate analysis fit_state fit_agg batch)) \
	$(addprefix src/pg/cmsketch_,$(addsuffix .o,alloc io funcs agg batch)) \
	$(addprefix src/pg/topksketch_,$(addsuffix .o,state io agg funcs render values batch))
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
$(OBJS): $(wildcard $(srcdir)/src/core/*/*.h $(srcdir)/src/pg/*.h)

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
