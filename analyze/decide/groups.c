/*
 * groups.c - kv_groups_analyze() (groups.h): every running VMI that would
 * not migrate, and every VMI a drain would stop or wait on, into groups of
 * one code and one subject; sorted, numbered, described and fixed.
 */
#include "analyze/decide/groups.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

const char *const kv_subject_names[SUBJ_COUNT] = {
	"cpuClass", "cpuModel", "node", "storageClass", "claim", "binding",
	"device", "image", "placement", "evictionStrategy", "operation",
	"condition", "migrationPolicy",
};

const char *const kv_fix_names[FIX_COUNT] = {
	"set-cpu-model", "recreate-claim-rwx", "change-binding",
	"repull-image", "relabel-node", "set-eviction-strategy",
	"relax-placement", "free-capacity", "wait-operation",
	"set-migration-policy", "none",
};

struct kv_gkeys {
	size_t n, cap, kcap;
	char **v;
	enum kv_subject kind, *kinds;
};

void
kv_gkey_kind(kv_gkeys *k, enum kv_subject kind)
{
	k->kind = kind;
}

void
kv_gkey_add(kv_gkeys *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i], name) == 0 && k->kinds[i] == k->kind)
			return;
	KV_GROW(k->v, k->cap, k->n + 1);
	KV_GROW(k->kinds, k->kcap, k->n + 1);
	k->kinds[k->n] = k->kind;
	k->v[k->n++] = xstrdup(name);
}

void
kv_gkey_addf(kv_gkeys *k, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kv_fatal("out of memory");
	va_end(ap);
	kv_gkey_add(k, s);
	free(s);
}

static void
gkeys_clear(kv_gkeys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i]);
	k->n = 0;
}

/* The groupings without a rule row: the drain behaviours and a stored
 * condition that no check explains (fixes.c). */
extern const kv_grouping kv_grp_drain_shutdown, kv_grp_drain_block,
    kv_grp_condition_false;

#define CODE_DRAIN_SHUTDOWN "drain-shutdown"
#define CODE_DRAIN_BLOCK "drain-block"
#define CODE_CONDITION_FALSE "condition-false"

typedef struct collector {
	kv_analysis *a;
	GHashTable *by_key;		/* "code\037name" -> index + 1 */
	size_t n, cap;
	kv_group *g;
	const kv_grouping **how;	/* parallel to g */
	size_t how_cap;
} collector;

static void
put(collector *c, size_t vmi, const char *code, const kv_rule *rule,
    const kv_grouping *how, enum kv_subject kind, const char *name)
{
	char *key = xasprintf("%s\037%d\037%s", code, (int)kind, name);
	gpointer at = g_hash_table_lookup(c->by_key, key);
	kv_group *g;
	size_t cap;

	if (at == NULL) {
		KV_GROW(c->g, c->cap, c->n + 1);
		KV_GROW(c->how, c->how_cap, c->n + 1);
		g = &c->g[c->n];
		memset(g, 0, sizeof(*g));
		g->code = code;
		g->rule = rule;
		g->kind = kind;
		g->name = xstrdup(name);
		g->verdict = rule != NULL ? (enum kv_verdict)rule->verdict :
		    V_OK;
		g->drain = how == &kv_grp_drain_shutdown ? DRAIN_SHUTDOWN :
		    how == &kv_grp_drain_block ? DRAIN_BLOCK : DRAIN_NONE;
		c->how[c->n] = how;
		g_hash_table_insert(c->by_key, key, (gpointer)(c->n + 1));
		c->n++;
	} else {
		g = &c->g[(size_t)at - 1];
		free(key);
	}
	/* VMIs come in index order, once per group: append */
	if (g->nvmis > 0 && g->vmis[g->nvmis - 1] == vmi)
		return;
	cap = g->nvmis;
	g->vmis = xreallocarray(g->vmis, cap + 1, sizeof(size_t));
	g->vmis[g->nvmis++] = vmi;
}

/* The groups of one blocker rule for VMI i. */
static void
put_rule(collector *c, kv_gkeys *k, size_t i, const kv_rule *rule)
{
	const kv_vmires *r = &c->a->vmis[i];
	const kv_grouping *how = rule->grouping;

	gkeys_clear(k);
	k->kind = how ? how->subject : SUBJ_CONDITION;
	if (how != NULL && how->key != NULL)
		how->key(k, c->a, r, rule);
	if (k->n == 0)
		kv_gkey_add(k, rule->code);
	for (size_t j = 0; j < k->n; j++)
		put(c, i, rule->code, rule, how, k->kinds[j], k->v[j]);
}

