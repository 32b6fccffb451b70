#include "sim/flit/source_routes.hpp"

#include "core/error.hpp"

namespace icnkit::sim::flit {

namespace {
constexpr std::uint32_t kPathBits = 24;
constexpr std::uint32_t kPathMask = (1u << kPathBits) - 1;
} // namespace

SourceRoutes::SourceRoutes(const topo::Network& n, int classes) : net_(n), classes_(classes) {
  if (classes < 1) fail_runtime("flit", "source routes need at least one VC class");
}

int SourceRoutes::turns(const topo::Network& n, const std::int64_t* channels, std::size_t count) {
  int t = 0;
  for (std::size_t k = 1; k < count; ++k)
    t += n.links[static_cast<std::size_t>(topo::link_of_channel(channels[k]))].dim !=
         n.links[static_cast<std::size_t>(topo::link_of_channel(channels[k - 1]))].dim;
  return t;
}

std::uint32_t SourceRoutes::add(const std::int64_t* channels, std::size_t count) {
  if (count > static_cast<std::size_t>(kMaxHops))
    fail_infeasible("flit", "a path of " + std::to_string(count) + " hops (at most " +
                                std::to_string(kMaxHops) + ")");
  std::uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    if (static_cast<std::int64_t>(paths_.size()) >= kMaxPaths)
      fail_infeasible("flit", "more than 2^24 paths in flight at once");
    id = static_cast<std::uint32_t>(paths_.size());
    paths_.emplace_back();
  }
  std::vector<Hop>& p = paths_[id];
  p.clear();
  int vc = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0 &&
        net_.links[static_cast<std::size_t>(topo::link_of_channel(channels[k]))].dim !=
            net_.links[static_cast<std::size_t>(topo::link_of_channel(channels[k - 1]))].dim)
      ++vc;
    if (vc >= classes_)
      fail_infeasible("flit", "a path turns " + std::to_string(vc) + " times, more than its " +
                                  std::to_string(classes_) + " VC classes allow");
    p.push_back({channels[k], vc});
  }
  ++held_;
  return id;
}

void SourceRoutes::release(std::uint32_t flags) {
  const std::uint32_t id = flags & kPathMask;
  paths_[id].clear();
  free_.push_back(id);
  --held_;
}

std::vector<route::Choice> SourceRoutes::route(const route::PacketState& p) const {
  std::vector<route::Choice> out;
  route_into(p, out);
  return out;
}

void SourceRoutes::route_into(const route::PacketState& p, std::vector<route::Choice>& out) const {
  out.clear();
  const std::uint32_t id = p.flags & kPathMask, hop = p.flags >> kPathBits;
  if (id >= paths_.size()) return;
  const std::vector<Hop>& path = paths_[id];
  if (hop >= path.size()) return; // arrived
  out.push_back({path[hop].channel, path[hop].vc, id | (hop + 1) << kPathBits});
}

} // namespace icnkit::sim::flit
