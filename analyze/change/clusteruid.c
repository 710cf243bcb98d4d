/*
 * clusteruid.c - which cluster a snapshot is of (diff.h, kvscope diff's
 * OLD and NEW): the uid of its namespace kube-system, else of its KubeVirt
 * CR.  The strings returned are the model's.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/change/diff.h"

const char *const kv_uid_from_names[] = { [UID_NONE] = "",
	[UID_KUBE_SYSTEM] = "namespace kube-system",
	[UID_KUBEVIRT_CR] = "KubeVirt CR" };

static const char *
uid_of(const kv_model *m, enum kv_uid_from f)
{
	const kv_namespace *n;

	if (f == UID_KUBE_SYSTEM) {
		n = kv_model_namespace(m, "kube-system");
		return n != NULL && n->uid != NULL && *n->uid ? n->uid : NULL;
	}
	return m->cluster.present && m->cluster.uid != NULL &&
	    *m->cluster.uid ? m->cluster.uid : NULL;
}

const char *
kv_cluster_uid(const kv_model *m, enum kv_uid_from *from)
{
	*from = UID_NONE;
	for (enum kv_uid_from f = UID_KUBE_SYSTEM; f <= UID_KUBEVIRT_CR; f++)
		if (uid_of(m, f) != NULL) {
			*from = f;
			return uid_of(m, f);
		}
	return NULL;
}

enum kv_uid_from
kv_cluster_uid_cmp(const kv_model *a, const kv_model *b, char **differs)
{
	*differs = NULL;
	for (enum kv_uid_from f = UID_KUBE_SYSTEM; f <= UID_KUBEVIRT_CR; f++) {
		const char *x = uid_of(a, f), *y = uid_of(b, f);

		if (x == NULL || y == NULL)
			continue;
		if (strcmp(x, y) != 0)
			*differs = xasprintf("%s uid %s vs %s",
			    kv_uid_from_names[f], x, y);
		return f;
	}
	return UID_NONE;
}
