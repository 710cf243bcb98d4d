/*
 * test_snapshot.c - the snapshot container reader (snapshot.c), on
 * archives and directories built in a fresh directory per test (kvsnap.h):
 * good snapshots in every container, then every hostile header and every
 * manifest problem, each giving KV_ERR and one line that names the
 * snapshot and, where there is one, the member.
 */
#include "kvsnap.h"

#include "analyze/read/input.h"
#include "analyze/read/snapshot.h"

/* --- a sink that records what the reader hands it -------------------------- */

struct rec {
	kv_buf log;		/* "path=len;" per member ended */
	const char *fail_end;	/* end() fails for this member */
	const char *fail_data;	/* data() fails for this member */
	size_t nbegin, nend, nabort;
};

struct rstate {
	struct rec *r;
	char *path;
	size_t len;
};

static void *
rec_begin(void *arg, const char *path, uint64_t size, kv_err *err)
{
	struct rstate *st = xcalloc(1, sizeof(*st));

	st->r = arg;
	st->path = xstrdup(path);
	st->r->nbegin++;
	return st;
}

static int
rec_data(void *state, const char *buf, size_t len, kv_err *err)
{
	struct rstate *st = state;

	if (st->r->fail_data && strcmp(st->path, st->r->fail_data) == 0)
		return kv_seterr(err, "%s: the sink refused data", st->path);
	st->len += len;
	return KV_OK;
}

/* Like load.c's sink: end() consumes the state whatever it returns. */
static int
rec_end(void *state, kv_err *err)
{
	struct rstate *st = state;
	int rc = KV_OK;

	st->r->nend++;
	kv_buf_printf(&st->r->log, "%s=%zu;", st->path, st->len);
	if (st->r->fail_end && strcmp(st->path, st->r->fail_end) == 0)
		rc = kv_seterr(err, "%s: ends in the middle of a JSON value "
		    "(truncated?)", st->path);
	free(st->path);
	free(st);
	return rc;
}

static void
rec_abort(void *state)
{
	struct rstate *st = state;

	st->r->nabort++;
	free(st->path);
	free(st);
}

/* --- per-test fixture ---------------------------------------------------- */

struct fx {
	char *dir;		/* fresh scratch directory */
	kvsnap s;
	kv_limits lim;
	struct rec rec;
	snap_manifest m;
	kv_err err;
	char *path;		/* the snapshot written */
};

static int
setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	kv_err err = {0};

	f->dir = kvtest_tmpdir();
	kvsnap_init(&f->s);
	if (kv_limits_init(&f->lim, &err) != KV_OK)
		kv_fatal("%s", err.msg);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	kvsnap_rmtree(f->dir);
	free(f->dir);
	free(f->path);
	kvsnap_clear(&f->s);
	kv_buf_free(&f->rec.log);
	snap_manifest_free(&f->m);
	free(f);
	return 0;
}

static int
run(struct fx *f)
{
	snap_sink sink = { rec_begin, rec_data, rec_end, rec_abort, &f->rec };

	snap_manifest_free(&f->m);
	kv_clearerr(&f->err);
	kv_buf_free(&f->rec.log);
	f->rec.nbegin = f->rec.nend = f->rec.nabort = 0;
	return kv_input_read(f->path, &f->lim, &sink, &f->m, &f->err);
}

static void
use_tar(struct fx *f, const char *name)
{
	free(f->path);
	f->path = kvsnap_write_tar(&f->s, f->dir, name);
}

static void
use_dir(struct fx *f)
{
	free(f->path);
	f->path = kvsnap_write_dir(&f->s, f->dir);
}

/* The read fails with one line "<snapshot>: ..." containing every want
 * (a NULL-terminated list), and no member is left half-consumed. */
