#include "topo/presets.hpp"

#include "core/error.hpp"
#include "topo/composed.hpp"
#include "topo/torus.hpp"

#include <map>

namespace icnkit::topo {

namespace {

constexpr double kGB = 1e9;
constexpr double kScaleUpLatency = 100e-9, kScaleOutLatency = 1e-6; // assumed

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

// The settings of a preset: every key given or defaulted.
class Settings {
public:
  Settings(const Preset& p, const std::vector<std::string>& given) : preset_(p) {
    for (const PresetKey& k : p.keys) values_[k.name] = k.fallback;
    std::map<std::string, bool> seen;
    for (const std::string& s : given) {
      const auto eq = s.find('=');
      if (eq == std::string::npos)
        fail_usage("{preset}", "expected key=value after the preset's name, got '" + s + "'");
      const std::string key = s.substr(0, eq);
      if (!values_.count(key)) {
        std::string keys;
        for (const PresetKey& k : p.keys) keys += (keys.empty() ? "" : ", ") + k.name;
        fail_usage("{preset}", "unknown key '" + key + "' for " + p.name +
                                   (keys.empty() ? " (it has none)" : " (use " + keys + ")"));
      }
      if (seen[key]) fail_usage("{preset}", "gives " + key + " twice");
      seen[key] = true;
      values_[key] = s.substr(eq + 1);
    }
  }
  const std::string& text(const std::string& key) const { return values_.at(key); }
  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi) const {
    const std::string& v = text(key);
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos ||
        std::stoll(v) < lo || std::stoll(v) > hi)
      fail_usage("{preset}", preset_.name + " " + key + " must be an integer in [" +
                                 std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + v +
                                 "'");
    return std::stoll(v);
  }
  const std::string& choice(const std::string& key, const std::vector<std::string>& from) const {
    const std::string& v = text(key);
    std::string all;
    for (const auto& f : from) {
      if (f == v) return v;
      all += (all.empty() ? "" : ", ") + f;
    }
    fail_usage("{preset}",
               preset_.name + " " + key + " must be one of " + all + ", got '" + v + "'");
  }

private:
  const Preset& preset_;
  std::map<std::string, std::string> values_;
};

void speeds(Context& ctx, double up_bw, double out_bw) {
  ctx.defaults[LinkKind::C2C] = {up_bw, kScaleUpLatency};
  for (LinkKind k : {LinkKind::B2B, LinkKind::R2R, LinkKind::P2P})
    ctx.defaults[k] = {out_bw, kScaleOutLatency};
}

// A composed candidate whose errors name the preset.
std::pair<Context, Candidate> composed(const ComposedParams& p, const std::string& name) {
  return composed_candidate(p, "{preset} " + name);
}

// DGX nodes of 8 GPUs on NVSwitch, one NIC per GPU, rail-optimized, 2 tiers while the leaves
// fit on spines of radix `radix`, else 3.
std::pair<Context, Candidate> dgx(const std::string& name, std::int64_t nodes, std::int64_t unit,
                                  std::int64_t nvswitches, std::int64_t rack, std::int64_t radix,
                                  std::int64_t tiers) {
  ComposedParams p;
  p.domains = nodes;
  p.domain_chips = 8;
  p.scale_up = "switch";
  p.up_switches = nvswitches;
  p.rack_domains = rack;
  p.scale_out = "rail-optimized";
  p.rails = 8;
  p.unit = unit;
  p.radix = radix;
  p.tiers = tiers;
  return composed(p, name);
}

