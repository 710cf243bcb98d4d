/*
 * mgtime.h - the capture time a must-gather records of itself.
 *
 * oc adm must-gather and oc adm inspect append time.Now() formatted by
 * Go's "%v" to a file "timestamp" in their destination directory when
 * they start and when they end (openshift/oc 4.21,
 * pkg/cli/admin/mustgather/mustgather.go:693-699 and :832-839,
 * pkg/cli/admin/inspect/inspect.go:236-239 and :396-402), one line each:
 * "2026-10-31 09:12:44.123456789 +0000 UTC m=+0.051".  foreign.c takes
 * the newest line of all such files as the time the input was taken.
 * kv_rfc3339_us reads the other form of a time an input holds, a
 * manifest's createdAt.
 */
#ifndef KV_MGTIME_H
#define KV_MGTIME_H

#include <stdbool.h>
#include <stdint.h>

/* One such line in UTC to the second ("2026-10-31T09:12:44Z"; the
 * fraction is dropped, the offset applied, the zone name and monotonic
 * reading ignored), or NULL for a line of another form.  The caller
 * frees it. */
char *kv_go_time_utc(const char *line);

/* An RFC 3339 time ("2026-10-31T09:12:44Z", "2026-10-31T10:12:44.5+02:00":
 * a fraction and a numeric offset allowed, a "Z" or an offset required)
 * as microseconds since the epoch in *us; false for anything else, *us
 * untouched.  Two manifests' createdAt compare by it, not as strings. */
bool kv_rfc3339_us(const char *s, int64_t *us);
/* Whether s has the shape of such a time (its expression compiled once:
 * the migration history reads one a migration, in every proof copy). */
bool kv_rfc3339_shape(const char *s);

#endif