static void
collect_vmi(collector *c, kv_gkeys *k, size_t i)
{
	const kv_vmires *r = &c->a->vmis[i];

	if (kv_verdict_fails(r->verdict)) {
		for (size_t b = 0; b < r->nblockers; b++)
			if (b == 0 || r->blockers[b].rule !=
			    r->blockers[b - 1].rule)
				put_rule(c, k, i, r->blockers[b].rule);
		if (r->nblockers == 0) {
			char *name = xasprintf("%s=False: %s", r->cond_type,
			    r->cond_reason ? r->cond_reason : "no reason");

			put(c, i, CODE_CONDITION_FALSE, NULL,
			    &kv_grp_condition_false, SUBJ_CONDITION, name);
			c->g[c->n - 1].verdict = V_BLOCKED;
			free(name);
		}
	}
	/* warnings with a grouping (the estimate's) form groups too */
	for (size_t w = 0; w < r->nwarnings; w++)
		if (r->warnings[w].rule->grouping != NULL &&
		    (w == 0 || r->warnings[w].rule !=
		    r->warnings[w - 1].rule))
			put_rule(c, k, i, r->warnings[w].rule);
	if (r->on_drain == DRAIN_SHUTDOWN)
		put(c, i, CODE_DRAIN_SHUTDOWN, NULL, &kv_grp_drain_shutdown,
		    SUBJ_EVICTION, r->eviction);
	else if (r->on_drain == DRAIN_BLOCK)
		put(c, i, CODE_DRAIN_BLOCK, NULL, &kv_grp_drain_block,
		    SUBJ_EVICTION, r->eviction);
}

static int
verdict_rank(enum kv_verdict v)
{
	static const int rank[V_COUNT] = {
		[V_BLOCKED] = 4, [V_STUCK] = 3, [V_NO_TARGET] = 2,
		[V_WILL_FAIL] = 1,
	};

	return rank[v];
}

/* Namespaces, source nodes and, for the drain codes, the worst verdict. */
static void
facts(const kv_analysis *a, kv_group *g)
{
	bool *seen = xcalloc(a->m->nnodes + 1, sizeof(bool));
	GHashTable *ns = g_hash_table_new(g_str_hash, g_str_equal);

	g->namespaces = xcalloc(g->nvmis + 1, sizeof(char *));
	g->nodes = xcalloc(g->nvmis + 1, sizeof(size_t));
	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];
		const kv_node *n = kv_model_node(a->m, r->vmi->node);

		if (g_hash_table_add(ns, (gpointer)r->vmi->ns))
			g->namespaces[g->nnamespaces++] = r->vmi->ns;
		if (n != NULL && !seen[n - a->m->nodes]) {
			seen[n - a->m->nodes] = true;
			g->nodes[g->nnodes++] = (size_t)(n - a->m->nodes);
		}
		if (g->rule == NULL && g->verdict != V_BLOCKED &&
		    verdict_rank(r->verdict) > verdict_rank(g->verdict))
			g->verdict = r->verdict;
	}
	kv_qsort(g->namespaces, g->nnamespaces, sizeof(char *), kv_strptrcmp);
	g->nnodes = 0;
	for (size_t n = 0; n < a->m->nnodes; n++)
		if (seen[n])
			g->nodes[g->nnodes++] = n;
	free(seen);
	g_hash_table_destroy(ns);
}

typedef struct sortrow {
	kv_group g;
	const kv_grouping *how;
} sortrow;

static int
group_cmp(const void *x, const void *y)
{
	const kv_group *p = &((const sortrow *)x)->g;
	const kv_group *q = &((const sortrow *)y)->g;
	int c;

	if (p->nvmis != q->nvmis)
		return p->nvmis > q->nvmis ? -1 : 1;
	if ((c = strcmp(p->code, q->code)) != 0)
		return c;
	if ((c = strcmp(p->name, q->name)) != 0)
		return c;
	return (int)p->kind - (int)q->kind;
}

