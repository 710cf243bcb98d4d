/*
 * fixproof.h - every group's fix proven by applying it (issue 28): the
 * phase after kv_analyze (analyze/pipeline.h) that rewrites each group's
 * fix.fixes and fix.worse from the after-state.
 *
 * For a group whose fix gives a change (kv_fix_change, fixapply.h, the
 * same change `what-if --fix G` applies), the change is written into a
 * copy of the model that holds only the group's VMIs (every node, pod,
 * claim and other object kept, so room, placement and pod affinity are
 * those of the snapshot) and that copy is analysed again, as far as its
 * VMIs' verdicts, estimates and the drains of the nodes that hold a VMI
 * the drain stops (kv_analyze_verdicts: no groups, a VMI's codes are
 * kv_vmires_in_code's); when no change of the copy touches a
 * node, a pod's requests or the cluster's configuration, the copy
 * borrows the analysis' node phases (index, CPU classes, capacity)
 * instead of running them again:
 *
 *  fixes  the group's VMIs in no group of its code afterwards;
 *  worse  the VMIs the change is for (and those sharing a claim it
 *         recreates) that kv_vmi_compare calls worse (diff.h): the same
 *         meaning, and for one group the same numbers, as `what-if --fix
 *         G` prints ("after fix G: N of its M VMIs in no CODE group",
 *         "K worse"; docs/findings.md "worse and better").
 *
 * Groups whose VMIs do not overlap share one copy (their changes touch
 * only their own VMIs), so the copies hold about as many VMIs as the
 * groups do, each once per layer of overlap; a node's relabel, which
 * may touch any VMI of the node, gets a copy of its own.  A copy holds
 * at most 8,192 VMIs: a larger group is proven in parts, its fixes and
 * worse summed (a VMI's verdict in a copy reads its own facts and the
 * node phases, not the other VMIs of the copy), except a node's change
 * and a claim change other VMIs share, proven whole.  A copy owns only
 * its own VMIs' VirtualMachine templates, and of the pods only the image
 * IDs an image-digest change rewrites (the model's, swapped for the
 * copy's while it lives and given back; a claim change's claims the
 * same way).  The copies that lend nothing and borrow the whole
 * analysis' node phases (no change of nodes) are proven two at once when
 * there are two threads (kv_threads()), each of 4,096 VMIs at most, and
 * then the others one after another, so the proof's memory stays about
 * one copy of 8,192 and its analysis (12 MiB at 5,000 nodes / 100,000
 * VMIs); what a copy finds does not depend on its thread.  A fix that
 * fixes none (or whose change cannot be written, e.g. no claim to
 * recreate) becomes `none`, its text the reason and what would help.
 * relax-placement, free-capacity and a relabel-node whose value no
 * selector names give no change: they stay as the groups wrote them,
 * fix.proven false, the reason added to the text.  The analysis' model
 * is as it was afterwards (strings may be interned into its table).
 *
 * kv_fix_prove_parts: the same with copies of at most most VMIs (the
 * tests prove in parts of one) and up to threads threads; how many
 * copies were proven at once (0: all one after another).
 */
#ifndef KV_FIXPROOF_H
#define KV_FIXPROOF_H

#include "analyze/rules/analysis.h"

void kv_fix_prove(kv_analysis *a);
size_t kv_fix_prove_parts(kv_analysis *a, size_t most, int threads);

#endif