static void
expect_fail(struct fx *f, ...)
{
	va_list ap;
	const char *want;
	size_t plen = strlen(f->path);

	if (run(f) != KV_ERR)
		fail_msg("%s: read succeeded (%s)", f->path,
		    f->rec.log.data ? f->rec.log.data : "");
	assert_true(f->err.set);
	if (strchr(f->err.msg, '\n') != NULL || strchr(f->err.msg, '\r'))
		fail_msg("error is not one line: %s", f->err.msg);
	if (strncmp(f->err.msg, f->path, plen) != 0 ||
	    strncmp(f->err.msg + plen, ": ", 2) != 0)
		fail_msg("error does not start with the snapshot path: %s",
		    f->err.msg);
	va_start(ap, f);
	while ((want = va_arg(ap, const char *)) != NULL)
		if (strstr(f->err.msg, want) == NULL) {
			va_end(ap);
			fail_msg("error \"%s\" lacks \"%s\"", f->err.msg, want);
		}
	va_end(ap);
	assert_int_equal(f->rec.nbegin, f->rec.nend + f->rec.nabort);
}

static void
expect_ok(struct fx *f)
{
	if (run(f) != KV_OK)
		fail_msg("%s: %s", f->path, f->err.msg);
	assert_false(f->err.set);
	assert_int_equal(f->rec.nbegin, f->rec.nend);
	assert_int_equal(f->rec.nabort, 0);
}

static void
add_good(kvsnap *s)
{
	kvsnap_member_add(s, "resources/nodes.json",
	    "{\"kind\":\"List\",\"items\":[]}");
	kvsnap_member_add(s, "resources/pods.json", "{\"metadata\":{}}\n");
	kvsnap_member_add(s, "nodes/n1/domcapabilities.xml",
	    "<domainCapabilities/>");
}

/* --- good snapshots -------------------------------------------------------- */

static void
test_good_tar_gz(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	use_tar(f, "good.tar.gz");
	expect_ok(f);
	assert_string_equal(f->rec.log.data, "resources/nodes.json=26;"
	    "resources/pods.json=16;nodes/n1/domcapabilities.xml=21;");
	assert_int_equal(f->m.format_version, 1);
	assert_string_equal(f->m.context, "test");
	assert_string_equal(f->m.flavor, "kubevirt");
	assert_string_equal(f->m.created_at, "2026-10-31T09:12:44Z");
	assert_int_equal(f->m.nresources, 2);
	assert_string_equal(f->m.resources[0].resource, "nodes");
	assert_string_equal(f->m.resources[0].group, "");
	assert_string_equal(f->m.resources[0].status, "ok");
}

static void
test_good_tar_and_dir(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->s.filter = ARCHIVE_FILTER_NONE;
	f->s.manifest_last = true;
	use_tar(f, "good.tar");
	expect_ok(f);
	assert_int_equal(f->rec.nend, 3);

	use_dir(f);
	expect_ok(f);
	/* directories are walked in name order */
	assert_string_equal(f->rec.log.data,
	    "nodes/n1/domcapabilities.xml=21;resources/nodes.json=26;"
	    "resources/pods.json=16;");
}

/* "./snap/x" and "snap//x" are the same member as "snap/x". */
static void
test_good_dot_slash(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	m = kvsnap_member_add(&f->s, "./snap/resources/nodes.json", "{}");
	m->raw = true;
	m->unlisted = true;
	f->s.manifest = "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
	    "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[{\"path\":"
	    "\"resources/nodes.json\",\"bytes\":2,\"sha256\":\"44136fa355b3"
	    "678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a\"}]}";
	use_tar(f, "dot.tar.gz");
	expect_ok(f);
	assert_string_equal(f->rec.log.data, "resources/nodes.json=2;");
}

/* --- hostile headers ------------------------------------------------------- */

static void
test_symlink_member(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_special(&f->s, "resources/vms.json", AE_IFLNK,
	    "/etc/passwd");
	use_tar(f, "symlink.tar.gz");
	expect_fail(f, "snap/resources/vms.json: symbolic link member",
	    "only regular files and directories", NULL);
}

static void
test_hardlink_member(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_hardlink(&f->s, "resources/vms.json",
	    "resources/nodes.json");
	use_tar(f, "hardlink.tar.gz");
	expect_fail(f, "snap/resources/vms.json: hard link member", NULL);
}

static void
test_device_member(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_special(&f->s, "dev/mem", AE_IFCHR, NULL);
	use_tar(f, "chr.tar.gz");
	expect_fail(f, "snap/dev/mem: device member", NULL);

	kvsnap_clear(&f->s);
	add_good(&f->s);
	kvsnap_member_special(&f->s, "dev/sda", AE_IFBLK, NULL);
	use_tar(f, "blk.tar.gz");
	expect_fail(f, "snap/dev/sda: device member", NULL);

	kvsnap_clear(&f->s);
	add_good(&f->s);
	kvsnap_member_special(&f->s, "fifo", AE_IFIFO, NULL);
	use_tar(f, "fifo.tar.gz");
	expect_fail(f, "snap/fifo: special member", NULL);
}