/* Sort, number, and give every VMI its group indexes (sorted, since the
 * groups are walked in order). */
static void
order(kv_analysis *a, collector *c)
{
	sortrow *rows = xcalloc(c->n + 1, sizeof(*rows));

	for (size_t i = 0; i < c->n; i++) {
		rows[i].g = c->g[i];
		rows[i].how = c->how[i];
	}
	kv_qsort(rows, c->n, sizeof(*rows), group_cmp);
	for (size_t i = 0; i < c->n; i++) {
		c->g[i] = rows[i].g;
		c->how[i] = rows[i].how;
		snprintf(c->g[i].id, sizeof(c->g[i].id), "G%zu", i + 1);
		for (size_t k = 0; k < c->g[i].nvmis; k++) {
			kv_vmires *r = &a->vmis[c->g[i].vmis[k]];

			r->groups = xreallocarray(r->groups, r->ngroups + 1,
			    sizeof(size_t));
			r->groups[r->ngroups++] = i;
		}
	}
	free(rows);
}

/* The default for a code without a resolve function. */
static void
resolve_plain(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	const char *title = g->code, *fix = NULL;

	if (g->rule != NULL)
		kv_rule_words_of(g->rule, a->m->flavor, &title, &fix);
	g->summary = xasprintf("%s: %s", who, title);
	g->fix.action = FIX_NONE;
	g->fix.text = xstrdup(fix ? fix : "kvscope knows no change that "
	    "removes this code");
	free(who);
}

void
kv_groups_analyze(kv_analysis *a)
{
	collector c = { .a = a };
	kv_gkeys k = {0};

	c.by_key = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	for (size_t i = 0; i < a->nvmis; i++)
		collect_vmi(&c, &k, i);
	gkeys_clear(&k);
	free(k.v);
	free(k.kinds);
	g_hash_table_destroy(c.by_key);
	order(a, &c);
	a->groups = c.g;
	a->ngroups = c.n;
	for (size_t i = 0; i < c.n; i++) {
		facts(a, &a->groups[i]);
		if (c.how[i] != NULL && c.how[i]->resolve != NULL)
			c.how[i]->resolve(a, &a->groups[i]);
		else
			resolve_plain(a, &a->groups[i]);
		kv_fix_template_note(a, &a->groups[i]);
	}
	free(c.how);
}

void
kv_groups_free(kv_analysis *a)
{
	for (size_t i = 0; i < a->ngroups; i++) {
		kv_group *g = &a->groups[i];

		free(g->name);
		free(g->vmis);
		free(g->namespaces);
		free(g->nodes);
		free(g->summary);
		kv_fix_release(&g->fix);
	}
	free(a->groups);
	a->groups = NULL;
	a->ngroups = 0;
	for (size_t i = 0; i < a->nvmis; i++)
		free(a->vmis[i].groups);
}

void
kv_fix_release(kv_fix *f)
{
	free(f->value);
	free(f->text);
	free(f->pick);
	free(f->steps);
	free(f->stuck);
	f->value = f->text = f->stuck = NULL;
	f->pick = NULL;
	f->steps = NULL;
	f->nsteps = 0;
}

const kv_group *
kv_group_by_id(const kv_analysis *a, const char *id)
{
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].id, id) == 0)
			return &a->groups[i];
	return NULL;
}

bool
kv_vmi_in_code(const kv_analysis *a, size_t i, const char *code)
{
	const kv_vmires *r = &a->vmis[i];

	for (size_t k = 0; k < r->ngroups; k++)
		if (strcmp(a->groups[r->groups[k]].code, code) == 0)
			return true;
	return false;
}

/* As collect_vmi files r: a failing verdict under each blocker's code
 * (condition-false without one), a drain's stop or block under its. */
bool
kv_vmires_in_code(const kv_vmires *r, const char *code)
{
	if (kv_verdict_fails(r->verdict)) {
		for (size_t b = 0; b < r->nblockers; b++)
			if (strcmp(r->blockers[b].rule->code, code) == 0)
				return true;
		if (r->nblockers == 0 &&
		    strcmp(code, CODE_CONDITION_FALSE) == 0)
			return true;
	}
	return (r->on_drain == DRAIN_SHUTDOWN &&
	    strcmp(code, CODE_DRAIN_SHUTDOWN) == 0) ||
	    (r->on_drain == DRAIN_BLOCK &&
	    strcmp(code, CODE_DRAIN_BLOCK) == 0);
}

