/*
 * util.h - allocation wrappers, error context and small helpers shared by
 * every kvscope module.
 *
 * Memory: the x* allocators never return NULL; on exhaustion they print one
 * line and exit with status 2 (a tool failure).  Pointers they return are
 * owned by the caller and released with free().
 *
 * Errors: functions that can fail on bad input return an int status
 * (KV_OK, or KV_ERR) and leave a one-line message in a kv_err.  The message
 * names the file and, where there is one, the field, so that main() can
 * print "kvscope: <message>" and exit 2.  Findings about the cluster are
 * never reported through kv_err: they are data.
 */
#ifndef KV_UTIL_H
#define KV_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define KV_OK 0
#define KV_ERR (-1)

#define KV_ERR_MAX 1024

typedef struct kv_err {
	char msg[KV_ERR_MAX];
	bool set;
} kv_err;

/* Record the first error only: later calls keep the original message, which
 * is the one closest to the cause.  The message is made one printable line
 * of UTF-8: control characters and malformed bytes become '?'.  Always
 * returns KV_ERR. */
int kv_seterr(kv_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void kv_clearerr(kv_err *err);

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* a, sep and b in a fresh string owned by the caller (no printf: paths
 * joined for every field read). */
char *kv_join(const char *a, char sep, const char *b);
/* printf into a fresh buffer owned by the caller. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "kvscope: <msg>" and exit(2). */
void kv_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* a + b * c, saturated at INT64_MIN and INT64_MAX instead of overflowing:
 * the one helper for arithmetic on quantities and times computed from
 * them (sums: kv_sat_addmul(sum, x, 1); products: kv_sat_addmul(0, x, y)).
 * Quantities are bounded at load (KV_QUANTITY_MAX, quantity.h); integers
 * such as completionTimeoutPerGiB are not, and sums of many are not. */
static inline int64_t
kv_sat_addmul(int64_t a, int64_t b, int64_t c)
{
	int64_t p, r;
	bool neg = (b < 0) != (c < 0);

	if (__builtin_mul_overflow(b, c, &p))
		return neg ? INT64_MIN : INT64_MAX;
	if (__builtin_add_overflow(a, p, &r))
		return p < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

/* Unicode's 66 noncharacters (U+FDD0-U+FDEF and the last two code points
 * of every plane, U+FFFE ... U+10FFFF): valid UTF-8 and JSON, but cairo
 * refuses them ("input string not valid UTF-8") and XML does not allow
 * U+FFFE/U+FFFF.  The writers show them as "<U+FFFE>" as they show the
 * bidi controls. */
static inline bool
kv_noncharacter(long c)
{
	return (c >= 0xfdd0 && c <= 0xfdef) ||
	    (c >= 0 && c <= 0x10ffff && (c & 0xfffe) == 0xfffe);
}

/* Grow a dynamic array: ensures room for at least need elements. */
#define KV_GROW(arr, cap, need)                                        \
	do {                                                           \
		if ((size_t)(need) > (cap)) {                          \
			size_t kv_nc_ = (cap) ? (cap) * 2 : 8;         \
			while (kv_nc_ < (size_t)(need))                \
				kv_nc_ *= 2;                           \
			(arr) = xreallocarray((arr), kv_nc_,           \
			    sizeof(*(arr)));                           \
			(cap) = kv_nc_;                                \
		}                                                      \
	} while (0)

/* Room for need elements of size bytes in arr (capacity *cap); returns the
 * possibly moved array.  Used by KV_PUSH. */
void *kv_grow(void *arr, size_t *cap, size_t need, size_t size);

/* Append one zeroed element to arr (n elements, capacity cap) and evaluate
 * to a pointer to it: p = KV_PUSH(m->nodes, m->nnodes, cap_nodes); */
#define KV_PUSH(arr, n, cap)                                           \
	((arr) = kv_grow((arr), &(cap), (n) + 1, sizeof(*(arr))),      \
	    memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])

/* Growable byte buffer. */
typedef struct kv_buf {
	char *data;
	size_t len, cap;
} kv_buf;
void kv_buf_append(kv_buf *b, const void *p, size_t n);
void kv_buf_printf(kv_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void kv_buf_free(kv_buf *b);

/* A hash of n bytes (eight at a time), 32 bits: the hash of GLib tables
 * keyed by a byte string (a placement problem's key, a node bitset). */
unsigned kv_hash_bytes(const void *p, size_t n);

/* qsort that accepts an empty (NULL) array. */
void kv_qsort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *));
/* The same with a context for cmp (qsort_r: no global, so analyses may
 * sort on several threads at once). */
void kv_qsort_r(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg);

/* qsort comparator for arrays of const char * (strcmp order). */
int kv_strptrcmp(const void *a, const void *b);

/* true when s starts with prefix. */
/* Bytes for people, locale-free: "unknown" (< 0), "512 B", "1.5 MiB",
 * "4.0 GiB", "3.0 TiB" (one decimal, rounded half up).  Caller frees. */
char *kv_fmt_bytes(int64_t bytes);
bool kv_startswith(const char *s, const char *prefix);
bool kv_endswith(const char *s, const char *suffix);

/* The names nearest to want (edit distance, case folded), gathered one
 * name at a time: "did you mean" for a CPU model (rules/cpunames.c) or
 * a VMI (cli/select.c).  Names are borrowed. */
#define KV_NEAR_MAX 3
typedef struct kv_near {
	const char *v[KV_NEAR_MAX];
	size_t n, best;
	const char *want;
} kv_near;
void kv_near_init(kv_near *s, const char *want);
void kv_near_add(kv_near *s, const char *name);
/* Up to max of the nearest names into out, how many; none when even
 * the nearest is farther than a third of want's length (at least 2). */
size_t kv_near_get(const kv_near *s, const char **out, size_t max);

/* With KVSCOPE_TIMING set in the environment, print to stderr the wall
 * seconds since the previous call (or the first one), the CPU seconds of
 * every thread and the peak RSS so far: "kvscope: timing: load 1.23 (cpu
 * 2.01, peak 61 MiB)" (make bench reads these lines); NULL only starts the
 * clock.  Otherwise nothing. */
void kv_timing(const char *phase);
/* Hold (true) or resume kv_timing: while held it prints nothing and
 * the phase that follows the hold counts the held time too. */
void kv_timing_hold(bool hold);

/* How many threads work may be spread over: KVSCOPE_THREADS when set (1:
 * everything on the caller's thread), else the online CPUs; 1 to 4. */
int kv_threads(void);

#endif
