/*
 * util.c - see util.h.
 */
#include "analyze/util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Length of the well-formed UTF-8 sequence at p (1 to 4), or 0. */
static size_t
utf8_len(const unsigned char *p)
{
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		if (p[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* overlong */
		if (p[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/*
 * One clear line, always: a hostile name must not forge a second line,
 * move the cursor or change colours, so control characters (C0, DEL and
 * C1) become '?', and so does each byte that is not part of well-formed
 * UTF-8 (including a sequence cut by the buffer's end).
 */
static void
msg_sanitize(char *msg)
{
	unsigned char *r = (unsigned char *)msg, *w = r;

	while (*r != '\0') {
		size_t n = utf8_len(r);

		if (n == 0 || (n == 1 && (*r < 0x20 || *r == 0x7f)) ||
		    (n == 2 && r[0] == 0xc2 && r[1] < 0xa0)) {
			*w++ = '?';
			r += n == 2 ? 2 : 1;
			continue;
		}
		while (n-- > 0)
			*w++ = *r++;
	}
	*w = '\0';
}

int
kv_seterr(kv_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || err->set)
		return KV_ERR;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	msg_sanitize(err->msg);
	err->set = true;
	return KV_ERR;
}

void
kv_clearerr(kv_err *err)
{
	err->msg[0] = '\0';
	err->set = false;
}

void
kv_fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("kvscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p;

	if (size == 0)
		size = 1;
	if ((p = malloc(size)) == NULL)
		kv_fatal("out of memory (%zu bytes)", size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		kv_fatal("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (nmemb != 0 && size > SIZE_MAX / nmemb)
		kv_fatal("allocation overflow (%zu x %zu bytes)", nmemb, size);
	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = realloc(ptr, nmemb * size)) == NULL)
		kv_fatal("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
kv_join(const char *a, char sep, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *p = xmalloc(na + nb + 2);

	memcpy(p, a, na);
	p[na] = sep;
	memcpy(p + na + 1, b, nb + 1);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		kv_fatal("bad format string");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *
kv_grow(void *arr, size_t *cap, size_t need, size_t size)
{
	size_t nc;

	if (need <= *cap)
		return arr;
	nc = *cap ? *cap * 2 : 8;
	while (nc < need)
		nc *= 2;
	*cap = nc;
	return xreallocarray(arr, nc, size);
}

void
kv_buf_append(kv_buf *b, const void *p, size_t n)
{
	KV_GROW(b->data, b->cap, b->len + n + 1);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
kv_buf_printf(kv_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		kv_fatal("bad format string");
	KV_GROW(b->data, b->cap, b->len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
kv_buf_free(kv_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
kv_qsort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

void
kv_qsort_r(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

int
kv_strptrcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* value / unit with one decimal, rounded, in integers only */
static char *
tenths(int64_t value, int64_t unit, const char *name)
{
	int64_t t = (value * 10 + unit / 2) / unit;

	return xasprintf("%lld.%lld %s", (long long)(t / 10),
	    (long long)(t % 10), name);
}

char *
kv_fmt_bytes(int64_t bytes)
{
	const int64_t mi = 1024 * 1024, gi = mi * 1024, ti = gi * 1024;

	if (bytes < 0)
		return xstrdup("unknown");
	if (bytes < mi)
		return xasprintf("%lld B", (long long)bytes);
	if (bytes < gi)
		return tenths(bytes, mi, "MiB");
	if (bytes < ti)
		return tenths(bytes, gi, "GiB");
	return tenths(bytes / mi, ti / mi, "TiB");
}

bool
kv_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
kv_endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool timing_held;

void
kv_timing_hold(bool hold)
{
	timing_held = hold;
}

/* CPU seconds (user + system, every thread) of the process so far. */
static double
cpu_seconds(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	    (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/* The resident set now, in MiB (Linux's /proc/self/statm), or -1. */
static long
resident_mib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, res = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	fclose(f);
	return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

void
kv_timing(const char *phase)
{
	static int on = -1;
	static struct timespec last;
	static double last_cpu;
	struct timespec now;
	struct rusage ru;

	if (on < 0) {
		const char *e = getenv("KVSCOPE_TIMING");

		on = e != NULL && *e != '\0';
		clock_gettime(CLOCK_MONOTONIC, &last);
		getrusage(RUSAGE_SELF, &ru);
		last_cpu = cpu_seconds(&ru);
	}
	if (!on || timing_held)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	getrusage(RUSAGE_SELF, &ru);
	if (phase != NULL)
		fprintf(stderr, "kvscope: timing: %s %.3f (cpu %.3f, peak %ld "
		    "MiB, now %ld MiB)\n", phase,
		    (double)(now.tv_sec - last.tv_sec) +
		    (double)(now.tv_nsec - last.tv_nsec) / 1e9,
		    cpu_seconds(&ru) - last_cpu, ru.ru_maxrss / 1024,
		    resident_mib());
	last = now;
	last_cpu = cpu_seconds(&ru);
}

int
kv_threads(void)
{
	const char *env = getenv("KVSCOPE_THREADS");
	long n = env != NULL && *env != '\0' ? strtol(env, NULL, 10) :
	    sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

/* Eight bytes a step (the keys hashed are placement problems and
 * selector lists of some hundred bytes: a byte a step was a tenth of
 * the target search); each word mixed by a multiply and a shift. */
unsigned
kv_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ULL ^ n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, b + i, n - i);
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 32;
	return (unsigned)h;
}

/* Edit distance of x and y with case folded. */
static size_t
near_distance(const char *x, const char *y)
{
	size_t nx = strlen(x), ny = strlen(y);
	size_t *row = xcalloc(ny + 1, sizeof(size_t)), d;

	for (size_t j = 0; j <= ny; j++)
		row[j] = j;
	for (size_t i = 1; i <= nx; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= ny; j++) {
			size_t up = row[j], best = diag + (tolower(
			    (unsigned char)x[i - 1]) != tolower(
			    (unsigned char)y[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[ny];
	free(row);
	return d;
}

void
kv_near_init(kv_near *s, const char *want)
{
	*s = (kv_near){ .n = 0, .best = (size_t)-1, .want = want };
}

void
kv_near_add(kv_near *s, const char *name)
{
	size_t d = near_distance(s->want, name);

	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return;
	if (d < s->best) {
		s->best = d;
		s->n = 0;
	}
	if (d == s->best && s->n < KV_NEAR_MAX)
		s->v[s->n++] = name;
}

size_t
kv_near_get(const kv_near *s, const char **out, size_t max)
{
	size_t lim = strlen(s->want) / 3 < 2 ? 2 : strlen(s->want) / 3;

	if (s->best > lim)
		return 0;
	for (size_t i = 0; i < s->n && i < max; i++)
		out[i] = s->v[i];
	return s->n < max ? s->n : max;
}
