#include "coll/verify.hpp"

#include "coll/rings.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace icnkit::coll {

namespace {

// The finest unit verification will track: 1/L block with L <= 2^40, so that the sum of a
// position's holdings (at most N^2 * L per ring) stays far inside int64.
constexpr std::int64_t kMaxUnits = std::int64_t{1} << 40;
// Bound on the steps x chunks table of the ordering check (memory).
constexpr std::int64_t kMaxOrderTable = 50'000'000;

class Verifier {
public:
  Verifier(const Schedule& s, const topo::Network& net, const topo::Faults& faults, ErrorKind kind,
           std::string where)
      : s_(s), net_(net), geo_(topo::TorusGeometry::of(net, "schedule verification")), kind_(kind),
        where_(std::move(where)), down_links_(faults.down_links(net)),
        down_chips_(faults.down_chips(net)) {}

  Verification run() {
    check_header();
    check_order();
    for (std::size_t p = 0; p < s_.phases.size(); ++p) simulate_phase(p);
    v_.delivered = true;
    v_.method = "exact per-ring store-and-forward simulation of every (origin, destination) block "
                "in integer units of 1/L block, composed over dimensions";
    v_.phases_checked = static_cast<std::int64_t>(s_.phases.size());
    v_.steps_checked = s_.step_count();
    v_.failed_links_avoided = std::count(down_links_.begin(), down_links_.end(), 1);
    return v_;
  }

private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(kind_, where_ + pointer, what);
  }
  static std::string phase_ptr(std::size_t p) { return "/phases/" + std::to_string(p); }
  static std::string step_ptr(std::size_t p, std::size_t k) {
    return phase_ptr(p) + "/steps/" + std::to_string(k);
  }
  static std::string transfer_ptr(std::size_t p, std::size_t k, std::size_t t) {
    return step_ptr(p, k) + "/transfers/" + std::to_string(t);
  }

  void check_header() {
    if (s_.collective != "all-to-all")
      fail("/collective", "verification knows all-to-all only, not '" + s_.collective + "'");
    if (s_.bytes_per_node <= 0) fail("/bytes_per_node", "must be positive");
    for (std::size_t p = 0; p < s_.phases.size(); ++p) {
      const Phase& ph = s_.phases[p];
      if (ph.dimension >= geo_.dims())
        fail(phase_ptr(p) + "/dimension", "the torus has " + std::to_string(geo_.dims()) +
                                              " dimensions, there is no dimension " +
                                              std::to_string(ph.dimension));
      if (ph.ring_size != geo_.size(ph.dimension))
        fail(phase_ptr(p) + "/ring_size", "is " + std::to_string(ph.ring_size) + " but dimension " +
                                              std::to_string(ph.dimension) + " has size " +
                                              std::to_string(geo_.size(ph.dimension)));
      double want = static_cast<double>(s_.bytes_per_node) /
                    (static_cast<double>(s_.chunks) * static_cast<double>(ph.ring_size));
      if (!(std::fabs(ph.block_bytes - want) <= 1e-12 * want))
        fail(phase_ptr(p) + "/block_bytes", "is " + std::to_string(ph.block_bytes) +
                                                " but bytes_per_node / chunks / ring_size is " +
                                                std::to_string(want));
      std::int64_t ring_count = geo_.count() / ph.ring_size;
      for (std::size_t k = 0; k < ph.steps.size(); ++k)
        for (std::size_t t = 0; t < ph.steps[k].transfers.size(); ++t) {
          const RingTransfer& tr = ph.steps[k].transfers[t];
          if (tr.rings && !tr.rings->empty() && tr.rings->back() >= ring_count)
            fail(transfer_ptr(p, k, t) + "/rings", "ring " + std::to_string(tr.rings->back()) +
                                                       " does not exist (dimension " +
                                                       std::to_string(ph.dimension) + " has " +
                                                       std::to_string(ring_count) + " rings)");
          if (tr.origin_offset >= ph.ring_size || tr.dest_offset >= ph.ring_size ||
              (tr.direction != 1 && tr.direction != -1))
            fail(transfer_ptr(p, k, t), "offsets or direction out of range");
        }
    }
  }

