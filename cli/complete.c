/*
 * complete.c - `kvscope __complete WORD...`, hidden: the words the
 * completion scripts (completion.c) offer for a value that names an
 * object of the snapshot already on the command line.  WORD... are the
 * words after "kvscope", the last the one being completed (maybe "").
 * It prints the candidates that start with it, one a line, and exits 0;
 * exit 1 when the word is no such value (an option, a file, a format:
 * the script completes those itself).  The snapshot is read once (the
 * model; analysed only for --fix's group ids).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "analyze/decide/groups.h"
#include "analyze/read/limits.h"

/* What the word being completed is. */
typedef struct want {
	const kv_cmd *cmd;
	enum cli_complete kind;
	const char *snapshot;		/* first positional, or NULL */
	const char *cur;		/* the word, after any "--opt=" */
	size_t keep;			/* of cur, the list elements before
					 * its last comma: kept as given */
	cli_list ns;			/* -n NS given before */
} want;

static const cli_option *
find_option(const kv_cmd *cmd, const char *w)
{
	size_t n = strcspn(w, "=");

	if (w[0] != '-' || w[1] == '\0')
		return NULL;
	for (size_t i = 0; cli_options[i].name; i++) {
		const cli_option *op = &cli_options[i];

		if (!(cmd->opts & op->bit))
			continue;
		if (w[1] == '-' && strlen(op->name) == n - 2 &&
		    strncmp(op->name, w + 2, n - 2) == 0)
			return op;
		if (w[1] != '-' && w[1] == op->shortname && w[2] == '\0')
			return op;
	}
	return NULL;
}

/* The i-th space-separated word of cmd->argnames is "NAME": a VMI. */
static enum cli_complete
positional(const kv_cmd *cmd, size_t i)
{
	const char *p = cmd->argnames;

	for (size_t k = 0; k < i && *p; k++)
		p += strcspn(p, " ") + (p[strcspn(p, " ")] == ' ');
	return strncmp(p, "NAME", 4) == 0 && (p[4] == ' ' || p[4] == '\0') ?
	    CC_VMI : CC_NONE;
}

static void
add_ns(cli_list *l, const char *v)
{
	const char *p = v;

	while (*p) {
		size_t n = strcspn(p, ",");

		l->v = xreallocarray(l->v, l->n + 1, sizeof(char *));
		l->v[l->n++] = xstrndup(p, n);
		p += n + (p[n] == ',');
	}
}

/* Walk w[0..n-1): the snapshot, -n values, the positional index. */
static size_t
walk(want *x, int n, char **w)
{
	size_t npos = 0;
	bool opts = true;

	for (int i = 1; i < n - 1; i++) {
		const cli_option *op = opts ? find_option(x->cmd, w[i]) : NULL;

		if (opts && strcmp(w[i], "--") == 0)
			opts = false;
		else if (op != NULL && op->arg != NULL && !strchr(w[i], '=')) {
			i += i + 2 < n - 1 && strcmp(w[i + 1], "=") == 0;
			if (i + 1 < n - 1 && op->bit == O_NAMESPACE)
				add_ns(&x->ns, w[i + 1]);
			i++;
		} else if (op != NULL && op->bit == O_NAMESPACE &&
		    strchr(w[i], '='))
			add_ns(&x->ns, strchr(w[i], '=') + 1);
		else if (op == NULL && (!opts || w[i][0] != '-')) {
			if (npos++ == 0)
				x->snapshot = w[i];
		}
	}
	return npos;
}

/* The kind of the last word of w[0..n), n >= 2 (w[0] the command). */
static void
classify(want *x, int n, char **w)
{
	const char *cur = w[n - 1], *prev = n > 2 ? w[n - 2] : "";

	if (strcmp(cur, "=") == 0) {	/* bash splits "--node=" */
		cur = "";
	} else if (strcmp(prev, "=") == 0 && n > 3)
		prev = w[n - 3];
	const cli_option *op = find_option(x->cmd, cur);
	size_t npos = walk(x, n, w);

	x->cur = cur;
	if (op != NULL && op->arg != NULL && cur[1] == '-' &&
	    strchr(cur, '=') != NULL) {
		x->kind = op->complete;		/* --node=w1 */
		x->cur = strchr(cur, '=') + 1;
	} else if ((op = find_option(x->cmd, prev)) != NULL &&
	    op->arg != NULL && strchr(prev, '=') == NULL)
		x->kind = op->complete;
	else if (cur[0] != '-')
		x->kind = positional(x->cmd, npos);
	if (x->kind != CC_NONE && strrchr(x->cur, ',') != NULL)
		x->keep = (size_t)(strrchr(x->cur, ',') - x->cur) + 1;
}

/* word, unless it is not what is being typed or is in the list already
 * (the elements of cur before its last comma). */
static void
offer(const want *x, const char *word)
{
	size_t k = x->keep, n = strlen(word);

	if (strncmp(word, x->cur + k, strlen(x->cur + k)) != 0)
		return;
	for (const char *p = x->cur; p < x->cur + k; p += strcspn(p, ",") + 1)
		if (strcspn(p, ",") == n && strncmp(p, word, n) == 0)
			return;
	printf("%.*s%s\n", (int)k, x->cur, word);
}

