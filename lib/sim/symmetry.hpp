// The translations of a fault-free torus that map the traffic onto itself, so that the analytic
// engine can simulate one flow per orbit of flows instead of every flow: net-sim --traffic
// all-to-all on a TPU v4 pod (16.7M flows become 32,760) and a ring schedule on 131,072 chips (a
// step's 262,144 one-hop flows become 2).
//
// The group. A translation by g (chip coordinates + g, modulo the ring sizes) must map every link
// onto a link of the same bandwidth and latency (a packaged torus's board links may differ from
// its chip links): link_periods() gives, per dimension, the smallest period p there such that
// translating by p does. The translations whose g[a] are multiples of period[a] form a group G of
// order prod(size[a] / period[a]); it acts freely on chips, channels and flows.
//
// DOR (dor_translations()). DOR finishes the dimensions in a fixed order, and the hops of its leg
// in dimension a depend only on the current and destination coordinates there (route/dor.hpp;
// route/dor_symmetry.hpp argues the same for the verification), so a route is fixed by its legs
// on one line of each dimension. If the leg from x to t has the same directions as the leg from
// x + p to t + p for every x and t, translating by multiples of p maps routes onto routes: p = 1
// with Tie::Plus and on odd rings, p = 2 with Tie::Parity on an even ring. The period is then the
// lcm of that and the link period.
//
// Ring schedules (coll::ScheduleProgram): a ring transfer over every ring, without a fold, sends
// the same bytes from every chip over the same relative hops, so only the link periods count.
//
// Why the quotient is exact. The max-min fair allocation is unique and G preserves capacities and
// which flows cross which channels, so equivalent flows get equal rates. A channel c of orbit C
// carries, of each orbit F of flows, exactly as many crossings as F's representative makes on C's
// channels (G spreads F's crossings evenly over C). So the program of one flow per orbit (source
// in the fundamental domain: coordinates below the periods), with every channel replaced by its
// orbit's representative, gives each channel the same count of flows; every level of the
// progressive filling subtracts the same share from it the same number of times; the drain
// instants are the same; and a channel's bytes are the same values added in the same order (the
// transfers of a step in order, all flows of one transfer or one all-to-all carrying equal
// bytes). The engine copies each representative's bytes to its orbit and counts flows times the
// group's order: the result is the same bit for bit (tests/unit/sim/test_sim_symmetry.cpp).
#pragma once
#include "route/routing.hpp"
#include "topo/network.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace icnkit::sim {

struct Translations {
  std::vector<int> period;                // per dimension
  std::int64_t order = 1;                 // |G| = prod(size / period)
  std::vector<std::int64_t> sources;      // one chip per orbit of chips, ascending
  std::vector<std::uint32_t> channel_rep; // per directed channel: its orbit's representative
};

// Per dimension, the smallest period (a divisor of the ring's size) such that translating by it
// maps every link onto a link of the same bandwidth and latency. std::nullopt unless the network
// is a regular torus of geo's shape with links numbered as topo-gen numbers them (chip c's +
// link in dimension d is c * D + d).
std::optional<std::vector<int>> link_periods(const topo::TorusGeometry& geo,
                                             const topo::Network& n);

// The group of the given periods: its fundamental domain and the channels' representatives.
Translations translations(const topo::TorusGeometry& geo, const topo::Network& n,
                          const std::vector<int>& period);

// std::nullopt when the symmetry does not apply: the function is not DOR on a regular torus,
// something has failed, or a leg leaves its line (so nothing is assumed).
std::optional<Translations> dor_translations(const route::RoutingFunction& fn,
                                             const topo::Network& n, const topo::Faults& f);

} // namespace icnkit::sim
