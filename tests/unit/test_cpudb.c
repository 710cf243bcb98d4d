/*
 * test_cpudb.c - the CPU-model database: the built-in table generated from
 * libvirt 12.8.0 + QEMU 10.0, and the cpu_map reader on small in-memory
 * maps (inheritance, vendors, removed features, errors, limits).
 *
 * If $SHARED names the shared reference folder, the built-in table is also
 * rebuilt at run time from its raw cpu_map and compared model for model;
 * without it that one test is skipped.
 */
#include "kvtest.h"

#include <dirent.h>
#include <unistd.h>

#include "analyze/model/cpudb.h"

/* ---- helpers ------------------------------------------------------------- */

struct xfile {
	const char *name;
	const char *xml;
};

/* A db from files via cpumap_finish (built-in corrections); NULL with err
 * set when the builder refuses. */
static cpudb *
build(const struct xfile *files, size_t n, kv_err *err)
{
	cpumap_builder *b = cpumap_builder_new();
	cpudb *db = NULL;

	for (size_t i = 0; i < n; i++) {
		if (cpumap_builder_add(b, files[i].name, files[i].xml,
		    strlen(files[i].xml), err) != KV_OK) {
			cpumap_builder_free(b);
			return NULL;
		}
	}
	if (cpumap_finish(b, &db, err) != KV_OK)
		assert_null(db);
	return db;
}

