/*
 * junit.c - `-o junit` of check, check --drain and plan, and --fail-on:
 * the test cases (one per VMI) the JUnit view (render/term/junit.c) writes,
 * each failing as --fail-on says (default: a VMI that would not migrate;
 * with a drain, one it stops or holds; what-if: one that gets worse).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "render/report.h"
#include "render/render.h"
#include "analyze/rules/rule.h"
#include "analyze/change/diff.h"

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
/* --window: a migration that will be aborted fails its case, with its
 * arithmetic as the message. */
static bool
window_case(const kv_analysis *a, const kv_drain_row *row, kv_jcase *c,
    kv_buf *msg)
{
	char *line;

	if (row->action != DRAIN_MIGRATE || a->est == NULL ||
	    !a->est[row->vmi].present ||
	    a->est[row->vmi].outcome != MIG_WILL_ABORT)
		return false;
	line = window_vmi_line(a, row->vmi);
	kv_buf_printf(msg, "migration will be aborted: %s", line);
	free(line);
	c->state = KV_JCASE_FAILED;
	c->type = "will-abort";
	c->message = msg->data;
	return true;
}

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
			if (o->window > 0 && window_case(a, row, &c[k],
			    &msg[k])) {
				(*bad)++;
				continue;
			}
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

/* The diff's row of b's VMI i: d->vmis is a subsequence of b->vmis in
 * the same (namespace, name) order, so *j walks along. */
static const kv_diff_vmi *
diff_row(const kv_analysis *b, const kv_diff *d, size_t i, size_t *j)
{
	const kv_diff_vmi *dv;

	if (*j >= d->nvmis)
		return NULL;
	dv = &d->vmis[*j];
	if (strcmp(dv->name, b->vmis[i].vmi->fullname) != 0)
		return NULL;
	(*j)++;
	return dv;
}

static bool
listed(const cli_list *l, const char *w)
{
	for (size_t k = 0; k < l->n; k++)
		if (strcmp(l->v[k], w) == 0)
			return true;
	return false;
}

bool
cli_whatif_fails(const kv_analysis *b, const kv_diff_vmi *dv,
    const cli_args *o, size_t i)
{
	const kv_vmires *r = &b->vmis[i];
	bool worse = dv != NULL && dv->worse;

	if (r->verdict == V_NOT_RUNNING)
		return false;
	if (worse && listed(&o->fail_on, "worse"))
		return true;
	return cli_fails_on(b, o, i, kv_on_drain_names[r->on_drain], worse);
}

size_t
cli_whatif_bad(const kv_analysis *b, const kv_diff *d, const cli_args *o)
{
	size_t j = 0, bad = 0;

	for (size_t i = 0; i < b->nvmis; i++)
		bad += cli_whatif_fails(b, diff_row(b, d, i, &j), o, i);
	return bad;
}

/* "after the change: blocked: disk-not-shared (was ok); on a drain:
 * shutdown (was migrate); adds ...; would not start again: WHY". */
static const char *
whatif_line(const kv_vmires *r, const kv_diff_vmi *dv, kv_buf *b)
{
	kv_buf_printf(b, "%s", dv != NULL ? "after the change: " : "");
	verdict_line(r, b);
	if (dv == NULL) {
		kv_buf_printf(b, " (as before the change)");
		return b->data;
	}
	if (dv->verdict[0] != dv->verdict[1])
		kv_buf_printf(b, " (was %s)", kv_verdict_names[dv->verdict[0]]);
	if (dv->drain[0] != dv->drain[1])
		kv_buf_printf(b, "; on a drain: %s (was %s)",
		    kv_on_drain_names[dv->drain[1]],
		    kv_on_drain_names[dv->drain[0]]);
	for (size_t k = 0; k < dv->added.n; k++)
		kv_buf_printf(b, "%s%s", k ? ", " : "; adds ", dv->added.v[k]);
	if (dv->nostart != NULL)
		kv_buf_printf(b, "; would not start again: %s", dv->nostart);
	return b->data;
}

/* what-if -o junit: a case per VMI of the snapshot after the changes,
 * failing when it got worse (or as --fail-on says), skipped when it is
 * not running after them. */
int
cli_junit_whatif(const kv_analysis *b, const kv_diff *d, const cli_args *o,
    const kv_term *t, size_t *bad)
{
	kv_jcase *c = xcalloc(b->nvmis + 1, sizeof(kv_jcase));
	kv_buf *msg = xcalloc(b->nvmis + 1, sizeof(kv_buf));
	size_t j = 0;

	*bad = 0;
	for (size_t i = 0; i < b->nvmis; i++) {
		const kv_vmires *r = &b->vmis[i];
		const kv_diff_vmi *dv = diff_row(b, d, i, &j);

		c[i] = (kv_jcase){ .vmi = i, .state = KV_JCASE_PASSED };
		if (r->verdict == V_NOT_RUNNING) {
			c[i].state = KV_JCASE_SKIPPED;
			c[i].message = "not running after the change: not "
			    "judged";
		} else if (cli_whatif_fails(b, dv, o, i)) {
			c[i].state = KV_JCASE_FAILED;
			c[i].type = dv != NULL && dv->worse ? "worse" :
			    kv_verdict_names[r->verdict];
			c[i].message = whatif_line(r, dv, &msg[i]);
			(*bad)++;
		}
	}
	return write_cases(b, "kvscope what-if", c, msg, b->nvmis, t);
}
