/*
 * view_explain.c - the `explain` view: the full reasoning for one VMI
 * (its CPU, condition and verdict, the target pod's node selector, each
 * node with the first constraint it fails, every blocker with its fix);
 * view.h.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "analyze/rules/capacity.h"
#include "render/render.h"
#include "render/report.h"
#include "analyze/rules/target.h"
#include "render/view.h"

/* Node lines shown before "... and N more" (without --all). */
#define EXPLAIN_NODES 20

/* The VMI's group of rule r (its first), or NULL. */
static const kv_group *
group_of(const kv_analysis *a, const kv_vmires *r, const kv_rule *rule)
{
	for (size_t k = 0; k < r->ngroups; k++)
		if (a->groups[r->groups[k]].rule == rule)
			return &a->groups[r->groups[k]];
	return NULL;
}

static void
print_issue(const kv_analysis *a, const kv_vmires *r, const kv_issue *is,
    const kv_term *t)
{
	const char *title, *fix;
	size_t w = strlen(is->rule->code);
	const kv_group *g = group_of(a, r, is->rule);
	char *badge;

	kv_rule_text(a, is->rule, &title, &fix);
	fputs("  ", t->f);
	kv_term_paint(t, KV_C_BOLD, is->rule->code);
	fprintf(t->f, "%*s", w < 32 ? (int)(33 - w) : 1, "");
	kv_term_puts(t->f, is->message);
	fprintf(t->f, "\n  %-32s fix: %s\n", "", fix);
	if (g == NULL)
		return;
	badge = kv_fix_badge(g);
	fprintf(t->f, "  %-32s group %s, %s%s: ", "", g->id,
	    kv_fix_names[g->fix.action], badge);
	free(badge);
	kv_term_puts(t->f, g->fix.text);
	fputs("\n", t->f);
}

/* "groups: G1 drain-block, G4 no-cpu-target" */
static void
print_groups(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	fprintf(f, "  groups:%s", r->ngroups ? "" : " none");
	for (size_t k = 0; k < r->ngroups; k++) {
		const kv_group *g = &a->groups[r->groups[k]];

		fprintf(f, "%s %s %s", k ? "," : "", g->id, g->code);
	}
	fputs("\n", f);
}

/* The flavor's lines for the VMI (kv_vmifacts.notes: for DVP the
 * VirtualMachine, its class and operations, rules-deckhouse.md). */
static void
print_notes(const kv_vmires *r, FILE *f)
{
	for (size_t i = 0; i < r->facts.nnotes; i++) {
		fputs("  ", f);
		kv_term_puts(f, r->facts.notes[i]);
		fputs("\n", f);
	}
}

/* After "a drain stops it": whether its VirtualMachine starts it again. */
static void
print_restart(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	if (r->on_drain == DRAIN_SHUTDOWN && r->restart_why != NULL) {
		if (r->restarts == 1) {
			fputs(", and it starts again on ", f);
			kv_term_place(f, a, r->restart_node);
			fprintf(f, " (%s)", r->restart_why);
		} else if (r->restarts < 0)
			fprintf(f, "; whether it starts again is unknown (%s)",
			    r->restart_why);
		else
			fprintf(f, " and it stays down (%s)", r->restart_why);
	}
	fputs("\n", f);
}

/* "; the template differs in cpuModel, nodeSelector" */
static void
print_differs(const kv_vm *vm, FILE *f)
{
	char *what;

	if (vm->after == NULL)
		return;
	what = kv_vm_differs_text(vm);
	fputs("; the template differs in ", f);
	kv_term_puts(f, what);
	free(what);
}

/* The VirtualMachine behind the VMI, and a template that already differs
 * from it (condition RestartRequired). */
