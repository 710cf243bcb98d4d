/*
 * bitset.h - fixed-size bitsets over node, model or feature indexes.
 *
 * A kv_bits owns its words (kv_bits_free).  Binary operations require both
 * operands to have the same size.  All inline: they sit in the inner loops
 * of target search and model intersection.
 */
#ifndef KV_BITSET_H
#define KV_BITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/util/util.h"

typedef struct kv_bits {
	size_t nbits, nwords;
	uint64_t *w;
} kv_bits;

static inline void
kv_bits_init(kv_bits *b, size_t nbits)
{
	b->nbits = nbits;
	b->nwords = (nbits + 63) / 64;
	b->w = xcalloc(b->nwords ? b->nwords : 1, sizeof(uint64_t));
}

static inline void
kv_bits_free(kv_bits *b)
{
	free(b->w);
	b->w = NULL;
	b->nbits = b->nwords = 0;
}

static inline void
kv_bits_set(kv_bits *b, size_t i)
{
	b->w[i / 64] |= (uint64_t)1 << (i % 64);
}

static inline void
kv_bits_clear(kv_bits *b, size_t i)
{
	b->w[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static inline bool
kv_bits_test(const kv_bits *b, size_t i)
{
	return (b->w[i / 64] >> (i % 64)) & 1;
}

static inline void
kv_bits_fill(kv_bits *b)
{
	memset(b->w, 0xff, b->nwords * sizeof(uint64_t));
	if (b->nbits % 64)
		b->w[b->nwords - 1] = ((uint64_t)1 << (b->nbits % 64)) - 1;
}

static inline void
kv_bits_zero(kv_bits *b)
{
	memset(b->w, 0, b->nwords * sizeof(uint64_t));
}

static inline void
kv_bits_copy(kv_bits *dst, const kv_bits *src)
{
	memcpy(dst->w, src->w, src->nwords * sizeof(uint64_t));
}

static inline void
kv_bits_and(kv_bits *dst, const kv_bits *src)
{
	for (size_t i = 0; i < dst->nwords; i++)
		dst->w[i] &= src->w[i];
}

static inline void
kv_bits_andnot(kv_bits *dst, const kv_bits *src)
{
	for (size_t i = 0; i < dst->nwords; i++)
		dst->w[i] &= ~src->w[i];
}

static inline void
kv_bits_or(kv_bits *dst, const kv_bits *src)
{
	for (size_t i = 0; i < dst->nwords; i++)
		dst->w[i] |= src->w[i];
}

static inline size_t
kv_bits_count(const kv_bits *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nwords; i++)
		n += (size_t)__builtin_popcountll(b->w[i]);
	return n;
}

static inline bool
kv_bits_any(const kv_bits *b)
{
	for (size_t i = 0; i < b->nwords; i++)
		if (b->w[i])
			return true;
	return false;
}

/* Next set bit at or after i, or b->nbits. */
static inline size_t
kv_bits_next(const kv_bits *b, size_t i)
{
	while (i < b->nbits) {
		uint64_t w = b->w[i / 64] >> (i % 64);

		if (w)
			return i + (size_t)__builtin_ctzll(w);
		i = (i / 64 + 1) * 64;
	}
	return b->nbits;
}

#define KV_BITS_FOREACH(b, i) \
	for (size_t i = kv_bits_next((b), 0); i < (b)->nbits; \
	    i = kv_bits_next((b), i + 1))

#endif
