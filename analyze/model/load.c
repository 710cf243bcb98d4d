/*
 * load.c - snapshot members -> kv_model.
 *
 * snapshot.c streams each member here.  A resources/ JSON member goes
 * through the item scanner (jsonitems.c) to the loader its resources.def
 * row names (bound by name to the core's loaders or a flavor's, load.h);
 * libvirt/cpu_map/ XML files members are collected for the CPU-model
 * reader; anything else is only hashed.  Names are checked for duplicates
 * as they are read (the error names both items); after the last member
 * the arrays are sorted, the flavor is chosen and each flavor's finish
 * hook runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib.h>

#include "analyze/read/input.h"
#include "analyze/read/jsonitems.h"
#include "analyze/model/load.h"

/* Where a name was first seen, to name both places of a duplicate. */
typedef struct seen_at {
	const char *file;	/* interned */
	size_t index;
} seen_at;

kv_model *
kv_load_model(kv_load *ld)
{
	return ld->m;
}

void *
kv_load_state(kv_load *ld, enum kv_flavor_id f, size_t size)
{
	if (ld->state[f] == NULL)
		ld->state[f] = xcalloc(1, size);
	return ld->state[f];
}

int
kv_load_unique(kv_load *ls, jctx *c, const char *what, const char *name)
{
	GHashTable *seen = g_hash_table_lookup(ls->sets, what);
	seen_at *at;

	if (seen == NULL) {
		seen = g_hash_table_new_full(g_direct_hash, g_direct_equal,
		    NULL, free);
		g_hash_table_insert(ls->sets, (gpointer)what, seen);
	}
	if ((at = g_hash_table_lookup(seen, name)) != NULL) {
		if (at->file == ls->file)
			return jerr(c, "metadata.name", "a second %s named "
			    "\"%s\" (the first is item %zu)", what, name,
			    at->index);
		return jerr(c, "metadata.name", "a second %s named \"%s\" "
		    "(the first is item %zu of %s)", what, name, at->index,
		    at->file);
	}
	at = xcalloc(1, sizeof(*at));
	at->file = ls->file;
	at->index = c->index;
	g_hash_table_insert(seen, (gpointer)name, at);
	return KV_OK;
}

/* --- dispatch ----------------------------------------------------------- */

/* resources.def's rows: file name and loader, resolved once. */
typedef struct loader {
	char *file;		/* "resources/<plural>[.<group>].json" */
	const char *group;
	kv_object_fn fn;
} loader;

static const struct resource_row {
	const char *plural, *group, *loader;
} resource_rows[] = {
#define KV_RESOURCE(plural, group, scope, anon_prefix, anon_rank, loader, \
    need) { plural, group, #loader },
#include "analyze/read/resources.def"
#undef KV_RESOURCE
};

#define NRESOURCES (sizeof(resource_rows) / sizeof(resource_rows[0]))

static const kv_loader_ref core_loaders[] = {
	{ "load_node", load_node },
	{ "load_namespace", load_namespace },
	{ "load_pod", load_pod },
	{ "load_pvc", load_pvc },
	{ "load_sc", load_sc },
	{ "load_pv", load_pv },
	{ "load_storageprofile", load_storageprofile },
	{ "load_datavolume", load_datavolume },
	{ "load_vmi", load_vmi },
	{ "load_vmim", load_vmim },
	{ "load_vmimetrics", load_vmimetrics },
	{ "load_nad", load_nad },
	{ "load_vm", load_vm },
	{ "load_kubevirt", load_kubevirt },
	{ "load_policy", load_policy },
	{ "load_hco", load_hco },
	{ "load_harvester_setting", load_harvester_setting },
	{ NULL, NULL },
};

static kv_object_fn
find_loader(const kv_loader_ref *refs, const char *name)
{
	for (size_t i = 0; refs != NULL && refs[i].name != NULL; i++)
		if (strcmp(refs[i].name, name) == 0)
			return refs[i].fn;
	return NULL;
}

kv_object_fn
kv_load_resolve(const char *name)
{
	kv_object_fn fn = find_loader(core_loaders, name);

	for (size_t f = 0; fn == NULL && f < KV_NFLAVORS; f++)
		fn = find_loader(kv_flavors[f]->loaders, name);
	return fn;
}