static void
test_dotdot_member(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "../../x", "pwned");
	m->raw = true;
	use_tar(f, "dotdot.tar.gz");
	expect_fail(f, "../../x: member path with a \"..\" component", NULL);

	kvsnap_clear(&f->s);
	add_good(&f->s);
	kvsnap_member_add(&f->s, "resources/../../../x", "pwned");
	use_tar(f, "dotdot2.tar.gz");
	expect_fail(f, "snap/resources/../../../x: member path with a \"..\" "
	    "component", NULL);

	kvsnap_clear(&f->s);
	add_good(&f->s);
	kvsnap_member_add(&f->s, "resources/./nodes.json", "{}");
	use_tar(f, "dot.tar.gz");
	expect_fail(f, "member path with a \".\" component", NULL);
}

static void
test_absolute_member(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "/etc/x", "pwned");
	m->raw = true;
	use_tar(f, "abs.tar.gz");
	expect_fail(f, "/etc/x: absolute member path", NULL);
}

static void
test_duplicate_member(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/nodes.json", "{}");
	m->unlisted = true;
	use_tar(f, "dup.tar.gz");
	expect_fail(f, "resources/nodes.json: duplicate member", NULL);

	/* the same member spelled differently is still the same member */
	kvsnap_clear(&f->s);
	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "snap//resources//nodes.json", "{}");
	m->raw = true;
	use_tar(f, "dup2.tar.gz");
	expect_fail(f, "resources/nodes.json: duplicate member", NULL);

	/* and the manifest too */
	kvsnap_clear(&f->s);
	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "manifest.json", "{}");
	m->unlisted = true;
	use_tar(f, "dup3.tar.gz");
	expect_fail(f, "manifest.json: duplicate member", NULL);
}

/* A header that declares 10 GB, followed by a few bytes and the end. */
static void
test_declared_10gb(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/big.json", "{\"items\":[");
	m->declared = (int64_t)10 << 30;
	f->s.filter = ARCHIVE_FILTER_NONE;
	f->s.cut = 64 * 1024;
	use_tar(f, "10gb.tar");
	expect_fail(f, "resources/big.json: member declares 10737418240 "
	    "bytes", "KVSCOPE_MAX_MEMBER_BYTES", NULL);

	/* under a raised limit the truncation is what is reported */
	f->lim.member_bytes = (uint64_t)16 << 30;
	expect_fail(f, "truncated or corrupt archive", NULL);
}

static void
test_truncated_member(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/vmis.json", "{\"items\":[");
	m->declared = 300000;
	f->s.filter = ARCHIVE_FILTER_NONE;
	f->s.cut = 40 * 1024;
	use_tar(f, "trunc.tar");
	expect_fail(f, "truncated or corrupt archive", NULL);
}

static void
test_name_not_utf8(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/\xff\xfe.json", "{}");
	m->unlisted = true;
	use_tar(f, "utf8.tar.gz");
	expect_fail(f, "\"snap/resources/??.json\": a member name is not "
	    "valid UTF-8", NULL);
	/* the raw bytes are not repeated in the message */
	assert_null(strchr(f->err.msg, '\xff'));

	/* overlong encoding of '/' */
	kvsnap_clear(&f->s);
	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/\xc0\xaf.json", "{}");
	m->unlisted = true;
	use_tar(f, "overlong.tar.gz");
	expect_fail(f, "member name is not valid UTF-8", NULL);
}

static void
test_name_control(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/a\033[2Jb.json", "{}");
	m->unlisted = true;
	use_tar(f, "ctl.tar.gz");
	expect_fail(f, "\"snap/resources/a?[2Jb.json\": member name with a "
	    "control character", NULL);
	assert_null(strchr(f->err.msg, '\033'));

	kvsnap_clear(&f->s);
	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/a\nb.json", "{}");
	m->unlisted = true;
	use_tar(f, "nl.tar.gz");
	expect_fail(f, "member name with a control character", NULL);
}

static void
test_outside_top(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "other/x.json", "{}");
	m->raw = true;
	use_tar(f, "two-tops.tar.gz");
	expect_fail(f, "other/x.json: member outside the top directory snap/",
	    NULL);

	kvsnap_clear(&f->s);
	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "loose.json", "{}");
	m->raw = true;
	f->s.manifest_last = true;
	use_tar(f, "loose.tar.gz");
	expect_fail(f, "loose.json: member outside the top directory", NULL);
}

