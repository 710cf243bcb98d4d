/*
 * select.c - what a command looks at, from its arguments: the VMIs of
 * `check` (namespaces, nodes, VMI label selector), the one VMI of
 * `explain`, the nodes of `models` (names, node label selector).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "render/render.h"

static bool
in_list(const cli_list *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (s != NULL && strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

static int
known_nodes(const kv_cmd *cmd, const kv_model *m, const cli_args *o)
{
	const cli_list *nodes = &o->nodes;

	for (size_t i = 0; i < nodes->n; i++)
		if (kv_model_node(m, nodes->v[i]) == NULL)
			return cli_error(cmd, "--%s: no node \"%s\" in the "
			    "snapshot", o->nodes_opt, nodes->v[i]);
	return 0;
}

int
cli_pick_vmis(const kv_cmd *cmd, const kv_analysis *a, const cli_args *o,
    kv_bits *pick)
{
	const kv_model *m = a->m;
	size_t n = 0;

	kv_bits_init(pick, a->nvmis);
	if (known_nodes(cmd, m, o) != 0)
		return EXIT_TOOL;
	for (size_t k = 0; k < o->namespaces.n; k++) {
		bool any = false;

		for (size_t i = 0; i < a->nvmis && !any; i++)
			any = strcmp(a->vmis[i].vmi->ns,
			    o->namespaces.v[k]) == 0;
		for (size_t i = 0; i < m->nnamespaces && !any; i++)
			any = strcmp(m->namespaces[i].name,
			    o->namespaces.v[k]) == 0;	/* but no VMI */
		if (!any)
			return cli_error(cmd, "--namespace: no %s in "
			    "namespace \"%s\"", kv_word(a, KV_WORD_VM),
			    o->namespaces.v[k]);
	}
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmi *v = a->vmis[i].vmi;

		if ((o->namespaces.n && !in_list(&o->namespaces, v->ns)) ||
		    (o->nodes.n && !in_list(&o->nodes, v->node)) ||
		    !kv_selector_matches(&o->sel, &v->labels))
			continue;
		kv_bits_set(pick, i);
		n++;
	}
	return 0;
}

/* "; did you mean prod/web-0 or prod/web-1?" for a VMI name not found
 * (the full names nearest to name, as NAMESPACE/NAME or NAME is given,
 * in the namespaces asked for), or "".  Caller frees. */
static char *
nearest_vmis(const kv_analysis *a, const cli_args *o, const char *name)
{
	const char *near[KV_NEAR_MAX];
	bool full = strchr(name, '/') != NULL;
	kv_buf b = { 0 };
	kv_near s;
	size_t n;

	kv_near_init(&s, name);
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmi *v = a->vmis[i].vmi;

		if (!o->namespaces.n || in_list(&o->namespaces, v->ns))
			kv_near_add(&s, full ? v->fullname : v->name);
	}
	n = kv_near_get(&s, near, KV_NEAR_MAX);
	for (size_t k = 0; k < n; k++)
		kv_buf_printf(&b, "%s%s", k == 0 ? "; did you mean " :
		    k + 1 == n ? " or " : ", ", near[k]);
	if (n > 0)
		kv_buf_printf(&b, "?");
	return b.data ? b.data : xstrdup("");
}

int
cli_find_vmi(const kv_cmd *cmd, const kv_analysis *a, const cli_args *o,
    const char *name, size_t *idx)
{
	size_t found = 0;
	char *list = xstrdup("");
	int rc;

	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmi *v = a->vmis[i].vmi;
		bool hit = strchr(name, '/') != NULL ?
		    strcmp(v->fullname, name) == 0 : strcmp(v->name, name) == 0;
		char *t;

		if (!hit || (o->namespaces.n &&
		    !in_list(&o->namespaces, v->ns)))
			continue;
		if (found++ == 0)
			*idx = i;
		t = xasprintf("%s%s%s", list, found > 1 ? ", " : "",
		    v->fullname);
		free(list);
		list = t;
	}
	rc = found > 1 ? cli_error(cmd, "%zu %s are named \"%s\" (%s): "
	    "give NAMESPACE/NAME or --namespace", found,
	    kv_word(a, KV_WORD_VMS), name, list) : 0;
	free(list);
	if (found >= 1)
		return rc;
	list = nearest_vmis(a, o, name);
	rc = cli_error(cmd, "no %s \"%s\"%s%s in the snapshot (give "
	    "NAMESPACE/NAME, or NAME with --namespace)%s",
	    kv_word(a, KV_WORD_VM), name,
	    o->namespaces.n ? " in namespace " : "",
	    o->namespaces.n ? o->namespaces.v[0] : "", list);
	free(list);
	return rc;
}

int
cli_pick_nodes(const kv_cmd *cmd, const kv_analysis *a, const cli_args *o,
    kv_bits *chosen)
{
	const kv_model *m = a->m;

	kv_bits_init(chosen, m->nnodes);
	if (known_nodes(cmd, m, o) != 0)
		return EXIT_TOOL;
	for (size_t i = 0; i < m->nnodes; i++) {
		bool on = o->nodes.n ? in_list(&o->nodes, m->nodes[i].name) :
		    o->selectors.n ? true : a->nodes[i].kubevirt;

		if (on && kv_selector_matches(&o->sel, &m->nodes[i].labels))
			kv_bits_set(chosen, i);
	}
	if (!kv_bits_any(chosen))
		return cli_error(cmd, "--%s: no node matches",
		    o->selectors.n ? "selector" : o->nodes_opt ?
		    o->nodes_opt : "node");
	return 0;
}

int
cli_pick_drain(const kv_cmd *cmd, const kv_analysis *a, const cli_args *o,
    kv_bits *chosen)
{
	const kv_model *m = a->m;

	kv_bits_init(chosen, m->nnodes);
	for (size_t i = 0; i < o->drain.n; i++) {
		const kv_node *n = kv_model_node(m, o->drain.v[i]);

		if (n == NULL)
			return cli_error(cmd, "--drain: no node \"%s\" in the "
			    "snapshot", o->drain.v[i]);
		kv_bits_set(chosen, (size_t)(n - m->nodes));
	}
	for (size_t i = 0; i < m->nnodes && o->drain_selectors.n > 0; i++)
		if (kv_selector_matches(&o->drain_sel,
		    &m->nodes[i].labels))
			kv_bits_set(chosen, i);
	if (!kv_bits_any(chosen))
		return cli_error(cmd, "--drain-selector: no node matches");
	return 0;
}