static void
print_vm(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	if (r->vm == NULL)
		return;
	fputs("  VirtualMachine ", f);
	kv_term_puts(f, r->vm->fullname);
	fprintf(f, ", runStrategy %s", r->vm->run == RS_OTHER &&
	    r->vm->run_text != NULL ? r->vm->run_text :
	    kv_run_strategy_names[r->vm->run]);
	if (r->vm->restart_required) {
		fputs("; RestartRequired: ", f);
		kv_term_puts(f, r->vm->restart_message ?
		    r->vm->restart_message : "(no message)");
		fprintf(f, " - its template differs from this running %s: "
		    "the verdict is this %s's; the fixes and what-if's "
		    "answers after a restart use the template",
		    kv_word(a, KV_WORD_VM), kv_word(a, KV_WORD_VM));
		if (r->vm->has_template) {
			fputs(" (CPU model ", f);
			kv_term_puts(f, r->vm->tmpl_cpu_model ?
			    r->vm->tmpl_cpu_model : "cluster default");
			fputs(", evictionStrategy ", f);
			kv_term_puts(f, r->vm->tmpl_eviction ?
			    r->vm->tmpl_eviction : "cluster default");
			fputs(")", f);
		}
		print_differs(r->vm, f);
	}
	fputs("\n", f);
}

/* The names of the template's fields that differ from the VMI. */
static json_t *
differs_json(const kv_vm *vm)
{
	json_t *d = json_array();

	for (int f = 0; f < TF_COUNT; f++)
		if (vm->differs & (1u << f))
			json_array_append_new(d,
			    json_string(kv_tmpl_field_names[f]));
	return d;
}

/* What the restart brings (findings.md "explain"), null without
 * RestartRequired. */
static json_t *
template_json(const kv_vm *vm)
{
	const kv_vmi *t = vm->after;
	json_t *sel = json_object(), *ifs = json_array(), *vols = json_array();

	if (!vm->restart_required || t == NULL) {
		json_decref(sel);
		json_decref(ifs);
		json_decref(vols);
		return json_null();
	}
	for (size_t i = 0; i < t->node_selector.n; i++)
		json_object_set_new(sel, t->node_selector.v[i].key,
		    json_string(t->node_selector.v[i].value));
	for (size_t i = 0; i < t->nifaces; i++)
		json_array_append_new(ifs, json_pack("{s:s?, s:s}", "name",
		    t->ifaces[i].name, "binding",
		    kv_binding_names[t->ifaces[i].binding]));
	for (size_t i = 0; i < t->nvolumes; i++)
		json_array_append_new(vols, json_pack("{s:s, s:s?}", "name",
		    t->volumes[i].name, "claim", t->volumes[i].claim));
	return json_pack("{s:o, s:s?, s:s?, s:o, s:o, s:o, s:o}",
	    "differs", differs_json(vm), "cpuModel", t->cpu_model,
	    "evictionStrategy", t->eviction, "nodeSelector", sel,
	    "interfaces", ifs, "volumes", vols, "memory", t->memory < 0 ?
	    json_null() : json_integer(t->memory));
}

