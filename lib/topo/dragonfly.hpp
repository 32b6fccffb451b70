// The dragonfly families (spec §Dragonfly, §Dragonfly+): groups of switches with boards,
// joined by global links.
//
// dragonfly  (Kim et al., ISCA 2008) p boards per router, a routers per group fully connected
//            (local links), h global links per router, g in [2, a*h + 1] groups; routers are
//            Tier 8 in their group's rack. Warnings: degenerate (N_endpoint < 64),
//            non-balanced-global-link (g < a*h + 1), low-utilization (g*a*p > 1.5 N_endpoint),
//            radix-too-large (p + a - 1 + h > 64).
// dragonfly+ (Shpiner et al. 2017) each group a two-level leaf-spine: a leaf switches with p
//            boards each, s spines (s | a; a/s leaves per subgroup), every leaf linked to every
//            spine of its group; each spine has s - 1 global links, so a group has s(s-1) and
//            g in [2, s(s-1) + 1]. Warnings: over-engineered (N_endpoint < 128),
//            minimal-subgroups (s = 2), non-balanced-global-link (g < s(s-1) + 1),
//            low-utilization (g*a*p > 1.5 N_endpoint), radix-too-large.
//
// Both: N_endpoint runs over the divisors of n_chip with g <= N_endpoint <= g*a*p. Boards fill
// the groups evenly (group i holds floor(N/g) boards, one more for i < N mod g; inside a group
// its routers likewise), so no group is empty and the global links are evenly loaded. A group
// is a rack (Tier 8), all groups one pod. The global links (arrange_global_links) give every
// pair of groups floor(P/(g-1)) links (P = global ports per group) and spend the remaining
// ports on a circulant (group i with i+t and i-t, t = 1, 2, ...; the antipode for an odd
// remainder when g is even): every port is used except one per group when P - floor(...)(g-1)
// is odd and g odd. Port q of a group sits on router (spine) q / h, so consecutive ports of a
// router reach consecutive groups.
#pragma once
#include "topo/family.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::topo {

struct GlobalLink {
  std::int64_t group_a, port_a, group_b, port_b;
};
// The global links of g groups with P ports each (P >= g - 1), in a fixed order.
std::vector<GlobalLink> arrange_global_links(std::int64_t g, std::int64_t P);
// How many: floor(P/(g-1)) * g(g-1)/2 + the circulant's.
std::int64_t global_link_count(std::int64_t g, std::int64_t P);
// Boards of group i when E boards fill g groups evenly; of router j when n fill a routers.
inline std::int64_t even_share(std::int64_t total, std::int64_t parts, std::int64_t i) {
  return total / parts + (i < total % parts ? 1 : 0);
}

class DragonflyFamily : public Family {
public:
  explicit DragonflyFamily(bool plus) : plus_(plus) {}
  std::string name() const override { return plus_ ? "dragonfly+" : "dragonfly"; }
  std::string summary() const override;
  std::string reference() const override;
  std::vector<Scope> scopes() const override { return {Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override { return {"a", "p", plus_ ? "s" : "h", "g"}; }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context& ctx, RunSink& out) const override;
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  std::optional<std::int64_t> attr(const CandidateRun& r, std::int64_t i,
                                   const std::string& key) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;

private:
  bool plus_;
};

} // namespace icnkit::topo