/* The error cpu_map gives for one file, which must be refused at add. */
static void
assert_add_fails(const char *xml, const char *want)
{
	cpumap_builder *b = cpumap_builder_new();
	kv_err err = {0};

	assert_int_equal(cpumap_builder_add(b, "cpu_map/x86_Bad.xml", xml,
	    strlen(xml), &err), KV_ERR);
	assert_non_null(strstr(err.msg, "cpu_map/x86_Bad.xml: "));
	if (strstr(err.msg, want) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", err.msg, want);
	cpumap_builder_free(b);
}

/* The error cpumap_finish gives for files that all add fine. */
static void
assert_finish_fails(const struct xfile *files, size_t n, const char *want)
{
	kv_err err = {0};
	cpudb *db = build(files, n, &err);

	assert_null(db);
	assert_true(err.set);
	if (strstr(err.msg, want) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", err.msg, want);
}

static bool
has(const cpudb_model *m, const char *f)
{
	for (size_t i = 0; i < m->nfeatures; i++)
		if (strcmp(m->features[i], f) == 0)
			return true;
	return false;
}

static bool
has_cb(const char *f, void *arg)
{
	return has(arg, f);
}

static const cpudb_model *
find(const cpudb *db, const char *name)
{
	const cpudb_model *m = cpudb_find(db, name);

	if (m == NULL)
		fail_msg("model %s not found", name);
	return m;
}

/* What cpudb.h promises of every db. */
static void
assert_well_formed(const cpudb *db)
{
	for (size_t i = 0; i < db->nmodels; i++) {
		const cpudb_model *m = &db->models[i];
		size_t novmx = 0;

		if (i > 0)
			assert_true(strcmp(db->models[i - 1].name, m->name) <
			    0);
		for (size_t j = 0; j < m->nfeatures; j++) {
			if (j > 0)
				assert_true(strcmp(m->features[j - 1],
				    m->features[j]) < 0);
			if (!kv_startswith(m->features[j], "vmx-"))
				novmx++;
		}
		assert_int_equal(m->nfeatures_novmx, novmx);
		assert_int_equal(m->level, cpudb_level(has_cb, (void *)m));
		assert_int_equal(m->avx2, has(m, "avx2"));
		assert_int_equal(m->avx512f, has(m, "avx512f"));
		for (size_t j = 0; j < m->nfeatures; j++)
			assert_true(cpudb_model_has(m, m->features[j]));
		assert_false(cpudb_model_has(m, "no-such-feature"));
		assert_ptr_equal(cpudb_find(db, m->name), m);
	}
}

/* ---- the built-in table -------------------------------------------------- */

static void
test_builtin_count(void **state)
{
	const cpudb *db = cpudb_builtin();

	assert_int_equal(db->nmodels, 176);
	assert_well_formed(db);
	assert_int_equal(cpudb_qemu_ncorrections, 24);
}

static void
test_builtin_haswell_corrected(void **state)
{
	const cpudb_model *m = find(cpudb_builtin(), "Haswell");

	assert_int_equal(m->level, 3);
	assert_true(m->avx2);
	assert_false(m->avx512f);
	assert_true(has(m, "abm"));	/* from QEMU, not libvirt's map */
	assert_true(has(m, "f16c"));
	assert_string_equal(m->vendor, "Intel");
}

static void
test_builtin_haswell_v4_inherits(void **state)
{
	const cpudb *db = cpudb_builtin();
	const cpudb_model *m = find(db, "Haswell-v4");
	const cpudb_model *p = find(db, "Haswell-noTSX-IBRS");

	assert_int_equal(m->level, 3);
	assert_string_equal(m->vendor, "Intel");
	assert_int_equal(m->nfeatures, p->nfeatures);
	for (size_t i = 0; i < m->nfeatures; i++)
		assert_string_equal(m->features[i], p->features[i]);
	assert_true(has(m, "spec-ctrl"));
	assert_false(has(m, "hle"));	/* noTSX */
}

static void
test_builtin_levels(void **state)
{
	const cpudb *db = cpudb_builtin();
	const cpudb_model *m;

	m = find(db, "Skylake-Client-v4");
	assert_true(m->avx2);
	assert_int_equal(m->level, 3);
	assert_false(has(m, "mpx"));

	m = find(db, "Cascadelake-Server");
	assert_int_equal(m->level, 4);
	assert_true(m->avx512f);
	assert_false(has(m, "mpx"));	/* removed='yes' */

	m = find(db, "KnightsMill");	/* AVX512F without BW/DQ/VL */
	assert_true(m->avx512f);
	assert_int_equal(m->level, 3);

	m = find(db, "Icelake-Client");
	assert_int_equal(m->level, 3);
	assert_false(m->avx512f);
	assert_true(has(m, "avx512vnni"));

	m = find(db, "EPYC-Genoa");
	assert_string_equal(m->vendor, "AMD");
	assert_int_equal(m->level, 4);

	m = find(db, "486");
	assert_int_equal(m->level, 0);
	assert_null(m->vendor);

	m = find(db, "core2duo");	/* corrected, level unchanged */
	assert_true(has(m, "cx16"));
	assert_int_equal(m->level, 1);
}

static void
test_builtin_unknown(void **state)
{
	const cpudb *db = cpudb_builtin();

	assert_null(cpudb_find(db, "Haswell-v9"));
	assert_null(cpudb_find(db, "haswell"));
	assert_null(cpudb_find(db, ""));
	assert_null(cpudb_find(db, "x86-64-v3"));
}

static bool
in_list(const char *f, void *arg)
{
	for (const char *const *p = arg; *p != NULL; p++)
		if (strcmp(*p, f) == 0)
			return true;
	return false;
}

static void
test_level_function(void **state)
{
	const char *v1[] = { "cmov", "cx8", "fpu", "fxsr", "mmx", "syscall",
	    "sse", "sse2", "lm", NULL };
	const char *no_lm[] = { "cmov", "cx8", "fpu", "fxsr", "mmx",
	    "syscall", "sse", "sse2", "cx16", NULL };
	size_t n = 0;

	assert_int_equal(cpudb_level(in_list, v1), 1);
	assert_int_equal(cpudb_level(in_list, no_lm), 0);
	for (const char *const *f = cpudb_level_features[3]; *f; f++)
		n++;
	assert_int_equal(n, 9);
	assert_null(cpudb_level_features[0][0]);
}

/* ---- the reader ---------------------------------------------------------- */

#define PARENT_XML \
	"<cpus><model name='Parent'><decode host='on' guest='on'/>" \
	"<vendor name='Intel'/><feature name='fpu'/><feature name='sse'/>" \
	"<feature name='mpx' removed='yes'/></model></cpus>"

static void
test_reader_child_before_parent(void **state)
{
	const struct xfile files[] = {
		{ "x86_Child.xml", "<cpus><model name='Child'>"
		    "<decode host='on' guest='off'/><model name='Parent'/>"
		    "<feature name='vmx-ept' added='yes'/></model></cpus>" },
		{ "x86_Parent.xml", PARENT_XML },
	};
	kv_err err = {0};
	cpudb *db = build(files, 2, &err);
	const cpudb_model *c;

	assert_non_null(db);
	assert_int_equal(db->nmodels, 2);
	c = find(db, "Child");
	assert_string_equal(c->vendor, "Intel");
	assert_int_equal(c->nfeatures, 3);
	assert_string_equal(c->features[0], "fpu");
	assert_string_equal(c->features[1], "sse");
	assert_string_equal(c->features[2], "vmx-ept");	/* added='yes' */
	assert_int_equal(c->nfeatures_novmx, 2);
	assert_well_formed(db);
	cpudb_free(db);
}

static void
test_reader_vendor_override(void **state)
{
	const struct xfile files[] = {
		{ "x86_Parent.xml", PARENT_XML },
		{ "x86_Clone.xml", "<cpus><model name='Clone'>"
		    "<model name='Parent'/><vendor name='AMD'/></model>"
		    "</cpus>" },
	};
	kv_err err = {0};
	cpudb *db = build(files, 2, &err);

	assert_non_null(db);
	assert_string_equal(find(db, "Clone")->vendor, "AMD");
	assert_string_equal(find(db, "Parent")->vendor, "Intel");
	cpudb_free(db);
}

static void
test_reader_removed(void **state)
{
	const struct xfile files[] = {
		{ "x86_Parent.xml", PARENT_XML },
		{ "x86_Slim.xml", "<cpus><model name='Slim'>"
		    "<model name='Parent'/><feature name='sse' removed='yes'/>"
		    "<feature name='sse2' removed='no'/></model></cpus>" },
	};
	kv_err err = {0};
	cpudb *db = build(files, 2, &err);
	const cpudb_model *p, *s;

	assert_non_null(db);
	p = find(db, "Parent");
	assert_false(has(p, "mpx"));
	assert_int_equal(p->nfeatures, 2);
	s = find(db, "Slim");	/* removes an inherited feature */
	assert_false(has(s, "sse"));
	assert_true(has(s, "sse2"));
	assert_true(has(s, "fpu"));
	assert_int_equal(s->nfeatures, 2);
	cpudb_free(db);
}

static void
test_reader_unknown_parent(void **state)
{
	const struct xfile files[] = {
		{ "cpu_map/x86_Orphan.xml", "<cpus><model name='Orphan'>"
		    "<model name='Nowhere'/></model></cpus>" },
	};

	assert_finish_fails(files, 1, "cpu_map/x86_Orphan.xml: model "
	    "'Orphan': parent model 'Nowhere' is not defined");
}

static void
test_reader_cycle(void **state)
{
	const struct xfile two[] = {
		{ "x86_A.xml", "<cpus><model name='A'><model name='B'/>"
		    "</model></cpus>" },
		{ "x86_B.xml", "<cpus><model name='B'><model name='A'/>"
		    "<feature name='fpu'/></model></cpus>" },
	};
	const struct xfile self[] = {
		{ "x86_S.xml", "<cpus><model name='S'><model name='S'/>"
		    "</model></cpus>" },
	};

	assert_finish_fails(two, 2, "inheritance cycle");
	assert_finish_fails(self, 1, "model 'S': inheritance cycle through "
	    "parent 'S'");
}

static void
test_reader_malformed(void **state)
{
	cpumap_builder *b = cpumap_builder_new();
	const char *bad = "<cpus><model name='X'></cpus>";
	kv_err err = {0};
	cpudb *db;

	assert_int_equal(cpumap_builder_add(b, "cpu_map/x86_X.xml", bad,
	    strlen(bad), &err), KV_ERR);
	assert_true(kv_startswith(err.msg, "cpu_map/x86_X.xml: malformed XML"));
	assert_null(strchr(err.msg, '\n'));
	/* the failed add left the builder usable and unchanged */
	kv_clearerr(&err);
	assert_int_equal(cpumap_builder_add(b, "x86_Parent.xml", PARENT_XML,
	    strlen(PARENT_XML), &err), KV_OK);
	assert_int_equal(cpumap_finish(b, &db, &err), KV_OK);
	assert_int_equal(db->nmodels, 1);
	cpudb_free(db);

	assert_add_fails("", "malformed XML");
	assert_add_fails("<cpus><model name='X'/></cpus><extra/>",
	    "malformed XML");
}

/* A snapshot's map may hold models kvscope has never heard of; the built-in
 * corrections still apply by name and flow to children. */
static void
test_reader_snapshot_new_model(void **state)
{
	const struct xfile files[] = {
		{ "cpu_map/index.xml", "<cpus><arch name='x86'>"
		    "<include filename='x86_vendors.xml'/></arch></cpus>" },
		{ "cpu_map/x86_vendors.xml", "<cpus><vendor name='Intel' "
		    "string='GenuineIntel'/></cpus>" },
		{ "cpu_map/x86_features.xml", "<cpus><feature name='fpu'>"
		    "<cpuid eax_in='0x01' edx='0x00000001'/></feature>"
		    "</cpus>" },
		{ "cpu_map/x86_FutureLake.xml", "<cpus>"
		    "<model name='FutureLake'>"
		    "<model name='Haswell'/><feature name='avx512f'/>"
		    "<feature name='avx512bw'/><feature name='avx512cd'/>"
		    "<feature name='avx512dq'/><feature name='avx512vl'/>"
		    "</model></cpus>" },
		{ "cpu_map/x86_Haswell.xml", "<cpus><model name='Haswell'>"
		    "<vendor name='Intel'/>"
		    "<feature name='cmov'/><feature name='cx8'/>"
		    "<feature name='fpu'/><feature name='fxsr'/>"
		    "<feature name='mmx'/><feature name='syscall'/>"
		    "<feature name='sse'/><feature name='sse2'/>"
		    "<feature name='lm'/><feature name='cx16'/>"
		    "<feature name='lahf_lm'/><feature name='popcnt'/>"
		    "<feature name='pni'/><feature name='sse4.1'/>"
		    "<feature name='sse4.2'/><feature name='ssse3'/>"
		    "<feature name='avx'/><feature name='avx2'/>"
		    "<feature name='bmi1'/><feature name='bmi2'/>"
		    "<feature name='fma'/><feature name='movbe'/>"
		    "<feature name='xsave'/><feature name='abm'/>"
		    "</model></cpus>" },
	};
	kv_err err = {0};
	cpudb *db = build(files, 5, &err);
	const cpudb_model *h, *f;

	assert_non_null(db);
	assert_int_equal(db->nmodels, 2);
	assert_null(cpudb_find(cpudb_builtin(), "FutureLake"));
	h = find(db, "Haswell");	/* libvirt-style: no f16c */
	assert_true(has(h, "f16c"));
	assert_int_equal(h->level, 3);
	assert_int_equal(h->nfeatures, 25);	/* + f16c, abm not twice */
	f = find(db, "FutureLake");
	assert_int_equal(f->level, 4);
	assert_true(f->avx512f);
	assert_string_equal(f->vendor, "Intel");
	assert_well_formed(db);
	cpudb_free(db);
}

static void
test_reader_bad_elements(void **state)
{
	assert_add_fails("<cpus><model><feature name='fpu'/></model></cpus>",
	    "<model> without name");
	assert_add_fails("<cpus><model name=''/></cpus>",
	    "<model> name is empty");
	assert_add_fails("<cpus><model name='a&#9;b'/></cpus>",
	    "<model> name contains a control character");
	assert_add_fails("<cpus><model name='M'><feature/></model></cpus>",
	    "model 'M': <feature> without name");
	assert_add_fails("<cpus><model name='M'><vendor/></model></cpus>",
	    "model 'M': <vendor> without name");
	assert_add_fails("<cpus><model name='M'><model/></model></cpus>",
	    "model 'M': <model> without name");
	assert_add_fails("<cpus><model name='M'><model name='A'/>"
	    "<model name='B'/></model></cpus>", "more than one parent");
	assert_add_fails("<cpus><model name='M'><vendor name='A'/>"
	    "<vendor name='B'/></model></cpus>", "more than one <vendor>");
	assert_add_fails("<cpus><model name='M'><feature name='f' "
	    "removed='maybe'/></model></cpus>",
	    "feature 'f': removed= must be 'yes' or 'no'");
	assert_add_fails("<cpuset><model name='M'/></cpuset>",
	    "root element is not <cpus>");
	assert_add_fails("<!DOCTYPE cpus [<!ENTITY e 'x'>]>"
	    "<cpus><model name='&e;'/></cpus>", "<!DOCTYPE> is not allowed");
}

static void
test_reader_duplicate(void **state)
{
	const struct xfile files[] = {
		{ "x86_P1.xml", PARENT_XML },
		{ "x86_P2.xml", PARENT_XML },
	};

	assert_finish_fails(files, 2, "x86_P2.xml: model 'Parent' is "
	    "already defined in x86_P1.xml");
}

/* <cpus><model name='NNN...'/></cpus> with a name of len bytes. */
static char *
model_named(size_t len)
{
	char *name = xmalloc(len + 1);
	char *xml;

	memset(name, 'N', len);
	name[len] = '\0';
	xml = xasprintf("<cpus><model name='%s'/></cpus>", name);
	free(name);
	return xml;
}

static void
test_reader_limits_names(void **state)
{
	char *ok = model_named(CPUMAP_MAX_NAME);
	char *big = model_named(CPUMAP_MAX_NAME + 1);
	const struct xfile files[] = { { "x86_N.xml", ok } };
	kv_err err = {0};
	cpudb *db = build(files, 1, &err);
	char label[600];

	assert_non_null(db);
	assert_int_equal(strlen(db->models[0].name), CPUMAP_MAX_NAME);
	cpudb_free(db);
	assert_add_fails(big, "<model> name is too long");

	/* a hostile file name is printed tamed: no control characters, cut */
	memset(label, 'L', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	label[3] = '\033';
	kv_clearerr(&err);
	{
		cpumap_builder *b = cpumap_builder_new();

		assert_int_equal(cpumap_builder_add(b, label, "<x", 2, &err),
		    KV_ERR);
		cpumap_builder_free(b);
	}
	assert_non_null(strstr(err.msg, "LLL?LLL"));
	assert_null(strchr(err.msg, '\033'));
	assert_non_null(strstr(err.msg, "...: malformed XML"));
	free(ok);
	free(big);
}

static void
test_reader_limits_size(void **state)
{
	cpumap_builder *b = cpumap_builder_new();
	size_t len = CPUMAP_MAX_FILE + 1;
	char *buf = xmalloc(len);
	kv_err err = {0};

	memset(buf, ' ', len);
	assert_int_equal(cpumap_builder_add(b, "x86_Huge.xml", buf, len, &err),
	    KV_ERR);
	assert_non_null(strstr(err.msg, "x86_Huge.xml: larger than"));
	cpumap_builder_free(b);
	free(buf);
}

static void
test_reader_limits_counts(void **state)
{
	kv_buf xml = {0};

	/* too many features in one model */
	kv_buf_printf(&xml, "<cpus><model name='Fat'>");
	for (int i = 0; i <= CPUMAP_MAX_FEATURES; i++)
		kv_buf_printf(&xml, "<feature name='f%d'/>", i);
	kv_buf_printf(&xml, "</model></cpus>");
	assert_add_fails(xml.data, "model 'Fat': more than 1024 features");
	kv_buf_free(&xml);

	/* too many models */
	kv_buf_printf(&xml, "<cpus>");
	for (int i = 0; i <= CPUMAP_MAX_MODELS; i++)
		kv_buf_printf(&xml, "<model name='m%d'/>", i);
	kv_buf_printf(&xml, "</cpus>");
	assert_add_fails(xml.data, "more than 4096 CPU models");
	kv_buf_free(&xml);
}

/* A file with a chain of models, n below the root; the names order the
 * chain root first (expanded bottom-up) or leaf first (expanded top-down,
 * deep recursion). */
static char *
chain(int n, bool leaf_first)
{
	kv_buf xml = {0};

	kv_buf_printf(&xml, "<cpus><model name='c%03d'><feature name='fpu'/>"
	    "</model>", leaf_first ? n : 0);
	for (int i = 1; i <= n; i++) {
		int me = leaf_first ? n - i : i;
		int up = leaf_first ? n - i + 1 : i - 1;

		kv_buf_printf(&xml, "<model name='c%03d'><model name='c%03d'/>"
		    "</model>", me, up);
	}
	kv_buf_printf(&xml, "</cpus>");
	return xml.data;
}

static void
test_reader_limits_depth(void **state)
{
	for (int leaf_first = 0; leaf_first <= 1; leaf_first++) {
		char *ok = chain(CPUMAP_MAX_DEPTH, leaf_first);
		char *deep = chain(CPUMAP_MAX_DEPTH + 1, leaf_first);
		struct xfile files[] = { { "x86_Chain.xml", ok } };
		kv_err err = {0};
		cpudb *db = build(files, 1, &err);

		assert_non_null(db);
		assert_true(has(&db->models[leaf_first ? 0 :
		    CPUMAP_MAX_DEPTH], "fpu"));
		cpudb_free(db);
		files[0].xml = deep;
		assert_finish_fails(files, 1, "inheritance chain longer "
		    "than 64 models");
		free(ok);
		free(deep);
	}
}

/* ---- the built-in table equals the run-time reading of its source -------- */

static void
add_dir(cpumap_builder *b, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	kv_err err = {0};

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char *path, *buf;
		size_t len;

		if (!kv_startswith(de->d_name, "x86_") &&
		    strcmp(de->d_name, "index.xml") != 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		buf = kvtest_read_file(path, &len);
		assert_non_null(buf);
		if (cpumap_builder_add(b, de->d_name, buf, len, &err) != KV_OK)
			fail_msg("%s", err.msg);
		free(buf);
		free(path);
	}
	closedir(d);
}

static void
test_builtin_matches_source(void **state)
{
	const char *shared = getenv("SHARED");
	const cpudb *bi = cpudb_builtin();
	char *dir;
	cpumap_builder *b;
	kv_err err = {0};
	cpudb *db;

	if (shared == NULL)
		skip();
	dir = xasprintf("%s/data/libvirt-cpu_map", shared);
	if (access(dir, R_OK) != 0) {
		free(dir);
		skip();
	}
	b = cpumap_builder_new();
	add_dir(b, dir);
	assert_int_equal(cpumap_finish(b, &db, &err), KV_OK);
	assert_int_equal(db->nmodels, bi->nmodels);
	for (size_t i = 0; i < db->nmodels; i++) {
		const cpudb_model *m = &db->models[i], *n = &bi->models[i];

		assert_string_equal(m->name, n->name);
		assert_int_equal(m->level, n->level);
		assert_int_equal(m->avx2, n->avx2);
		assert_int_equal(m->avx512f, n->avx512f);
		assert_int_equal(m->nfeatures, n->nfeatures);
		assert_int_equal(m->nfeatures_novmx, n->nfeatures_novmx);
		for (size_t j = 0; j < m->nfeatures; j++)
			assert_string_equal(m->features[j], n->features[j]);
		assert_true((m->vendor == NULL && n->vendor == NULL) ||
		    strcmp(m->vendor, n->vendor) == 0);
	}
	cpudb_free(db);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_count),
		cmocka_unit_test(test_builtin_haswell_corrected),
		cmocka_unit_test(test_builtin_haswell_v4_inherits),
		cmocka_unit_test(test_builtin_levels),
		cmocka_unit_test(test_builtin_unknown),
		cmocka_unit_test(test_level_function),
		cmocka_unit_test(test_reader_child_before_parent),
		cmocka_unit_test(test_reader_vendor_override),
		cmocka_unit_test(test_reader_removed),
		cmocka_unit_test(test_reader_unknown_parent),
		cmocka_unit_test(test_reader_cycle),
		cmocka_unit_test(test_reader_malformed),
		cmocka_unit_test(test_reader_snapshot_new_model),
		cmocka_unit_test(test_reader_bad_elements),
		cmocka_unit_test(test_reader_duplicate),
		cmocka_unit_test(test_reader_limits_names),
		cmocka_unit_test(test_reader_limits_size),
		cmocka_unit_test(test_reader_limits_counts),
		cmocka_unit_test(test_reader_limits_depth),
		cmocka_unit_test(test_builtin_matches_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