/* The head: name, phase, CPU, condition, verdict, drain. */
static void
print_head(const kv_analysis *a, const kv_vmires *r, const kv_term *t)
{
	FILE *f = t->f;
	char rules[128], *timeout;
	/* a flavor with more than one path names whose answer this is
	 * (Harvester's three, docs/rules.md) */
	const kv_vocab *w = a->m->flavor->vocab;

	fprintf(f, "%s ", kv_word(a, KV_WORD_VM));
	kv_term_puts(f, r->vmi->fullname);
	fprintf(f, "\n  phase %s on ", r->vmi->phase);
	kv_term_puts(f, r->vmi->node ? r->vmi->node : "-");
	fprintf(f, ", cpu %s", kv_mode_names[r->mode]);
	if (r->mode == MODE_NAMED) {
		fprintf(f, " ");
		kv_term_puts(f, r->model);
	}
	fprintf(f, ", %s %s%s", r->cond_type, r->cond == 'T' ? "True" :
	    r->cond == 'F' ? "False" : "absent", r->cond_reason ? " " : "");
	kv_term_puts(f, r->cond_reason ? r->cond_reason : "");
	fprintf(f, "\n");
	print_notes(r, f);
	fprintf(f, "  verdict ");
	kv_term_paint(t, kv_verdict_color(r->verdict),
	    kv_verdict_names[r->verdict]);
	fprintf(f, ", outcome %s", kv_outcome_names[r->outcome]);
	if (r->after >= 0)
		fprintf(f, " after %lld s", (long long)r->after);
	fprintf(f, "%s%s%s%s%s%s\n", r->mismatch ? "  (" : "", r->mismatch ?
	    r->cond_type : "", r->mismatch ? " says True: mismatch)" : "",
	    w->verdict_note ? "  (" : "",
	    w->verdict_note ? w->verdict_note : "",
	    w->verdict_note ? ")" : "");
	kv_rules_version_describe(&a->cfg.rules, rules, sizeof(rules));
	fprintf(f, "  judged by the %s\n", rules);
	timeout = window_timeout_words(a, r);
	fprintf(f, "  %s, %s, eviction %s: a %s %s", r->method, timeout,
	    r->eviction, w->drain_act ? w->drain_act : "drain",
	    r->on_drain == DRAIN_MIGRATE ? "migrates it" :
	    r->on_drain == DRAIN_BLOCK ? "waits forever" :
	    r->on_drain == DRAIN_SHUTDOWN ? "stops it" :
	    r->verdict == V_NOT_JUDGED ? "does what is not judged" :
	    r->on_drain == DRAIN_NONE ? "has nothing to move (not running)" :
	    "leaves it to an external controller");
	free(timeout);
	print_restart(a, r, f);
	print_vm(a, r, f);
	kv_term_window_vmi(a, (size_t)(r - a->vmis), t);
}

static void
print_req(const kv_nsreq *q, FILE *f)
{
	static const char *const ops[] = { "In", "NotIn", "Exists",
	    "DoesNotExist", "Gt", "Lt" };

	if (q->field)
		fputs("field ", f);
	kv_term_puts(f, q->key);
	fprintf(f, " %s", ops[q->op]);
	for (size_t i = 0; i < q->nvalues; i++) {
		fputs(i ? "," : " ", f);
		kv_term_puts(f, q->values[i]);
	}
}

/* The target pod's required node affinity as KubeVirt writes it: what
 * it appends (kv_appended) at the end of each term. */
static void
print_terms(const kv_vmires *r, FILE *f)
{
	const kv_nsterm *app = kv_appended(r);
	kv_nsterm only = { 0, NULL, 0 };
	const kv_nsterm *terms = r->affinity->terms;
	size_t n = r->affinity->nterms;

	if (n == 0 && app == NULL)
		return;
	if (n == 0) {
		terms = &only;
		n = 1;
	}
	for (size_t t = 0; t < n; t++) {
		size_t k = 0;

		fprintf(f, "  affinity term %zu:", t + 1);
		for (size_t q = 0; q < terms[t].nreqs; q++, k++) {
			fputs(k ? ", " : " ", f);
			print_req(&terms[t].reqs[q], f);
		}
		for (size_t q = 0; app != NULL && q < app->nreqs; q++, k++) {
			fputs(k ? ", " : " ", f);
			print_req(&app->reqs[q], f);
		}
		fputs(k ? "\n" : " (empty: matches no node)\n", f);
	}
}

static void
print_selector(const kv_vmires *r, FILE *f)
{
	fprintf(f, "\ntarget pod node selector:\n");
	for (size_t i = 0; i < r->selectors.n; i++) {
		fprintf(f, "  ");
		kv_term_puts(f, r->selectors.v[i].key);
		fprintf(f, "=");
		kv_term_puts(f, r->selectors.v[i].value);
		fprintf(f, "\n");
	}
	print_terms(r, f);
}

/* A VMI without its launcher pod in the input: the requests derived from
 * it (podreq.c), and what they leave out. */
