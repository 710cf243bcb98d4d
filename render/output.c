/*
 * output.c - staged, all-or-nothing file output (see render.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render.h"

void
kv_output_init(kv_output *o, const char *dir)
{
	memset(o, 0, sizeof(*o));
	o->dir = xstrdup(dir);
}

static void
output_free(kv_output *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->tmp[i]);
		free(o->dst[i]);
	}
	free(o->tmp);
	free(o->dst);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

int
kv_output_stage(kv_output *o, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err)
{
	char *tmp = xasprintf("%s/.%s.XXXXXX", o->dir, name);
	char *dst = xasprintf("%s/%s", o->dir, name);
	FILE *f;
	int fd;

	if ((fd = mkstemp(tmp)) < 0) {
		kv_seterr(err, "%s: cannot create: %s", dst, strerror(errno));
		goto fail;
	}
	if ((f = fdopen(fd, "w")) == NULL) {
		kv_seterr(err, "%s: %s", dst, strerror(errno));
		close(fd);
		unlink(tmp);
		goto fail;
	}
	if (fn(a, f, arg, err) != KV_OK) {
		fclose(f);
		unlink(tmp);
		goto fail;
	}
	if (fflush(f) != 0 || ferror(f) || fchmod(fileno(f), 0644) != 0) {
		kv_seterr(err, "%s: write error: %s", dst, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto fail;
	}
	if (fclose(f) != 0) {
		kv_seterr(err, "%s: write error: %s", dst, strerror(errno));
		unlink(tmp);
		goto fail;
	}
	o->n++;
	o->tmp = xreallocarray(o->tmp, o->n, sizeof(char *));
	o->dst = xreallocarray(o->dst, o->n, sizeof(char *));
	o->tmp[o->n - 1] = tmp;
	o->dst[o->n - 1] = dst;
	return KV_OK;
fail:
	free(tmp);
	free(dst);
	return KV_ERR;
}

int
kv_output_commit(kv_output *o, kv_err *err)
{
	for (size_t i = 0; i < o->n; i++)
		if (rename(o->tmp[i], o->dst[i]) != 0) {
			kv_seterr(err, "%s: cannot rename into place: %s",
			    o->dst[i], strerror(errno));
			for (size_t j = i; j < o->n; j++)
				unlink(o->tmp[j]);
			output_free(o);
			return KV_ERR;
		}
	output_free(o);
	return KV_OK;
}

void
kv_output_abort(kv_output *o)
{
	for (size_t i = 0; i < o->n; i++)
		unlink(o->tmp[i]);
	output_free(o);
}
