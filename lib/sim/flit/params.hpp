// The parameters of the flit-level engine's router model, and the BookSim preset.
//
// Timing model (every figure in cycles): a head flit that reaches an input buffer in cycle A may
// be routed from A + routing_delay (0 = lookahead: the route was computed one hop ahead), win an
// output VC in VC allocation in cycle v, and compete for the switch from v + va_delay; a flit
// that wins switch allocation in cycle s leaves its input buffer and reaches the next buffer in
// cycle s + sa_delay + st_delay + link latency (a sink: the same with the ejection latency). Its
// buffer slot is free again upstream in cycle s + st_delay + link latency + credit_delay - 1.
// So an unloaded hop costs routing_delay + va_delay + sa_delay + st_delay + latency, and body
// flits follow one per cycle. A source puts a flit on its injection channel the cycle the packet
// is created at the earliest, and it reaches the first router's buffer 1 + latency cycles later.
#pragma once
#include <cstdint>
#include <string>

namespace icnkit::sim::flit {

// When an output VC may be given to the next packet: once the previous packet's tail flit has
// left through the switch (BookSim's wait_for_tail_credit = 0), or once the downstream buffer
// has returned the tail's credit, i.e. holds nothing of the packet any more (= 1).
enum class VcRelease { Tail, Credit };

struct RouterParams {
  int vcs = 2;          // VCs per port (each routing VC class gets an equal share)
  int buffer_flits = 8; // input buffer depth per VC
  int routing_delay = 0;
  int va_delay = 1;
  int sa_delay = 1;
  int st_delay = 1;
  int credit_delay = 2;
  int alloc_iters = 2; // iSLIP iterations of the VC and the switch allocator
  VcRelease vc_release = VcRelease::Tail;
  int injection_latency = 1; // source -> first router, and last router -> sink (chips that route)
  // Injection and ejection ports of a chip that routes (a torus chip's DMA engines): 1, as BookSim
  // attaches a node, or 0 = one per network port of the chip, so that a chip can send and receive
  // on all its links at once (a schedule replay's chips do). A packet leaves through the injection
  // port the caller names and arrives through the ejection port of its last network channel.
  int endpoint_ports = 1;
};

// BookSim 2.0's input-queued router as configured for its published curves: lookahead routing,
// 1-cycle VC allocation, switch allocation and crossbar, credit delay 2, separable iSLIP with two
// iterations, no speculation, VCs released when the tail leaves, 2 VCs of 8 flits.
inline RouterParams booksim_preset() {
  return RouterParams{};
}

// Error(Usage) naming the option (as `prefix` + field) for values out of range.
void validate(const RouterParams& p);

// One line describing the router, for reports.
std::string describe(const RouterParams& p);

} // namespace icnkit::sim::flit