/* A gzip stream cut at several points: never a crash, always one line. */
static void
test_gzip_truncated(void **state)
{
	struct fx *f = *state;
	char *noise = xmalloc(200000), *bytes, *name;
	size_t len;
	uint32_t x = 2463534242u;

	/* incompressible data, so a cut anywhere lands in the members */
	for (size_t i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		noise[i] = (char)('a' + x % 26);
	}
	add_good(&f->s);
	kvsnap_member_addn(&f->s, "libvirt/noise.bin", noise, 200000);
	free(noise);
	bytes = kvsnap_tar_bytes(&f->s, &len);
	for (int cut = 1; cut <= 9; cut++) {
		size_t n = cut == 9 ? len - 12 : len * (size_t)cut / 9;

		name = xasprintf("cut%d.tar.gz", cut);
		free(f->path);
		f->path = kvsnap_put(f->dir, name, bytes, n);
		free(name);
		expect_fail(f, NULL);
		if (strstr(f->err.msg, "truncated or corrupt archive") ==
		    NULL && strstr(f->err.msg, "cannot read") == NULL)
			fail_msg("cut %zu of %zu: %s", n, len, f->err.msg);
	}
	/* the whole stream is fine */
	free(f->path);
	f->path = kvsnap_put(f->dir, "whole.tar.gz", bytes, len);
	expect_ok(f);
	free(bytes);
}

static void
test_not_an_archive(void **state)
{
	struct fx *f = *state;

	f->path = kvsnap_put(f->dir, "junk.tar.gz", "hello, world\n", 13);
	expect_fail(f, NULL);
	free(f->path);
	f->path = kvsnap_put(f->dir, "empty.tar", "", 0);
	expect_fail(f, NULL);
	free(f->path);
	f->path = xasprintf("%s/does-not-exist.tar.gz", f->dir);
	expect_fail(f, "No such file or directory", NULL);
}

/* --- the manifest ---------------------------------------------------------- */

static void
test_no_manifest(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->s.no_manifest = true;
	use_tar(f, "nomanifest.tar.gz");
	expect_fail(f, "no manifest.json in the snapshot", NULL);
	use_dir(f);
	expect_fail(f, "no manifest.json in the snapshot", NULL);
}

/* Without manifest.json the input is foreign: its objects reach the sink
 * as the members of a virtual snapshot, recognised by kind whatever their
 * paths, each once, and the synthesized manifest says what was read. */
