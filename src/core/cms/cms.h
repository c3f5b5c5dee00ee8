/*
 * cms.h — the index of src/core/cms: the count-min sketch.
 *
 *	bs_cms.h		layout, hashing, updates, queries, combination and sizing
 *	bs_cms_probe.h	the hot path, inline: a value's columns, adding, estimating
 *	bs_cms_batch.h	many values added to or estimated from one sketch
 *	bs_cms_codec.h	the validator, the stored and the text forms
 */
#ifndef BS_CMS_INDEX_H
#define BS_CMS_INDEX_H

#include "cms/bs_cms.h"
#include "cms/bs_cms_batch.h"
#include "cms/bs_cms_codec.h"
#include "cms/bs_cms_probe.h"

#endif							/* BS_CMS_INDEX_H */
