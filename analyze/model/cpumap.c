/*
 * cpumap.c - the libvirt cpu_map reader behind cpudb.h, and the lookups on
 * a finished cpudb.
 *
 * A cpumap_builder collects the <model>s of every file added to it (each
 * file parsed from memory by libxml2: no network, no DTD, no entity
 * expansion); cpumap_finish() sorts them by name, expands inheritance in
 * any file order the way libvirt's src/cpu/cpu_x86.c does, applies the QEMU
 * corrections and computes level, avx2 and avx512f.
 *
 * Expansion of one model M (libvirt x86ModelParse and helpers):
 *	features(M) = features(parent) + M's own <feature>s
 *	              - M's own removed='yes' features
 *	              + the correction for M's name, if any
 *	vendor(M)   = M's own <vendor>, else vendor(parent)
 * added='yes' features are ordinary features here (libvirt lists them to
 * keep migration compatibility; they are part of QEMU's model).
 *
 * Input comes from strangers: files, models, features, names and the
 * inheritance depth are bounded (CPUMAP_MAX_* in cpudb.h), names with
 * control characters are refused, and every error is one line naming the
 * file and, where there is one, the model.
 *
 * Ownership: the builder interns every string it keeps in a pool it owns;
 * cpumap_finish() hands the pool to the cpudb it returns, so the strings of
 * a cpudb live exactly as long as the db.  cpudb_free() releases the db.
 */
#include "analyze/model/cpudb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

/* No network, no entity substitution (XML_PARSE_NOENT stays off), no DTD
 * loading, no libxml2 output on stderr: errors come back through kv_err. */
#define CM_XML_OPTIONS	(XML_PARSE_NONET | XML_PARSE_NOERROR | \
			 XML_PARSE_NOWARNING)

/* ---- x86-64 psABI levels ------------------------------------------------- */

static const char *const cm_level0[] = { NULL };
static const char *const cm_level1[] = {
	"cmov", "cx8", "fpu", "fxsr", "mmx", "syscall", "sse", "sse2", "lm",
	NULL
};
static const char *const cm_level2[] = {
	"cx16", "lahf_lm", "popcnt", "pni", "sse4.1", "sse4.2", "ssse3", NULL
};
static const char *const cm_level3[] = {
	"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave",
	NULL
};
static const char *const cm_level4[] = {
	"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl", NULL
};

const char *const *const cpudb_level_features[5] = {
	cm_level0, cm_level1, cm_level2, cm_level3, cm_level4
};

int
cpudb_level(bool (*has)(const char *feature, void *arg), void *arg)
{
	int level;

	for (level = 1; level <= 4; level++) {
		for (const char *const *f = cpudb_level_features[level];
		    *f != NULL; f++)
			if (!has(*f, arg))
				return level - 1;
	}
	return 4;
}

static int
cm_model_namecmp(const void *key, const void *elem)
{
	return strcmp(key, ((const cpudb_model *)elem)->name);
}

const cpudb_model *
cpudb_find(const cpudb *db, const char *name)
{
	return bsearch(name, db->models, db->nmodels, sizeof(*db->models),
	    cm_model_namecmp);
}

bool
cpudb_model_has(const cpudb_model *m, const char *feature)
{
	return bsearch(&feature, m->features, m->nfeatures,
	    sizeof(*m->features), kv_strptrcmp) != NULL;
}

/* ---- string pool --------------------------------------------------------- */

/* Open-addressing set of strings; the pool owns them. */
struct cm_pool {
	char **slot;
	size_t cap;		/* 0 or a power of two */
	size_t n;
};

