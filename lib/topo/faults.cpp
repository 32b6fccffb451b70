#include "topo/faults.hpp"

#include "core/error.hpp"
#include "topo/grid.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>

namespace icnkit::topo {

namespace {

// The text without its spaces, which may stand around the value and beside '(', ',', ')', '-'
// and '#' ("( 1, 2 )-(1,3,0)"), never between two digits: "1 5" is not chip 15.
std::string strip(const std::string& s, const std::string& opt) {
  std::string t;
  bool gap = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      gap = !t.empty();
      continue;
    }
    if (gap && std::isdigit(static_cast<unsigned char>(c)) &&
        std::isdigit(static_cast<unsigned char>(t.back())))
      fail_usage(opt, "'" + s + "' has a space inside a number");
    gap = false;
    t += c;
  }
  return t;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 12 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// A chip named by id ("12") or by coordinates ("(1,2,0)").
std::int64_t resolve_chip(const Network& n, const std::string& text, const std::string& opt) {
  std::string t = strip(text, opt);
  if (all_digits(t)) {
    std::int64_t id = std::stoll(t);
    if (id >= n.n_chip)
      fail_usage(opt, "no chip " + t + " (the network has " + std::to_string(n.n_chip) + " chips)");
    return id;
  }
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') {
    std::vector<int> c;
    std::string cur;
    // A coordinate of up to 12 digits fits an int64; one past an int's range names no chip.
    auto coordinate = [&](const std::string& digits) {
      if (!all_digits(digits)) fail_usage(opt, "bad coordinates '" + text + "'");
      const std::int64_t v = std::stoll(digits);
      if (v > std::numeric_limits<int>::max()) fail_usage(opt, "no chip at " + text);
      c.push_back(static_cast<int>(v));
    };
    for (std::size_t i = 1; i + 1 <= t.size() - 1; ++i) {
      char ch = t[i];
      if (ch == ',') {
        coordinate(cur);
        cur.clear();
      } else {
        cur += ch;
      }
    }
    coordinate(cur);
    for (std::int64_t id = 0; id < n.n_chip; ++id)
      if (n.nodes[static_cast<std::size_t>(id)].coord == c) return id;
    fail_usage(opt, "no chip at " + text);
  }
  fail_usage(opt,
             "'" + text + "' is not a chip: give its id (27) or its coordinates ((1,2,0))" +
                 (opt == "{fail_chip}" ? ", one per {fail_chip} ({fail_chip} 27 {fail_chip} 36)"
                                       : std::string()));
}

std::int64_t resolve_link(const Network& n, const std::string& text) {
  const std::string opt = "{fail_link}";
  std::string t = strip(text, opt);
  if (!t.empty() && t[0] == '#') {
    std::string num = t.substr(1);
    if (!all_digits(num)) fail_usage(opt, "'" + text + "' is not a link id like #12");
    std::int64_t id = std::stoll(num);
    if (id >= static_cast<std::int64_t>(n.links.size())) fail_usage(opt, "no link " + t);
    return id;
  }
  // Split at the '-' that is not inside parentheses.
  int depth = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '(')
      ++depth;
    else if (t[i] == ')')
      --depth;
    else if (t[i] == '-' && depth == 0)
      cut = i;
  }
  if (cut == std::string::npos)
    fail_usage(opt, "'" + text + "' is not a link: use A-B, (x,y)-(x,y) or #ID");
  std::int64_t a = resolve_chip(n, t.substr(0, cut), opt);
  std::int64_t b = resolve_chip(n, t.substr(cut + 1), opt);
  std::int64_t best = -1;
  for (const Link& l : n.links) {
    if (l.a == a && l.b == b) return l.id; // leaves A (in + direction for coordinate families)
    if (best < 0 && l.a == b && l.b == a) best = l.id;
  }
  if (best < 0)
    fail_usage(opt, "no link between chips " + std::to_string(a) + " and " + std::to_string(b) +
                        " ('" + text + "')");
  return best;
}

} // namespace

std::vector<std::int64_t> ocs_links(const Network& n, int ocs) {
  const std::string opt = "{fail_ocs}";
  if (ocs < 0 || ocs >= kOcsCount)
    fail_usage(opt, "no OCS " + std::to_string(ocs) + " (a TPU v4 torus has OCSes 0.." +
                        std::to_string(kOcsCount - 1) + ")");
  if (n.family != "torus")
    fail_usage(opt, "OCS faults need a torus of 4x4x4 cubes, but the network is a " + n.family);
  const TorusGeometry g = TorusGeometry::shape_of(n, opt);
  const std::string shape = join_sizes(g.sizes());
  if (g.dims() != 3) fail_usage(opt, "OCS faults need a 3-D torus of 4x4x4 cubes, not " + shape);
  for (int s : g.sizes())
    if (s % 4 != 0)
      fail_usage(opt, "OCS faults need a torus of 4x4x4 cubes (every dimension a multiple of "
                      "4), not " +
                          shape);
  const int d = ocs / 16, p = ocs % 16;
  const int lo = d == 0 ? 1 : 0, hi = d == 2 ? 1 : 2; // the other dimensions, in order
  std::vector<std::int64_t> out;
  for (const Link& l : n.links) {
    if (l.dim != d) continue;
    const std::int64_t c = l.dir > 0 ? l.a : l.b; // the chip the link leaves in + direction
    if (g.coord(c, d) % 4 == 3 && g.coord(c, lo) % 4 + 4 * (g.coord(c, hi) % 4) == p)
      out.push_back(l.id);
  }
  return out; // in link order
}

