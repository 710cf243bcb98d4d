/*
 * findings_vmis.h - findings.json's "nodeSets" and "vmis" sections
 * (findings_vmis.c), for the writer of the whole file (findings.c).
 */
#ifndef KV_FINDINGS_VMIS_H
#define KV_FINDINGS_VMIS_H

#include <stdio.h>

#include "analyze/rules/analysis.h"

/* "nodeSets": [...], "vmis": [...], one element per line, to f; KV_ERR
 * when a write failed. */
int kv_json_put_vmis(FILE *f, const kv_analysis *a);

#endif
