/*
 * junit.c - `-o junit` of check, check --drain and plan, and --fail-on:
 * the test cases (one per VMI) the JUnit view (render/term/junit.c) writes,
 * each failing as --fail-on says (default: a VMI that would not migrate;
 * with a drain, one it stops or holds).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "render/render.h"
#include "analyze/rules/rule.h"

bool
cli_fails_on(const kv_analysis *a, const cli_args *o, size_t i,
    const char *action, bool dflt)
{
	const kv_vmires *r = &a->vmis[i];

	if (o->fail_on.n == 0)
		return dflt;
	for (size_t k = 0; k < o->fail_on.n; k++) {
		const char *w = o->fail_on.v[k];

		if (strcmp(w, kv_verdict_names[r->verdict]) == 0 ||
		    (action != NULL && strcmp(w, action) == 0))
			return true;
		for (size_t b = 0; b < r->nblockers; b++)
			if (strcmp(w, r->blockers[b].rule->code) == 0)
				return true;
	}
	return false;
}

/* "blocked: disk-not-shared, network-pod-bridge" into buf. */
static const char *
verdict_line(const kv_vmires *r, kv_buf *b)
{
	kv_buf_printf(b, "%s", kv_verdict_names[r->verdict]);
	for (size_t k = 0; k < r->nblockers; k++)
		kv_buf_printf(b, "%s%s", k ? ", " : ": ",
		    r->blockers[k].rule->code);
	return b->data;
}

static int
write_cases(const kv_analysis *a, const char *suite, kv_jcase *c,
    kv_buf *msg, size_t n, const kv_term *t)
{
	kv_err err = { 0 };
	int rc = 0;

	if (kv_view_junit(a, suite, c, n, t, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	}
	for (size_t i = 0; i < n; i++)
		kv_buf_free(&msg[i]);
	free(msg);
	free(c);
	return rc;
}

int
cli_junit_check(const kv_analysis *a, const kv_bits *pick,
    const cli_args *o, const kv_term *t, size_t *bad)
{
	size_t n = kv_bits_count(pick), k = 0;
	kv_jcase *c = xcalloc(n + 1, sizeof(kv_jcase));
	kv_buf *msg = xcalloc(n + 1, sizeof(kv_buf));

	*bad = 0;
	KV_BITS_FOREACH(pick, i) {
		const kv_vmires *r = &a->vmis[i];
		bool running = r->verdict != V_NOT_RUNNING;

		c[k] = (kv_jcase){ .vmi = i, .state = KV_JCASE_PASSED };
		if (!running) {
			c[k].state = KV_JCASE_SKIPPED;
			c[k].message = "not running: not judged";
		} else if (r->verdict == V_NOT_JUDGED &&
		    !cli_fails_on(a, o, i, NULL, false)) {
			c[k].state = KV_JCASE_SKIPPED;
			c[k].message = "not judged: the input lacks a "
			    "resource its checks need";
		} else if (cli_fails_on(a, o, i, NULL,
		    kv_verdict_fails(r->verdict))) {
			c[k].state = KV_JCASE_FAILED;
			c[k].type = kv_verdict_names[r->verdict];
			c[k].message = verdict_line(r, &msg[k]);
			(*bad)++;
		}
		k++;
	}
	return write_cases(a, "kvscope check", c, msg, k, t);
}

/* One case per VMI of the drains d[0..n): failing when the drain stops
 * (unless allow) or holds it, or as --fail-on says. */
int
cli_junit_drain(const kv_analysis *a, const kv_drain *d, size_t n,
    const cli_args *o, const char *suite, const kv_term *t, size_t *bad)
{
	size_t total = 0, k = 0;
	kv_jcase *c;
	kv_buf *msg;

	for (size_t i = 0; i < n; i++)
		total += d[i].nplan;
	c = xcalloc(total + 1, sizeof(kv_jcase));
	msg = xcalloc(total + 1, sizeof(kv_buf));
	*bad = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < d[i].nplan; p++, k++) {
			const kv_drain_row *row = &d[i].plan[p];
			const char *act = kv_on_drain_names[row->action];
			bool dflt = row->action == DRAIN_BLOCK ||
			    (row->action == DRAIN_SHUTDOWN &&
			    o->allow != ALLOW_SHUTDOWN &&
			    !(o->allow == ALLOW_RESTART &&
			    row->restart));

			c[k] = (kv_jcase){ .vmi = row->vmi };
			if (!cli_fails_on(a, o, row->vmi, act, dflt))
				continue;
			c[k].state = KV_JCASE_FAILED;
			c[k].type = act;
			kv_buf_printf(&msg[k], "%s on the drain of %s%s%s%s",
			    row->action == DRAIN_BLOCK ? "holds" :
			    row->action == DRAIN_SHUTDOWN ? "stops" : act,
			    a->m->nodes[row->source].name, row->reason ?
			    " (" : "", row->reason ? row->reason : "",
			    row->reason ? ")" : "");
			c[k].message = msg[k].data;
			(*bad)++;
		}
	return write_cases(a, suite, c, msg, k, t);
}
