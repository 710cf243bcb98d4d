/*
 * cmd_cpu.c - `kvscope models` and `kvscope pairs`: the CPU engine's
 * tables in the terminal.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render.h"

typedef struct ranked {
	const kv_named *nm;
	size_t on;		/* chosen nodes that can run it */
} ranked;

static int
rank_cmp(const void *x, const void *y)
{
	const kv_named *p = ((const ranked *)x)->nm;
	const kv_named *q = ((const ranked *)y)->nm;
	int lp = p->info ? p->info->level : -1;
	int lq = q->info ? q->info->level : -1;
	size_t fp = p->info ? p->info->nfeatures_novmx : 0;
	size_t fq = q->info ? q->info->nfeatures_novmx : 0;

	if (lp != lq)
		return lp > lq ? -1 : 1;
	if (fp != fq)
		return fp > fq ? -1 : 1;
	return strcmp(p->model, q->model);
}

static bool
obsolete(const kv_analysis *a, const char *model)
{
	return bsearch(&model, a->cfg.obsolete, a->cfg.nobsolete,
	    sizeof(char *), kv_strptrcmp) != NULL;
}

static void
model_row(const kv_named *nm)
{
	const cpudb_model *cm = nm->info;
	size_t len = strlen(nm->model);

	printf("  ");
	kv_term_puts(stdout, nm->model);
	printf("%*s", len < 33 ? (int)(33 - len) : 1, "");
	if (cm == NULL)
		printf("%-5s %-4s %-7s %s\n", "?", "?", "?", "(unknown model)");
	else
		printf("v%-4d %-4s %-7s %s\n", cm->level,
		    cm->avx2 ? "yes" : "no", cm->avx512f ? "yes" : "no",
		    cm->vendor ? cm->vendor : "-");
}

static int
choose_nodes(const kv_analysis *a, const char *list, char **sel,
    size_t nsel, kv_bits *chosen)
{
	const kv_model *m = a->m;

	kv_bits_init(chosen, m->nnodes);
	if (list == NULL && nsel == 0) {
		for (size_t i = 0; i < m->nnodes; i++)
			if (a->nodes[i].kubevirt)
				kv_bits_set(chosen, i);
		return 0;
	}
	if (list != NULL) {
		char *copy = xstrdup(list), *save = NULL, *tok;

		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			const kv_node *n = kv_model_node(m, tok);

			if (n == NULL) {
				fprintf(stderr, "kvscope: --nodes: no node \"");
				kv_term_puts(stderr, tok);
				fprintf(stderr, "\" in the snapshot\n");
				free(copy);
				return -1;
			}
			kv_bits_set(chosen, (size_t)(n - m->nodes));
		}
		free(copy);
	} else
		kv_bits_fill(chosen);
	for (size_t s = 0; s < nsel; s++) {
		char *eq = strchr(sel[s], '=');

		if (eq == NULL) {
			fprintf(stderr, "kvscope: --selector: expected "
			    "key=value\n");
			return -1;
		}
		*eq = '\0';
		for (size_t i = 0; i < m->nnodes; i++) {
			const char *v = kv_labels_get(&m->nodes[i].labels,
			    sel[s]);

			if (v == NULL || strcmp(v, eq + 1) != 0)
				kv_bits_clear(chosen, i);
		}
		*eq = '=';
	}
	return 0;
}