std::pair<Context, Candidate> torus_preset(const std::string& name, const std::string& shape,
                                           const std::string& board) {
  try {
    return torus_from_shape(shape + "/b" + board, "{preset}");
  } catch (const Error& e) {
    fail_usage("{preset}", name + ": " + e.what());
  }
}

} // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {
      {"dgx-superpod",
       "NVIDIA DGX SuperPOD: scalable units (SU) of 32 DGX nodes of 8 GPUs on NVSwitch, one "
       "400 Gb/s NIC per GPU on a rail-optimized InfiniBand fabric of 64-port switches (leaf "
       "per rail and SU, 2 tiers up to 8 SU, a core tier from 9)",
       "NVIDIA DGX SuperPOD reference architecture with DGX B200 (compute fabric component "
       "counts for 2, 4, 8, 16, 32, 64 SU) and with DGX H100",
       "NVLink as equal links to each NVSwitch chip: H100 has 18 NVLink4 links per GPU spread "
       "5/4/4/5 over 4 chips, modelled as one 112.5 GB/s link to each (450 GB/s per direction, "
       "the same total); B200 18 NVLink5 links, 9 to each of 2 chips, one 450 GB/s link each. "
       "Full SUs of 32 nodes (the RA leaves one node slot of 4 SU for UFM)",
       {{"su", "4", "scalable units (1..64)"},
        {"gpu", "b200", "b200 or h100 (the NVLink speed and NVSwitch count)"},
        {"rack", "4", "DGX nodes per rack (divides 32)"}}},
      {"dgx-b300-xdr",
       "NVIDIA DGX SuperPOD with DGX B300 and XDR InfiniBand: SU of 72 DGX B300 nodes, one "
       "800 Gb/s NIC per GPU, rail-optimized 2-tier fabric of 144-port switches",
       "NVIDIA DGX SuperPOD reference architecture with DGX B300 systems (XDR), compute fabric "
       "components for 1, 2, 4, 8, 18 SU",
       "spines: the fewest that divide each leaf's 72 uplinks evenly (4 SU: 18, 8 SU: 36, as "
       "published); the published 18-SU GPU count (9,216) is not 1,296 nodes x 8 = 10,368, "
       "which its node-leaf cable count (10,368) agrees with: the model has 10,368",
       {{"su", "8", "scalable units (1..18)"}, {"rack", "4", "DGX nodes per rack (divides 72)"}}},
      {"gb200-nvl72",
       "NVIDIA GB200 NVL72 racks: 72 GPUs on 18 NVSwitch chips (one 50 GB/s link from every GPU "
       "to each, 900 GB/s per direction), compute trays of 4 GPUs, one 400 Gb/s NIC per GPU on a "
       "rail-optimized fabric (rail = compute tray, SU = 8 racks, 64-port switches)",
       "NVIDIA DGX SuperPOD reference architecture with DGX GB200 (NVLink 5 fabric: 18 compute "
       "trays, 9 switch trays of 2 NVSwitch chips, one link per GPU and switch chip)",
       "the NVLink domain as published; the compute fabric's rails (one per compute tray) and "
       "its spine count are this model's, not a published table",
       {{"racks", "8", "NVL72 racks (1..8, or a multiple of 8)"}}},
      {"alibaba-hpn",
       "Alibaba HPN pod: hosts of 8 GPUs on NVSwitch, 8 NICs of 2 x 200 Gb/s per host (one "
       "per GPU), each NIC's two ports to two ToRs (dual-ToR, dual-plane); a segment is 128 "
       "hosts (1,024 GPUs) with a ToR per rail and plane; 2 tiers: every ToR has 60 x 400 Gb/s "
       "uplinks, one to each aggregation switch of its plane; 15 segments per pod",
       "Qian et al., Alibaba HPN: A Data Center Network for Large Language Model Training, "
       "SIGCOMM 2024 (tier 1: 128 x 200 Gb/s down, 60 x 400 Gb/s up per ToR; tier 2: 120 ToRs "
       "per aggregation switch of a plane)",
       "a ToR's 128 host ports (64 ports of 400 Gb/s split in two) and 60 uplinks are counted "
       "as 188 ports of one switch (radix 188) so the aggregation count is the published 60 per "
       "plane at 15 segments; with fewer segments the model takes the fewest aggregation "
       "switches that divide the 60 uplinks (several links per ToR-aggregation pair); the "
       "aggregation-core tier (8 uplinks per aggregation switch, 15:1) joins pods and is not "
       "modelled; NVLink at H800's 400 GB/s bidirectional, 50 GB/s per direction to each of 4 "
       "NVSwitch chips",
       {{"segments", "15", "segments of 1,024 GPUs (1..15)"},
        {"rack", "2", "hosts per rack (divides 128)"}}},
      {"tpu-v4",
       "Google TPU v4: a torus of 4x4x4 cubes joined by optical circuit switches (the full pod "
       "is 16x16x16 = 4,096 chips, 64 cubes, 48 OCS), 4 chips per board",
       "Jouppi et al., TPU v4, ISCA 2023",
       "OCS reconfiguration is not modelled beyond the slice's torus ({fail_ocs} fails one)",
       {{"shape", "16x16x16", "slice shape, multiples of 4 (e.g. 4x4x8, 8x8x16)"},
        {"twist", "0", "1: the twisted torus (k x k x 2k or k x 2k x 2k)"}}},
      {"tpu-v5p",
       "Google TPU v5p slice: a 3D torus up to 16x16x24 (a pod has 8,960 chips), twisted shapes "
       "offered for 4x4x8, 4x8x8, 8x8x16, 8x16x16; 4 chips per board; ICI 600 GB/s per chip "
       "and direction (1,200 GB/s bidirectional over 6 links: 100 GB/s each)",
       "Google Cloud TPU v5p documentation (slice shapes, twisted topologies, ICI bandwidth)",
       "the ICI speed per link is the per-chip figure over its 6 links",
       {{"shape", "16x16x24", "slice shape, multiples of 4"},
        {"twist", "0", "1: twisted (only the shapes that can be)"}}},
      {"trn2-ultraserver",
       "AWS Trn2 UltraServer: 4 Trn2 instances of 16 chips in a 4x4 torus, chips at the same "
       "coordinates joined in rings across the instances: a 4x4x4 torus of 64 chips",
       "AWS Trainium2 architecture documentation (Trn2 instance and UltraServer topology)",
       "boards of 2x2 chips (an instance's 16 chips in a 4x4 square would be a board 4 times "
       "longer than deep, beyond the spec's board rule); link speeds are the defaults (50 GB/s, "
       "1 us): give {link_bw} for NeuronLink's",
       {}},
  };
  return all;
}

