#include "topo/network_json.hpp"

#include <charconv>
#include <map>

namespace icnkit::topo {

namespace {

class Writer {
public:
  explicit Writer(std::string& out) : out_(out) {}
  void raw(const char* s) { out_ += s; }
  void ch(char c) { out_ += c; }
  void integer(std::int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  // nlohmann's own formatting, once per distinct value (a network has few).
  void real(double v) {
    auto it = reals_.find(v);
    if (it == reals_.end()) it = reals_.emplace(v, json(v).dump()).first;
    out_ += it->second;
  }
  void text(const std::string& s) {
    auto it = texts_.find(s);
    if (it == texts_.end()) it = texts_.emplace(s, json(s).dump()).first;
    out_ += it->second;
  }
  template <class T> void list(const std::vector<T>& v) {
    ch('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) ch(',');
      integer(static_cast<std::int64_t>(v[i]));
    }
    ch(']');
  }

private:
  std::string& out_;
  std::map<double, std::string> reals_;
  std::map<std::string, std::string> texts_;
};

} // namespace

void append_network_json(std::string& out, const Network& n) {
  Writer w(out);
  // Keys in the sorted order nlohmann's std::map gives.
  w.raw("{\"boards\":[");
  for (std::size_t i = 0; i < n.boards.size(); ++i) {
    const Board& b = n.boards[i];
    if (i) w.ch(',');
    w.raw("{\"chips\":");
    w.list(b.chips);
    w.raw(",\"id\":");
    w.integer(b.id);
    w.raw(",\"rack\":");
    w.integer(b.rack);
    w.ch('}');
  }
  w.raw("],\"chip_radix\":");
  w.integer(n.chip_radix);
  w.raw(",\"family\":");
  w.text(n.family);
  w.raw(",\"fingerprint\":");
  w.text(n.fingerprint);
  const LinkDefaults defaults = link_defaults(n);
  w.raw(",\"link_defaults\":{");
  bool first_kind = true;
  for (LinkKind k : kLinkKindsByName)
    if (const auto& d = defaults[static_cast<std::size_t>(k)]) {
      if (!first_kind) w.ch(',');
      first_kind = false;
      w.text(to_string(k));
      w.raw(":{\"bandwidth_bytes_per_s\":");
      w.real(d->first);
      w.raw(",\"latency_s\":");
      w.real(d->second);
      w.ch('}');
    }
  w.raw("},\"links\":[");
  for (std::size_t i = 0; i < n.links.size(); ++i) {
    const Link& l = n.links[i];
    const auto& def = defaults[static_cast<std::size_t>(l.kind)];
    if (i) w.ch(',');
    w.raw("{\"a\":");
    w.integer(l.a);
    w.raw(",\"b\":");
    w.integer(l.b);
    if (!def || def->first != l.bandwidth_bytes_per_s) {
      w.raw(",\"bandwidth_bytes_per_s\":");
      w.real(l.bandwidth_bytes_per_s);
    }
    if (l.dim >= 0) {
      w.raw(",\"dim\":");
      w.integer(l.dim);
      w.raw(",\"dir\":");
      w.integer(l.dir);
    }
    w.raw(",\"id\":");
    w.integer(l.id);
    w.raw(",\"kind\":");
    w.text(to_string(l.kind));
    if (!def || def->second != l.latency_s) {
      w.raw(",\"latency_s\":");
      w.real(l.latency_s);
    }
    w.ch('}');
  }
  w.raw("],\"metrics\":");
  out += to_json(n.metrics).dump();
  w.raw(",\"n_chip\":");
  w.integer(n.n_chip);
  w.raw(",\"nodes\":[");
  for (std::size_t i = 0; i < n.nodes.size(); ++i) {
    const Node& v = n.nodes[i];
    if (i) w.ch(',');
    w.ch('{');
    bool first = true;
    auto key = [&](const char* k) {
      if (!first) w.ch(',');
      first = false;
      w.ch('"');
      w.raw(k);
      w.raw("\":");
    };
    if (v.board >= 0) key("board"), w.integer(v.board);
    if (!v.coord.empty()) key("coord"), w.list(v.coord);
    key("id"), w.integer(v.id);
    key("kind"), w.raw(v.kind == NodeKind::Chip ? "\"chip\"" : "\"switch\"");
    if (v.pod >= 0) key("pod"), w.integer(v.pod);
    if (v.kind == NodeKind::Switch) key("ports"), w.integer(v.ports);
    if (v.rack >= 0) key("rack"), w.integer(v.rack);
    if (v.kind == NodeKind::Switch) key("role"), w.text(v.role);
    key("tier"), w.integer(v.tier);
    w.ch('}');
  }
  w.raw("],\"pods\":[");
  for (std::size_t i = 0; i < n.pods.size(); ++i) {
    if (i) w.ch(',');
    w.raw("{\"id\":");
    w.integer(n.pods[i].id);
    w.raw(",\"racks\":");
    w.list(n.pods[i].racks);
    w.ch('}');
  }
  w.raw("],\"racks\":[");
  for (std::size_t i = 0; i < n.racks.size(); ++i) {
    const Rack& r = n.racks[i];
    if (i) w.ch(',');
    w.raw("{\"boards\":");
    w.list(r.boards);
    w.raw(",\"id\":");
    w.integer(r.id);
    w.raw(",\"pod\":");
    w.integer(r.pod);
    w.ch('}');
  }
  w.raw("]}");
}

} // namespace icnkit::topo
