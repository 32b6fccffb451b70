#include "topo/cost.hpp"

#include "core/error.hpp"
#include "topo/cost_table.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace icnkit::topo {

namespace {

constexpr const char* kItems[] = {"switch_port", "nic_port", "trace", "copper", "optic"};

// Splits one CSV line (no quoting: the source column is the last and may hold commas).
std::vector<std::string> fields(const std::string& line, std::size_t n) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (out.size() + 1 < n) {
    const auto comma = line.find(',', at);
    if (comma == std::string::npos) break;
    out.push_back(line.substr(at, comma - at));
    at = comma + 1;
  }
  out.push_back(line.substr(at));
  return out;
}

double number(const std::string& s, const std::string& where, const char* what) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size() || !std::isfinite(v) || v < 0) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    fail_input(where, std::string(what) + " must be a number >= 0, got '" + s + "'");
  }
}

// Priced units of `item` at `gbps`: the row and how many of it.
struct Priced {
  const CostRow* row;
  std::int64_t count;
};
Priced price(const CostTable& t, const std::string& item, double gbps) {
  const CostRow *best = nullptr, *fastest = nullptr;
  for (const CostRow& r : t.rows) {
    if (r.item != item) continue;
    if (!fastest || r.gbps > fastest->gbps) fastest = &r;
    if (r.gbps >= gbps * (1 - 1e-12) && (!best || r.gbps < best->gbps)) best = &r;
  }
  if (!fastest) fail_input(t.name, "the cost table has no " + item + " row");
  if (best) return {best, 1};
  return {fastest, static_cast<std::int64_t>(std::ceil(gbps / fastest->gbps - 1e-12))};
}

} // namespace

CostTable parse_cost_table(const std::string& csv, const std::string& source) {
  CostTable t;
  t.name = source;
  std::istringstream in(csv);
  std::string line;
  int no = 0;
  while (std::getline(in, line)) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::string where = source + ":" + std::to_string(no);
    const auto f = fields(line, 5);
    if (no == 1 && f[0] == "item") continue; // the header
    if (f.size() != 5) fail_input(where, "expected item,gbps,usd,watts,source, got '" + line + "'");
    if (std::find(std::begin(kItems), std::end(kItems), f[0]) == std::end(kItems))
      fail_input(where,
                 "unknown item '" + f[0] + "' (switch_port, nic_port, trace, copper, optic)");
    CostRow r{f[0], number(f[1], where, "gbps"), number(f[2], where, "usd"),
              number(f[3], where, "watts"), f[4]};
    if (!(r.gbps > 0)) fail_input(where, "gbps must be positive");
    if (r.source.empty()) fail_input(where, "every row names its source (or says assumed)");
    t.rows.push_back(std::move(r));
  }
  for (const char* item : kItems)
    if (std::none_of(t.rows.begin(), t.rows.end(),
                     [&](const CostRow& r) { return r.item == item; }))
      fail_input(source, std::string("the cost table has no ") + item + " row");
  return t;
}

const CostTable& default_cost_table() {
  static const CostTable t = [] {
    CostTable d = parse_cost_table(kDefaultCostTableCsv, "data/cost-table.csv");
    d.name = "default";
    return d;
  }();
  return t;
}

Cost network_cost(const Network& n, const CostTable& t) {
  Cost c;
  c.table = t.name;
  auto gbps = [](const Link& l) { return l.bandwidth_bytes_per_s * 8 / 1e9; };
  // Switches: all their ports, at their fastest link's speed.
  std::vector<double> fastest(n.nodes.size(), 0);
  for (const Link& l : n.links) {
    fastest[static_cast<std::size_t>(l.a)] =
        std::max(fastest[static_cast<std::size_t>(l.a)], gbps(l));
    fastest[static_cast<std::size_t>(l.b)] =
        std::max(fastest[static_cast<std::size_t>(l.b)], gbps(l));
  }
  for (const Node& v : n.nodes) {
    if (v.kind != NodeKind::Switch || fastest[static_cast<std::size_t>(v.id)] <= 0) continue;
    const Priced p = price(t, "switch_port", fastest[static_cast<std::size_t>(v.id)]);
    const std::int64_t ports = v.ports * p.count;
    c.switch_ports += ports;
    c.switches_usd += static_cast<double>(ports) * p.row->usd;
    c.watts += static_cast<double>(ports) * p.row->watts;
  }
  for (const Link& l : n.links) {
    const Node& a = n.nodes[static_cast<std::size_t>(l.a)];
    const Node& b = n.nodes[static_cast<std::size_t>(l.b)];
    const bool chip_a = a.kind == NodeKind::Chip, chip_b = b.kind == NodeKind::Chip;
    if (is_nic_link(n, l.a, l.b, l.kind)) {
      const Priced p = price(t, "nic_port", gbps(l));
      c.nic_ports += p.count;
      c.nics_usd += static_cast<double>(p.count) * p.row->usd;
      c.watts += static_cast<double>(p.count) * p.row->watts;
    }
    const bool same_board = chip_a && chip_b && a.board == b.board;
    const bool same_rack = a.rack >= 0 && a.rack == b.rack;
    const char* item = same_board ? "trace" : same_rack ? "copper" : "optic";
    const Priced p = price(t, item, gbps(l));
    (same_board ? c.traces : same_rack ? c.copper : c.optics) += p.count;
    c.cables_usd += static_cast<double>(p.count) * p.row->usd;
    c.watts += static_cast<double>(p.count) * p.row->watts;
  }
  c.capex_usd = c.switches_usd + c.nics_usd + c.cables_usd;
  return c;
}

} // namespace icnkit::topo
