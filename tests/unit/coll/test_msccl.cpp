// MSCCL-IR export (coll/msccl.hpp), checked by an interpreter written here from the format's
// definition rather than from the exporter: the XML is parsed by hand, every threadblock runs its
// steps in order, a receive takes the oldest message its sender's threadblock sent to it, a
// step waits for its depid/deps, and the runnable threadblocks are picked in a seeded random
// order (so a missing dependency shows up as a different result). Chunks are symbolic: the set
// of (GPU, input chunk) contributions they hold; a reduce is a union and fails on a
// contribution counted twice. The output buffers must then be what the collective defines.
#include "coll/generate.hpp"
#include "coll/msccl.hpp"
#include "topo/torus.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <random>

using namespace icnkit;

namespace {

struct Node {
  std::string name;
  std::map<std::string, std::string> attr;
  std::vector<Node> kids;
  std::int64_t num(const std::string& k) const {
    auto it = attr.find(k);
    if (it == attr.end()) throw std::runtime_error(name + " lacks " + k);
    return std::stoll(it->second);
  }
  const std::string& str(const std::string& k) const {
    auto it = attr.find(k);
    if (it == attr.end()) throw std::runtime_error(name + " lacks " + k);
    return it->second;
  }
};

// Elements with attributes, nested or self-closing; nothing else of XML.
Node parse_xml(const std::string& x) {
  std::vector<Node> stack;
  Node root;
  std::size_t at = 0;
  auto skip = [&] {
    while (at < x.size() && std::isspace(static_cast<unsigned char>(x[at]))) ++at;
  };
  while (true) {
    at = x.find('<', at);
    if (at == std::string::npos) break;
    ++at;
    if (x[at] == '/') {
      const std::size_t end = x.find('>', at);
      const std::string name = x.substr(at + 1, end - at - 1);
      if (stack.empty() || stack.back().name != name) throw std::runtime_error("bad </" + name);
      Node done = std::move(stack.back());
      stack.pop_back();
      (stack.empty() ? root.kids : stack.back().kids).push_back(std::move(done));
      at = end + 1;
      continue;
    }
    Node n;
    while (at < x.size() && !std::isspace(static_cast<unsigned char>(x[at])) && x[at] != '/' &&
           x[at] != '>')
      n.name += x[at++];
    while (true) {
      skip();
      if (x[at] == '/' || x[at] == '>') break;
      const std::size_t eq = x.find('=', at);
      const std::string key = x.substr(at, eq - at);
      if (x[eq + 1] != '"') throw std::runtime_error("unquoted " + key);
      const std::size_t close = x.find('"', eq + 2);
      n.attr[key] = x.substr(eq + 2, close - eq - 2);
      at = close + 1;
    }
    if (x[at] == '/') {
      (stack.empty() ? root.kids : stack.back().kids).push_back(std::move(n));
      at += 2;
    } else {
      stack.push_back(std::move(n));
      ++at;
    }
  }
  if (!stack.empty() || root.kids.size() != 1) throw std::runtime_error("unbalanced");
  return std::move(root.kids.front());
}

using Val = std::vector<std::pair<std::int64_t, std::int64_t>>; // sorted (gpu, input chunk)
struct Cell {
  bool set = false;
  Val v;
};

Val merge(const Val& a, const Val& b) {
  Val o;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(o));
  if (o.size() != a.size() + b.size()) throw std::runtime_error("a contribution reduced twice");
  return o;
}

struct Run {
  std::string error; // "" when it ran to the end
  std::vector<std::map<char, std::vector<Cell>>> buf;
};