static uint64_t
cm_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static void
cm_pool_grow(struct cm_pool *p)
{
	size_t ncap = p->cap != 0 ? p->cap * 2 : 512;
	char **nslot = xcalloc(ncap, sizeof(*nslot));

	for (size_t i = 0; i < p->cap; i++) {
		size_t j;

		if (p->slot[i] == NULL)
			continue;
		j = cm_hash(p->slot[i]) & (ncap - 1);
		while (nslot[j] != NULL)
			j = (j + 1) & (ncap - 1);
		nslot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = nslot;
	p->cap = ncap;
}

/* The pool's copy of s, made on first sight. */
static const char *
cm_intern(struct cm_pool *p, const char *s)
{
	size_t i;

	if ((p->n + 1) * 2 > p->cap)
		cm_pool_grow(p);
	i = cm_hash(s) & (p->cap - 1);
	while (p->slot[i] != NULL) {
		if (strcmp(p->slot[i], s) == 0)
			return p->slot[i];
		i = (i + 1) & (p->cap - 1);
	}
	p->slot[i] = xstrdup(s);
	p->n++;
	return p->slot[i];
}

static void
cm_pool_free(struct cm_pool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	p->slot = NULL;
	p->cap = p->n = 0;
}

/* ---- feature sets -------------------------------------------------------- */

/* A list of interned names; "sorted" means strcmp order without repeats. */
struct cm_set {
	const char **v;
	size_t n, cap;
};

static void
cm_set_add(struct cm_set *s, const char *name)
{
	KV_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = name;
}

static void
cm_set_addall(struct cm_set *s, const struct cm_set *from)
{
	for (size_t i = 0; i < from->n; i++)
		cm_set_add(s, from->v[i]);
}

static void
cm_set_sort(struct cm_set *s)
{
	size_t i, j;

	if (s->n == 0)
		return;
	kv_qsort(s->v, s->n, sizeof(*s->v), kv_strptrcmp);
	for (i = 1, j = 1; i < s->n; i++)
		if (strcmp(s->v[i], s->v[j - 1]) != 0)
			s->v[j++] = s->v[i];
	s->n = j;
}

static bool
cm_set_has(const struct cm_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

/* Remove from s every name in drop (s may be in any order). */
static void
cm_set_drop(struct cm_set *s, const struct cm_set *drop)
{
	size_t i, j;

	for (i = 0, j = 0; i < s->n; i++)
		if (!cm_set_has(drop, s->v[i]))
			s->v[j++] = s->v[i];
	s->n = j;
}

static void
cm_set_free(struct cm_set *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* ---- the builder --------------------------------------------------------- */

enum { CM_NEW, CM_BUSY, CM_DONE };

struct cm_model {
	const char *name;
	const char *file;	/* label for messages */
	const char *parent;	/* <model name=.../> child, or NULL */
	const char *vendor;	/* own <vendor>, or NULL */
	struct cm_set own;	/* own features, removed ones excluded */
	struct cm_set removed;	/* own removed='yes' features */
	struct cm_set feat;	/* expansion (cpumap_finish) */
	const char *xvendor;	/* vendor after expansion */
	int depth;		/* ancestors above it, after expansion */
	int state;
};

struct cpumap_builder {
	struct cm_pool pool;
	struct cm_model *models;
	size_t nmodels, cap;
};

/* The models of one file, kept apart until the whole file has parsed, so a
 * failed add leaves the builder as it was. */
struct cm_file {
	cpumap_builder *b;
	const char *label;
	struct cm_model *models;
	size_t nmodels, cap;
	kv_err *err;
};

static void
cm_model_clear(struct cm_model *m)
{
	cm_set_free(&m->own);
	cm_set_free(&m->removed);
	cm_set_free(&m->feat);
}

cpumap_builder *
cpumap_builder_new(void)
{
	return xcalloc(1, sizeof(cpumap_builder));
}

void
cpumap_builder_free(cpumap_builder *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->nmodels; i++)
		cm_model_clear(&b->models[i]);
	free(b->models);
	cm_pool_free(&b->pool);
	free(b);
}

/* Why s is not acceptable as a name, or NULL when it is. */
static const char *
cm_badname(const char *s)
{
	size_t len = strlen(s);

	if (len == 0)
		return "is empty";
	if (len > CPUMAP_MAX_NAME)
		return "is too long";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return "contains a control character";
	return NULL;
}

/* The caller's file name, made safe to print: control characters become
 * '?', and it is cut after CPUMAP_MAX_NAME bytes (marked by "..."). */
static const char *
cm_label(struct cm_pool *pool, const char *name)
{
	char buf[CPUMAP_MAX_NAME + sizeof("...")];
	size_t i;

	if (name == NULL)
		name = "cpu_map";
	for (i = 0; name[i] != '\0' && i < CPUMAP_MAX_NAME; i++)
		buf[i] = ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) ?
		    '?' : name[i];
	buf[i] = '\0';
	if (name[i] != '\0')
		memcpy(buf + i, "...", sizeof("..."));
	return cm_intern(pool, buf);
}

static bool
cm_is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, name) == 0;
}

/*
 * The name= attribute of element n (<what>, inside model `model` unless that
 * is NULL), validated and interned into *out.
 */
