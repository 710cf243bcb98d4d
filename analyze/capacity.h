/*
 * capacity.h - room on nodes: what a pod requests against what a node has
 * left (findings.md "no-capacity").  Plain arithmetic on kv_res values;
 * nothing is allocated.
 */
#ifndef KV_CAPACITY_H
#define KV_CAPACITY_H

#include <stdbool.h>

#include "analysis.h"

bool kv_res_fits(const kv_res *free, const kv_res *need);
void kv_res_take(kv_res *free, const kv_res *need);

#endif