Run interpret(const Node& algo, std::uint64_t seed) {
  Run run;
  try {
    const auto ngpus = algo.num("ngpus");
    const auto& gpus = algo.kids;
    if (static_cast<std::int64_t>(gpus.size()) != ngpus) throw std::runtime_error("gpu count");
    run.buf.resize(static_cast<std::size_t>(ngpus));
    struct Tb {
      int gpu, id, send, recv, chan;
      const std::vector<Node>* steps;
      std::size_t pc = 0;
      std::map<std::int64_t, std::size_t> index_of_s;
    };
    std::vector<Tb> tbs;
    std::map<std::pair<int, int>, std::size_t> tb_at;          // (gpu, tb id)
    std::map<std::tuple<int, int, int>, int> sender, receiver; // (gpu, peer, chan) -> tb id
    for (const Node& g : gpus) {
      const int id = static_cast<int>(g.num("id"));
      auto& b = run.buf.at(static_cast<std::size_t>(id));
      b['i'].resize(static_cast<std::size_t>(g.num("i_chunks")));
      b['o'].resize(static_cast<std::size_t>(g.num("o_chunks")));
      b['s'].resize(static_cast<std::size_t>(g.num("s_chunks")));
      for (std::size_t c = 0; c < b['i'].size(); ++c)
        b['i'][c] = {true, {{id, static_cast<std::int64_t>(c)}}};
      for (const Node& t : g.kids) {
        Tb tb{id,
              static_cast<int>(t.num("id")),
              static_cast<int>(t.num("send")),
              static_cast<int>(t.num("recv")),
              static_cast<int>(t.num("chan")),
              &t.kids,
              0,
              {}};
        for (std::size_t k = 0; k < t.kids.size(); ++k) tb.index_of_s[t.kids[k].num("s")] = k;
        // A connection belongs to one threadblock at each end.
        if (tb.send >= 0 && !sender.emplace(std::tuple{id, tb.send, tb.chan}, tb.id).second)
          throw std::runtime_error("two threadblocks send to one peer");
        if (tb.recv >= 0 && !receiver.emplace(std::tuple{id, tb.recv, tb.chan}, tb.id).second)
          throw std::runtime_error("two threadblocks receive from one peer");
        tb_at[{id, tb.id}] = tbs.size();
        tbs.push_back(std::move(tb));
      }
    }
    // Messages in flight per (sender gpu, receiver gpu, channel).
    std::map<std::tuple<int, int, int>, std::deque<std::vector<Cell>>> wire;
    auto cells = [&](int g, const std::string& buf, std::int64_t off,
                     std::int64_t cnt) -> std::vector<Cell>& {
      auto& v = run.buf[static_cast<std::size_t>(g)].at(buf.at(0));
      if (off < 0 || off + cnt > static_cast<std::int64_t>(v.size()))
        throw std::runtime_error("chunk out of range");
      return v;
    };
    auto ready = [&](const Tb& t) {
      if (t.pc >= t.steps->size()) return false;
      const Node& s = (*t.steps)[t.pc];
      const auto depid = s.num("depid");
      if (depid >= 0) {
        const Tb& d = tbs.at(tb_at.at({t.gpu, static_cast<int>(depid)}));
        auto it = d.index_of_s.find(s.num("deps"));
        if (it == d.index_of_s.end()) throw std::runtime_error("dependency on a missing step");
        if (d.pc <= it->second) return false;
      }
      const std::string& ty = s.str("type");
      if (ty[0] == 'r' && ty != "re") {
        auto it = wire.find({t.recv, t.gpu, t.chan});
        return it != wire.end() && !it->second.empty();
      }
      return true;
    };
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> order(tbs.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    // Rounds over the threadblocks in a new random order each, every ready one taking a step.
    for (bool moved = true; moved;) {
      moved = false;
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t next : order) {
        Tb& t = tbs[next];
        if (!ready(t)) continue;
        moved = true;
        const Node& s = (*t.steps)[t.pc];
        const std::string& ty = s.str("type");
        const auto cnt = s.num("cnt");
        const auto so = s.num("srcoff"), dof = s.num("dstoff");
        std::vector<Cell> data;
        if (ty[0] == 'r' && ty != "re") { // every receive: the oldest message of its connection
          auto& q = wire[{t.recv, t.gpu, t.chan}];
          data = std::move(q.front());
          q.pop_front();
          if (static_cast<std::int64_t>(data.size()) != cnt)
            throw std::runtime_error("received " + std::to_string(data.size()) + " chunks, step " +
                                     "expects " + std::to_string(cnt));
        }
        auto src = [&] {
          std::vector<Cell> v;
          auto& b = cells(t.gpu, s.str("srcbuf"), so, cnt);
          for (std::int64_t k = 0; k < cnt; ++k) {
            if (!b[static_cast<std::size_t>(so + k)].set)
              throw std::runtime_error("reads a chunk never written");
            v.push_back(b[static_cast<std::size_t>(so + k)]);
          }
          return v;
        };
        auto reduce_with = [&](std::vector<Cell> local) {
          for (std::int64_t k = 0; k < cnt; ++k)
            data[static_cast<std::size_t>(k)].v =
                merge(data[static_cast<std::size_t>(k)].v, local[static_cast<std::size_t>(k)].v);
        };
        auto write = [&] {
          auto& b = cells(t.gpu, s.str("dstbuf"), dof, cnt);
          for (std::int64_t k = 0; k < cnt; ++k)
            b[static_cast<std::size_t>(dof + k)] = data[static_cast<std::size_t>(k)];
        };
        auto send = [&] {
          if (t.send < 0) throw std::runtime_error("a send without a send peer");
          wire[{t.gpu, t.send, t.chan}].push_back(data);
        };
        if (ty == "s") {
          data = src();
          send();
        } else if (ty == "r") {
          write();
        } else if (ty == "rrc") {
          reduce_with(src());
          write();
        } else if (ty == "rcs") {
          write();
          send();
        } else if (ty == "rrs") {
          reduce_with(src());
          send();
        } else if (ty == "rrcs") {
          reduce_with(src());
          write();
          send();
        } else if (ty == "cpy") {
          data = src();
          write();
        } else if (ty == "re") {
          data = src();
          auto& b = cells(t.gpu, s.str("dstbuf"), dof, cnt);
          std::vector<Cell> d(b.begin() + dof, b.begin() + dof + cnt);
          reduce_with(d);
          write();
        } else if (ty != "nop") {
          throw std::runtime_error("unknown step type " + ty);
        }
        ++t.pc;
      }
    }
    for (const Tb& t : tbs)
      if (t.pc < t.steps->size())
        throw std::runtime_error("deadlock: gpu " + std::to_string(t.gpu) + " tb " +
                                 std::to_string(t.id) + " stuck at step " + std::to_string(t.pc));
    for (auto& [k, q] : wire)
      if (!q.empty()) throw std::runtime_error("a message was never received");
  } catch (const std::exception& e) {
    run.error = e.what();
  }
  return run;
}

