/*
 * cmd_check.c - `kvscope check` (the pre-maintenance gate) and
 * `kvscope explain` (the full reasoning for one VMI).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dvp.h"
#include "render.h"
#include "target.h"

static bool
fails(const kv_vmires *r)
{
	return r->verdict != V_OK && r->verdict != V_NOT_RUNNING;
}

int
cmd_check(const kv_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "node", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char **nodes = NULL;
	size_t nnodes = 0, bad = 0, judged = 0;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	int c, rc;

	optind = 1;
	nodes = xcalloc((size_t)argc + 1, sizeof(char *));
	while ((c = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
		if (c != 'n') {
			free(nodes);
			return cli_usage(cmd);
		}
		nodes[nnodes++] = optarg;
	}
	if (argc - optind != 1) {
		free(nodes);
		return cli_usage(cmd);
	}
	if ((rc = cli_load(argv[optind], &m, &a)) != 0) {
		free(nodes);
		return rc;
	}
	for (size_t i = 0; i < nnodes; i++)
		if (kv_model_node(m, nodes[i]) == NULL) {
			fprintf(stderr, "kvscope: --node: no node \"");
			kv_term_puts(stderr, nodes[i]);
			fprintf(stderr, "\" in the snapshot\n");
			rc = EXIT_TOOL;
			goto out;
		}
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];
		bool on = nnodes == 0;

		for (size_t j = 0; j < nnodes && !on; j++)
			on = r->vmi->node && strcmp(r->vmi->node, nodes[j]) == 0;
		if (!on || r->verdict == V_NOT_RUNNING)
			continue;
		judged++;
		if (!fails(r))
			continue;
		bad++;
		kv_term_puts(stdout, r->vmi->fullname);
		printf(" on ");
		kv_term_puts(stdout, r->vmi->node ? r->vmi->node : "-");
		printf(": %s", kv_verdict_names[r->verdict]);
		for (size_t k = 0; k < r->nblockers; k++)
			printf("%s%s", k ? ", " : " (",
			    r->blockers[k].rule->code);
		if (r->nblockers == 0 && r->cond_reason != NULL) {
			/* KubeVirt's word alone: a reason no check maps */
			printf(" (%s=False: ", r->cond_type);
			kv_term_puts(stdout, r->cond_reason);
			printf(")");
		}
		printf("%s%s%s%s\n", r->nblockers ? ")" : "",
		    r->mismatch ? " [" : "", r->mismatch ? r->cond_type : "",
		    r->mismatch ? "=True]" : "");
	}
	printf("%zu of %zu running %s would not migrate\n", bad, judged,
	    kv_word(a, judged == 1 ? KV_WORD_VM : KV_WORD_VMS));
	rc = bad > 0 ? EXIT_FINDINGS : 0;
out:
	free(nodes);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}

static void
print_issue(const kv_analysis *a, const kv_issue *is)
{
	const char *title, *fix;

	kv_rule_text(a, is->rule, &title, &fix);
	printf("  %-32s ", is->rule->code);
	kv_term_puts(stdout, is->message);
	printf("\n  %-32s fix: %s\n", "", fix);
}

/* DVP: the VirtualMachine, its class and operations (rules-deckhouse.md). */
static void
print_dvp(const kv_vmires *r)
{
	const kv_dvpres *d = &r->dvp;

	if (d->vm == NULL) {
		printf("  no VirtualMachine object in the snapshot\n");
		return;
	}
	printf("  class ");
	kv_term_puts(stdout, d->vm->class_name ? d->vm->class_name : "-");
	printf(" (CPU type %s%s), liveMigrationPolicy %s%s\n",
	    d->cpu_type ? d->cpu_type : "unknown", r->vmi->cpu_from_class ?
	    ", CPU derived from the class" : "", d->policy,
	    d->policy_default ? " (default)" : "");
	for (size_t i = 0; i < d->nops; i++) {
		const kv_vmop_origin *o = kv_vmop_system_origin(d->ops[i]);

		printf("  operation ");
		kv_term_puts(stdout, d->ops[i]->name);
		printf(": %s, phase %s%s%s\n", d->ops[i]->type,
		    *d->ops[i]->phase ? d->ops[i]->phase : "not set",
		    o ? ", by DVP for a " : "", o ? o->what : "");
	}
	for (size_t i = 0; i < d->nbdas; i++) {
		printf("  attachment ");
		kv_term_puts(stdout, d->bdas[i]->name);
		printf(": phase %s\n", *d->bdas[i]->phase ?
		    d->bdas[i]->phase : "not set");
	}
}

