/*
 * kvsnap.h - snapshots built at test time, for every unit test.
 *
 * One builder, two levels, one writer:
 *
 * - Members (test_snapshot.c, test_load.c): kvsnap_member_add*() and
 *   friends append raw members - any path, any bytes, and the hostile
 *   headers a reader must refuse (links, devices, FIFOs, "../" or absolute
 *   paths, declared sizes the data does not have, names that are not
 *   UTF-8, manifest lies).
 * - Resources (test_cpu.c, test_drain.c, test_groups.c, test_rules_*.c): a
 *   cluster described as jansson objects grouped by resource
 *   (kvsnap_add/addj/list/find/...), edited in place with the kvj_* path
 *   helpers; kvsnap_raw() adds a plain member (libvirt/cpu_map/x86_*.xml).
 *   kvsnap_run() writes, loads, analyses and renders findings.json in one
 *   go (kvres), and removes the directory again.
 *
 * Both levels end in the same member list: at write time every resource
 * whose status is "ok" becomes the member resources/<plural>[.<group>].json
 * (a kubectl List), ahead of the raw members, and kvsnap_manifest_json()
 * computes manifest.json - resources[] and files[] with the size and
 * SHA-256 (GLib GChecksum) of every listed member - from that list alone.
 * The same list is written as a tar archive through libarchive's writer
 * (kvsnap_tar_bytes, kvsnap_write_tar) or as a directory (kvsnap_write_dir,
 * kvsnap_write), exactly as docs/snapshot-format.md lays it out.
 * Binary fixtures thus never live in the repository.
 *
 * A kvj path is dot-separated keys with optional [n] indexes
 * ("spec.volumes[0].name"); keys that contain dots (labels) go through
 * kvj_label()/kvj_key().
 *
 * Ownership: a kvsnap is either on the stack (kvsnap_init, released by
 * kvsnap_clear, which also empties it for reuse and keeps the writer
 * options) or on the heap (kvsnap_new, released by kvsnap_free).  The
 * snapshot owns its members, objects and lists; kvsnap_add*() steal the
 * object and return a borrowed pointer, kvsnap_member_*() return a member
 * borrowed until the next member is added; kvj_set() and kvj_push() steal
 * the value.  Paths returned by the writers, kvsnap_file() and
 * kvsnap_load_error() are owned by the caller.  Include after kvtest.h.
 *
 * This header declares; the bodies live in kvsnap.c, compiled once and
 * linked into every unit test binary by the Makefile.
 */
#ifndef KV_SNAP_TEST_H
#define KV_SNAP_TEST_H

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glib.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvtest.h"

#include "analyze/pipeline.h"
#include "analyze/rules/analysis.h"
#include "analyze/read/limits.h"
#include "analyze/model/model.h"
#include "render/render.h"

/* ---- JSON path helpers --------------------------------------------------- */

/* Parse JSON text or fail the test. */
json_t *kvj(const char *text);

json_t *kvj_at(json_t *o, const char *path);

/* The object at path, created (with its parents) when missing. */
json_t *kvj_obj(json_t *o, const char *path);

/* Set path to v (stolen); v == NULL deletes the key. */
void kvj_set(json_t *o, const char *path, json_t *v);

void kvj_sets(json_t *o, const char *path, const char *s);

/* Set path to parsed JSON text. */
void kvj_setj(json_t *o, const char *path, const char *text);

void kvj_del(json_t *o, const char *path);

void kvj_pushj(json_t *o, const char *path, const char *text);

/* obj[path][key] = value (a string); NULL deletes.  For keys with dots. */
void kvj_key(json_t *o, const char *path, const char *key, const char *value);

void kvj_label(json_t *o, const char *key, const char *value);

void kvj_annotate(json_t *o, const char *key, const char *value);

/* ---- the snapshot -------------------------------------------------------- */

typedef struct kvsnap_member {
	char *path;		/* below the top directory, unless raw */
	char *data;
	size_t len;
	int type;		/* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, ... */
	char *target;		/* link target (below the top directory for a
				 * hard link) */
	bool hardlink;
	int64_t declared;	/* size in the header; -1: len */
	bool raw;		/* path is the whole archive path */
	bool unlisted;		/* left out of the manifest's files[] */
	int64_t lie_bytes;	/* bytes in the manifest; -1: the truth */
	const char *lie_sha;	/* sha256 in the manifest; NULL: the truth */
} kvsnap_member;