int
cmd_models(const kv_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "selector", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *list = NULL;
	char **sel = xcalloc((size_t)argc + 1, sizeof(char *));
	size_t nsel = 0, nchosen, ncommon = 0;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_bits chosen = {0};
	ranked *rk = NULL;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:s:", opts, NULL)) != -1) {
		if (c == 'n')
			list = optarg;
		else if (c == 's')
			sel[nsel++] = optarg;
		else {
			free(sel);
			return cli_usage(cmd);
		}
	}
	if (argc - optind != 1) {
		free(sel);
		return cli_usage(cmd);
	}
	if ((rc = cli_load(argv[optind], &m, &a)) != 0) {
		free(sel);
		return rc;
	}
	if (choose_nodes(a, list, sel, nsel, &chosen) != 0) {
		rc = EXIT_TOOL;
		goto out;
	}
	nchosen = kv_bits_count(&chosen);
	rk = xcalloc(a->nnamed + 1, sizeof(ranked));
	for (size_t i = 0; i < a->nnamed; i++) {
		rk[i].nm = &a->named[i];
		for (size_t j = 0; j < a->named[i].nnodes; j++)
			rk[i].on += kv_bits_test(&chosen, a->named[i].nodes[j]);
	}
	kv_qsort(rk, a->nnamed, sizeof(ranked), rank_cmp);
	printf("%zu node%s:", nchosen, nchosen == 1 ? "" : "s");
	KV_BITS_FOREACH(&chosen, n) {
		printf(" ");
		kv_term_puts(stdout, m->nodes[n].name);
	}
	printf("\n\ncommon named models, best first:\n  %-32s %-5s %-4s "
	    "%-7s %s\n", "MODEL", "LEVEL", "AVX2", "AVX-512", "VENDOR");
	for (size_t i = 0; i < a->nnamed; i++)
		if (nchosen > 0 && rk[i].on == nchosen &&
		    !obsolete(a, rk[i].nm->model)) {
			model_row(rk[i].nm);
			ncommon++;
		}
	if (ncommon == 0)
		printf("  (none)\n");
	printf("\nbetter models some chosen node rules out:\n");
	for (size_t i = 0, shown = 0; i < a->nnamed; i++) {
		size_t k = 0;

		if (rk[i].on == nchosen || rk[i].on == 0 ||
		    obsolete(a, rk[i].nm->model))
			continue;
		if (ncommon > 0) {
			/* only models ranked above the best common one */
			size_t best;

			for (best = 0; best < a->nnamed; best++)
				if (rk[best].on == nchosen &&
				    !obsolete(a, rk[best].nm->model))
					break;
			if (i > best)
				continue;
		}
		model_row(rk[i].nm);
		printf("  %-32s ruled out by", "");
		KV_BITS_FOREACH(&chosen, n) {
			bool has = false;

			for (size_t j = 0; j < rk[i].nm->nnodes && !has; j++)
				has = rk[i].nm->nodes[j] == n;
			if (has)
				continue;
			if (k++ < 6) {
				printf(" ");
				kv_term_puts(stdout, m->nodes[n].name);
			}
		}
		if (k > 6)
			printf(" and %zu more", k - 6);
		printf("\n");
		shown++;
	}
out:
	free(rk);
	free(sel);
	kv_bits_free(&chosen);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}

int
cmd_pairs(const kv_cmd *cmd, int argc, char **argv)
{
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	int rc;

	if (argc != 2)
		return cli_usage(cmd);
	if ((rc = cli_load(argv[1], &m, &a)) != 0)
		return rc;
	printf("CPU classes:\n");
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];

		printf("  %-4s %-6s ", c->id, c->vendor ? c->vendor : "-");
		kv_term_puts(stdout, c->host_model ? c->host_model : "-");
		printf(" (x86-64-v%d%s%s):", c->level, c->avx2 ? ", AVX2" : "",
		    c->avx512f ? ", AVX-512" : "");
		for (size_t k = 0; k < c->nnodes; k++) {
			printf(" ");
			kv_term_puts(stdout, m->nodes[c->nodes[k]].name);
		}
		printf("\n");
	}
	printf("\nhost-model migration (row = source, column = target; "
	    "ok, or the number of missing labels):\n     ");
	for (size_t t = 0; t < a->nclasses; t++)
		printf(" %5s", a->classes[t].id);
	printf("\n");
	for (size_t s = 0; s < a->nclasses; s++) {
		printf("  %-4s", a->classes[s].id);
		for (size_t t = 0; t < a->nclasses; t++) {
			const kv_pair *p = &a->pairs[s * a->nclasses + t];

			if (p->ok)
				printf(" %5s", "ok");
			else
				printf(" %5zu", p->nmissing);
		}
		printf("\n");
	}
	printf("\nrefused pairs:\n");
	for (size_t i = 0; i < a->npairs; i++) {
		const kv_pair *p = &a->pairs[i];

		if (p->ok)
			continue;
		printf("  %s -> %s:", a->classes[p->src].id,
		    a->classes[p->tgt].id);
		if (p->nmissing == 0)
			printf(" source has no host-model label");
		for (size_t k = 0; k < p->nmissing; k++) {
			printf(" ");
			kv_term_puts(stdout, p->missing[k]);
		}
		printf("\n");
	}
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