static void
test_foreign_input(void **state)
{
	static const char node[] = "apiVersion: v1\nkind: Node\nmetadata:\n"
	    "  name: n1\n  uid: u-n1\n";
	struct fx *f = *state;
	const snap_resource *nodes = NULL, *pods = NULL, *vmis = NULL;

	kvsnap_member_add(&f->s,
	    "mg/cluster-scoped-resources/core/nodes/n1.yaml", node);
	kvsnap_member_add(&f->s, "mg/namespaces/ns/core/pods.yaml",
	    "apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n"
	    "    name: p\n    namespace: ns\n    uid: u-p\n");
	kvsnap_member_add(&f->s, "mg/namespaces/ns/apps/all.yaml", "---\n"
	    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
	    "---\n" "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"
	    "  uid: u-n1\n");
	kvsnap_member_add(&f->s, "mg/namespaces/ns/pods/p/logs/current.log",
	    "x");
	f->s.no_manifest = true;
	use_tar(f, "mg.tar.gz");
	expect_ok(f);
	assert_int_equal(f->m.input, SNAP_INPUT_MUST_GATHER);
	assert_false(f->m.integrity_checked);
	assert_int_equal(f->m.nforeign_dups, 1);
	assert_non_null(strstr(f->rec.log.data, "resources/nodes.json="));
	assert_non_null(strstr(f->rec.log.data, "resources/pods.json="));
	assert_null(strstr(f->rec.log.data, "apps"));
	for (size_t i = 0; i < f->m.nresources; i++) {
		const snap_resource *r = &f->m.resources[i];

		if (strcmp(r->resource, "nodes") == 0)
			nodes = r;
		if (strcmp(r->resource, "pods") == 0)
			pods = r;
		if (strcmp(r->resource, "virtualmachineinstances") == 0 &&
		    strcmp(r->group, "kubevirt.io") == 0)
			vmis = r;
	}
	assert_non_null(nodes);
	assert_non_null(pods);
	assert_non_null(vmis);
	assert_string_equal(nodes->status, "ok");
	assert_int_equal(nodes->count, 1);
	assert_int_equal(pods->count, 1);
	assert_string_equal(vmis->status, "missing");
	assert_int_equal(f->m.nnotes, 2);
	assert_non_null(strstr(f->m.notes[0], "input: a must-gather, not a "
	    "kvscope snapshot; no manifest, so no integrity check"));
	/* no timestamp file, no creationTimestamp */
	assert_int_equal(f->m.time_source, SNAP_TIME_UNKNOWN);
	assert_string_equal(f->m.notes[1], "capture time unknown (no object "
	    "has a creation time)");
	/* plain files: the same objects in a flat directory */
	kvsnap_clear(&f->s);
	kvsnap_member_add(&f->s, "nodes.yaml", node);
	f->s.no_manifest = true;
	use_dir(f);
	expect_ok(f);
	assert_int_equal(f->m.input, SNAP_INPUT_PLAIN);
	/* and a kvscope snapshot is checked */
	kvsnap_clear(&f->s);
	f->s.no_manifest = false;
	add_good(&f->s);
	use_tar(f, "good.tar.gz");
	expect_ok(f);
	assert_int_equal(f->m.input, SNAP_INPUT_SNAPSHOT);
	assert_true(f->m.integrity_checked);
}

static void
test_format_version_2(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->s.format_version = 2;
	use_tar(f, "v2.tar.gz");
	expect_fail(f, "manifest.json: formatVersion 2 is not supported",
	    "reads version 1", NULL);
}

static void
test_manifest_bad(void **state)
{
	static const struct {
		const char *json, *want;
	} cases[] = {
		{ "not json", "manifest.json: not valid JSON" },
		{ "[]", "manifest.json: expected an object" },
		{ "{\"kind\":\"Pod\"}", "manifest.json: kind: expected" },
		{ "{\"kind\":\"kvscope-snapshot\"}",
		  "manifest.json: formatVersion: expected a whole number" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":\"1\"}",
		  "formatVersion: expected a whole number" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1}",
		  "manifest.json: createdAt: missing" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"yesterday\"}",
		  "createdAt: expected an RFC 3339 time" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\"}",
		  "manifest.json: files: missing" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":{}}",
		  "manifest.json: files: expected a list" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[7]}",
		  "manifest.json: files[0]: expected an object" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[{\"path\":"
		  "\"a\",\"sha256\":\"00\",\"bytes\":-1}]}",
		  "manifest.json: files[0].bytes: expected a whole number" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[{\"path\":"
		  "7}]}", "manifest.json: files[0].path: expected a string" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[],"
		  "\"cluster\":{\"flavor\":7}}",
		  "manifest.json: cluster.flavor: expected a string" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[],"
		  "\"resources\":[{\"resource\":\"nodes\"}]}",
		  "manifest.json: resources[0].status: missing" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[],"
		  "\"options\":{\"namespaces\":\"web\"}}",
		  "manifest.json: options.namespaces: expected a list" },
		{ "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
		  "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[],"
		  "\"options\":{\"namespaces\":[\"web\",7]}}",
		  "manifest.json: options.namespaces[1]: expected a name" },
		{ "{\"kind\":\"kvscope-snapshot\",\"kind\":\"x\"}",
		  "manifest.json: not valid JSON: duplicate object key" },
	};

	struct fx *f = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32];

		kvsnap_clear(&f->s);
		add_good(&f->s);
		f->s.manifest = cases[i].json;
		snprintf(name, sizeof(name), "m%zu.tar.gz", i);
		use_tar(f, name);
		expect_fail(f, cases[i].want, NULL);
	}
}