// "" when the output buffers hold what the collective defines.
std::string check_output(const Node& algo, const Run& run) {
  if (!run.error.empty()) return run.error;
  const auto n = algo.num("ngpus"), C = algo.num("nchunksperloop");
  const std::string coll = algo.str("coll");
  if (C % n) return "nchunksperloop is not a multiple of ngpus";
  const std::int64_t per = C / n;
  for (std::int64_t g = 0; g < n; ++g) {
    const auto& o = run.buf[static_cast<std::size_t>(g)].at('o');
    const std::int64_t want_chunks = coll == "reducescatter" ? per : C;
    if (static_cast<std::int64_t>(o.size()) != want_chunks) return "output size";
    for (std::int64_t c = 0; c < want_chunks; ++c) {
      Val want;
      if (coll == "allreduce")
        for (std::int64_t h = 0; h < n; ++h) want.push_back({h, c});
      else if (coll == "reducescatter")
        for (std::int64_t h = 0; h < n; ++h) want.push_back({h, g * per + c});
      else if (coll == "allgather")
        want.push_back({c / per, c % per});
      else if (coll == "alltoall")
        want.push_back({c / per, g * per + c % per});
      const Cell& got = o[static_cast<std::size_t>(c)];
      if (!got.set || got.v != want)
        return "gpu " + std::to_string(g) + " output chunk " + std::to_string(c) + " is wrong";
    }
  }
  return "";
}

// Runs the XML under several schedulings of its threadblocks; "" when every one is right.
std::string execute(const std::string& xml) {
  const Node algo = parse_xml(xml);
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::string e = check_output(algo, interpret(algo, seed));
    if (!e.empty()) return e;
  }
  return "";
}

topo::Network single_switch(std::int64_t n) {
  topo::Context ctx = test::context_for(n);
  ctx.scope = topo::Scope::InterRack;
  for (const topo::Candidate& c : test::enum_family("single-switch", ctx).items)
    if (c.id == "single-switch:" + std::to_string(n) + "/c1") {
      topo::Network net = topo::generate(ctx, c, {});
      net.fingerprint = topo::fingerprint(net, nullptr);
      return net;
    }
  FAIL("no single switch of " << n);
  return {};
}

