/*
 * assume.c - the rates a user states (estimate.h kv_parse_rate): a link
 * in bits ("25Gbit", "10Gbps", "800Mbit") or bytes per second ("1250MB/s",
 * "800MiB/s"), and a dirty rate ("40MB/s", or a range "10MB/s-60MB/s").
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate.h"

static const struct unit {
	const char *name;
	double bps;			/* bytes per second of one */
} units[] = {
	{ "Gbit", 1e9 / 8 }, { "Gbps", 1e9 / 8 }, { "Mbit", 1e6 / 8 },
	{ "Mbps", 1e6 / 8 }, { "GB/s", 1e9 }, { "MB/s", 1e6 },
	{ "kB/s", 1e3 }, { "GiB/s", 1073741824.0 }, { "MiB/s", 1048576.0 },
	{ "KiB/s", 1024.0 }, { "B/s", 1 },
};

static bool
one(const char *s, size_t n, double *out)
{
	char buf[64], *end;
	double v;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtod(buf, &end);
	if (end == buf || v < 0 || v > 1e15)
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].name) == 0) {
			*out = v * units[i].bps;
			return true;
		}
	return false;
}

bool
kv_parse_rate(const char *s, double *lo, double *hi, bool range)
{
	const char *dash = range && s != NULL ? strchr(s, '-') : NULL;
	double a, b;

	if (s == NULL)
		return false;
	if (dash == NULL) {
		if (!one(s, strlen(s), &a))
			return false;
		*lo = *hi = a;
		return true;
	}
	if (!one(s, (size_t)(dash - s), &a) ||
	    !one(dash + 1, strlen(dash + 1), &b) || b < a)
		return false;
	*lo = a;
	*hi = b;
	return true;
}

bool
kv_parse_duration(const char *s, double *out)
{
	const char *p = s;
	double total = 0;

	while (p != NULL && *p != '\0') {
		char *end;
		double v = strtod(p, &end);

		if (end == p || v < 0 || *p == '-' || *p == '+')
			return false;
		p = end;
		if (*p == 'h')
			v *= 3600;
		else if (*p == 'm')
			v *= 60;
		else if (*p != 's' && *p != '\0')
			return false;
		total += v;
		if (*p != '\0')
			p++;
	}
	if (p == NULL || total <= 0 || total > 1e7)
		return false;
	*out = total;
	return true;
}
