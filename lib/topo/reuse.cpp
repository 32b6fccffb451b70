#include "topo/reuse.hpp"

#include "core/error.hpp"

#include <cstdio>
#include <set>

namespace icnkit::topo {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The distinct values of one link field, as text: "5e+10" or "2.5e+10 .. 5e+10 (3 values)".
template <class F> std::string values_of(const Network& n, F field) {
  std::set<double> v;
  for (const Link& l : n.links) v.insert(field(l));
  if (v.empty()) return "none (the network has no links)";
  if (v.size() == 1) return number(*v.begin());
  return number(*v.begin()) + " .. " + number(*v.rbegin()) + " (" + std::to_string(v.size()) +
         " values)";
}

const char* const kKeep = "; the document already holds a network, which topo-gen keeps as it is "
                          "(add faults with {fail_link}, {fail_chip} and the like, or run topo-gen "
                          "on the candidates document "
                          "to build another)";

} // namespace

void check_build_agrees(const Network& n, const Candidate* c, const CandidateList* list,
                        const BuildRequest& r) {
  const std::string built = c ? "candidate '" + c->id + "'" : "a candidate the document omits";
  if (r.pick) {
    bool same = c && *r.pick == c->id;
    if (!same && c && list) {
      const Candidate* p = nullptr;
      try {
        p = &pick_candidate(*list, *r.pick, "{pick}");
      } catch (const Error&) {
        p = nullptr;
      }
      same = p && p->id == c->id;
    }
    if (!same)
      fail_usage("{pick}", "'" + *r.pick + "' is not the network's candidate (it was built from " +
                               built + ")" + kKeep);
  }
  if (r.direct && !(c && c->family == r.direct->family && c->id == r.direct->id &&
                    c->family_attrs == r.direct->family_attrs))
    fail_usage(r.direct_option, "the network '" + r.direct->id +
                                    "' is not the document's candidate (it was built from " +
                                    built + ")" + kKeep);
  // "the network's link bandwidth", or its c2c links' when the figure was given for that kind.
  const auto whose = [](const PerKind& p, LinkKind k) {
    return p.kind[static_cast<std::size_t>(k)] ? "network's " + to_string(k) + " link"
                                               : std::string("network's link");
  };
  for (const Link& l : n.links) {
    const bool nic = is_nic_link(n, l.a, l.b, l.kind);
    if (auto bw = r.link_bandwidth.of(l.kind, nic); bw && l.bandwidth_bytes_per_s != *bw)
      fail_usage("{link_bw}",
                 number(*bw) + " bytes/s is not the " + whose(r.link_bandwidth, l.kind) +
                     " bandwidth (its links have " +
                     values_of(n, [](const Link& k) { return k.bandwidth_bytes_per_s; }) +
                     " bytes/s)" + kKeep);
    if (auto lat = r.link_latency.of(l.kind, nic); lat && l.latency_s != *lat)
      fail_usage("{link_latency}", number(*lat) + " s is not the " + whose(r.link_latency, l.kind) +
                                       " latency (its links have " +
                                       values_of(n, [](const Link& k) { return k.latency_s; }) +
                                       " s)" + kKeep);
  }
  if (r.twist) {
    const json& a = n.metrics.family_attrs;
    const bool twisted = a.is_object() && a.contains("twisted") && a["twisted"] == true;
    if (!twisted)
      fail_usage("{twist}", "the network (" + n.family + ") is not a twisted torus" + kKeep);
  }
}

} // namespace icnkit::topo
