// Fuzz target: the option and units parsers. The first byte picks the parser, the rest is the
// option's value as the command line would hand it over. Properties besides "a typed error or a
// value": the units parsers' documented ranges (bytes > 0; bandwidth in [1 KB/s, 1 PB/s];
// time in [0, 1 s], finite), a strict integer that is accepted reads back as the same digits,
// a --torus shape that is accepted generates (small ones), fault specs resolve on real networks,
// an accepted composition (--scale-up|--scale-out) or preset generates and passes the
// invariants (small ones), an imported graph (any of the three formats) is a valid network.
#include "core/units.hpp"
#include "fuzz.hpp"
#include "topo/composed.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/import.hpp"
#include "topo/invariants.hpp"
#include "topo/presets.hpp"
#include "topo/torus.hpp"

#include "common/tool.hpp"

#include <cmath>

using namespace icnkit;

namespace {

const topo::Network& network(int which) {
  static const std::vector<topo::Network> nets = [] {
    std::vector<topo::Network> v;
    for (const char* shape : {"4x4x4/b2x2x2", "8x4x4"}) {
      auto [ctx, cand] = topo::torus_from_shape(shape, "fuzz");
      v.push_back(topo::generate(ctx, cand, {}));
    }
    topo::Context ctx;
    ctx.n_chip = 16;
    ctx.scope = topo::Scope::InterRack;
    for (const char* family : {"mesh", "fat-tree", "hyperx"}) {
      auto l = topo::enumerate(ctx, {&topo::require_family(family, "fuzz")}, 1);
      v.push_back(topo::generate(ctx, l.items.at(0), {}));
    }
    return v;
  }();
  return nets[static_cast<std::size_t>(which) % nets.size()];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t pick = data[0];
  const std::string v = fuzz::text_of(data + 1, size - 1);
  switch (pick % 12) {
  case 0:
    fuzz::attempt([&] {
      if (parse_bytes(v, "--bytes") == 0) fuzz::finding("parse_bytes: 0 bytes accepted");
    });
    break;
  case 1:
    fuzz::attempt([&] {
      const double b = parse_bandwidth(v, "--link-bw");
      if (!(b >= kLinkBandwidthMin && b <= kLinkBandwidthMax))
        fuzz::finding("parse_bandwidth: outside [1 KB/s, 1 PB/s]: " + std::to_string(b));
    });
    fuzz::attempt([&] { // per link kind: "50GB/s,c2c=900GB/s"
      const topo::PerKind k = topo::parse_per_kind(
          v, "--link-bw", [](const std::string& t) { return parse_bandwidth(t, "--link-bw"); });
      for (std::size_t i = 0; i <= k.kind.size(); ++i) {
        const auto& f = i < k.kind.size() ? k.kind[i] : k.every;
        if (f && !(*f >= kLinkBandwidthMin && *f <= kLinkBandwidthMax))
          fuzz::finding("parse_per_kind: a figure outside [1 KB/s, 1 PB/s]");
      }
    });
    break;
  case 2:
    fuzz::attempt([&] {
      const double t = parse_time(v, "--link-latency");
      if (!(t >= 0 && t <= kLinkLatencyMax))
        fuzz::finding("parse_time: outside [0, 1 s]: " + std::to_string(t));
    });
    break;
  case 3:
    fuzz::attempt([&] {
      topo::Where w = topo::parse_where(v, "--where");
      topo::check_where_keys(w, topo::families(), "--where");
      topo::Context ctx;
      ctx.n_chip = 64;
      ctx.scope = topo::Scope::InterRack;
      topo::enumerate(ctx, {&topo::require_family("torus", "fuzz")}, 4, std::nullopt, &w);
    });
    break;
  case 4:
    fuzz::attempt([&] { topo::parse_sort(v, "--sort-by"); });
    fuzz::attempt([&] { topo::parse_export_format(v); });
    fuzz::attempt([&] { topo::parse_import_format(v, "--import-format"); });
    break;
  case 5:
    fuzz::attempt([&] {
      auto [ctx, cand] = topo::torus_from_shape(v, "--torus");
      if (ctx.n_chip <= 512) {
        topo::GenerateOptions o;
        o.twist = pick & 0x80;
        topo::generate(ctx, cand, o);
      }
    });
    break;
  case 6:
  case 7:
    fuzz::attempt([&] {
      topo::FaultRequest r;
      (pick % 12 == 6 ? r.links : r.chips).push_back(v);
      topo::make_faults(network(pick / 16), r);
    });
    break;
  case 8: {
    const bool is_unsigned = pick & 0x80;
    if (tool::detail::strict_integer(v, is_unsigned).empty()) {
      // Accepted: plain decimal, which CLI11 then reads as written.
      const bool neg = !v.empty() && v[0] == '-';
      if (is_unsigned && neg) fuzz::finding("strict_integer: a negative unsigned");
      if ((is_unsigned ? std::to_string(std::stoull(v)) : std::to_string(std::stoll(v))) != v)
        fuzz::finding("strict_integer: '" + v + "' does not read back as written");
    }
    break;
  }
  case 9:
    // --fail-ocs V (an integer option) with --fail-random-links and a seed.
    if (tool::detail::strict_integer(v, false).empty())
      fuzz::attempt([&] {
        topo::FaultRequest r;
        r.ocs.push_back(std::stoll(v));
        r.random_links = static_cast<std::int64_t>(pick) % 5;
        r.seed = std::hash<std::string>{}(v);
        topo::make_faults(network(pick / 16), r);
      });
    break;
  case 10:
    // --scale-up A --scale-out B ('|' between them), or --preset NAME k=v ... (' ' between).
    fuzz::attempt([&] {
      const auto bar = v.find('|');
      std::pair<topo::Context, topo::Candidate> cc;
      bool twist = false;
      if (bar != std::string::npos) {
        cc = topo::composed_candidate(topo::parse_composition(v.substr(0, bar), v.substr(bar + 1)),
                                      "--scale-up");
      } else {
        std::vector<std::string> words;
        for (std::size_t at = 0; at <= v.size();) {
          const auto sp = std::min(v.find(' ', at), v.size());
          words.push_back(v.substr(at, sp - at));
          at = sp + 1;
        }
        cc = topo::preset_candidate(words[0], {words.begin() + 1, words.end()}, twist);
      }
      if (cc.first.n_chip <= 256) {
        topo::GenerateOptions o;
        o.twist = twist;
        topo::generate(cc.first, cc.second, o); // checks the invariants itself
      }
    });
    break;
  case 11:
    fuzz::attempt([&] {
      const auto f = static_cast<topo::ImportFormat>((pick / 16) % 3);
      topo::Imported g = topo::import_network(v, f, "fuzz", {}, {});
      topo::check_invariants(g.network, ErrorKind::Runtime, "fuzz import");
    });
    break;
  }
  return 0;
}