typedef struct kvsnap {
	/* members */
	kvsnap_member *m;
	size_t n, cap;
	/* resources: file name -> array of objects, in order, and file
	 * name -> {resource, group, status, ...}; NULL until the first */
	json_t *lists;
	json_t *res;
	/* writer options */
	char flavor[16];	/* "kubevirt" | "deckhouse" */
	const char *created_at;
	const char *top;	/* top directory in an archive, "snap" */
	int format_version;	/* 1 */
	bool no_manifest;
	bool manifest_last;	/* write manifest.json after the members */
	const char *manifest;	/* these bytes instead of the generated ones */
	int filter;		/* ARCHIVE_FILTER_GZIP (default) or _NONE */
	size_t cut;		/* archive writers: keep only the first cut
				 * bytes of the output (0: all) */
} kvsnap;

void kvsnap_init(kvsnap *s);

/* Member helpers the writers share (kvsnap_write.c): free n members;
 * deep-copy one. */
void kvsnap_members_free(kvsnap_member *m, size_t n);
void kvsnap_member_copy(kvsnap_member *to, const kvsnap_member *from);

/* Drop every member and resource; the writer options stay. */
void kvsnap_clear(kvsnap *s);

kvsnap *kvsnap_new(const char *flavor);

void kvsnap_free(kvsnap *s);

/* A deep copy, to mutate without touching the original. */
kvsnap *kvsnap_copy(const kvsnap *s);

/* ---- members ------------------------------------------------------------- */

/* A regular member with len bytes of data. */
kvsnap_member *kvsnap_member_addn(kvsnap *s, const char *path,
    const void *data, size_t len);

kvsnap_member *kvsnap_member_add(kvsnap *s, const char *path, const char *text);

/* A member that is not a regular file: a directory, a symlink to target,
 * a device, a FIFO.  Never listed in the manifest. */
kvsnap_member *kvsnap_member_special(kvsnap *s, const char *path, int type,
    const char *target);

/* A hard link to target (a path below the top directory). */
kvsnap_member *kvsnap_member_hardlink(kvsnap *s, const char *path,
    const char *target);

/* A plain member (path below the top directory) with content; replaces
 * an earlier one at the same path. */
void kvsnap_raw(kvsnap *s, const char *path, const char *content);

/* ---- resources ----------------------------------------------------------- */

/* "resources/<resource>[.<group>].json" */
char *kvsnap_file(const char *resource, const char *group);

/* Manifest status of a resource: "ok" (the default once an object or
 * kvsnap_list() names it), "forbidden", "absent", "error".  Anything but
 * "ok" writes no file. */
void kvsnap_status(kvsnap *s, const char *resource, const char *group,
    const char *status);

/* The item array of a resource (created, status ok, when new). */
json_t *kvsnap_list(kvsnap *s, const char *resource, const char *group);

json_t *kvsnap_add(kvsnap *s, const char *resource, const char *group,
    json_t *o);

json_t *kvsnap_addj(kvsnap *s, const char *resource, const char *group,
    const char *text);

/* Like kvsnap_get, failing the test when absent. */
json_t *kvsnap_find(kvsnap *s, const char *resource, const char *group,
    const char *name);

/* Remove the object named name; true when there was one. */
bool kvsnap_remove(kvsnap *s, const char *resource, const char *group,
    const char *name);

/* A Node with the usual well-known labels, 64Gi allocatable; the caller
 * adds CPU labels (kvj_cpu_labels) and KubeVirt's schedulable label. */
json_t *kvsnap_node(kvsnap *s, const char *name);

/* What the node labeller writes for one node: space-separated names;
 * NULL or "" adds nothing. */
typedef struct kvcpu {
	const char *vendor, *host_model;
	const char *features;		/* cpu-feature */
	const char *required;		/* host-model-required-features */
	const char *models;		/* cpu-model (usable) */
	const char *migration;		/* cpu-model-migration (known) */
} kvcpu;

/* A KubeVirt node: kvsnap_node() plus schedulable=true, the q35 machine
 * types and the CPU labels of cpu, in the flavor's label domain. */
json_t *kvsnap_kvnode(kvsnap *s, const char *name, const kvcpu *cpu);

/* ---- the member list and manifest.json ----------------------------------- */

/* --- tar ----------------------------------------------------------------- */

