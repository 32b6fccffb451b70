// The time of one ring under each torus algorithm (MICRO'25 Table 1): the terms the closed forms
// of whole schedules (closed_form.hpp) compose, and what the registry's entries name
// (registry.hpp: TorusForm::ring_time).
//
// Two latency models:
// - PerSubStage: icnkit's store-and-forward model, the one the analytic simulator runs. Every
//   sub-stage (step) costs the latency of its longest logical hop (alpha per physical hop) plus
//   its piece at the link bandwidth; steps run back to back. Ring: N(N-1)/2 steps of
//   alpha + S/(2NB). HalfRing: k(k+1)/2 steps (k = N/2) of h alpha + S/(NB), the unpaired
//   stage of an even ring S/(2NB), h = 1 (3 on a MATE acceleration plane). FoldedRing:
//   N(N-1)/2 steps of (N-1) alpha + S/(NB).
// - Table1: the paper's table: one startup alpha (Ring, HalfRing), (N-1) alpha (FoldedRing),
//   plus the same transfer terms: (N-1)S/(4B), NS/(8B) (even) or (N^2-1)S/(8NB) (odd),
//   (N-1)S/(2B).
// The transfer terms are identical in both; only the startup differs.
#pragma once

namespace icnkit::coll {

enum class LatencyModel { PerSubStage, Table1 };

// One ring of n chips, S bytes per node (S/n per block), B bytes/s per direction, alpha per
// hop. `plane_hops`: physical hops per logical link (HalfRing on a MATE plane: 3).
double ring_time(int n, double S, double B, double alpha, LatencyModel m);
double halfring_time(int n, double S, double B, double alpha, LatencyModel m, int plane_hops = 1);
double folded_time(int n, double S, double B, double alpha, LatencyModel m);

// One ring's bidirectional reduce-scatter or all-gather of a share of `share` bytes per node:
// N-1 steps, each moving half a block (share/(2N)) one hop each way.
double ring_reduction_time(int n, double share, double B, double alpha);

} // namespace icnkit::coll