/* The rows that have a loader, with their file names; NULL-terminated. */
static loader *
loaders_build(void)
{
	loader *l = xcalloc(NRESOURCES + 1, sizeof(*l));
	size_t n = 0;

	for (size_t i = 0; i < NRESOURCES; i++) {
		const struct resource_row *r = &resource_rows[i];
		kv_object_fn fn;

		if (strcmp(r->loader, "none") == 0)
			continue;
		if ((fn = kv_load_resolve(r->loader)) == NULL)
			kv_fatal("resources.def: no loader %s", r->loader);
		l[n].file = *r->group ? xasprintf("resources/%s.%s.json",
		    r->plural, r->group) : xasprintf("resources/%s.json",
		    r->plural);
		l[n].group = r->group;
		l[n++].fn = fn;
	}
	return l;
}

static void
loaders_free(loader *l)
{
	for (size_t i = 0; l != NULL && l[i].file != NULL; i++)
		free(l[i].file);
	free(l);
}

#define KV_VMI_FILE "resources/virtualmachineinstances.kubevirt.io.json"

typedef struct member {
	kv_load *ls;
	const loader *loader;
	json_items *items;
	char *path;
	const char *file;	/* path, interned (kv_load.file) */
	bool kv_vmis;		/* KubeVirt's VMI file */
	kv_buf xml;		/* cpu_map file */
} member;

static int
item_cb(void *arg, json_t *item, const json_aside *aside, size_t index,
    kv_err *err)
{
	member *mb = arg;
	jctx c = { .strs = mb->ls->m->strs, .lim = mb->ls->lim, .err = err,
	    .index = index, .aside = aside, .item = item };

	mb->ls->file = mb->file;
	mb->ls->kv_vmis += mb->kv_vmis;
	return mb->loader->fn(mb->ls, &c, item);
}

static void *
sink_begin(void *arg, const char *path, uint64_t size, kv_err *err)
{
	kv_load *ls = arg;
	member *mb;

	for (const loader *l = ls->loaders; l->file != NULL; l++)
		if (strcmp(path, l->file) == 0) {
			mb = xcalloc(1, sizeof(*mb));
			mb->ls = ls;
			mb->loader = l;
			mb->path = xstrdup(path);
			mb->file = kv_intern_str(ls->m->strs, path);
			mb->kv_vmis = strcmp(l->file, KV_VMI_FILE) == 0;
			for (size_t f = 0; f < KV_NFLAVORS; f++)
				ls->saw[f] |= kv_flavor_owns_group(
				    kv_flavors[f], l->group);
			mb->items = json_items_new(mb->path, ls->lim, item_cb,
			    mb);
			return mb;
		}
	if (kv_startswith(path, "libvirt/cpu_map/") &&
	    strchr(path + 16, '/') == NULL) {
		if (size > ls->lim->manifest_bytes) {
			kv_seterr(err, "%s: larger than %llu bytes "
			    "(KVSCOPE_MAX_MANIFEST_BYTES)", path,
			    (unsigned long long)ls->lim->manifest_bytes);
			return NULL;
		}
		mb = xcalloc(1, sizeof(*mb));
		mb->ls = ls;
		mb->path = xstrdup(path);
		return mb;
	}
	return NULL;
}

static int
sink_data(void *state, const char *buf, size_t len, kv_err *err)
{
	member *mb = state;

	if (mb->items != NULL)
		return json_items_feed(mb->items, buf, len, err);
	if (mb->xml.len + len > mb->ls->lim->manifest_bytes)
		return kv_seterr(err, "%s: larger than %llu bytes "
		    "(KVSCOPE_MAX_MANIFEST_BYTES)", mb->path,
		    (unsigned long long)mb->ls->lim->manifest_bytes);
	kv_buf_append(&mb->xml, buf, len);
	return KV_OK;
}

static void
sink_abort(void *state)
{
	member *mb = state;

	json_items_free(mb->items);
	kv_buf_free(&mb->xml);
	free(mb->path);
	free(mb);
}

