// How the chips of a switched network hang off its switches (each chip off one switch, over one
// or more parallel links): what the routings that route switch to switch (HyperX DOR, dragonfly
// MIN) need at both ends of a path.
#pragma once
#include "core/error.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::route {

struct ChipLinks {
  std::vector<std::int64_t> switch_of;             // per chip: its switch's node id
  std::vector<std::vector<std::int64_t>> up, down; // per chip: channels to / from its switch

  ChipLinks() = default;
  // Error(Input) naming `switch_word` ("switch", "router") when a chip hangs off two switches
  // or none. Links between chips (a board's own) are ignored: chips do not route here.
  ChipLinks(const topo::Network& n, const std::string& switch_word)
      : switch_of(static_cast<std::size_t>(n.n_chip), -1), up(static_cast<std::size_t>(n.n_chip)),
        down(static_cast<std::size_t>(n.n_chip)) {
    for (const topo::Link& l : n.links) {
      const bool ca = l.a < n.n_chip, cb = l.b < n.n_chip;
      if (ca == cb) continue;
      const std::int64_t chip = ca ? l.a : l.b, sw = ca ? l.b : l.a;
      std::int64_t& at = switch_of[static_cast<std::size_t>(chip)];
      if (at >= 0 && at != sw)
        fail_input("/network/links/" + std::to_string(l.id),
                   "chip " + std::to_string(chip) + " hangs off more than one " + switch_word);
      at = sw;
      up[static_cast<std::size_t>(chip)].push_back(topo::channel_of(l.id, ca));
      down[static_cast<std::size_t>(chip)].push_back(topo::channel_of(l.id, !ca));
    }
    for (std::int64_t c = 0; c < n.n_chip; ++c)
      if (switch_of[static_cast<std::size_t>(c)] < 0)
        fail_input("/network/links",
                   "chip " + std::to_string(c) + " has no link to a " + switch_word);
  }
};

} // namespace icnkit::route