/* A UTF-8 byte order mark before the manifest's JSON is allowed; a second
 * one, or one elsewhere, is not JSON. */
static void
test_manifest_bom(void **state)
{
	struct fx *f = *state;

	f->s.manifest = "\xef\xbb\xbf{\"kind\":\"kvscope-snapshot\","
	    "\"formatVersion\":1,\"createdAt\":\"2026-10-31T09:12:44Z\","
	    "\"cluster\":{\"context\":\"bom\"},\"files\":[],"
	    "\"options\":{\"namespaces\":[\"a\",\"web\"]}}";
	use_tar(f, "bom.tar.gz");
	expect_ok(f);
	assert_string_equal(f->m.context, "bom");
	assert_int_equal(f->m.nnamespaces, 2);
	assert_string_equal(f->m.namespaces[1], "web");
	f->s.manifest = "\xef\xbb\xbf\xef\xbb\xbf{\"kind\":"
	    "\"kvscope-snapshot\"}";
	use_tar(f, "bom2.tar.gz");
	expect_fail(f, "manifest.json: not valid JSON", NULL);
	f->s.manifest = "{\xef\xbb\xbf\"kind\":\"kvscope-snapshot\"}";
	use_tar(f, "bom3.tar.gz");
	expect_fail(f, "manifest.json: not valid JSON", NULL);
}

/* One file's size and another's SHA-256 differ from the manifest, a third
 * is missing and a fourth is not listed: one line names all four. */
static void
test_manifest_lies(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	f->s.m[0].lie_bytes = 9999;
	f->s.m[1].lie_sha = "0000000000000000000000000000000000000000000000"
	    "000000000000000000";
	use_tar(f, "lies.tar.gz");
	expect_fail(f, "manifest.json: 2 files do not match: "
	    "resources/nodes.json (size differs), "
	    "resources/pods.json (sha256 differs)", NULL);

	m = kvsnap_member_add(&f->s, "resources/extra.json", "{}");
	m->unlisted = true;
	use_tar(f, "lies2.tar.gz");
	expect_fail(f, "manifest.json: 3 files do not match: ",
	    "resources/nodes.json (size differs)",
	    "resources/pods.json (sha256 differs)",
	    "resources/extra.json (not in the manifest)", NULL);

	/* the directory front end says the same */
	use_dir(f);
	expect_fail(f, "3 files do not match", NULL);
}

static void
test_manifest_missing_file(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->lim.strict = true;	/* without it: skipped (test_member_skipped) */
	f->s.manifest = "{\"kind\":\"kvscope-snapshot\",\"formatVersion\":1,"
	    "\"createdAt\":\"2026-10-31T09:12:44Z\",\"files\":[{\"path\":"
	    "\"resources/vmis.json\",\"bytes\":2,\"sha256\":\"00\"}]}";
	use_tar(f, "missing.tar.gz");
	expect_fail(f, "resources/vmis.json (missing)",
	    "resources/nodes.json (not in the manifest)", NULL);
}

static void
test_member_not_in_manifest(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "nodes/n2/capabilities.xml",
	    "<capabilities/>");
	m->unlisted = true;
	use_tar(f, "unlisted.tar.gz");
	expect_fail(f, "manifest.json: 1 file does not match: "
	    "nodes/n2/capabilities.xml (not in the manifest)", NULL);
}

/* The sink rejects a member that the manifest says was damaged: the damage
 * is the cause and is what the message names. */
static void
test_damage_named_before_parse_error(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->s.m[0].lie_sha = "1111111111111111111111111111111111111111111111"
	    "111111111111111111";
	f->rec.fail_end = "resources/nodes.json";
	use_tar(f, "damaged.tar.gz");
	expect_fail(f, "resources/nodes.json: does not match the manifest "
	    "(sha256 differs); the snapshot was damaged or edited", NULL);
}

/* The sink's end() fails: its message comes back, prefixed with the
 * snapshot, and the state end() consumed is not touched again. */
static void
test_sink_end_fails(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->rec.fail_end = "resources/nodes.json";
	use_tar(f, "endfail.tar.gz");
	expect_fail(f, "resources/nodes.json: ends in the middle of a JSON "
	    "value", NULL);
	assert_int_equal(f->rec.nabort, 0);

	use_dir(f);
	expect_fail(f, "resources/nodes.json: ends in the middle", NULL);
}

