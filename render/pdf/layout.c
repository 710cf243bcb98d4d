/*
 * layout.c - pagination and column banding, pure arithmetic (report.h).
 *
 * No cairo and no pango here: the PDF writer measures, these functions
 * decide where pages and bands break, and tests/unit/test_layout.c checks
 * them on plain numbers.
 */
#include "render/report.h"

size_t
kv_paginate(const double *h, size_t n, double first, double page,
    double header, size_t *starts, bool *skip_first)
{
	size_t npages = 0;
	double room;

	*skip_first = false;
	if (n == 0)
		return 0;
	starts[npages++] = 0;
	room = first - header;
	/* the first row does not fit under the header on the first page:
	 * leave that page and start on a fresh one */
	if (h[0] > room && first < page) {
		*skip_first = true;
		room = page - header;
	}
	for (size_t i = 0; i < n; i++) {
		if (h[i] > room && i != starts[npages - 1]) {
			starts[npages++] = i;
			room = page - header;
		}
		room -= h[i];
	}
	return npages;
}

size_t
kv_band(const double *w, size_t n, double fixed, double avail,
    size_t *starts)
{
	size_t nbands = 0;
	double room = 0;

	for (size_t i = 0; i < n; i++) {
		if (nbands == 0 || w[i] > room) {
			starts[nbands++] = i;
			room = avail - fixed;
		}
		room -= w[i];
	}
	return nbands;
}

size_t
kv_chunks(size_t n, size_t per)
{
	if (per == 0)
		per = 1;
	return (n + per - 1) / per;
}