static int
cm_name_attr(struct cm_file *f, xmlNode *n, const char *what,
    const char *model, const char **out)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)"name");
	const char *why;
	int rc = KV_ERR;

	if (v == NULL) {
		if (model == NULL)
			kv_seterr(f->err, "%s: <%s> without name", f->label,
			    what);
		else
			kv_seterr(f->err, "%s: model '%s': <%s> without name",
			    f->label, model, what);
		goto out;
	}
	if ((why = cm_badname((const char *)v)) != NULL) {
		if (model == NULL)
			kv_seterr(f->err, "%s: <%s> name %s", f->label, what,
			    why);
		else
			kv_seterr(f->err, "%s: model '%s': <%s> name %s",
			    f->label, model, what, why);
		goto out;
	}
	*out = cm_intern(&f->b->pool, (const char *)v);
	rc = KV_OK;
out:
	xmlFree(v);
	return rc;
}

/* A yes/no attribute of a <feature>; absent means no. */
static int
cm_yesno(struct cm_file *f, xmlNode *n, const char *attr, const char *model,
    const char *feature, bool *out)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)attr);
	int rc = KV_OK;

	*out = false;
	if (v == NULL)
		return KV_OK;
	if (strcmp((const char *)v, "yes") == 0)
		*out = true;
	else if (strcmp((const char *)v, "no") != 0)
		rc = kv_seterr(f->err, "%s: model '%s': feature '%s': %s= "
		    "must be 'yes' or 'no'", f->label, model, feature, attr);
	xmlFree(v);
	return rc;
}

static int
cm_parse_feature(struct cm_file *f, struct cm_model *m, xmlNode *n)
{
	const char *name;
	bool removed, added;

	/* added='yes' is only checked: such a feature is an ordinary one */
	if (cm_name_attr(f, n, "feature", m->name, &name) != KV_OK ||
	    cm_yesno(f, n, "removed", m->name, name, &removed) != KV_OK ||
	    cm_yesno(f, n, "added", m->name, name, &added) != KV_OK)
		return KV_ERR;
	if (m->own.n + m->removed.n >= CPUMAP_MAX_FEATURES)
		return kv_seterr(f->err, "%s: model '%s': more than %d "
		    "features", f->label, m->name, CPUMAP_MAX_FEATURES);
	cm_set_add(removed ? &m->removed : &m->own, name);
	return KV_OK;
}

/* <model name=...>'s children: one optional parent, one optional vendor,
 * features; <decode>, <check>, <signature> and the rest do not matter. */
static int
cm_parse_children(struct cm_file *f, struct cm_model *m, xmlNode *node)
{
	for (xmlNode *n = node->children; n != NULL; n = n->next) {
		if (cm_is(n, "model")) {
			if (m->parent != NULL)
				return kv_seterr(f->err, "%s: model '%s': "
				    "more than one parent <model>", f->label,
				    m->name);
			if (cm_name_attr(f, n, "model", m->name,
			    &m->parent) != KV_OK)
				return KV_ERR;
		} else if (cm_is(n, "vendor")) {
			if (m->vendor != NULL)
				return kv_seterr(f->err, "%s: model '%s': "
				    "more than one <vendor>", f->label,
				    m->name);
			if (cm_name_attr(f, n, "vendor", m->name,
			    &m->vendor) != KV_OK)
				return KV_ERR;
		} else if (cm_is(n, "feature")) {
			if (cm_parse_feature(f, m, n) != KV_OK)
				return KV_ERR;
		}
	}
	return KV_OK;
}

