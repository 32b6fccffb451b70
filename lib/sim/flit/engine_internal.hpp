// The flit engine's private inline helpers (engine.hpp declares them), for the files that
// implement its per-cycle work: router.cpp calls them per flit, so they stay inline there.
#pragma once
#include "sim/flit/engine.hpp"

namespace icnkit::sim::flit {

inline void Engine::schedule_flit(const Part& W, std::uint8_t to, std::int64_t at,
                                  std::int32_t target, std::uint32_t flit, Meta meta) {
  Arrivals& a =
      parts_[to]
          .flits_in[static_cast<std::size_t>(W.id)][static_cast<std::size_t>(at & (F_.wheel_ - 1))];
  a.flits.push_back({target, flit});
  if (flit & 2) a.heads.push_back(meta);
}

inline void Engine::schedule_credit(const Part& W, std::uint8_t to, std::int64_t at,
                                    std::int32_t ovc) {
  parts_[to]
      .credits_in[static_cast<std::size_t>(W.id)][static_cast<std::size_t>(at & (F_.wheel_ - 1))]
      .push_back(ovc);
}

inline void Engine::set_waiting(std::int32_t r, std::int32_t iv, bool on) {
  const std::int32_t k = iv - F_.in_begin_[static_cast<std::size_t>(r)] * V_;
  std::uint64_t& w =
      va_mask_[static_cast<std::size_t>(va_begin_[static_cast<std::size_t>(r)] + k / 64)];
  const std::uint64_t bit = std::uint64_t{1} << (k % 64);
  w = on ? w | bit : w & ~bit;
  router_va_[static_cast<std::size_t>(r)] += on ? 1 : -1;
}

inline void Engine::set_candidate(std::int32_t unit, int vc) {
  if (port_mask_[static_cast<std::size_t>(unit)] == 0) {
    const std::int32_t r = F_.in_router_[static_cast<std::size_t>(unit)];
    const std::int32_t k = unit - F_.in_begin_[static_cast<std::size_t>(r)];
    router_ports_[static_cast<std::size_t>(rp_begin_[static_cast<std::size_t>(r)] + k / 64)] |=
        std::uint64_t{1} << (k % 64);
  }
  port_mask_[static_cast<std::size_t>(unit)] |= std::uint64_t{1} << vc;
}

inline void Engine::clear_candidate(std::int32_t unit, int vc) {
  std::uint64_t& m = port_mask_[static_cast<std::size_t>(unit)];
  m &= ~(std::uint64_t{1} << vc);
  if (m == 0) {
    const std::int32_t r = F_.in_router_[static_cast<std::size_t>(unit)];
    const std::int32_t k = unit - F_.in_begin_[static_cast<std::size_t>(r)];
    router_ports_[static_cast<std::size_t>(rp_begin_[static_cast<std::size_t>(r)] + k / 64)] &=
        ~(std::uint64_t{1} << (k % 64));
  }
}

inline void Engine::choose_at_random(std::vector<Opt>& opts, std::int64_t node) {
  if (opts.size() < 2 || !F_.fn_.random_choice()) return;
  const std::size_t k = choice_rng_[static_cast<std::size_t>(node)].below(opts.size());
  opts[0] = opts[k];
  opts.resize(1);
}

} // namespace icnkit::sim::flit