std::pair<Context, Candidate>
preset_candidate(const std::string& name, const std::vector<std::string>& settings, bool& twist) {
  const Preset* p = find_preset(name);
  if (!p) {
    std::string names;
    for (const Preset& q : presets()) names += (names.empty() ? "" : ", ") + q.name;
    fail_usage("{preset}", "unknown preset '" + name + "' (use " + names + ")");
  }
  const Settings s(*p, settings);
  twist = false;
  if (name == "dgx-superpod") {
    const std::int64_t su = s.integer("su", 1, 64), rack = s.integer("rack", 1, 32);
    const bool h100 = s.choice("gpu", {"b200", "h100"}) == "h100";
    if (32 % rack) fail_usage("{preset}", "dgx-superpod rack must divide the SU's 32 nodes");
    auto out = dgx(name, 32 * su, 32, h100 ? 4 : 2, rack, 64, su <= 8 ? 2 : 3);
    speeds(out.first, h100 ? 112.5 * kGB : 450 * kGB, 50 * kGB);
    return out;
  }
  if (name == "dgx-b300-xdr") {
    const std::int64_t su = s.integer("su", 1, 18), rack = s.integer("rack", 1, 72);
    if (72 % rack) fail_usage("{preset}", "dgx-b300-xdr rack must divide the SU's 72 nodes");
    auto out = dgx(name, 72 * su, 72, 2, rack, 144, 2);
    speeds(out.first, 450 * kGB, 100 * kGB);
    return out;
  }
  if (name == "gb200-nvl72") {
    const std::int64_t racks = s.integer("racks", 1, 1024);
    if (racks > 8 && racks % 8)
      fail_usage("{preset}", "gb200-nvl72 racks must be 1..8 or a multiple of 8 (an SU)");
    ComposedParams c;
    c.domains = racks;
    c.domain_chips = 72;
    c.scale_up = "switch";
    c.up_switches = 18;
    c.board_chips = 4;
    c.scale_out = "rail-optimized";
    c.rails = 18;
    c.unit = std::min<std::int64_t>(racks, 8);
    c.radix = 64;
    c.tiers = racks <= 8 ? 2 : 3;
    auto out = composed(c, name);
    speeds(out.first, 50 * kGB, 50 * kGB);
    return out;
  }
  if (name == "alibaba-hpn") {
    const std::int64_t segments = s.integer("segments", 1, 15), rack = s.integer("rack", 1, 128);
    if (128 % rack) fail_usage("{preset}", "alibaba-hpn rack must divide the segment's 128 hosts");
    ComposedParams c;
    c.domains = 128 * segments;
    c.domain_chips = 8;
    c.scale_up = "switch";
    c.up_switches = 4;
    c.rack_domains = rack;
    c.scale_out = "rail-optimized";
    c.planes = 2;
    c.rails = 8;
    c.unit = 128;
    c.radix = 188;
    c.tiers = 2;
    c.leaf_up = 60;
    auto out = composed(c, name);
    speeds(out.first, 50 * kGB, 50 * kGB); // NVLink to each of 4 switch chips; 400 Gb/s uplinks
    out.first.defaults[LinkKind::B2B] = {25 * kGB, kScaleOutLatency}; // 200 Gb/s host ports
    return out;
  }
  if (name == "tpu-v4" || name == "tpu-v5p") {
    const std::string shape = s.text("shape");
    twist = s.integer("twist", 0, 1) == 1;
    auto out = torus_preset(name, shape, "2x2x1");
    const auto& dims = out.second.family_attrs["dimension_sizes"];
    if (dims.size() != 3)
      fail_usage("{preset}", name + " shape must have 3 dimensions, got '" + shape + "'");
    for (const auto& d : dims)
      if (d.get<int>() % 4)
        fail_usage("{preset}", name + " shape must be whole 4x4x4 cubes, got '" + shape + "'");
    if (twist) {
      std::vector<int> S;
      for (const auto& d : dims) S.push_back(d.get<int>());
      const std::string why = twist_problem(S);
      if (!why.empty()) fail_usage("{preset}", name + " twist=1: " + why);
    }
    const double link = name == "tpu-v4" ? 50 * kGB : 100 * kGB;
    for (LinkKind k : {LinkKind::C2C, LinkKind::B2B, LinkKind::R2R, LinkKind::P2P})
      out.first.defaults[k] = {link, kScaleOutLatency};
    return out;
  }
  // trn2-ultraserver
  return torus_preset(name, "4x4x4", "2x2x1");
}

std::string list_presets() {
  std::string out;
  for (const Preset& p : presets()) {
    out += p.name + "\n  " + p.summary + "\n";
    for (const PresetKey& k : p.keys)
      out += "  " + k.name + "=" + k.fallback + "  " + k.help + "\n";
    out += "  source: " + p.source + "\n  model: " + p.model + "\n\n";
  }
  return out;
}

} // namespace icnkit::topo