/* The archive bytes of s (caller frees); *lenp gets their length. */
char *kvsnap_tar_bytes(const kvsnap *s, size_t *lenp);

/* Write len bytes to dir/name; returns the path (caller frees). */
char *kvsnap_put(const char *dir, const char *name, const void *data,
    size_t len);

/* s as an archive at dir/name; returns its path (caller frees). */
char *kvsnap_write_tar(const kvsnap *s, const char *dir, const char *name);

/* --- directory ------------------------------------------------------------ */

/* s as a directory dir/<top>; returns its path (caller frees). */
char *kvsnap_write_dir(const kvsnap *s, const char *dir);

/* s as a directory snapshot in a fresh temporary directory; caller frees
 * the path and removes the directory (kvsnap_rmtree). */
char *kvsnap_write(const kvsnap *s);

/* rm -rf path (a test's scratch directory); NULL is a no-op. */
void kvsnap_rmtree(const char *path);

/* ---- load, analyse, render ----------------------------------------------- */

typedef struct kvres {
	kv_model *m;
	kv_analysis *a;
	json_t *findings;	/* parsed findings.json, node-set references
				 * expanded into lists (kvres_expand) */
	json_t *raw;		/* parsed findings.json as written */
} kvres;

/* Write s, load it, analyse it and render findings.json.  Any error fails
 * the test. */
kvres kvsnap_run(const kvsnap *s);

/* The snapshot at path loaded and analysed into *m and *a (the caller
 * frees both); any error fails the test. */
void kvsnap_load_dir(const char *path, kv_model **m, kv_analysis **a);

/* The load error a snapshot gives, read with --strict (for tests of
 * refusals; without it a member that fails is skipped); NULL when it
 * loads.  Caller frees. */
char *kvsnap_load_error(const kvsnap *s);

void kvres_free(kvres *r);

/* findings.json's object for VMI "ns/name", failing when absent. */
json_t *kvres_vmi(const kvres *r, const char *name);

/* The analysis result of VMI "ns/name". */
const kv_vmires *kvres_vmires(const kvres *r, const char *name);

/* A JSON array of strings as one comma-separated string (for asserting
 * lists in one go); "" for an empty or missing array.  Caller frees. */
char *kvj_join(json_t *arr);

/* Assert that the array at path of o joins to want. */
#define assert_list(o, path, want)                                          \
	do {                                                                \
		char *kvj_got_ = kvj_join(kvj_at((o), (path)));             \
		if (strcmp(kvj_got_, (want)) != 0)                          \
			fail_msg("%s: got [%s], want [%s]", (path),         \
			    kvj_got_, (want));                              \
		free(kvj_got_);                                             \
	} while (0)

/* Assert that the string at path of o equals want (NULL: JSON null). */
#define assert_jstr(o, path, want)                                          \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		const char *kvj_w_ = (want);                                \
		if (kvj_w_ == NULL) {                                       \
			if (!json_is_null(kvj_v_))                          \
				fail_msg("%s: want null", (path));          \
		} else if (!json_is_string(kvj_v_) ||                       \
		    strcmp(json_string_value(kvj_v_), kvj_w_) != 0)         \
			fail_msg("%s: got %s, want \"%s\"", (path),         \
			    json_is_string(kvj_v_) ?                        \
			    json_string_value(kvj_v_) : "(not a string)",   \
			    kvj_w_);                                        \
	} while (0)

/* Assert that the integer at path equals want; want < 0 means null. */
#define assert_jint(o, path, want)                                          \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		long long kvj_w_ = (want);                                  \
		if (kvj_w_ < 0) {                                           \
			if (!json_is_null(kvj_v_))                          \
				fail_msg("%s: want null", (path));          \
		} else if (!json_is_integer(kvj_v_) ||                      \
		    json_integer_value(kvj_v_) != kvj_w_)                   \
			fail_msg("%s: got %lld, want %lld", (path),         \
			    json_is_integer(kvj_v_) ? (long long)           \
			    json_integer_value(kvj_v_) : -1LL, kvj_w_);     \
	} while (0)

#define assert_jbool(o, path, want)                                         \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		if (!json_is_boolean(kvj_v_) ||                             \
		    json_is_true(kvj_v_) != !!(want))                       \
			fail_msg("%s: want %s", (path),                     \
			    (want) ? "true" : "false");                     \
	} while (0)

#endif
