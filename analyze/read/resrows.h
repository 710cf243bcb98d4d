/*
 * resrows.h - what a file of a foreign input (foreign.c) is: the row of
 * analyze/read/resources.def of an object (its apiVersion and kind) or of
 * a file whose content cannot be read (its path); its suffix and path
 * components; whether its text looks like kubectl's.  A row is its index
 * in resources.def (the order foreign.c's table has too).
 */
#ifndef KV_RESROWS_H
#define KV_RESROWS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether comp is a whole component of path ("a/comp/b", "comp"). */
bool kv_path_has_component(const char *path, const char *comp);
/* Whether s ends with suffix, ASCII case ignored. */
bool kv_path_ends_with(const char *s, const char *suffix);
/* A line that starts with "apiVersion:" or "kind:", as every document of
 * kubectl's YAML does. */
bool kv_looks_kubectl(const char *t, size_t len);

/* "kubevirt.io/v1", "VirtualMachineInstance": the row, or -1. */
int kv_resrow_of_kind(const char *api_version, const char *kind);

/*
 * The row a file's path names, or -1: the last component, without its
 * suffix, that is a row's plural ("nodes", "virtualmachineinstances"), its
 * plural.group, its singular or kubectl's short name ("vmi", "vmis", "vm",
 * "pvc", "po", "no"); a must-gather's ".../core/pods/NAME.yaml" is pods.
 */
int kv_resrow_of_path(const char *path);

#endif
