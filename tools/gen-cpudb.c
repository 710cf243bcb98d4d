/*
 * gen-cpudb.c - writes analyze/model/cpudb_builtin.c, the CPU-model table built
 * into kvscope (Makefile target `cpudb`).
 *
 *	gen-cpudb [-V libvirt-version] CPU_MAP_DIR QEMU_JSON [LIBVIRT_JSON]
 *
 * Reads index.xml and every file its <arch name='x86'> section includes
 * through the same cpumap_builder kvscope uses at run time, derives the QEMU
 * corrections from QEMU_JSON (level features of QEMU's q35 expansion of a
 * model that libvirt's map lacks) and, before writing anything, proves the
 * reader right:
 *  - every model's uncorrected expansion (features, vendor, level, avx2,
 *    avx512f) equals LIBVIRT_JSON's (default CPU_MAP_DIR/../
 *    libvirt-cpu-models.json), and both hold the same models;
 *  - every model QEMU knows has, once corrected, QEMU's level, avx2 and
 *    avx512f.
 * A discrepancy is reported on stderr and the exit status is 1, with
 * nothing on stdout.  The JSON files are inputs of this tool only; kvscope
 * never reads them.
 *
 * Built with -DKV_CPUDB_GENERATOR from this file, analyze/model/cpumap.c and
 * analyze/util/util.c only, so it builds before cpudb_builtin.c exists.
 * Ownership: a batch tool; x* allocators exit on exhaustion, and what it
 * allocates is released before a normal exit (LSan stays quiet).
 */
#include "analyze/model/cpudb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

/* One cpu_map file; the inputs are kept in index.xml order. */
struct gen_file {
	char *label;		/* its path */
	char *buf;
	size_t len;
};

struct gen_input {
	struct gen_file *v;
	size_t n, cap;
};

/* The corrections found, with their NULL-terminated feature lists. */
struct gen_corr {
	cpudb_correction *v;
	size_t n, cap;
};

static int gen_bad;		/* discrepancies found so far */

static void __attribute__((format(printf, 1, 0)))
gen_vmsg(const char *fmt, va_list ap)
{
	fputs("gen-cpudb: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 1, 2), noreturn))
gen_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gen_vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

/* Report one discrepancy; main() exits 1 once all checks have run. */
static void __attribute__((format(printf, 1, 2)))
gen_mismatch(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gen_vmsg(fmt, ap);
	va_end(ap);
	gen_bad++;
}

static char *
gen_slurp(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	kv_buf b = {0};
	char chunk[65536];
	size_t n;

	if (f == NULL)
		gen_die("%s: cannot open", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		kv_buf_append(&b, chunk, n);
	if (ferror(f))
		gen_die("%s: read error", path);
	fclose(f);
	kv_buf_append(&b, "", 0);
	*lenp = b.len;
	return b.data;
}

/* ---- reading the cpu_map ------------------------------------------------- */

static void
gen_add_file(struct gen_input *in, const char *dir, const char *file)
{
	if (file[0] == '\0' || file[0] == '.' || strchr(file, '/') != NULL)
		gen_die("%s/index.xml: bad include filename '%s'", dir, file);
	struct gen_file *f;

	KV_GROW(in->v, in->cap, in->n + 1);
	f = &in->v[in->n++];
	f->label = xasprintf("%s/%s", dir, file);
	f->buf = gen_slurp(f->label, &f->len);
}

static bool
gen_is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, name) == 0;
}

/* <include filename=...> elements under node, <group>s descended. */
static void
gen_walk(const xmlNode *node, const char *dir, struct gen_input *in)
{
	for (xmlNode *n = node->children; n != NULL; n = n->next) {
		xmlChar *file;

		if (gen_is(n, "group"))
			gen_walk(n, dir, in);
		if (!gen_is(n, "include"))
			continue;
		if ((file = xmlGetNoNsProp(n, (const xmlChar *)"filename")) ==
		    NULL)
			gen_die("%s/index.xml: <include> without filename",
			    dir);
		gen_add_file(in, dir, (const char *)file);
		xmlFree(file);
	}
}

static bool
gen_is_x86(xmlNode *n)
{
	xmlChar *name;
	bool x86;

	if (!gen_is(n, "arch"))
		return false;
	name = xmlGetNoNsProp(n, (const xmlChar *)"name");
	x86 = name != NULL && strcmp((const char *)name, "x86") == 0;
	xmlFree(name);
	return x86;
}

/* index.xml itself (the builder ignores it) and what it includes for x86. */
static void
gen_read_map(const char *dir, struct gen_input *in)
{
	xmlDoc *doc;
	xmlNode *root;

	gen_add_file(in, dir, "index.xml");
	doc = xmlReadMemory(in->v[0].buf, (int)in->v[0].len, NULL, NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL || (root = xmlDocGetRootElement(doc)) == NULL)
		gen_die("%s: malformed XML", in->v[0].label);
	for (xmlNode *n = root->children; n != NULL; n = n->next)
		if (gen_is_x86(n))
			gen_walk(n, dir, in);
	xmlFreeDoc(doc);
	if (in->n == 1)
		gen_die("%s: no <arch name='x86'> includes", in->v[0].label);
}

static cpudb *
gen_build(const struct gen_input *in, const cpudb_correction *corr,
    size_t ncorr)
{
	cpumap_builder *b = cpumap_builder_new();
	kv_err err = {0};
	cpudb *db;

	for (size_t i = 0; i < in->n; i++) {
		const struct gen_file *f = &in->v[i];

		if (cpumap_builder_add(b, f->label, f->buf, f->len, &err) !=
		    KV_OK) {
			cpumap_builder_free(b);
			gen_die("%s", err.msg);
		}
	}
	if (cpumap_finish_with(b, corr, ncorr, &db, &err) != KV_OK)
		gen_die("%s", err.msg);
	return db;
}

static void
gen_input_free(struct gen_input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].label);
		free(in->v[i].buf);
	}
	free(in->v);
}

