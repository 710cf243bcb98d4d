/*
 * runs.c - see runs.h.
 */
#include "analyze/util/runs.h"

#include <pthread.h>

#include "analyze/util/util.h"

typedef struct part {
	size_t n, run;
	int at, of;			/* this part, of how many */
	kv_runs_fn *fn;
	void *arg;
} part;

static void *
run_part(void *arg)
{
	const part *p = arg;
	size_t step = p->run * (size_t)p->of;

	for (size_t i = p->run * (size_t)p->at; i < p->n; i += step)
		p->fn(p->arg, p->at, i, i + p->run < p->n ? i + p->run : p->n);
	return NULL;
}

int
kv_runs_parts(size_t n, size_t least)
{
	return kv_threads() > 1 && n >= least ? 2 : 1;
}

void
kv_runs(size_t n, size_t run, int nparts, kv_runs_fn *fn, void *arg)
{
	part p0 = { n, run > 0 ? run : 1, 0, nparts > 1 ? 2 : 1, fn, arg };
	part p1 = p0;
	pthread_t th;

	p1.at = 1;
	if (p0.of == 1) {
		run_part(&p0);
		return;
	}
	if (pthread_create(&th, NULL, run_part, &p1) != 0) {
		run_part(&p0);
		run_part(&p1);
		return;
	}
	run_part(&p0);
	pthread_join(th, NULL);
}