topo::Network torus(std::vector<int> S, std::vector<int> B) {
  std::int64_t n = 1, cpb = 1;
  for (int s : S) n *= s;
  for (int b : B) cpb *= b;
  topo::Candidate c;
  c.family = "torus";
  c.id = topo::torus_candidate_id({S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  c.n_endpoint = n;
  c.derived_chips_per_board = cpb;
  topo::Context ctx;
  ctx.n_chip = n;
  ctx.chips_per_board_max = 16;
  topo::Network net = topo::generate(ctx, c, {});
  net.fingerprint = topo::fingerprint(net, nullptr);
  return net;
}

coll::Schedule make(const topo::Network& net, const std::string& collective,
                    const std::string& algorithm, const std::string& dims = "sequential",
                    const std::string& group = "all") {
  auto fn = test::routing::build(net.family == "torus" ? "dor" : "minimal", net);
  coll::Request req;
  req.collective = collective;
  req.algorithm = algorithm;
  req.dim_scheduling = dims;
  req.group = group;
  req.bytes_per_node = 1 << 20;
  return coll::generate(req, net, {}, fn.get());
}

} // namespace

TEST_CASE("ring all-reduce, reduce-scatter and all-gather export and run right", "[msccl]") {
  for (std::int64_t n = 2; n <= 9; ++n) {
    const topo::Network net = single_switch(n);
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      INFO(c << " on " << n);
      const std::string xml = coll::to_msccl_xml(make(net, c, "ring"), "ring");
      CHECK(xml.rfind("<algo name=\"ring\"", 0) == 0);
      CHECK(execute(xml) == "");
      // Two blocks a rank, one ring each way.
      CHECK(execute(coll::to_msccl_xml(make(net, c, "bidirectional-ring"), "bidirectional-ring")) ==
            "");
    }
  }
}

TEST_CASE("all-to-all direct, pairwise and Bruck, Bruck all-gather and the log-step "
          "reductions export and run right",
          "[msccl]") {
  for (std::int64_t n : {2, 5, 6, 8}) {
    const topo::Network net = single_switch(n);
    std::vector<std::pair<std::string, std::string>> cases = {
        {"all-to-all", "direct"}, {"all-to-all", "pairwise"}, {"all-to-all", "bruck"},
        {"all-gather", "bruck"},  {"all-reduce", "bruck"},    {"reduce-scatter", "bruck"},
        {"all-reduce", "direct"}, {"all-gather", "direct"}};
    // Halving-doubling folds the ranks beyond a power of two; the double binary tree cuts the
    // buffer into its pipeline's chunks rather than one per rank.
    cases.push_back({"all-reduce", "halving-doubling"});
    cases.push_back({"all-reduce", "double-binary-tree"});
    for (auto& [c, a] : cases) {
      INFO(c << " " << a << " on " << n);
      CHECK(execute(coll::to_msccl_xml(make(net, c, a), a)) == "");
    }
  }
}

TEST_CASE("ranks in packaging order map onto GPUs by chip id", "[msccl]") {
  // A torus's packaging order (boards of 2x2) is not chip id order.
  const topo::Network net = torus({4, 4}, {2, 2});
  for (auto [c, a] :
       {std::pair{"all-to-all", "bruck"}, std::pair{"reduce-scatter", "direct"},
        std::pair{"all-gather", "bruck"}, std::pair{"reduce-scatter", "bidirectional-ring"},
        std::pair{"all-gather", "bidirectional-ring"}}) {
    INFO(c << " " << a);
    const coll::Schedule s = make(net, c, a);
    REQUIRE(s.stages);
    CHECK(execute(coll::to_msccl_xml(s, a)) == "");
  }
}

TEST_CASE("torus ring-form all-reduce and HalfRing / Ring all-to-all export and run right",
          "[msccl]") {
  const topo::Network t44 = torus({4, 4}, {1, 1}), t444 = torus({4, 4, 4}, {2, 2, 2});
  CHECK(execute(coll::to_msccl_xml(make(t44, "all-reduce", "ring"), "r")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t44, "all-to-all", "ring"), "r")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t44, "all-to-all", "halfring", "dimrotation"), "h")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t444, "all-to-all", "halfring", "dimrotation"), "h")) ==
        "");
  CHECK(execute(coll::to_msccl_xml(make(t444, "all-to-all", "halfring"), "h")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t444, "all-reduce", "ring"), "h")) == "");
  // Pipelined chunks, each its own chain of phases.
  CHECK(execute(coll::to_msccl_xml(make(t44, "all-reduce", "ring", "pipeline"), "p")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t44, "all-to-all", "halfring", "pipeline"), "p")) == "");
  CHECK(execute(coll::to_msccl_xml(make(t444, "all-to-all", "ring", "dimrotation"), "p")) == "");
}