  // Check 2 of verify.hpp. last_[s][c] = the largest id of a chunk-c step among s's ancestors.
  void check_order() {
    std::int64_t n_steps = s_.step_count();
    std::int64_t n_chunks = s_.chunks;
    if (n_steps * n_chunks > kMaxOrderTable)
      fail("/step_count", "too many steps x chunks to verify (" + std::to_string(n_steps) + " x " +
                              std::to_string(n_chunks) + ")");
    struct Loc {
      std::size_t phase = 0, index = 0;
    };
    std::vector<Loc> loc(static_cast<std::size_t>(n_steps));
    std::vector<char> seen(static_cast<std::size_t>(n_steps), 0);
    for (std::size_t p = 0; p < s_.phases.size(); ++p)
      for (std::size_t k = 0; k < s_.phases[p].steps.size(); ++k) {
        std::int64_t id = s_.phases[p].steps[k].id;
        if (id < 0 || id >= n_steps || seen[static_cast<std::size_t>(id)])
          fail(step_ptr(p, k) + "/id", "step ids must be dense and unique");
        seen[static_cast<std::size_t>(id)] = 1;
        loc[static_cast<std::size_t>(id)] = {p, k};
      }
    auto chunk_of = [&](std::int64_t id) {
      return static_cast<std::size_t>(s_.phases[loc[static_cast<std::size_t>(id)].phase].chunk);
    };
    const auto C = static_cast<std::size_t>(n_chunks);
    std::vector<std::int64_t> last(static_cast<std::size_t>(n_steps) * C, -1);
    std::vector<std::int64_t> prev_of_chunk(C, -1);
    std::vector<std::vector<std::size_t>> phase_runs(C); // phases of each chunk, in run order
    for (std::int64_t id = 0; id < n_steps; ++id) {
      const Loc& l = loc[static_cast<std::size_t>(id)];
      const Step& st = s_.phases[l.phase].steps[l.index];
      std::int64_t* row = &last[static_cast<std::size_t>(id) * C];
      for (std::int64_t a : st.after) {
        if (a < 0 || a >= id)
          fail(step_ptr(l.phase, l.index) + "/after", "must list earlier steps");
        const std::int64_t* arow = &last[static_cast<std::size_t>(a) * C];
        for (std::size_t c = 0; c < C; ++c) row[c] = std::max(row[c], arow[c]);
        row[chunk_of(a)] = std::max(row[chunk_of(a)], a);
      }
      std::size_t c = chunk_of(id);
      if (row[c] != prev_of_chunk[c])
        fail(step_ptr(l.phase, l.index) + "/after",
             "step " + std::to_string(id) +
                 " does not wait (directly or through other steps) for "
                 "step " +
                 std::to_string(prev_of_chunk[c]) + " of the same chunk " + std::to_string(c) +
                 ": the steps of a chunk move the same data and must run in order");
      prev_of_chunk[c] = id;
      auto& runs = phase_runs[c];
      if (runs.empty() || runs.back() != l.phase) {
        if (std::find(runs.begin(), runs.end(), l.phase) != runs.end())
          fail(step_ptr(l.phase, l.index),
               "phase '" + s_.phases[l.phase].name + "' of chunk " + std::to_string(c) +
                   " is interleaved with another phase of the same chunk");
        runs.push_back(l.phase);
      }
    }
    // Each chunk: one phase per dimension of size > 1 (a phase's ring all-to-all fixes one
    // coordinate; two phases on one dimension, or a missing one, break the composition).
    std::vector<std::vector<int>> per_dim(C,
                                          std::vector<int>(static_cast<std::size_t>(geo_.dims())));
    for (auto& ph : s_.phases)
      per_dim[static_cast<std::size_t>(ph.chunk)][static_cast<std::size_t>(ph.dimension)]++;
    for (std::size_t c = 0; c < C; ++c)
      for (int d = 0; d < geo_.dims(); ++d) {
        int count = per_dim[c][static_cast<std::size_t>(d)];
        if (count > 1 || (count == 0 && geo_.size(d) > 1))
          fail("/phases", "chunk " + std::to_string(c) + " has " + std::to_string(count) +
                              " phases along dimension " + std::to_string(d) +
                              " (needs exactly one)");
      }
  }

