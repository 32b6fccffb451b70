#include "coll/dims.hpp"

namespace icnkit::coll {

Schedule compose_sequential(const ComposeInput& in) {
  const topo::TorusGeometry& g = *in.geometry;
  Schedule s;
  s.collective = in.collective;
  s.algorithm = in.algorithm->name;
  s.dim_scheduling = "sequential";
  s.fault_handling = in.algorithm->fault_handling;
  s.bytes_per_node = in.bytes_per_node;
  s.chunks = 1;
  std::int64_t next = 0;
  for (int d = 0; d < g.dims(); ++d) {
    int n = g.size(d);
    if (n == 1) continue;
    Phase p;
    p.name = "dim" + std::to_string(d);
    p.chunk = 0;
    p.dimension = d;
    p.ring_size = n;
    // A block is what one node sends to one member of its ring: S/N (S/(C N) with C chunks).
    p.block_bytes = static_cast<double>(in.bytes_per_node) / static_cast<double>(s.chunks * n);
    for (auto& transfers : in.algorithm->plan(n)) {
      Step st;
      st.id = next;
      if (next > 0) st.after = {next - 1};
      st.transfers = transfers;
      p.steps.push_back(std::move(st));
      ++next;
    }
    s.phases.push_back(std::move(p));
  }
  return s;
}

} // namespace icnkit::coll