static int
sink_end(void *state, kv_err *err)
{
	member *mb = state;
	kv_load *ls = mb->ls;
	int rc;

	if (mb->items != NULL)
		rc = json_items_finish(mb->items, err);
	else {
		if (ls->cpumap == NULL)
			ls->cpumap = cpumap_builder_new();
		ls->ncpumap++;
		rc = cpumap_builder_add(ls->cpumap, mb->path,
		    mb->xml.data ? mb->xml.data : "", mb->xml.len, err);
	}
	sink_abort(mb);
	return rc;
}

/* --- after loading ------------------------------------------------------ */

static int
node_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_node *)a)->name, ((const kv_node *)b)->name);
}

static int
vmi_cmp(const void *a, const void *b)
{
	const kv_vmi *x = a, *y = b;

	return kv_nscmp(x->ns, x->name, y->ns, y->name);
}

static int
pvc_cmp(const void *a, const void *b)
{
	const kv_pvc *x = a, *y = b;

	return kv_nscmp(x->ns, x->name, y->ns, y->name);
}

static int
vm_cmp(const void *a, const void *b)
{
	const kv_vm *x = a, *y = b;

	return kv_nscmp(x->ns, x->name, y->ns, y->name);
}

static int
ns_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_namespace *)a)->name,
	    ((const kv_namespace *)b)->name);
}

static int
sc_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_storageclass *)a)->name,
	    ((const kv_storageclass *)b)->name);
}

static int
pv_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_pv *)a)->name, ((const kv_pv *)b)->name);
}

static int
profile_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_sprofile *)a)->name,
	    ((const kv_sprofile *)b)->name);
}

static int
metrics_cmp(const void *a, const void *b)
{
	const kv_vmimetrics *p = a, *q = b;
	int c = strcmp(p->ns, q->ns);

	return c != 0 ? c : strcmp(p->name, q->name);
}

static int
policy_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_policy *)a)->name,
	    ((const kv_policy *)b)->name);
}

/* The manifest's flavor; without one, a flavor whose files are there
 * when KubeVirt's own VMIs are not. */
static const kv_flavor *
manifest_flavor(kv_load *ls)
{
	kv_model *m = ls->m;
	const kv_flavor *f = kv_flavor_find(m->manifest.flavor);

	if (m->manifest.flavor != NULL && f != NULL)
		return f;
	for (size_t i = 0; i < KV_NFLAVORS && ls->kv_vmis == 0; i++)
		if (ls->saw[i] && kv_flavors[i] != kv_flavor_default) {
			m->flavor_inferred = true;
			return kv_flavors[i];
		}
	return kv_flavor_default;
}

/* The manifest's cluster.flavor, when given, names a row of the flavor
 * table (kv_flavors): every row's name is accepted. */
static int
check_flavor(const kv_model *m, const char *path, kv_err *err)
{
	const char *name = m->manifest.flavor;
	kv_buf b = {0};

	if (name == NULL || kv_flavor_find(name) != NULL)
		return KV_OK;
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		kv_buf_printf(&b, "%s\"%s\"", i == 0 ? "" : i + 1 ==
		    KV_NFLAVORS ? " or " : ", ", kv_flavors[i]->name);
	kv_seterr(err, "%s: manifest.json: cluster.flavor: expected %s, got "
	    "\"%s\"", path, b.data, name);
	kv_buf_free(&b);
	return KV_ERR;
}

/* That flavor, or a distribution of it that its objects show. */
static const kv_flavor *
pick_flavor(kv_load *ls)
{
	const kv_flavor *f = manifest_flavor(ls);

	for (size_t i = 0; i < KV_NFLAVORS; i++)
		if (kv_flavors[i]->base == f && kv_flavors[i]->detect != NULL &&
		    kv_flavors[i]->detect(ls->m))
			return kv_flavors[i];
	return f;
}