static void
print_need(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	char *base;

	if (!r->need_derived)
		return;
	base = kv_res_fmt(r->need);
	fprintf(f, "\ntarget pod requests, derived from the %s (its launcher "
	    "pod is not in the input): %s", kv_word(a, KV_WORD_VM), base);
	free(base);
	for (size_t k = 0; k < a->m->nresnames; k++) {
		const char *name = a->m->resnames[k];
		char *q;

		if (r->need->ext[k] <= 0)
			continue;
		q = kv_startswith(name, "hugepages-") ||
		    strcmp(name, "ephemeral-storage") == 0 ?
		    kv_fmt_bytes(r->need->ext[k]) :
		    xasprintf("%lld", (long long)r->need->ext[k]);
		fputs(", ", f);
		kv_term_puts(f, name);
		fprintf(f, " %s", q);
		free(q);
	}
	fputs("; memory without the launcher's overhead: a lower bound\n",
	    f);
	if (r->need_unknown_nets > 0) {
		fputs("  network ", f);
		kv_term_puts(f, r->need_unknown_net);
		fprintf(f, "%s: its NetworkAttachmentDefinition is not in the "
		    "input, so the device-plugin resource it may name (SR-IOV) "
		    "is not counted\n", r->need_unknown_nets > 1 ?
		    " and others" : "");
	}
}

/* The pod (anti-)affinity and spread terms left out of the search. */
static void
print_unjudged(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	kv_buf b = {0};

	if (kv_podaff_unjudged(a, r, &b) > 0) {
		fprintf(f, "\nnot judged (pods scope launchers; these could "
		    "match pods the snapshot lacks):\n");
		for (char *line = b.data, *nl; line && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			*nl = '\0';
			fprintf(f, "  ");
			kv_term_puts(f, line);
			fprintf(f, "\n");
		}
	}
	kv_buf_free(&b);
}

/* Verdict not-judged: what the input lacks, one line each. */
static void
print_not_judged(const kv_analysis *a, const kv_vmires *r, FILE *f)
{
	if (r->not_judged == 0)
		return;
	fprintf(f, "\n%s:\n", r->verdict == V_NOT_JUDGED ?
	    "not judged: the input lacks what its checks need" :
	    "checks skipped: the input lacks what they need");
	for (int n = 0; n < NEED_COUNT; n++) {
		const char *sep = " (skipped: ";

		if (!(r->not_judged & KV_NEED_BIT(n)))
			continue;
		fputs("  ", f);
		kv_term_puts(f, a->lack_msg[n]);
		for (size_t i = 0; i < kv_nrules; i++)
			if (kv_rule_lacks(a, r, &kv_rules[i]) &
			    KV_NEED_BIT(n)) {
				fprintf(f, "%s%s", sep, kv_rules[i].code);
				sep = ", ";
			}
		fputs(*sep == ',' ? ")\n" : "\n", f);
	}
}

/* "OK", "cpu" (fits the CPU, fails another constraint) or "no". */
static const char *
node_fit(const kv_analysis *a, const kv_vmires *r, size_t n, kv_buf *why)
{
	if (!kv_target_explain(a, a->place, r, n, why))
		return "OK";
	return kv_nodeset_has(&r->cpu_targets, n) ? "cpu" : "no";
}

static void
node_line(const kv_analysis *a, const kv_vmires *r, size_t n,
    const kv_term *t)
{
	kv_buf why = {0};
	const char *fit = node_fit(a, r, n, &why);

	fputs("  ", t->f);
	kv_term_paint(t, *fit == 'O' ? KV_C_GREEN : *fit == 'c' ?
	    KV_C_YELLOW : KV_C_NONE, fit);
	fprintf(t->f, "%*s", (int)(5 - strlen(fit)), "");
	kv_term_puts(t->f, a->m->nodes[n].name);
	if (why.data) {
		fprintf(t->f, ": ");
		kv_term_puts(t->f, why.data);
	}
	fprintf(t->f, "\n");
	kv_buf_free(&why);
}

/* The nodes that work first, then those that fit the CPU only, then the
 * rest, each in name order; the first 20 unless --all. */