static void
test_sink_data_fails(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->rec.fail_data = "resources/pods.json";
	use_tar(f, "datafail.tar.gz");
	expect_fail(f, "resources/pods.json: the sink refused data", NULL);
	assert_int_equal(f->rec.nabort, 1);
}

/* The manifest's entry of resource (core group), or NULL. */
static const snap_resource *
resource_of(const snap_manifest *m, const char *resource)
{
	for (size_t i = 0; i < m->nresources; i++)
		if (strcmp(m->resources[i].resource, resource) == 0)
			return &m->resources[i];
	return NULL;
}

/* Issue 41: without --strict a member the manifest lists that is
 * missing is skipped: its resource counts as partial, the message names
 * the file; --strict refuses.  A member the loader cannot parse is still
 * refused (its objects may be half loaded: test_sink_end_fails), and so
 * is a damaged one (test_manifest_lies). */
static void
test_member_skipped(void **state)
{
	struct fx *f = *state;
	const snap_resource *r;
	char *miss;

	kvsnap_addj(&f->s, "nodes", "", "{\"metadata\":{\"name\":\"n1\"}}");
	kvsnap_addj(&f->s, "pods", "", "{\"metadata\":{\"name\":\"p\"}}");
	use_dir(f);
	miss = g_build_filename(f->path, "resources", "pods.json", NULL);
	assert_int_equal(unlink(miss), 0);
	g_free(miss);
	expect_ok(f);
	assert_non_null(r = resource_of(&f->m, "pods"));
	assert_string_equal(r->status, "partial");
	assert_string_equal(r->message, "partial: resources/pods.json "
	    "skipped: listed in the manifest, missing from the snapshot");
	assert_string_equal(resource_of(&f->m, "nodes")->status, "ok");
	f->lim.strict = true;
	expect_fail(f, "manifest.json: 1 file does not match: "
	    "resources/pods.json (missing)", NULL);
}

/* --- limits ---------------------------------------------------------------- */

static void
test_limit_members(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->lim.members = 3;
	use_tar(f, "members.tar.gz");
	expect_fail(f, "more than 3 members (KVSCOPE_MAX_MEMBERS)", NULL);
	f->lim.members = 4;
	expect_ok(f);
}

/* Directories count as members too: a stream of empty headers (or a tree
 * of empty directories) is bounded like files are. */
static void
test_limit_members_dirs(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	for (int i = 0; i < 30; i++) {
		char name[32];

		snprintf(name, sizeof(name), "d/%02d", i);
		kvsnap_member_special(&f->s, name, AE_IFDIR, NULL);
	}
	f->lim.members = 20;
	use_tar(f, "dirs.tar.gz");
	expect_fail(f, "more than 20 members (KVSCOPE_MAX_MEMBERS)", NULL);
	use_dir(f);
	expect_fail(f, "more than 20 members (KVSCOPE_MAX_MEMBERS)", NULL);
	f->lim.members = 40;
	expect_ok(f);
}

/* Headers count towards the compression ratio, not only data: 30,000
 * directory entries are 15 MiB of tar and little gzip. */
static void
test_limit_ratio_headers(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	for (int i = 0; i < 30000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "d/%05d", i);
		kvsnap_member_special(&f->s, name, AE_IFDIR, NULL);
	}
	use_tar(f, "headers.tar.gz");
	f->lim.ratio = 20;
	expect_fail(f, "compression ratio above 20:1 (KVSCOPE_MAX_RATIO)",
	    NULL);
	f->lim.ratio = 100000;
	expect_ok(f);
}

static void
test_limit_member_bytes(void **state)
{
	struct fx *f = *state;
	char big[2000];

	memset(big, 'x', sizeof(big));
	add_good(&f->s);
	kvsnap_member_addn(&f->s, "libvirt/big.bin", big, sizeof(big));
	f->s.manifest_last = true;
	f->lim.member_bytes = 1999;
	use_tar(f, "member.tar.gz");
	expect_fail(f, "libvirt/big.bin: member declares 2000 bytes, more "
	    "than the limit of 1999 (KVSCOPE_MAX_MEMBER_BYTES)", NULL);
	use_dir(f);
	expect_fail(f, "libvirt/big.bin: member declares 2000 bytes", NULL);
	f->lim.member_bytes = 2000;
	expect_ok(f);
}