  // Check 3 and 4 for one phase, ring by ring.
  void simulate_phase(std::size_t p) {
    const Phase& ph = s_.phases[p];
    const int n = ph.ring_size;
    const int d = ph.dimension;
    const DimRings rings(geo_, d);
    std::int64_t L = 1;
    for (auto& st : ph.steps)
      for (auto& t : st.transfers) {
        L = std::lcm(L, t.fraction.den);
        if (L > kMaxUnits) fail(phase_ptr(p), "fractions too fine to verify exactly (lcm > 2^40)");
      }
    const auto N = static_cast<std::size_t>(n);
    auto cell = [N](int holder, int origin, int dest) {
      return (static_cast<std::size_t>(holder) * N + static_cast<std::size_t>(origin)) * N +
             static_cast<std::size_t>(dest);
    };
    std::vector<std::int64_t> amount(N * N * N);
    std::vector<std::int64_t> stamp(static_cast<std::size_t>(net_.channel_count()), -1);
    std::int64_t stamp_id = 0;
    // Per ring: each position's chip and, per direction, its neighbour and outgoing channel.
    std::vector<std::int64_t> chip(N), next[2], chan[2];
    for (int s = 0; s < 2; ++s) next[s].resize(N), chan[s].resize(N);
    for (std::int64_t r = 0; r < rings.count(); ++r) {
      for (int i = 0; i < n; ++i) {
        auto ui = static_cast<std::size_t>(i);
        chip[ui] = rings.chip(r, i);
        for (int s = 0; s < 2; ++s) {
          next[s][ui] = geo_.neighbour(chip[ui], d, s ? -1 : 1);
          chan[s][ui] = geo_.channel(chip[ui], d, s ? -1 : 1);
        }
      }
      std::fill(amount.begin(), amount.end(), 0);
      for (int i = 0; i < n; ++i)
        for (int q = 0; q < n; ++q) amount[cell(i, i, q)] = L;
      for (std::size_t k = 0; k < ph.steps.size(); ++k) {
        const Step& st = ph.steps[k];
        ++stamp_id;
        // Pass 1: every transfer takes its piece from the state before the step.
        for (std::size_t t = 0; t < st.transfers.size(); ++t) {
          const RingTransfer& tr = st.transfers[t];
          if (tr.rings && !std::binary_search(tr.rings->begin(), tr.rings->end(), r)) continue;
          std::int64_t units = tr.fraction.num * (L / tr.fraction.den);
          const auto sd = static_cast<std::size_t>(tr.direction > 0 ? 0 : 1);
          for (int i = 0; i < n; ++i) {
            int o = wrap(i + tr.origin_offset, n), q = wrap(i + tr.dest_offset, n);
            std::int64_t& a = amount[cell(i, o, q)];
            const auto ui = static_cast<std::size_t>(i);
            std::int64_t src = chip[ui];
            if (a < units)
              fail(transfer_ptr(p, k, t),
                   "step " + std::to_string(st.id) + ": " + chip_text(geo_, src) + " (ring " +
                       std::to_string(r) + ", position " + std::to_string(i) + ") would send " +
                       to_string(tr.fraction) + " of the block from position " + std::to_string(o) +
                       " to position " + std::to_string(q) + " but holds only " +
                       std::to_string(a) + "/" + std::to_string(L) + " of it");
            a -= units;
            check_hop(p, k, t, st, src, next[sd][ui], chan[sd][ui], stamp, stamp_id);
          }
        }
        // Pass 2: deliveries land after every transfer of the step has been taken.
        for (const RingTransfer& tr : st.transfers) {
          if (tr.rings && !std::binary_search(tr.rings->begin(), tr.rings->end(), r)) continue;
          std::int64_t units = tr.fraction.num * (L / tr.fraction.den);
          for (int i = 0; i < n; ++i)
            amount[cell(wrap(i + tr.direction, n), wrap(i + tr.origin_offset, n),
                        wrap(i + tr.dest_offset, n))] += units;
        }
      }
      for (int h = 0; h < n; ++h)
        for (int o = 0; o < n; ++o)
          for (int q = 0; q < n; ++q) {
            std::int64_t a = amount[cell(h, o, q)];
            std::int64_t want = h == q ? L : 0;
            if (a != want)
              fail(phase_ptr(p), "not delivered: at the end of phase '" + ph.name + "' " +
                                     chip_text(geo_, rings.chip(r, h)) + " (ring " +
                                     std::to_string(r) + ", position " + std::to_string(h) +
                                     ") holds " + std::to_string(a) + "/" + std::to_string(L) +
                                     " of the block from position " + std::to_string(o) +
                                     " to position " + std::to_string(q) + ", expected " +
                                     (want ? "all of it" : "none"));
          }
      ++v_.rings_checked;
      v_.pieces_checked += static_cast<std::int64_t>(n) * n;
    }
  }

  void check_hop(std::size_t p, std::size_t k, std::size_t t, const Step& st, std::int64_t src,
                 std::int64_t dst, std::int64_t ch, std::vector<std::int64_t>& stamp,
                 std::int64_t stamp_id) {
    ++v_.hop_transfers_checked;
    std::int64_t link = topo::link_of_channel(ch);
    if (down_chips_[static_cast<std::size_t>(src)] || down_chips_[static_cast<std::size_t>(dst)])
      fail(transfer_ptr(p, k, t),
           "step " + std::to_string(st.id) + " sends from " + chip_text(geo_, src) + " to " +
               chip_text(geo_, dst) + " but " +
               chip_text(geo_, down_chips_[static_cast<std::size_t>(src)] ? src : dst) +
               " has failed");
    if (down_links_[static_cast<std::size_t>(link)])
      fail(transfer_ptr(p, k, t), "step " + std::to_string(st.id) + " sends from " +
                                      chip_text(geo_, src) + " to " + chip_text(geo_, dst) +
                                      " over failed link " + std::to_string(link));
    if (!st.shared_links) {
      auto& s = stamp[static_cast<std::size_t>(ch)];
      if (s == stamp_id)
        fail(transfer_ptr(p, k, t), "step " + std::to_string(st.id) +
                                        " puts two transfers on the directed link " +
                                        chip_text(geo_, src) + " -> " + chip_text(geo_, dst) +
                                        " (set shared_links if that is intended)");
      s = stamp_id;
    }
  }

  const Schedule& s_;
  const topo::Network& net_;
  topo::TorusGeometry geo_;
  ErrorKind kind_;
  std::string where_;
  std::vector<char> down_links_, down_chips_;
  Verification v_;
};

} // namespace

Verification verify(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                    ErrorKind on_failure, const std::string& where) {
  return Verifier(s, net, faults, on_failure, where).run();
}

} // namespace icnkit::coll