static void
print_nodes(const kv_analysis *a, const kv_vmires *r, const kv_term *t)
{
	const kv_model *m = a->m;
	size_t limit = t->all ? m->nnodes : EXPLAIN_NODES, shown = 0;
	char *rank = xcalloc(m->nnodes + 1, 1);

	for (size_t n = 0; n < m->nnodes; n++) {
		kv_buf why = {0};
		const char *fit = node_fit(a, r, n, &why);

		rank[n] = *fit == 'O' ? 0 : *fit == 'c' ? 1 : 2;
		kv_buf_free(&why);
	}
	fprintf(t->f, "\nnodes%s:\n", r->targets.n > 0 ? " (those that "
	    "work first)" : "");
	for (char k = 0; k < 3; k++)
		for (size_t n = 0; n < m->nnodes && shown < limit; n++)
			if (rank[n] == k) {
				node_line(a, r, n, t);
				shown++;
			}
	free(rank);
	if (m->nnodes > limit)
		fprintf(t->f, "  ... and %zu more (%zu OK in all; --all lists "
		    "every node)\n", m->nnodes - limit, r->targets.n);
}

static int
explain_doc(const kv_analysis *a, size_t i, const kv_term *t, kv_err *err)
{
	const kv_vmires *r = &a->vmis[i];
	json_t *doc = json_object(), *nodes = json_array(), *vmis;
	kv_bits one;
	int rc;

	kv_bits_init(&one, a->nvmis);
	kv_bits_set(&one, i);
	vmis = kv_json_vmis(a, &one);
	json_object_set_new(doc, "kind", json_string("kvscope-explain"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "nodeSets", kv_json_node_sets(a, &one));
	json_object_set_new(doc, "groups", kv_json_groups_of(a, &one));
	kv_bits_free(&one);
	json_object_set(doc, "vmi", json_array_get(vmis, 0));
	json_decref(vmis);
	for (size_t n = 0; r->verdict != V_NOT_RUNNING &&
	    r->verdict != V_NOT_JUDGED && n < a->m->nnodes; n++) {
		kv_buf why = {0};
		const char *fit = node_fit(a, r, n, &why);

		json_array_append_new(nodes, json_pack("{s:s, s:s, s:s?}",
		    "name", a->m->nodes[n].name, "fit", *fit == 'O' ? "ok" :
		    fit, "why", why.data));
		kv_buf_free(&why);
	}
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "derivedNeed", !r->need_derived ?
	    json_null() : json_pack("{s:b, s:I, s:s?}", "memoryLowerBound",
	    1, "unknownNetworks", (json_int_t)r->need_unknown_nets,
	    "unknownNetwork", r->need_unknown_net));
	json_object_set_new(doc, "virtualMachine", r->vm == NULL ?
	    json_null() : json_pack("{s:s, s:s, s:b, s:s?, s:o}", "name",
	    r->vm->fullname, "runStrategy", r->vm->run == RS_OTHER &&
	    r->vm->run_text != NULL ? r->vm->run_text :
	    kv_run_strategy_names[r->vm->run], "restartRequired",
	    r->vm->restart_required, "restartMessage",
	    r->vm->restart_message, "template", template_json(r->vm)));
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

int
kv_view_explain(const kv_analysis *a, size_t i, const kv_term *t,
    kv_err *err)
{
	const kv_vmires *r = &a->vmis[i];

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return explain_doc(a, i, t, err);
	print_head(a, r, t);
	print_groups(a, r, t->f);
	print_not_judged(a, r, t->f);
	if (r->verdict != V_NOT_RUNNING && r->verdict != V_NOT_JUDGED) {
		print_selector(r, t->f);
		print_need(a, r, t->f);
		print_unjudged(a, r, t->f);
		print_nodes(a, r, t);
	}
	fprintf(t->f, "\nblockers:%s\n", r->nblockers ? "" : " none");
	for (size_t k = 0; k < r->nblockers; k++)
		print_issue(a, r, &r->blockers[k], t);
	fprintf(t->f, "warnings:%s\n", r->nwarnings ? "" : " none");
	for (size_t k = 0; k < r->nwarnings; k++)
		print_issue(a, r, &r->warnings[k], t);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
