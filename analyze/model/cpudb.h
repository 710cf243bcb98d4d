/*
 * cpudb.h - the named-CPU-model database: what a guest of each libvirt CPU
 * model gets (features, x86-64 psABI level, AVX2, AVX-512F).
 *
 * Two sources, one reader:
 *  - the built-in table (cpudb_builtin.c), generated at build time by
 *    tools/gen-cpudb from a libvirt cpu_map directory and QEMU's q35
 *    expansion (see Makefile target `cpudb`), and committed;
 *  - a snapshot's own libvirt/cpu_map/x86_*.xml, read at run time from memory
 *    buffers (an archive member is never written to disk).
 *
 * Both go through cpumap_builder: add every x86_*.xml file, then finish,
 * which resolves <model name='parent'/> inheritance (in any file order),
 * drops removed='yes' features, applies the QEMU guest-visible corrections
 * (cpudb_qemu_corrections[]: level features QEMU's model has and libvirt's
 * map lacks, e.g. abm and f16c for Haswell/Broadwell) and computes level,
 * avx2 and avx512f.
 *
 * Corrections are applied where a model is expanded, so a child model
 * (<model name='Haswell'/>) inherits its parent's corrected set; a model's
 * own removed='yes' features are taken out of the inherited set, as libvirt
 * disables them in every guest CPU it defines with that model.
 *
 * Ownership: a cpudb returned by cpumap_finish() is owned by the caller and
 * released with cpudb_free(); every string in it lives as long as the db.
 * cpudb_builtin() returns a static db that must not be freed.
 */
#ifndef KV_CPUDB_H
#define KV_CPUDB_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/util/util.h"

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

/* Whether m's features include feature (binary search).  Added beside the
 * original interface: the reader, the generator and rule code all ask. */
bool cpudb_model_has(const cpudb_model *m, const char *feature);

/* x86-64 psABI level (0..4) of a feature set given as a predicate. */
int cpudb_level(bool (*has)(const char *feature, void *arg), void *arg);

/* The libvirt feature names that make up each level (index 1..4),
 * NULL-terminated lists; e.g. cpudb_level_features[3] holds "avx", "avx2",
 * "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave". */
extern const char *const *const cpudb_level_features[5];

/* One QEMU guest-visible correction: level features QEMU's q35 expansion of
 * the model has and libvirt's map lacks.  features is NULL-terminated. */
typedef struct cpudb_correction {
	const char *model;
	const char *const *features;
} cpudb_correction;

/* The built-in corrections (generated into cpudb_builtin.c with the table,
 * because a snapshot's own cpu_map needs them at run time too). */
extern const cpudb_correction cpudb_qemu_corrections[];
extern const size_t cpudb_qemu_ncorrections;

/* Bounds on cpu_map input, which comes from strangers.  Exceeding one is an
 * error naming the file (or the model), never a truncation. */
#define CPUMAP_MAX_FILE		(1024 * 1024)	/* bytes in one file */
#define CPUMAP_MAX_MODELS	4096	/* models in one builder */
#define CPUMAP_MAX_FEATURES	1024	/* per model, listed or expanded */
#define CPUMAP_MAX_NAME		256	/* bytes in a model, parent, vendor
					 * or feature name */
#define CPUMAP_MAX_DEPTH	64	/* <model name='parent'/> chain */

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
/* cpumap_finish with an explicit corrections table (may be NULL with ncorr
 * 0).  Exists for tools/gen-cpudb, which must build before cpudb_builtin.c
 * (the home of cpudb_qemu_corrections) exists; it is compiled with
 * -DKV_CPUDB_GENERATOR, which leaves cpumap_finish out. */
int cpumap_finish_with(cpumap_builder *b, const cpudb_correction *corr,
    size_t ncorr, cpudb **out, kv_err *err);
/* Abandon a builder without finishing it, e.g. after cpumap_builder_add
 * failed (a failed add leaves the builder as it was).  NULL is a no-op. */
void cpumap_builder_free(cpumap_builder *b);
/* NULL is a no-op.  Never pass cpudb_builtin(). */
void cpudb_free(cpudb *db);

#endif