TEST_CASE("hierarchical all-reduce exports its stages as one all-reduce", "[msccl]") {
  const topo::Network net = torus({4, 4}, {2, 2}); // boards of 4: 4 inner groups, 4 outer
  auto fn = test::routing::build("dor", net);
  for (auto [inner, outer] : {std::pair{"ring", "ring"}, std::pair{"halving-doubling", "bruck"},
                              std::pair{"direct", "halving-doubling"}}) {
    INFO(inner << "," << outer);
    coll::Request req;
    req.collective = "all-reduce";
    req.algorithm = "hierarchical";
    req.level_algorithms = {inner, outer};
    req.bytes_per_node = 1 << 20;
    const coll::Schedule s = coll::generate(req, net, {}, fn.get());
    REQUIRE(s.stages);
    REQUIRE(s.stages->size() == 3);
    CHECK(execute(coll::to_msccl_xml(s, "h")) == "");
  }
}

TEST_CASE("the interpreter catches a dropped step", "[msccl]") {
  const topo::Network net = single_switch(4);
  for (auto [c, a] : {std::pair{"all-reduce", "ring"}, std::pair{"all-to-all", "bruck"}}) {
    const std::string xml = coll::to_msccl_xml(make(net, c, a), a);
    REQUIRE(execute(xml) == "");
    std::size_t at = 0;
    int dropped = 0;
    while ((at = xml.find("<step ", at)) != std::string::npos) {
      const std::size_t end = xml.find('\n', at);
      if (xml.substr(at, end - at).find("type=\"nop\"") == std::string::npos) {
        const std::string mutant = xml.substr(0, at) + xml.substr(end + 1);
        INFO(c << " " << a << " without " << xml.substr(at, end - at));
        CHECK(execute(mutant) != "");
        ++dropped;
      }
      at = end;
    }
    CHECK(dropped > 10);
  }
}

TEST_CASE("the interpreter catches missing dependencies", "[msccl]") {
  // Direct all-reduce: the all-gather's sends must wait for every receive-reduce of the
  // reduce-scatter, which other threadblocks run.
  const std::string xml =
      coll::to_msccl_xml(make(single_switch(6), "all-reduce", "direct"), "direct");
  REQUIRE(execute(xml) == "");
  std::string mutant;
  for (std::size_t at = 0;;) {
    const std::size_t d = xml.find("depid=\"", at);
    if (d == std::string::npos) {
      mutant += xml.substr(at);
      break;
    }
    mutant += xml.substr(at, d - at) + "depid=\"-1\"";
    at = xml.find('"', d + 7) + 1;
  }
  CHECK(mutant != xml);
  CHECK(execute(mutant) != "");
}

TEST_CASE("what MSCCL-IR cannot express is refused as infeasible", "[msccl]") {
  const topo::Network net = torus({4, 4}, {2, 2});
  CHECK(test::kind_of([&] {
          coll::to_msccl_xml(make(net, "all-reduce", "direct", "sequential", "board"), "x");
        }) == ErrorKind::Infeasible);
  CHECK(test::kind_of([&] { coll::to_msccl_xml(make(net, "broadcast", "binomial"), "x"); }) ==
        ErrorKind::Infeasible);
  // Beyond the executor's limits: 39 peers of a direct all-to-all want 39 threadblocks, a ring
  // all-reduce of 200 ranks 398 steps in one.
  CHECK(test::kind_of([&] {
          coll::to_msccl_xml(make(single_switch(40), "all-to-all", "direct"), "x");
        }) == ErrorKind::Infeasible);
  CHECK(test::kind_of([&] {
          coll::to_msccl_xml(make(single_switch(200), "all-reduce", "ring"), "x");
        }) == ErrorKind::Infeasible);
  // The torus's ring reduce-scatter leaves a chip a part other than MSCCL's (its GPU's n-th).
  CHECK(test::kind_of([&] { coll::to_msccl_xml(make(net, "reduce-scatter", "ring"), "x"); }) ==
        ErrorKind::Infeasible);
}