/* --- words -------------------------------------------------------------- */

char *
kv_group_count_words(const kv_analysis *a, const kv_group *g)
{
	const kv_vocab *w = a->m->flavor->vocab;

	return xasprintf("%zu %s", g->nvmis, g->nvmis == 1 ? w->vm : w->vms);
}

char *
kv_group_count_adj(const kv_analysis *a, const kv_group *g, const char *adj)
{
	char *w = kv_group_count_words(a, g), *sp = strchr(w, ' '), *out;

	if (adj == NULL)
		return w;
	out = xasprintf("%.*s %s%s", (int)(sp - w), w, adj, sp);
	free(w);
	return out;
}

const char *
kv_group_verb(const kv_group *g, const char *verb)
{
	static const char *const v[][2] = {
		{ "have", "has" }, { "use", "uses" }, { "bind", "binds" },
		{ "enable", "enables" }, { "run", "runs" },
		{ "wait", "waits" }, { "stop", "stops" }, { "make", "makes" },
		{ "report", "reports" },
	};

	if (g->nvmis != 1)
		return verb;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(v[i][0], verb) == 0)
			return v[i][1];
	return verb;
}

char *
kv_group_examples(const kv_analysis *a, const kv_group *g, size_t max)
{
	kv_buf b = {0};

	for (size_t k = 0; k < g->nvmis && k < max; k++)
		kv_buf_printf(&b, "%s%s", k ? ", " : "",
		    a->vmis[g->vmis[k]].vmi->fullname);
	if (g->nvmis > max)
		kv_buf_printf(&b, ", ... (%zu more)", g->nvmis - max);
	return b.data ? b.data : xstrdup("");
}

char *
kv_group_vms(const kv_analysis *a, const kv_group *g, size_t max,
    size_t *nvms)
{
	kv_buf b = {0};
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vm *vm = a->vmis[g->vmis[k]].vm;

		if (vm == NULL)
			continue;
		if (n++ < max)
			kv_buf_printf(&b, "%s%s", n > 1 ? ", " : "",
			    vm->fullname);
	}
	if (n > max)
		kv_buf_printf(&b, ", ... (%zu more)", n - max);
	if (nvms != NULL)
		*nvms = n;
	return b.data ? b.data : xstrdup("");
}

char *
kv_group_patch(const kv_analysis *a, const kv_group *g, const char *patch,
    bool restart)
{
	const kv_fixrow *row = a->m->flavor->fix;

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];
		/* KubeVirt's VM, else the flavor's own of the VMI's name */
		const char *full = r->vm ? r->vm->fullname :
		    r->facts.own_vm ? r->vmi->fullname : NULL;
		const char *name = r->vm ? r->vm->name : r->vmi->name;
		const char *ns = r->vm ? r->vm->ns : r->vmi->ns;
		kv_buf b = {0};

		if (full == NULL)
			continue;
		kv_buf_printf(&b, "for %s: ", full);
		kv_buf_printf(&b, row->patch_cli, name, ns, patch);
		if (restart) {
			kv_buf_printf(&b, " && ");
			kv_buf_printf(&b, row->restart_cli, name, ns);
		}
		return b.data;
	}
	return NULL;
}

char *
kv_group_node_list(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0};
	/* "and 1 more" would take the room of the name */
	size_t shown = g->nnodes <= KV_GROUP_NODES_NAMED + 1 ? g->nnodes :
	    KV_GROUP_NODES_NAMED;

	for (size_t k = 0; k < shown; k++)
		kv_buf_printf(&b, "%s%s", k ? ", " : "",
		    a->m->nodes[g->nodes[k]].name);
	if (shown < g->nnodes)
		kv_buf_printf(&b, " and %zu more (all in findings.json)",
		    g->nnodes - shown);
	return b.data ? b.data : xstrdup("(no node)");
}

const char *
kv_group_remedy(const kv_analysis *a, const kv_group *g)
{
	const char *title, *fix = NULL;

	if (g->rule == NULL)
		return "";
	kv_rule_words_of(g->rule, a->m->flavor, &title, &fix);
	return fix ? fix : "";
}
