/*
 * manifest.c - the manifest's name table and release (manifest.h).
 */
#include "analyze/read/manifest.h"

#include <stdlib.h>
#include <string.h>

const char *const snap_input_names[SNAP_INPUT_COUNT] = {
	[SNAP_INPUT_SNAPSHOT] = "snapshot",
	[SNAP_INPUT_MUST_GATHER] = "must-gather",
	[SNAP_INPUT_SUPPORT_BUNDLE] = "support-bundle",
	[SNAP_INPUT_PLAIN] = "plain-files",
};

void
snap_manifest_free(snap_manifest *m)
{
	for (size_t i = 0; i < m->nresources; i++) {
		snap_resource *s = &m->resources[i];

		free(s->resource);
		free(s->group);
		free(s->file);
		free(s->status);
		free(s->message);
		free(s->scope);
	}
	free(m->resources);
	for (size_t i = 0; i < m->nnotes; i++)
		free(m->notes[i]);
	free(m->notes);
	for (size_t i = 0; i < m->nnamespaces; i++)
		free(m->namespaces[i]);
	free(m->namespaces);
	free(m->created_at);
	free(m->context);
	free(m->kubernetes_version);
	free(m->kubevirt_version);
	free(m->flavor);
	free(m->collector_name);
	free(m->collector_version);
	memset(m, 0, sizeof(*m));
}

char *
snap_time_unknown(const snap_manifest *m)
{
	switch (m->time_source) {
	case SNAP_TIME_NEWEST_OBJECT:
		return xasprintf("capture time unknown (newest object %s)",
		    m->created_at);
	case SNAP_TIME_UNKNOWN:
		return xstrdup("capture time unknown (no object has a "
		    "creation time)");
	case SNAP_TIME_MANIFEST:
	case SNAP_TIME_CAPTURED:
		break;
	}
	return NULL;
}
