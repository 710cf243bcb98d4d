/*
 * intern.h - string interning.
 *
 * An intern table turns equal strings into one pointer, so the model can
 * compare names and label keys with ==, and a 100,000-VMI snapshot keeps
 * one copy of "kubevirt.io/schedulable".  Interned strings live as long as
 * the table; callers never free them.  Built on GLib's GStringChunk and
 * GHashTable (GLib is already a dependency through pango), with a front
 * of the strings found last in front of the hash table (intern.c).
 *
 * A table is one thread's, except while kv_intern_share(t, true) holds:
 * then every call takes the table's lock, so threads may intern at once
 * (the proof's copies, change/fixproof.c).  Sharing is switched by the
 * one thread that owns the table, when no other uses it.
 */
#ifndef KV_INTERN_H
#define KV_INTERN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kv_intern kv_intern;

kv_intern *kv_intern_new(void);
void kv_intern_free(kv_intern *t);
/* The canonical copy of s (NUL-terminated). */
const char *kv_intern_str(kv_intern *t, const char *s);
/* Same for a string of n bytes that may not be NUL-terminated. */
const char *kv_intern_strn(kv_intern *t, const char *s, size_t n);
/* The canonical copy when s was interned before, else NULL. */
const char *kv_intern_lookup(kv_intern *t, const char *s);
size_t kv_intern_count(const kv_intern *t);
void kv_intern_share(kv_intern *t, bool on);

#endif