static int
cm_parse_model(struct cm_file *f, xmlNode *node)
{
	struct cm_model *m;
	const char *name;

	if (cm_name_attr(f, node, "model", NULL, &name) != KV_OK)
		return KV_ERR;
	if (f->b->nmodels + f->nmodels >= CPUMAP_MAX_MODELS)
		return kv_seterr(f->err, "%s: model '%s': more than %d CPU "
		    "models", f->label, name, CPUMAP_MAX_MODELS);
	KV_GROW(f->models, f->cap, f->nmodels + 1);
	m = &f->models[f->nmodels++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->file = f->label;
	return cm_parse_children(f, m, node);
}

/* Models are the <model> children of <cpus>; files without any (index.xml,
 * x86_features.xml, x86_vendors.xml) contribute nothing. */
static int
cm_parse_doc(struct cm_file *f, xmlDoc *doc)
{
	xmlNode *root = xmlDocGetRootElement(doc);

	if (doc->intSubset != NULL || doc->extSubset != NULL)
		return kv_seterr(f->err, "%s: <!DOCTYPE> is not allowed",
		    f->label);
	if (root == NULL || !cm_is(root, "cpus"))
		return kv_seterr(f->err, "%s: root element is not <cpus>",
		    f->label);
	for (xmlNode *n = root->children; n != NULL; n = n->next)
		if (cm_is(n, "model") && cm_parse_model(f, n) != KV_OK)
			return KV_ERR;
	return KV_OK;
}

static int
cm_xml_error(struct cm_file *f, xmlParserCtxt *ctxt)
{
	const xmlError *xe = xmlCtxtGetLastError(ctxt);
	char msg[256];
	size_t len;

	if (xe == NULL || xe->message == NULL)
		return kv_seterr(f->err, "%s: malformed XML", f->label);
	snprintf(msg, sizeof(msg), "%s", xe->message);
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	return kv_seterr(f->err, "%s: malformed XML at line %d: %s", f->label,
	    xe->line, msg);
}

int
cpumap_builder_add(cpumap_builder *b, const char *name, const char *buf,
    size_t len, kv_err *err)
{
	struct cm_file f = { .b = b, .err = err };
	xmlParserCtxt *ctxt = NULL;
	xmlDoc *doc = NULL;
	int rc = KV_ERR;

	f.label = cm_label(&b->pool, name);
	if (len > CPUMAP_MAX_FILE) {
		kv_seterr(err, "%s: larger than %d bytes", f.label,
		    CPUMAP_MAX_FILE);
		goto out;
	}
	if ((ctxt = xmlNewParserCtxt()) == NULL)
		kv_fatal("out of memory (libxml2 parser)");
	doc = xmlCtxtReadMemory(ctxt, buf != NULL ? buf : "", (int)len, NULL,
	    NULL, CM_XML_OPTIONS);
	if (doc == NULL) {
		cm_xml_error(&f, ctxt);
		goto out;
	}
	if (cm_parse_doc(&f, doc) != KV_OK)
		goto out;
	if (f.nmodels > 0) {
		KV_GROW(b->models, b->cap, b->nmodels + f.nmodels);
		memcpy(b->models + b->nmodels, f.models,
		    f.nmodels * sizeof(*f.models));
		b->nmodels += f.nmodels;
		f.nmodels = 0;
	}
	rc = KV_OK;
out:
	for (size_t i = 0; i < f.nmodels; i++)
		cm_model_clear(&f.models[i]);
	free(f.models);
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return rc;
}

/* ---- finishing ----------------------------------------------------------- */

/* A finished db and what it owns; db comes first so cpudb_free can cast. */
struct cm_db {
	cpudb db;
	cpudb_model *models;
	const char **fstore;	/* every model's features, back to back */
	struct cm_pool pool;
};

static int
cm_modelcmp(const void *a, const void *b)
{
	return strcmp(((const struct cm_model *)a)->name,
	    ((const struct cm_model *)b)->name);
}

static int
cm_model_keycmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct cm_model *)elem)->name);
}

/* b->models must be sorted. */
static struct cm_model *
cm_find(cpumap_builder *b, const char *name)
{
	return bsearch(name, b->models, b->nmodels, sizeof(*b->models),
	    cm_model_keycmp);
}

static int
cm_check_unique(cpumap_builder *b, kv_err *err)
{
	for (size_t i = 1; i < b->nmodels; i++) {
		const struct cm_model *m = &b->models[i];

		if (strcmp(m->name, b->models[i - 1].name) == 0)
			return kv_seterr(err, "%s: model '%s' is already "
			    "defined in %s", m->file, m->name,
			    b->models[i - 1].file);
	}
	return KV_OK;
}

static void
cm_correct(cpumap_builder *b, struct cm_model *m,
    const cpudb_correction *corr, size_t ncorr)
{
	for (size_t i = 0; i < ncorr; i++) {
		if (strcmp(corr[i].model, m->name) != 0)
			continue;
		for (const char *const *f = corr[i].features; *f != NULL; f++)
			cm_set_add(&m->feat, cm_intern(&b->pool, *f));
	}
}

static int cm_resolve(cpumap_builder *, struct cm_model *,
    const cpudb_correction *, size_t, int, kv_err *);

/*
 * Start m from its parent's expansion, expanding the parent first.  The
 * chain bound is checked twice: on the recursion (rdepth, which guards the
 * stack before the chain is known) and on the chain itself (m->depth, as
 * ancestors may have been expanded already); both only fire for a chain
 * longer than CPUMAP_MAX_DEPTH.
 */
