/*
 * topk.h — the index of src/core/topk: the heavy-hitters summary.
 *
 *	bs_topk.h		the stored form, its entries, sizing, compatibility, order
 *	bs_topk_table.h	the working form: counting, reducing, merging, writing out
 *					(bs_topk_slots.h: its layout; bs_topk_keys.h: where keys
 *					live; bs_topk_select.h: which slots a reduction keeps;
 *					bs_topk_memory.h: how the table's files allocate)
 *	bs_topk_text.h	the texts stored for a value, family by family
 *	bs_topk_codec.h	the validator, the stored and the text forms
 */
#ifndef BS_TOPK_INDEX_H
#define BS_TOPK_INDEX_H

#include "topk/bs_topk.h"
#include "topk/bs_topk_codec.h"
#include "topk/bs_topk_table.h"
#include "topk/bs_topk_text.h"

#endif							/* BS_TOPK_INDEX_H */