int
cmd_explain(const kv_cmd *cmd, int argc, char **argv)
{
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	const kv_vmires *r = NULL;
	int rc;

	if (argc != 3)
		return cli_usage(cmd);
	if ((rc = cli_load(argv[1], &m, &a)) != 0)
		return rc;
	for (size_t i = 0; i < a->nvmis && r == NULL; i++)
		if (strcmp(a->vmis[i].vmi->fullname, argv[2]) == 0)
			r = &a->vmis[i];
	if (r == NULL) {
		fprintf(stderr, "kvscope: no VMI \"");
		kv_term_puts(stderr, argv[2]);
		fprintf(stderr, "\" in the snapshot (give NAMESPACE/NAME)\n");
		rc = EXIT_TOOL;
		goto out;
	}
	printf("%s ", kv_word(a, KV_WORD_VM));
	kv_term_puts(stdout, r->vmi->fullname);
	printf("\n  phase %s on ", r->vmi->phase);
	kv_term_puts(stdout, r->vmi->node ? r->vmi->node : "-");
	printf(", cpu %s", kv_mode_names[r->mode]);
	if (r->mode == MODE_NAMED) {
		printf(" ");
		kv_term_puts(stdout, r->model);
	}
	printf(", %s %s%s", r->cond_type, r->cond == 'T' ? "True" :
	    r->cond == 'F' ? "False" : "absent", r->cond_reason ? " " : "");
	kv_term_puts(stdout, r->cond_reason ? r->cond_reason : "");
	printf("\n");
	if (r->dvp.present)
		print_dvp(r);
	printf("  verdict %s, outcome %s", kv_verdict_names[r->verdict],
	    kv_outcome_names[r->outcome]);
	if (r->after >= 0)
		printf(" after %llds", (long long)r->after);
	printf("%s%s%s\n", r->mismatch ? "  (" : "", r->mismatch ?
	    r->cond_type : "", r->mismatch ? " says True: mismatch)" : "");
	printf("  %s, completion timeout %llds, eviction %s: a drain %s\n",
	    r->method, (long long)r->completion_timeout, r->eviction,
	    r->on_drain == DRAIN_MIGRATE ? "migrates it" :
	    r->on_drain == DRAIN_BLOCK ? "waits forever" :
	    r->on_drain == DRAIN_SHUTDOWN ? "stops it" :
	    "leaves it to an external controller");
	if (r->verdict == V_NOT_RUNNING)
		goto issues;
	printf("\ntarget pod node selector:\n");
	for (size_t i = 0; i < r->selectors.n; i++) {
		printf("  ");
		kv_term_puts(stdout, r->selectors.v[i].key);
		printf("=");
		kv_term_puts(stdout, r->selectors.v[i].value);
		printf("\n");
	}
	for (size_t t = 0; t < r->extra_affinity.nterms; t++)
		for (size_t q = 0; q < r->extra_affinity.terms[t].nreqs; q++) {
			printf("  affinity: ");
			kv_term_puts(stdout,
			    r->extra_affinity.terms[t].reqs[q].key);
			printf(" DoesNotExist\n");
		}
	printf("\nnodes:\n");
	for (size_t n = 0; n < m->nnodes; n++) {
		kv_buf why = {0};
		bool cpu = kv_nodeset_has(&r->cpu_targets, n);

		printf("  %-4s ", kv_target_explain(a, a->place, r, n, &why) ?
		    (cpu ? "cpu" : "no") : "OK");
		kv_term_puts(stdout, m->nodes[n].name);
		if (why.data) {
			printf(": ");
			kv_term_puts(stdout, why.data);
		}
		printf("\n");
		kv_buf_free(&why);
	}
issues:
	printf("\nblockers:%s\n", r->nblockers ? "" : " none");
	for (size_t i = 0; i < r->nblockers; i++)
		print_issue(a, &r->blockers[i]);
	printf("warnings:%s\n", r->nwarnings ? "" : " none");
	for (size_t i = 0; i < r->nwarnings; i++)
		print_issue(a, &r->warnings[i]);
out:
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
