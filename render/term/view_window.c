/*
 * view_window.c - the maintenance window in the terminal (view.h
 * kv_term_window): after a drain's lines, each migration that will be
 * aborted or is at risk with its arithmetic (render/words/window.c), the
 * ones whose outcome the dirty rate decides summed up with the tightest,
 * and the drain's time against --window.
 */
#include <stdlib.h>

#include "analyze/decide/drain.h"
#include "analyze/estimate/estimate.h"
#include "render/render.h"
#include "render/report.h"
#include "render/view.h"

static void
vmi_lines(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t, size_t *unknown, size_t *tight)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++) {
			size_t v = d[i].plan[k].vmi;
			const kv_migest *e = &a->est[v];
			char *line;

			if (d[i].plan[k].action != DRAIN_MIGRATE ||
			    !e->present)
				continue;
			if (e->outcome == MIG_UNKNOWN) {
				if (*tight == SIZE_MAX || (e->max_dirty <
				    a->est[*tight].max_dirty))
					*tight = v;
				(*unknown)++;
				continue;
			}
			if (e->outcome == MIG_CONVERGES)
				continue;
			line = window_vmi_line(a, v);
			fputs("  ", t->f);
			kv_term_paint(t, e->outcome == MIG_WILL_ABORT ?
			    KV_C_RED : KV_C_YELLOW, a->vmis[v].vmi->fullname);
			fputs(": ", t->f);
			kv_term_puts(t->f, line);
			fputc('\n', t->f);
			free(line);
		}
}

void
kv_term_window(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t)
{
	size_t unknown = 0, tight = SIZE_MAX;
	char *line;

	if (a->est == NULL)
		return;
	vmi_lines(a, d, n, t, &unknown, &tight);
	if (unknown > 0) {
		line = window_vmi_line(a, tight);
		fprintf(t->f, "  %zu migration%s whose dirty rate decides "
		    "(--dirty-rate, or kvscope-collect --with-metrics); the "
		    "tightest, ", unknown, unknown == 1 ? "" : "s");
		kv_term_puts(t->f, a->vmis[tight].vmi->fullname);
		fputs(": ", t->f);
		kv_term_puts(t->f, line);
		fputc('\n', t->f);
		free(line);
	}
}

void
kv_term_window_total(const kv_analysis *a, const double secs[2],
    double window, bool fails, const kv_term *t)
{
	char *dur = fmt_range(secs), *w = fmt_duration((int64_t)window);

	(void)a;
	fputs("Window ", t->f);
	kv_term_paint(t, KV_C_BOLD, w);
	if (fails)
		fprintf(t->f, ": does not fit (the drain takes %s%s)\n", dur,
		    secs[1] > window ? "" : ", and a migration will be "
		    "aborted");
	else
		fprintf(t->f, ": fits (the drain takes %s)\n", dur);
	free(dur);
	free(w);
}

void
kv_term_window_vmi(const kv_analysis *a, size_t i, const kv_term *t)
{
	const kv_migest *e = a->est != NULL ? &a->est[i] : NULL;
	char *line, *all, *setup, *copy, *pause;

	if (e == NULL || !e->present)
		return;
	line = window_vmi_line(a, i);
	all = fmt_range(e->seconds);
	setup = fmt_range(e->setup);
	copy = fmt_range(e->copy);
	fputs("  migration ", t->f);
	kv_term_paint(t, e->outcome == MIG_CONVERGES ? KV_C_GREEN :
	    e->outcome == MIG_UNKNOWN ? KV_C_NONE : e->outcome ==
	    MIG_AT_RISK ? KV_C_YELLOW : KV_C_RED,
	    kv_mig_outcome_names[e->outcome]);
	fprintf(t->f, " (basis %s%s%s): ", kv_mig_basis_names[e->basis],
	    e->settings ? ", MigrationPolicy " : "", e->settings ?
	    e->settings : "");
	kv_term_puts(t->f, line);
	if (e->no_memory)	/* the copy is unknown: the setup only */
		fprintf(t->f, "\n    takes more than %s (target pod %s, copy "
		    "unknown)", setup, setup);
	else
		fprintf(t->f, "\n    takes %s (target pod %s, copy %s)", all,
		    setup, copy);
	if ((pause = window_pause_words(e)) != NULL) {
		fputs("; ", t->f);
		kv_term_puts(t->f, pause);
		free(pause);
	}
	fputs("\n    assuming:\n", t->f);
	for (int k = 0; k < AS_COUNT; k++) {
		char *w;

		if (!(e->assume & (1u << k)))
			continue;
		w = window_assumption(a, e, k);
		fputs("    - ", t->f);
		kv_term_puts(t->f, w);
		fputc('\n', t->f);
		free(w);
	}
	free(line);
	free(all);
	free(setup);
	free(copy);
}
