/*
 * mgtime.c - a must-gather's capture time, and RFC 3339 times (see
 * mgtime.h).
 */
#include "analyze/read/mgtime.h"

#include <glib.h>
#include <stdio.h>

#include "analyze/util/util.h"

char *
kv_go_time_utc(const char *line)
{
	int y, mo, d, h, mi, s, oh, om, n = 0;
	char sign;
	const char *p;
	GTimeZone *tz;
	GDateTime *dt, *utc;
	gchar *txt;
	char *out = NULL;

	if (sscanf(line, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi,
	    &s, &n) != 6)
		return NULL;
	for (p = line + n + (line[n] == '.'); g_ascii_isdigit(*p); p++)
		;
	if (sscanf(p, " %c%2d%2d", &sign, &oh, &om) != 3 ||
	    (sign != '+' && sign != '-') || oh > 23 || om > 59)
		return NULL;
	tz = g_time_zone_new_offset((sign == '-' ? -1 : 1) *
	    (oh * 3600 + om * 60));
	dt = g_date_time_new(tz, y, mo, d, h, mi, s);
	if (dt != NULL) {
		utc = g_date_time_to_utc(dt);
		txt = g_date_time_format(utc, "%Y-%m-%dT%H:%M:%SZ");
		out = xstrdup(txt);
		g_free(txt);
		g_date_time_unref(utc);
		g_date_time_unref(dt);
	}
	g_time_zone_unref(tz);
	return out;
}

bool
kv_rfc3339_shape(const char *s)
{
	static GRegex *re;

	if (g_once_init_enter(&re))
		g_once_init_leave(&re, g_regex_new("^[0-9]{4}-[0-9]{2}-"
		    "[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?"
		    "(Z|[+-][0-9]{2}:[0-9]{2})$", G_REGEX_OPTIMIZE, 0, NULL));
	return s != NULL && g_regex_match(re, s, 0, NULL);
}

bool
kv_rfc3339_us(const char *s, int64_t *us)
{
	GDateTime *dt;

	/* g_date_time_new_from_iso8601 takes more than RFC 3339 (no
	 * offset, week dates, a space for the T): the shape first */
	if (!kv_rfc3339_shape(s))
		return false;
	dt = g_date_time_new_from_iso8601(s, NULL);
	if (dt == NULL)
		return false;
	*us = (int64_t)g_date_time_to_unix(dt) * 1000000 +
	    g_date_time_get_microsecond(dt);
	g_date_time_unref(dt);
	return true;
}
