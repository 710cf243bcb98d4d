/*
 * cpudb.h - the named-CPU-model database: what a guest of each libvirt CPU
 * model gets (features, x86-64 psABI level, AVX2, AVX-512F).
 *
 * Two sources, one reader:
 *  - the built-in table (cpudb_builtin.c), generated at build time by
 *    tools/gen-cpudb from a libvirt cpu_map directory and QEMU's q35
 *    expansion (see Makefile target `cpudb`), and committed;
 *  - a snapshot's own libvirt/cpu_map/ XML files, read at run time from memory
 *    buffers (an archive member is never written to disk).
 *
 * Both go through cpumap_builder: add every x86_*.xml file, then finish,
 * which resolves <model name='parent'/> inheritance (in any file order),
 * drops removed='yes' features, applies the QEMU guest-visible corrections
 * (cpudb_qemu_corrections[]: level features QEMU's model has and libvirt's
 * map lacks, e.g. abm and f16c for Haswell/Broadwell) and computes level,
 * avx2 and avx512f.
 *
 * Ownership: a cpudb returned by cpumap_finish() is owned by the caller and
 * released with cpudb_free(); every string in it lives as long as the db.
 * cpudb_builtin() returns a static db that must not be freed.
 */
#ifndef KV_CPUDB_H
#define KV_CPUDB_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

typedef struct cpudb_model {
	const char *name;
	const char *vendor;		/* "Intel", "AMD", ... or NULL */
	int level;			/* 0..4: psABI level of the guest CPU */
	bool avx2;
	bool avx512f;
	size_t nfeatures;		/* guest-visible features */
	const char *const *features;	/* sorted by strcmp, no duplicates;
					 * includes vmx-* (callers skip them
					 * where the spec says so) */
	size_t nfeatures_novmx;		/* features not starting with "vmx-" */
} cpudb_model;

typedef struct cpudb {
	size_t nmodels;
	const cpudb_model *models;	/* sorted by name (strcmp) */
} cpudb;

/* The table built into kvscope. Never NULL. */
const cpudb *cpudb_builtin(void);

/* Binary search by exact name; NULL when unknown. */
const cpudb_model *cpudb_find(const cpudb *db, const char *name);

/* x86-64 psABI level (0..4) of a feature set given as a predicate. */
int cpudb_level(bool (*has)(const char *feature, void *arg), void *arg);

/* The libvirt feature names that make up each level (index 1..4),
 * NULL-terminated lists; e.g. cpudb_level_features[3] holds "avx", "avx2",
 * "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave". */
extern const char *const *const cpudb_level_features[5];

typedef struct cpumap_builder cpumap_builder;

cpumap_builder *cpumap_builder_new(void);
/* Parse one cpu_map file (x86_<Model>.xml; other files such as index.xml,
 * x86_features.xml and x86_vendors.xml are accepted and ignored).  name is
 * used in error messages.  Returns KV_OK, or KV_ERR with err naming the file
 * and the element at fault. */
int cpumap_builder_add(cpumap_builder *b, const char *name, const char *buf,
    size_t len, kv_err *err);
/* Resolve and build.  Consumes b (freed in every case).  An unknown parent
 * model or an inheritance cycle is an error. */
int cpumap_finish(cpumap_builder *b, cpudb **out, kv_err *err);
void cpudb_free(cpudb *db);

#endif