/* Sort what the analysis looks up; names are unique (kv_load_unique). */
static int
finish_model(kv_load *ls, kv_err *err)
{
	kv_model *m = ls->m;

	kv_qsort(m->nodes, m->nnodes, sizeof(kv_node), node_cmp);
	kv_qsort(m->vmis, m->nvmis, sizeof(kv_vmi), vmi_cmp);
	kv_qsort(m->pvcs, m->npvcs, sizeof(kv_pvc), pvc_cmp);
	kv_qsort(m->vms, m->nvms, sizeof(kv_vm), vm_cmp);
	kv_qsort(m->namespaces, m->nnamespaces, sizeof(kv_namespace), ns_cmp);
	kv_qsort(m->scs, m->nscs, sizeof(kv_storageclass), sc_cmp);
	kv_qsort(m->pvs, m->npvs, sizeof(kv_pv), pv_cmp);
	kv_qsort(m->profiles, m->nprofiles, sizeof(kv_sprofile), profile_cmp);
	kv_qsort(m->policies, m->npolicies, sizeof(kv_policy), policy_cmp);
	kv_qsort(m->metrics, m->nmetrics, sizeof(kv_vmimetrics), metrics_cmp);
	kv_model_link_templates(m);
	m->flavor = pick_flavor(ls);
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		if (kv_flavors[i]->load_finish != NULL &&
		    kv_flavors[i]->load_finish(m, err) != KV_OK)
			return KV_ERR;
	m->missing = xcalloc(m->manifest.nresources + 1, sizeof(char *));
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];
		char *s;

		if (strcmp(r->status, "ok") == 0)
			continue;
		s = r->group[0] ? xasprintf("%s.%s: %s", r->resource, r->group,
		    r->status) : xasprintf("%s: %s", r->resource, r->status);
		m->missing[m->nmissing++] = kv_intern_str(m->strs, s);
		free(s);
	}
	return KV_OK;
}

static int load_into(const char *path, const kv_limits *lim,
    kv_intern *strs, kv_model **out, kv_err *err);

int
kv_model_load(const char *path, const kv_limits *lim, kv_model **out,
    kv_err *err)
{
	return load_into(path, lim, NULL, out, err);
}

int
kv_model_load_shared(const char *path, const kv_limits *lim,
    kv_intern *strs, kv_model **out, kv_err *err)
{
	return load_into(path, lim, strs, out, err);
}

static int
load_into(const char *path, const kv_limits *lim, kv_intern *strs,
    kv_model **out, kv_err *err)
{
	kv_model *m = xcalloc(1, sizeof(*m));
	kv_load ls = { .m = m, .lim = lim };
	snap_sink sink = { sink_begin, sink_data, sink_end, sink_abort, &ls };
	int rc;

	*out = NULL;
	ls.sets = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)g_hash_table_destroy);
	ls.loaders = loaders_build();
	m->strs = strs != NULL ? strs : kv_intern_new();
	m->strs_borrowed = strs != NULL;
	m->max_cpu_classes = lim->cpu_classes;
	m->cluster.parallel_cluster = m->cluster.parallel_node = -1;
	m->cluster.bandwidth = m->cluster.completion_per_gib = -1;
	m->cluster.progress_timeout = m->cluster.min_tsc = -1;
	m->cluster.use_emulation = -1;
	m->cluster.allow_postcopy = m->cluster.allow_autoconverge = -1;
	m->cluster.allow_disruption = -1;
	m->cluster.cpu_ratio = m->cluster.mem_overcommit = -1;
	m->hco_migrations = (kv_migset){ -1, -1, -1, -1, -1 };
	rc = kv_input_read(path, lim, &sink, &m->manifest, err);
	if (rc == KV_OK)
		rc = check_flavor(m, path, err);
	if (rc == KV_OK && ls.cpumap != NULL) {
		rc = cpumap_finish(ls.cpumap, &m->cpumap, err);
		ls.cpumap = NULL;
		if (rc != KV_OK) {
			char *tmp = xasprintf("%s: %s", path, err->msg);

			snprintf(err->msg, sizeof(err->msg), "%s", tmp);
			free(tmp);
		}
	}
	if (ls.cpumap != NULL)
		cpumap_builder_free(ls.cpumap);
	g_hash_table_destroy(ls.sets);
	loaders_free(ls.loaders);
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		free(ls.state[i]);
	if (rc == KV_OK)
		rc = finish_model(&ls, err);
	if (rc == KV_OK)
		rc = load_pods_scope(m, path, err);
	if (rc == KV_OK)
		load_resnames_finish(m);
	if (rc != KV_OK) {
		kv_model_free(m);
		return rc;
	}
#ifdef __GLIBC__
	/* What the parse workers freed stays in their malloc arenas, which
	 * the analysis (this thread) never allocates from: give it back
	 * (6 MiB of the peak at 100,000 VMIs). */
	malloc_trim(0);
#endif
	*out = m;
	return KV_OK;
}