static int
cm_inherit(cpumap_builder *b, struct cm_model *m,
    const cpudb_correction *corr, size_t ncorr, int rdepth, kv_err *err)
{
	struct cm_model *p = cm_find(b, m->parent);

	if (p == NULL)
		return kv_seterr(err, "%s: model '%s': parent model '%s' is "
		    "not defined", m->file, m->name, m->parent);
	if (p->state == CM_BUSY)
		return kv_seterr(err, "%s: model '%s': inheritance cycle "
		    "through parent '%s'", m->file, m->name, p->name);
	if (rdepth < CPUMAP_MAX_DEPTH &&
	    cm_resolve(b, p, corr, ncorr, rdepth + 1, err) != KV_OK)
		return KV_ERR;
	if (rdepth >= CPUMAP_MAX_DEPTH || p->depth >= CPUMAP_MAX_DEPTH)
		return kv_seterr(err, "%s: model '%s': inheritance chain "
		    "longer than %d models", m->file, m->name,
		    CPUMAP_MAX_DEPTH);
	cm_set_addall(&m->feat, &p->feat);
	m->xvendor = p->xvendor;
	m->depth = p->depth + 1;
	return KV_OK;
}

/* Expand m (see the top of this file); rdepth is the recursion depth. */
static int
cm_resolve(cpumap_builder *b, struct cm_model *m,
    const cpudb_correction *corr, size_t ncorr, int rdepth, kv_err *err)
{
	if (m->state == CM_DONE)
		return KV_OK;
	m->state = CM_BUSY;
	if (m->parent != NULL &&
	    cm_inherit(b, m, corr, ncorr, rdepth, err) != KV_OK)
		return KV_ERR;
	if (m->vendor != NULL)
		m->xvendor = m->vendor;
	cm_set_addall(&m->feat, &m->own);
	cm_set_drop(&m->feat, &m->removed);
	cm_correct(b, m, corr, ncorr);
	cm_set_sort(&m->feat);
	if (m->feat.n > CPUMAP_MAX_FEATURES)
		return kv_seterr(err, "%s: model '%s': more than %d features "
		    "after inheritance", m->file, m->name,
		    CPUMAP_MAX_FEATURES);
	m->state = CM_DONE;
	return KV_OK;
}

/* cpudb_model_has as a cpudb_level predicate. */
static bool
cm_level_has(const char *feature, void *arg)
{
	return cpudb_model_has(arg, feature);
}

static void
cm_fill(cpudb_model *out, const struct cm_model *m, const char **features)
{
	if (m->feat.n > 0)
		memcpy(features, m->feat.v, m->feat.n * sizeof(*features));
	out->name = m->name;
	out->vendor = m->xvendor;
	out->nfeatures = m->feat.n;
	out->features = features;
	for (size_t i = 0; i < m->feat.n; i++)
		if (!kv_startswith(features[i], "vmx-"))
			out->nfeatures_novmx++;
	out->level = cpudb_level(cm_level_has, out);
	out->avx2 = cpudb_model_has(out, "avx2");
	out->avx512f = cpudb_model_has(out, "avx512f");
}

/* The db of b's expanded models; takes b's string pool. */
static cpudb *
cm_build(cpumap_builder *b)
{
	struct cm_db *d = xcalloc(1, sizeof(*d));
	size_t total = 0, at = 0;

	for (size_t i = 0; i < b->nmodels; i++)
		total += b->models[i].feat.n;
	d->models = xcalloc(b->nmodels, sizeof(*d->models));
	d->fstore = xreallocarray(NULL, total, sizeof(*d->fstore));
	for (size_t i = 0; i < b->nmodels; i++) {
		cm_fill(&d->models[i], &b->models[i], d->fstore + at);
		at += b->models[i].feat.n;
	}
	d->pool = b->pool;
	memset(&b->pool, 0, sizeof(b->pool));
	d->db.nmodels = b->nmodels;
	d->db.models = d->models;
	return &d->db;
}

int
cpumap_finish_with(cpumap_builder *b, const cpudb_correction *corr,
    size_t ncorr, cpudb **out, kv_err *err)
{
	int rc = KV_ERR;

	*out = NULL;
	if (b->nmodels > 0)
		kv_qsort(b->models, b->nmodels, sizeof(*b->models),
		    cm_modelcmp);
	if (cm_check_unique(b, err) != KV_OK)
		goto out;
	for (size_t i = 0; i < b->nmodels; i++)
		if (cm_resolve(b, &b->models[i], corr, ncorr, 0, err) != KV_OK)
			goto out;
	*out = cm_build(b);
	rc = KV_OK;
out:
	cpumap_builder_free(b);
	return rc;
}

#ifndef KV_CPUDB_GENERATOR
int
cpumap_finish(cpumap_builder *b, cpudb **out, kv_err *err)
{
	return cpumap_finish_with(b, cpudb_qemu_corrections,
	    cpudb_qemu_ncorrections, out, err);
}
#endif

void
cpudb_free(cpudb *db)
{
	struct cm_db *d = (struct cm_db *)db;

	if (d == NULL)
		return;
	free(d->fstore);
	free(d->models);
	cm_pool_free(&d->pool);
	free(d);
}