namespace {
// A switch by node id: Error(Usage) at --fail-switch unless it is one.
std::int64_t resolve_switch(const Network& n, const std::string& text) {
  std::int64_t id = -1;
  try {
    std::size_t used = 0;
    id = std::stoll(text, &used);
    if (used != text.size()) id = -1;
  } catch (const std::exception&) {
    id = -1;
  }
  const auto nodes = static_cast<std::int64_t>(n.nodes.size());
  if (id < n.n_chip || id >= nodes)
    fail_usage("{fail_switch}",
               "'" + text + "' is not a switch: switches are nodes " + std::to_string(n.n_chip) +
                   ".." + std::to_string(nodes - 1) +
                   (nodes == n.n_chip ? " (this " + n.family + " has none)" : std::string()));
  return id;
}
} // namespace

namespace {
// The links of "CHIP" or "CHIP:I" (--fail-nic).
std::vector<std::int64_t> resolve_nic(const Network& n, const std::string& text) {
  const auto colon = text.find(':');
  const std::int64_t chip = resolve_chip(n, text.substr(0, colon), "{fail_nic}");
  std::vector<std::int64_t> ports; // the chip's NIC links, in link order
  for (const Link& l : n.links) {
    if (l.kind == LinkKind::C2C || (l.a != chip && l.b != chip)) continue;
    const std::int64_t other = l.a == chip ? l.b : l.a;
    if (n.nodes[static_cast<std::size_t>(other)].kind == NodeKind::Switch) ports.push_back(l.id);
  }
  if (ports.empty())
    fail_usage("{fail_nic}", "chip " + std::to_string(chip) +
                                 " has no NIC: its links go to chips or scale-up switches");
  if (colon == std::string::npos) return ports;
  const std::string index = text.substr(colon + 1);
  const bool composed = n.family == "composed";
  const std::int64_t nics = composed
                                ? n.metrics.family_attrs.value("nics_per_chip", std::int64_t{1})
                                : static_cast<std::int64_t>(ports.size());
  std::int64_t i = -1;
  if (!index.empty() && index.size() < 6 &&
      index.find_first_not_of("0123456789") == std::string::npos)
    i = std::stoll(index);
  if (i < 0 || i >= nics)
    fail_usage("{fail_nic}", "chip " + std::to_string(chip) + " has NICs 0.." +
                                 std::to_string(nics - 1) + ", not '" + index + "'");
  std::vector<std::int64_t> out;
  for (std::size_t k = static_cast<std::size_t>(i); k < ports.size();
       k += static_cast<std::size_t>(nics))
    out.push_back(ports[k]); // one port per plane
  return out;
}
} // namespace

Faults make_faults(const Network& n, const FaultRequest& req, const Faults* existing) {
  std::map<std::int64_t, std::string> links;
  std::map<std::int64_t, std::string> chips;
  Faults f;
  if (existing) {
    for (auto& l : existing->links) links.emplace(l.link, l.cause);
    for (auto& c : existing->chips) chips.emplace(c.chip, c.cause);
    f.ocs = existing->ocs;
    f.switches = existing->switches;
    f.random_seed = existing->random_seed;
    if (req.random_links > 0 && existing->random_seed) {
      std::int64_t drawn = 0;
      for (auto& l : existing->links) drawn += l.cause == "random";
      fail_usage("{fail_random_links}",
                 "the network already has " + std::to_string(drawn) + " random link faults (seed " +
                     std::to_string(*existing->random_seed) +
                     "); a network holds one random draw: draw them all in one run");
    }
  }
  for (auto& s : req.links) links.emplace(resolve_link(n, s), "explicit");
  for (auto& s : req.chips) chips.emplace(resolve_chip(n, s, "{fail_chip}"), "explicit");
  for (auto i : req.ocs) {
    if (i < 0 || i >= kOcsCount)
      fail_usage("{fail_ocs}", "no OCS " + std::to_string(i) + " (a TPU v4 torus has OCSes 0.." +
                                   std::to_string(kOcsCount - 1) + ")");
    for (auto id : ocs_links(n, static_cast<int>(i))) links.emplace(id, "ocs");
    f.ocs.push_back(i);
  }
  std::sort(f.ocs.begin(), f.ocs.end());
  f.ocs.erase(std::unique(f.ocs.begin(), f.ocs.end()), f.ocs.end());
  for (const std::string& text : req.switches) {
    const std::int64_t sw = resolve_switch(n, text);
    for (const Link& l : n.links)
      if (l.a == sw || l.b == sw) links.emplace(l.id, "switch");
    f.switches.push_back(sw);
  }
  std::sort(f.switches.begin(), f.switches.end());
  f.switches.erase(std::unique(f.switches.begin(), f.switches.end()), f.switches.end());
  for (const std::string& text : req.nics)
    for (std::int64_t id : resolve_nic(n, text)) links.emplace(id, "nic");
  if (req.random_links > 0) {
    std::vector<std::int64_t> pool;
    for (const Link& l : n.links)
      if (!links.count(l.id)) pool.push_back(l.id);
    if (req.random_links > static_cast<std::int64_t>(pool.size()))
      fail_usage("{fail_random_links}", "asks for " + std::to_string(req.random_links) +
                                            " links but only " + std::to_string(pool.size()) +
                                            " are left");
    SplitMix64 rng(req.seed);
    for (std::int64_t i = 0; i < req.random_links; ++i) {
      auto j = static_cast<std::size_t>(i) +
               static_cast<std::size_t>(rng.below(pool.size() - static_cast<std::size_t>(i)));
      std::swap(pool[static_cast<std::size_t>(i)], pool[j]);
      links.emplace(pool[static_cast<std::size_t>(i)], "random");
    }
    f.random_seed = req.seed;
  }
  for (auto& [id, cause] : links) f.links.push_back({id, cause});
  for (auto& [id, cause] : chips) f.chips.push_back({id, cause});
  return f;
}

} // namespace icnkit::topo