static int
by_name(const void *p, const void *q)
{
	return strcmp(*(const char *const *)p, *(const char *const *)q);
}

/* name is in more than one namespace: sorted[0..n) the VMIs' names. */
static bool
twin(const char *name, const char **sorted, size_t n)
{
	const char **hit = bsearch(&name, sorted, n, sizeof(char *), by_name);

	return hit != NULL && ((hit > sorted && strcmp(hit[-1], name) == 0) ||
	    (hit + 1 < sorted + n && strcmp(hit[1], name) == 0));
}

/* Offer the names without namespace where -n gave one, or where the
 * name is in one namespace only, and every "ns/name". */
static void
vmis(const want *x, const kv_model *m)
{
	const char **names = xcalloc(m->nvmis + 1, sizeof(char *));

	for (size_t i = 0; i < m->nvmis; i++)
		names[i] = m->vmis[i].name;
	qsort(names, m->nvmis, sizeof(char *), by_name);
	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];
		bool in = x->ns.n == 0;

		for (size_t k = 0; k < x->ns.n && !in; k++)
			in = strcmp(x->ns.v[k], v->ns) == 0;
		if (!in)
			continue;
		if (x->ns.n > 0 || !twin(v->name, names, m->nvmis))
			offer(x, v->name);
		if (x->ns.n == 0)
			offer(x, v->fullname);
	}
	free(names);
}

static void
namespaces(const want *x, const kv_model *m)
{
	for (size_t i = 0; i < m->nvmis; i++)
		if (i == 0 || strcmp(m->vmis[i].ns, m->vmis[i - 1].ns) != 0)
			offer(x, m->vmis[i].ns);
	for (size_t i = 0; i < m->nnamespaces; i++) {
		bool seen = false;

		for (size_t k = 0; k < m->nvmis && !seen; k++)
			seen = m->vmis[k].ns == m->namespaces[i].name;
					/* interned: equal is the same */
		if (!seen)
			offer(x, m->namespaces[i].name);
	}
}

/* host-model, host-passthrough and the named models some node
 * advertises (cpu-model.<domain>/NAME labels). */
static void
models(const want *x, const kv_model *m)
{
	const char **seen = NULL;
	size_t nseen = 0;

	offer(x, "host-model");
	offer(x, "host-passthrough");
	for (size_t i = 0; i < m->nnodes; i++)
		for (size_t k = 0; k < m->nodes[i].labels.n; k++) {
			const char *key = m->nodes[i].labels.v[k].key;
			const char *slash = strchr(key, '/');
			bool dup = false;

			if (strncmp(key, "cpu-model.", 10) != 0 || !slash)
				continue;
			for (size_t j = 0; j < nseen && !dup; j++)
				dup = strcmp(seen[j], slash + 1) == 0;
			if (dup)
				continue;
			seen = xreallocarray(seen, nseen + 1, sizeof(char *));
			seen[nseen++] = slash + 1;
			offer(x, slash + 1);
		}
	free(seen);
}

/* --fix: "all" and the ids of the snapshot's groups (G1, G2, ...), in
 * the analysis's order; nothing when it cannot be analysed. */
static void
group_ids(const want *x, const kv_model *m)
{
	kv_analysis *a = NULL;
	kv_err err = { 0 };

	if (kv_analyze(m, &a, &err) != KV_OK)
		return;
	offer(x, "all");
	for (size_t i = 0; i < a->ngroups; i++)
		offer(x, a->groups[i].id);
	kv_analysis_free(a);
}

static void
offer_all(const want *x, const kv_model *m)
{
	switch (x->kind) {
	case CC_NODE:
		for (size_t i = 0; i < m->nnodes; i++)
			offer(x, m->nodes[i].name);
		break;
	case CC_NAMESPACE:
		namespaces(x, m);
		break;
	case CC_VMI:
		vmis(x, m);
		break;
	case CC_MODEL:
		models(x, m);
		break;
	case CC_STORAGECLASS:
		for (size_t i = 0; i < m->nscs; i++)
			offer(x, m->scs[i].name);
		break;
	case CC_GROUP:
		group_ids(x, m);
		break;
	case CC_NONE:
		break;
	}
}

int
cmd_complete(const kv_cmd *cmds, size_t n, int argc, char **argv)
{
	want x = { 0 };
	kv_model *m = NULL;
	kv_limits lim;
	kv_err err = { 0 };
	int rc = 1;

	for (size_t i = 0; argc >= 2 && i < n && x.cmd == NULL; i++)
		if (strcmp(argv[0], cmds[i].name) == 0)
			x.cmd = &cmds[i];
	if (x.cmd == NULL)
		return 1;
	classify(&x, argc, argv);
	if (x.kind == CC_NONE)
		goto out;
	rc = 0;
	if (x.snapshot == NULL || kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(x.snapshot, &lim, &m, &err) != KV_OK)
		goto out;	/* nothing to offer */
	offer_all(&x, m);
	kv_model_free(m);
out:
	cli_list_free(&x.ns);
	return rc;
}
