/*
 * view_cross.c - the text of `kvscope crosscheck` (render/cross.h): the
 * summary line, both sides' KubeVirt and gate, the data to copy and the
 * best CPU model both clusters run, the groups by cause (most VMs first,
 * each with what it rules out, its fix and its VMs), then one line per VM
 * with its answer, TARGET nodes and reasons.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/cross.h"
#include "render/render.h"

#define LIST_LINES 3

static const char *
vms_word(size_t n)
{
	return n == 1 ? "VM" : "VMs";
}

static void
sides(const kv_cross *x, const kv_term *t)
{
	static const char *const which[2] = { "SOURCE", "TARGET" };

	for (int i = 0; i < 2; i++) {
		const kv_xside *s = &x->side[i];

		fprintf(t->f, "%s: ", which[i]);
		kv_term_puts(t->f, s->name);
		fprintf(t->f, " (KubeVirt %s, DecentralizedLiveMigration "
		    "%s)\n", s->version, s->gate ? "on" : "off");
	}
	for (size_t i = 0; i < x->nchanges; i++) {
		fputs("TARGET changed: ", t->f);
		kv_term_wrap(t, 16, 4, x->changes[i]);
		fputc('\n', t->f);
	}
}

static void
facts(const kv_cross *x, const kv_term *t)
{
	char *b = kv_cross_copy(x);
	kv_tlist l;

	fprintf(t->f, "%s\n", b);
	free(b);
	fputs("best CPU model both clusters run:", t->f);
	if (x->nbest == 0)
		fputs(" none known\n", t->f);
	else {
		kv_tlist_begin(&l, t, 34, 2, x->nbest, LIST_LINES);
		for (size_t i = 0; i < x->nbest; i++)
			kv_tlist_add(&l, x->best[i]);
		kv_tlist_end(&l);
	}
}

static void
group(const kv_cross *x, const kv_xgroup *g, const kv_term *t)
{
	kv_tlist l;

	fputc('\n', t->f);
	kv_term_paint(t, g->blocks ? KV_C_RED : KV_C_YELLOW, g->code);
	fprintf(t->f, ": %zu %s (%s): ", g->nvms, vms_word(g->nvms),
	    kv_cross_rules_out(g->blocks));
	kv_term_puts(t->f, g->title);
	fputs("\n  fix: ", t->f);
	kv_term_wrap(t, 7, 7, g->fix);
	fputs("\n  VMs:", t->f);
	kv_tlist_begin(&l, t, 6, 6, g->nvms, LIST_LINES);
	for (size_t i = 0; i < g->nvms; i++)
		kv_tlist_add(&l, x->vms[g->vms[i]].fullname);
	kv_tlist_end(&l);
}

static enum kv_color
answer_color(enum kv_xanswer a)
{
	return a == XA_LIVE ? KV_C_GREEN : a == XA_COLD ? KV_C_YELLOW :
	    KV_C_RED;
}

static void
vm_line(const kv_xvm *vm, const kv_term *t)
{
	kv_tlist l;

	kv_term_puts(t->f, vm->fullname);
	fputs(": ", t->f);
	kv_term_paint(t, answer_color(vm->answer),
	    kv_xanswer_names[vm->answer]);
	if (!vm->running)
		fputs(" (stopped)", t->f);
	if (vm->ntargets > 0) {
		fputs(", on", t->f);
		kv_tlist_begin(&l, t, 0, 4, vm->ntargets, 1);
		for (size_t i = 0; i < vm->ntargets; i++)
			kv_tlist_add(&l, vm->targets[i]);
		kv_tlist_end(&l);
	} else
		fputc('\n', t->f);
	for (size_t i = 0; i < vm->nreasons; i++) {
		fprintf(t->f, "    %s: ", vm->reasons[i].code);
		kv_term_wrap(t, 6 + kv_term_strwidth(vm->reasons[i].code),
		    6, vm->reasons[i].message);
		fputc('\n', t->f);
	}
}

int
kv_view_cross(const kv_cross *x, const kv_term *t, kv_err *err)
{
	fprintf(t->f, "%zu of %zu %s could live-migrate to ",
	    x->counts[XA_LIVE], x->nvms, vms_word(x->nvms));
	kv_term_puts(t->f, x->side[1].name);
	fprintf(t->f, ", %zu only cold, %zu not\n", x->counts[XA_COLD],
	    x->counts[XA_NO]);
	sides(x, t);
	facts(x, t);
	for (size_t i = 0; i < x->ngroups; i++)
		group(x, &x->groups[i], t);
	if (x->nvms > 0)
		fputs("\nVMs:\n", t->f);
	for (size_t i = 0; i < x->nvms; i++)
		vm_line(&x->vms[i], t);
	if (ferror(t->f)) {
		kv_seterr(err, "stdout: write error");
		return KV_ERR;
	}
	return KV_OK;
}
