// Cost and power of a network (network.metrics.cost) from a price and power table: the one
// shipped in data/cost-table.csv (compiled in) or the user's (topo-gen --cost-table FILE).
//
// The table: CSV "item,gbps,usd,watts,source", one row per item and speed class; every item
// needs at least one row:
//   switch_port  a switch port (a switch is bought whole: all its `ports`, at its fastest link's
//                speed),
//   nic_port     a NIC port: the chip end of a link between a chip and a switch, except scale-up
//                links (kind c2c: the chip's own SerDes, as NVLink to NVSwitch),
//   trace        a link between two chips of one board,
//   copper       a link between two nodes of one rack (a switch of tier 8 is in its rack),
//   optic        any other link: two transceivers and a fibre.
// A link of speed v (Gb/s per direction) takes the row of its item with the smallest speed at
// least v; faster than every row, it is bought as ceil(v / fastest) of the fastest (a 3.6 Tb/s
// modelled NVLink trunk is 5 ports of 800G). Failed links and chips still cost: they were
// bought.
#pragma once
#include "topo/network.hpp"

#include <string>
#include <vector>

namespace icnkit::topo {

struct CostRow {
  std::string item;
  double gbps = 0, usd = 0, watts = 0;
  std::string source;
};

struct CostTable {
  std::string name; // "default" or the file
  std::vector<CostRow> rows;
};

// The table compiled in from data/cost-table.csv.
const CostTable& default_cost_table();
// Reads a table; Error(Input) naming `source` and the line for a malformed row, an unknown item,
// a negative figure, or an item without any row.
CostTable parse_cost_table(const std::string& csv, const std::string& source);

// The cost of `n` under `t`. Items are counted in units of their speed class.
Cost network_cost(const Network& n, const CostTable& t);

} // namespace icnkit::topo