/* ---- cross-checks -------------------------------------------------------- */

static json_t *
gen_load_json(const char *path)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);

	if (j == NULL)
		gen_die("%s:%d: %s", path, jerr.line, jerr.text);
	if (!json_is_object(j))
		gen_die("%s: not a JSON object", path);
	return j;
}

/* The keys of object o in strcmp order (borrowed from o). */
static const char **
gen_keys(json_t *o, size_t *np)
{
	const char **keys = xreallocarray(NULL, json_object_size(o),
	    sizeof(*keys));
	const char *k;
	json_t *v;
	size_t n = 0;

	json_object_foreach(o, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(*keys), kv_strptrcmp);
	*np = n;
	return keys;
}

/* true when JSON array a holds exactly the sorted list m->features. */
static bool
gen_same_features(const cpudb_model *m, json_t *a)
{
	const char **v;
	size_t n = json_array_size(a);
	bool same = n == m->nfeatures;

	if (!same)
		return false;
	v = xreallocarray(NULL, n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		if ((v[i] = json_string_value(json_array_get(a, i))) == NULL)
			v[i] = "";
	qsort(v, n, sizeof(*v), kv_strptrcmp);
	for (size_t i = 0; i < n && same; i++)
		same = strcmp(v[i], m->features[i]) == 0;
	free(v);
	return same;
}

static bool
gen_same_vendor(const cpudb_model *m, json_t *vendor)
{
	if (m->vendor == NULL)
		return json_is_null(vendor);
	return json_is_string(vendor) &&
	    strcmp(m->vendor, json_string_value(vendor)) == 0;
}

/* level, avx2 and avx512f of m against object o (which says `src`). */
static void
gen_check_flags(const cpudb_model *m, json_t *o, const char *src)
{
	json_t *level = json_object_get(o, "x86_64_level");

	if (!json_is_integer(level) || json_integer_value(level) != m->level)
		gen_mismatch("%s: level %d, %s says %lld", m->name, m->level,
		    src, json_is_integer(level) ?
		    (long long)json_integer_value(level) : -1LL);
	if (json_is_true(json_object_get(o, "avx2")) != m->avx2)
		gen_mismatch("%s: avx2 %d differs from %s", m->name, m->avx2,
		    src);
	if (json_is_true(json_object_get(o, "avx512f")) != m->avx512f)
		gen_mismatch("%s: avx512f %d differs from %s", m->name,
		    m->avx512f, src);
}

static void
gen_check_libvirt(const cpudb *raw, json_t *lv)
{
	const char *k;
	json_t *o;

	for (size_t i = 0; i < raw->nmodels; i++) {
		const cpudb_model *m = &raw->models[i];

		if ((o = json_object_get(lv, m->name)) == NULL) {
			gen_mismatch("%s: missing from libvirt JSON", m->name);
			continue;
		}
		if (!gen_same_features(m, json_object_get(o, "features")))
			gen_mismatch("%s: features differ from libvirt JSON",
			    m->name);
		if (!gen_same_vendor(m, json_object_get(o, "vendor")))
			gen_mismatch("%s: vendor %s differs from libvirt JSON",
			    m->name, m->vendor ? m->vendor : "(none)");
		gen_check_flags(m, o, "libvirt JSON");
	}
	json_object_foreach(lv, k, o)
		if (cpudb_find(raw, k) == NULL)
			gen_mismatch("%s: in libvirt JSON, not in cpu_map", k);
}

static void
gen_check_qemu(const cpudb *db, json_t *qm)
{
	const char *k;
	json_t *o;

	json_object_foreach(qm, k, o) {
		const cpudb_model *m = cpudb_find(db, k);

		if (m != NULL)
			gen_check_flags(m, o, "QEMU JSON");
	}
}

/* ---- corrections --------------------------------------------------------- */

static bool
gen_json_has(json_t *a, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return true;
	return false;
}

/* Level features QEMU's model qf has and m lacks, NULL-terminated and
 * sorted; NULL when there are none.  The strings are the static ones of
 * cpudb_level_features. */
static const char **
gen_extra(const cpudb_model *m, json_t *qf)
{
	const char **v = NULL;
	size_t n = 0, cap = 0;

	for (int level = 1; level <= 4; level++) {
		for (const char *const *f = cpudb_level_features[level];
		    *f != NULL; f++) {
			if (!gen_json_has(qf, *f) || cpudb_model_has(m, *f))
				continue;
			KV_GROW(v, cap, n + 1);
			v[n++] = *f;
		}
	}
	if (n == 0)
		return NULL;
	qsort(v, n, sizeof(*v), kv_strptrcmp);
	KV_GROW(v, cap, n + 1);
	v[n] = NULL;
	return v;
}

/* One correction per model of raw that QEMU_JSON's models object qm shows
 * short of level features, in name order. */
static void
gen_corrections(const cpudb *raw, json_t *qm, struct gen_corr *c)
{
	size_t nkeys;
	const char **keys = gen_keys(qm, &nkeys);

	for (size_t i = 0; i < nkeys; i++) {
		const cpudb_model *m = cpudb_find(raw, keys[i]);
		json_t *qf = json_object_get(json_object_get(qm, keys[i]),
		    "features");
		const char **extra;

		if (m == NULL)
			continue;
		if (!json_is_array(qf))
			gen_die("QEMU JSON: %s: no features array", keys[i]);
		if ((extra = gen_extra(m, qf)) == NULL)
			continue;
		KV_GROW(c->v, c->cap, c->n + 1);
		c->v[c->n].model = m->name;
		c->v[c->n].features = extra;
		c->n++;
	}
	free(keys);
}

static void
gen_corr_free(struct gen_corr *c)
{
	for (size_t i = 0; i < c->n; i++)
		free((void *)c->v[i].features);
	free(c->v);
}

/* ---- writing the C file -------------------------------------------------- */

/* s as a C string literal: quotes, backslashes and '?' (trigraphs) are
 * escaped, anything outside printable ASCII becomes an octal escape. */
static void
gen_cstr(kv_buf *o, const char *s)
{
	kv_buf_append(o, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			kv_buf_printf(o, "\\%c", *p);
		else if (*p < 0x20 || *p > 0x7e)
			kv_buf_printf(o, "\\%03o", *p);
		else
			kv_buf_append(o, p, 1);
	}
	kv_buf_append(o, "\"", 1);
}

/* A C identifier for model name: prefix + name, non-alphanumerics as '_'. */
static char *
gen_ident(const char *prefix, const char *name)
{
	char *id = xasprintf("%s%s", prefix, name);

	for (char *p = id + strlen(prefix); *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9')))
			*p = '_';
	return id;
}

/* Two names that mangle alike would give one identifier twice. */
static void
gen_check_idents(const cpudb *db)
{
	for (size_t i = 0; i < db->nmodels; i++) {
		char *a = gen_ident("", db->models[i].name);

		for (size_t j = i + 1; j < db->nmodels; j++) {
			char *b = gen_ident("", db->models[j].name);

			if (strcmp(a, b) == 0)
				gen_die("models %s and %s share the C "
				    "identifier %s", db->models[i].name,
				    db->models[j].name, a);
			free(b);
		}
		free(a);
	}
}

/* Append C text item to a comma-separated list that *col (0 before the
 * first item) keeps within 72 columns, one tab in. */
static void
gen_list_item(kv_buf *o, size_t *col, const char *item, size_t w)
{
	if (*col == 0) {
		kv_buf_append(o, "\t", 1);
		*col = 8;
	} else if (*col + 2 + w > 72) {
		kv_buf_append(o, ",\n\t", 3);
		*col = 8;
	} else {
		kv_buf_append(o, ", ", 2);
		*col += 2;
	}
	kv_buf_append(o, item, w);
	*col += w;
}

/* The n strings of v as a wrapped list of literals, then NULL if asked. */
static void
gen_strings(kv_buf *o, const char *const *v, size_t n, bool terminate)
{
	kv_buf lit = {0};
	size_t col = 0;

	for (size_t i = 0; i < n; i++) {
		lit.len = 0;
		gen_cstr(&lit, v[i]);
		gen_list_item(o, &col, lit.data, lit.len);
	}
	if (terminate)
		gen_list_item(o, &col, "NULL", 4);
	kv_buf_append(o, "\n", 1);
	kv_buf_free(&lit);
}

static void
gen_emit_features(kv_buf *o, const cpudb_model *m)
{
	char *id = gen_ident("f_", m->name);

	if (m->nfeatures == 0) {
		kv_buf_printf(o, "static const char *const %s[1] = { NULL };"
		    "\n\n", id);
		free(id);
		return;
	}
	kv_buf_printf(o, "static const char *const %s[] = {\n", id);
	gen_strings(o, m->features, m->nfeatures, false);
	kv_buf_append(o, "};\n\n", 4);
	free(id);
}

static void
gen_emit_model(kv_buf *o, const cpudb_model *m)
{
	char *id = gen_ident("f_", m->name);

	kv_buf_append(o, "\t{ .name = ", 11);
	gen_cstr(o, m->name);
	kv_buf_append(o, ", .vendor = ", 12);
	if (m->vendor != NULL)
		gen_cstr(o, m->vendor);
	else
		kv_buf_append(o, "NULL", 4);
	kv_buf_printf(o, ",\n\t  .level = %d, .avx2 = %s, .avx512f = %s,\n",
	    m->level, m->avx2 ? "true" : "false",
	    m->avx512f ? "true" : "false");
	kv_buf_printf(o, "\t  .nfeatures = %zu, .nfeatures_novmx = %zu,\n"
	    "\t  .features = %s },\n", m->nfeatures, m->nfeatures_novmx, id);
	free(id);
}

static void
gen_emit_corrections(kv_buf *o, const struct gen_corr *c)
{
	for (size_t i = 0; i < c->n; i++) {
		char *id = gen_ident("c_", c->v[i].model);
		size_t n = 0;

		while (c->v[i].features[n] != NULL)
			n++;
		kv_buf_printf(o, "static const char *const %s[] = {\n", id);
		gen_strings(o, c->v[i].features, n, true);
		kv_buf_append(o, "};\n", 3);
		free(id);
	}
	kv_buf_printf(o, "\nconst cpudb_correction cpudb_qemu_corrections[%s] "
	    "= {\n", c->n == 0 ? "1" : "");
	for (size_t i = 0; i < c->n; i++) {
		char *id = gen_ident("c_", c->v[i].model);

		kv_buf_append(o, "\t{ ", 3);
		gen_cstr(o, c->v[i].model);
		kv_buf_printf(o, ", %s },\n", id);
		free(id);
	}
	if (c->n == 0)
		kv_buf_append(o, "\t{ NULL, NULL },\n", 17);
	kv_buf_printf(o, "};\nconst size_t cpudb_qemu_ncorrections = %zu;\n\n",
	    c->n);
}

/* Printable ASCII of s for a comment ('*' and the rest become '?'). */
static char *
gen_comment_safe(const char *s)
{
	char *t = xstrdup(s);

	for (char *p = t; *p != '\0'; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '*')
			*p = '?';
	return t;
}

static void
gen_emit_header(kv_buf *o, const cpudb *db, const char *libvirt,
    const char *qemu)
{
	char *lv = gen_comment_safe(libvirt), *qv = gen_comment_safe(qemu);

	kv_buf_printf(o,
	    "/*\n"
	    " * cpudb_builtin.c - the CPU-model table built into kvscope.\n"
	    " *\n"
	    " * GENERATED by tools/gen-cpudb from the libvirt %s cpu_map\n"
	    " * (%zu x86 models) and QEMU's q35 expansion of each model\n"
	    " * (QEMU %s).\n"
	    " * Do not edit: run `make cpudb`.\n"
	    " *\n"
	    " * A model's features are libvirt's expansion of it plus its\n"
	    " * correction below (level features QEMU gives the guest and\n"
	    " * libvirt's map lacks); level, avx2 and avx512f follow from\n"
	    " * them.  gen-cpudb checked both sources against the expanded\n"
	    " * JSON files before writing this.\n"
	    " */\n"
	    "#include \"cpudb.h\"\n\n", lv, db->nmodels, qv);
	free(lv);
	free(qv);
}

static void
gen_emit(kv_buf *o, const cpudb *db, const struct gen_corr *c,
    const char *libvirt, const char *qemu)
{
	gen_emit_header(o, db, libvirt, qemu);
	for (size_t i = 0; i < db->nmodels; i++)
		gen_emit_features(o, &db->models[i]);
	kv_buf_append(o, "static const cpudb_model models[] = {\n", 38);
	for (size_t i = 0; i < db->nmodels; i++)
		gen_emit_model(o, &db->models[i]);
	kv_buf_append(o, "};\n\n", 4);
	gen_emit_corrections(o, c);
	kv_buf_printf(o,
	    "static const cpudb builtin = {\n"
	    "\t.nmodels = sizeof(models) / sizeof(models[0]),\n"
	    "\t.models = models,\n"
	    "};\n\n"
	    "const cpudb *\n"
	    "cpudb_builtin(void)\n"
	    "{\n"
	    "\treturn &builtin;\n"
	    "}\n");
}

/* ---- main ---------------------------------------------------------------- */

static void __attribute__((noreturn))
gen_usage(void)
{
	fputs("usage: gen-cpudb [-V libvirt-version] CPU_MAP_DIR QEMU_JSON "
	    "[LIBVIRT_JSON] > cpudb_builtin.c\n", stderr);
	exit(1);
}

static void
gen_write(const kv_buf *o)
{
	if (fwrite(o->data, 1, o->len, stdout) != o->len ||
	    fflush(stdout) != 0)
		gen_die("write error on stdout");
}

int
main(int argc, char **argv)
{
	const char *libvirt = "(version not given)", *qemu;
	struct gen_input in = {0};
	struct gen_corr corr = {0};
	json_t *qj, *qm, *lv;
	cpudb *raw, *db;
	kv_buf out = {0};
	char *lvpath;
	int ch;

	while ((ch = getopt(argc, argv, "V:")) != -1) {
		if (ch != 'V')
			gen_usage();
		libvirt = optarg;
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 && argc != 3)
		gen_usage();
	lvpath = argc == 3 ? xstrdup(argv[2]) :
	    xasprintf("%s/../libvirt-cpu-models.json", argv[0]);

	gen_read_map(argv[0], &in);
	raw = gen_build(&in, NULL, 0);
	gen_check_idents(raw);
	lv = gen_load_json(lvpath);
	gen_check_libvirt(raw, lv);

	qj = gen_load_json(argv[1]);
	if (!json_is_object(qm = json_object_get(qj, "models")))
		gen_die("%s: no \"models\" object", argv[1]);
	if ((qemu = json_string_value(json_object_get(qj,
	    "qemu_version"))) == NULL)
		qemu = "version unknown";
	gen_corrections(raw, qm, &corr);
	db = gen_build(&in, corr.v, corr.n);
	gen_check_qemu(db, qm);
	if (gen_bad > 0)
		gen_die("%d discrepancies; nothing written", gen_bad);

	gen_emit(&out, db, &corr, libvirt, qemu);
	gen_write(&out);
	fprintf(stderr, "gen-cpudb: %zu models, %zu with QEMU corrections\n",
	    db->nmodels, corr.n);

	kv_buf_free(&out);
	cpudb_free(db);
	gen_corr_free(&corr);
	cpudb_free(raw);
	json_decref(qj);
	json_decref(lv);
	gen_input_free(&in);
	free(lvpath);
	return 0;
}
