#include "sim/flit/params.hpp"

#include "core/error.hpp"

namespace icnkit::sim::flit {

void validate(const RouterParams& p) {
  auto range = [](int v, int lo, int hi, const char* opt) {
    if (v < lo || v > hi)
      fail_usage(opt, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                          " (got " + std::to_string(v) + ")");
  };
  range(p.vcs, 1, 64, "{vcs}");
  range(p.buffer_flits, 1, 4096, "{buffer_flits}");
  range(p.routing_delay, 0, 64, "{routing_delay}");
  range(p.va_delay, 1, 64, "{va_delay}");
  range(p.sa_delay, 1, 64, "{sa_delay}");
  range(p.st_delay, 0, 64, "{st_delay}");
  range(p.credit_delay, 1, 64, "{credit_delay}");
  range(p.alloc_iters, 1, 16, "{alloc_iters}");
  range(p.injection_latency, 1, 1 << 16, "injection_latency");
  range(p.endpoint_ports, 0, 64, "{endpoint_ports}");
}

std::string describe(const RouterParams& p) {
  return "input-queued VC router: " + std::to_string(p.vcs) + " VCs x " +
         std::to_string(p.buffer_flits) + " flits, routing " + std::to_string(p.routing_delay) +
         " + VA " + std::to_string(p.va_delay) + " + SA " + std::to_string(p.sa_delay) + " + ST " +
         std::to_string(p.st_delay) + " cycles, credit delay " + std::to_string(p.credit_delay) +
         ", iSLIP x" + std::to_string(p.alloc_iters) + ", VC released on " +
         (p.vc_release == VcRelease::Tail ? "tail sent" : "tail credit") +
         (p.endpoint_ports == 1 ? std::string()
          : p.endpoint_ports == 0
              ? std::string(", one injection and ejection port per link")
              : ", " + std::to_string(p.endpoint_ports) + " injection and ejection ports");
}

} // namespace icnkit::sim::flit