static void
test_limit_total_bytes(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->lim.total_bytes = 60;
	use_tar(f, "total.tar.gz");
	expect_fail(f, "(KVSCOPE_MAX_TOTAL_BYTES)", NULL);
}

static void
test_limit_ratio(void **state)
{
	struct fx *f = *state;
	char *zeros = xcalloc(1, 4 << 20);

	add_good(&f->s);
	kvsnap_member_addn(&f->s, "libvirt/zeros.bin", zeros, 4 << 20);
	free(zeros);
	use_tar(f, "bomb.tar.gz");
	f->lim.ratio = 50;
	expect_fail(f, "compression ratio above 50:1 (KVSCOPE_MAX_RATIO)",
	    NULL);
	f->lim.ratio = 100000;
	expect_ok(f);
}

static void
test_limit_manifest_bytes(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	f->lim.manifest_bytes = 100;
	use_tar(f, "manifest.tar.gz");
	expect_fail(f, "manifest.json larger than 100 bytes "
	    "(KVSCOPE_MAX_MANIFEST_BYTES)", NULL);
}

/* --- the directory front end ------------------------------------------------ */

static void
test_dir_symlink(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_special(&f->s, "resources/vms.json", AE_IFLNK,
	    "/etc/passwd");
	use_dir(f);
	expect_fail(f, "resources/vms.json: symbolic link",
	    "only regular files and directories", NULL);

	/* a link to a directory is not followed either */
	kvsnap_clear(&f->s);
	add_good(&f->s);
	kvsnap_member_special(&f->s, "etc", AE_IFLNK, "/etc");
	kvsnap_rmtree(f->path);
	use_dir(f);
	expect_fail(f, "etc: symbolic link", NULL);
}

/* An empty directory is nothing to read, not an error. */
static void
test_dir_empty_subdir(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_special(&f->s, "libvirt/cpu_map", AE_IFDIR, NULL);
	use_dir(f);
	expect_ok(f);
	f->s.filter = ARCHIVE_FILTER_NONE;
	use_tar(f, "emptydir.tar");
	expect_ok(f);
}

static void
test_dir_fifo(void **state)
{
	struct fx *f = *state;

	add_good(&f->s);
	kvsnap_member_special(&f->s, "resources/vmis.json", AE_IFIFO, NULL);
	use_dir(f);
	expect_fail(f, "resources/vmis.json: special file", NULL);
}

static void
test_dir_name_not_utf8(void **state)
{
	struct fx *f = *state;
	kvsnap_member *m;

	add_good(&f->s);
	m = kvsnap_member_add(&f->s, "resources/\xff.json", "{}");
	m->unlisted = true;
	use_dir(f);
	expect_fail(f, "member name is not valid UTF-8", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_good_tar_gz),
		T(test_good_tar_and_dir),
		T(test_good_dot_slash),
		T(test_symlink_member),
		T(test_hardlink_member),
		T(test_device_member),
		T(test_dotdot_member),
		T(test_absolute_member),
		T(test_duplicate_member),
		T(test_declared_10gb),
		T(test_truncated_member),
		T(test_name_not_utf8),
		T(test_name_control),
		T(test_outside_top),
		T(test_gzip_truncated),
		T(test_not_an_archive),
		T(test_no_manifest),
		T(test_format_version_2),
		T(test_manifest_bad),
		T(test_manifest_bom),
		T(test_foreign_input),
		T(test_manifest_lies),
		T(test_manifest_missing_file),
		T(test_member_skipped),
		T(test_member_not_in_manifest),
		T(test_damage_named_before_parse_error),
		T(test_sink_end_fails),
		T(test_sink_data_fails),
		T(test_limit_members),
		T(test_limit_members_dirs),
		T(test_limit_ratio_headers),
		T(test_limit_member_bytes),
		T(test_limit_total_bytes),
		T(test_limit_ratio),
		T(test_limit_manifest_bytes),
		T(test_dir_symlink),
		T(test_dir_empty_subdir),
		T(test_dir_fifo),
		T(test_dir_name_not_utf8),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
