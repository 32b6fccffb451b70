#include "coll/msccl.hpp"

#include "coll/rings.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

namespace icnkit::coll {

namespace {

// The MSCCL executor's limits (msccl.h: MSCCL_MAX_NUM_STEPS, MSCCL_MAX_NUM_THREAD_BLOCKS_PER_
// CHANNEL): an XML beyond them would not load, so the export refuses it.
constexpr std::size_t kMaxSteps = 256, kMaxTbs = 32;

// A place in one GPU's buffers: 'i'nput, 'o'utput or 's'cratch, and a chunk index.
struct Loc {
  char buf = 'o';
  std::int64_t off = 0;
  friend auto operator<=>(const Loc&, const Loc&) = default;
};

// One transfer of a step between two GPUs: its chunks, (sender's, receiver's) place each.
struct Move {
  int from = 0, to = 0;
  bool reduce = false;
  std::vector<std::pair<Loc, Loc>> chunks;
};

struct XStep {
  std::string type;
  Loc src, dst;
  std::int64_t cnt = 0;
  int depid = -1;
  std::int64_t deps = -1;
  bool hasdep = false;
};

struct XTb {
  int send = -1, recv = -1;
  std::vector<XStep> steps;
  std::map<int, std::int64_t> waited; // tb -> the last of its steps this one has waited for
};

// What touched a chunk last: the write every later access must wait for, and the reads since
// it, which the next write must wait for (tb, step index).
struct Hazard {
  std::pair<int, std::int64_t> write{-1, -1};
  std::vector<std::pair<int, std::int64_t>> reads;
};

struct XGpu {
  std::vector<XTb> tbs;
  std::map<int, int> send_tb, recv_tb; // peer -> tb
  int local_tb = -1;
  std::int64_t i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::map<Loc, Hazard> hazards;
};

// Builds the threadblocks' programs from moves and local copies, deriving every dependency from
// the chunks each operation reads and writes (see msccl.hpp).
class Emitter {
public:
  explicit Emitter(int ngpus) : gpus_(static_cast<std::size_t>(ngpus)) {}
  std::vector<XGpu>& gpus() { return gpus_; }

  void copy(int g, Loc src, Loc dst, std::int64_t cnt) {
    XGpu& x = gpus_[static_cast<std::size_t>(g)];
    if (x.local_tb < 0) x.local_tb = new_tb(x, -1, -1);
    emit(g, x.local_tb, "cpy", src, dst, cnt, {src}, {dst});
  }

  // One step of the schedule: every send before every receive, so that a chunk a GPU both
  // sends and receives in the step leaves before it is overwritten (store-and-forward).
  void step(const std::vector<Move>& moves) {
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> runs;
    for (const Move& m : moves) runs.push_back(split(m));
    for (std::size_t k = 0; k < moves.size(); ++k) {
      const Move& m = moves[k];
      for (auto [a, b] : runs[k]) {
        const Loc src = m.chunks[a].first, dst = m.chunks[a].second;
        const auto cnt = static_cast<std::int64_t>(b - a);
        emit(m.from, send_tb(m.from, m.to), "s", src, dst, cnt, {src}, {});
      }
    }
    for (std::size_t k = 0; k < moves.size(); ++k) {
      const Move& m = moves[k];
      for (auto [a, b] : runs[k]) {
        const Loc src = m.chunks[a].first, dst = m.chunks[a].second;
        const auto cnt = static_cast<std::int64_t>(b - a);
        const int tb = recv_tb(m.to, m.from);
        if (m.reduce)
          emit(m.to, tb, "rrc", dst, dst, cnt, {dst}, {dst});
        else
          emit(m.to, tb, "r", src, dst, cnt, {}, {dst});
      }
    }
  }

private:
  // Runs of chunks contiguous in the same buffer on both sides: one step each.
  static std::vector<std::pair<std::size_t, std::size_t>> split(const Move& m) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t a = 0;
    for (std::size_t k = 1; k <= m.chunks.size(); ++k) {
      const bool breaks = k == m.chunks.size() ||
                          m.chunks[k].first.buf != m.chunks[k - 1].first.buf ||
                          m.chunks[k].second.buf != m.chunks[k - 1].second.buf ||
                          m.chunks[k].first.off != m.chunks[k - 1].first.off + 1 ||
                          m.chunks[k].second.off != m.chunks[k - 1].second.off + 1;
      if (breaks) {
        out.emplace_back(a, k);
        a = k;
      }
    }
    return out;
  }

  static int new_tb(XGpu& x, int send, int recv) {
    if (x.tbs.size() == kMaxTbs)
      fail_infeasible("{format}", "a GPU needs more than " + std::to_string(kMaxTbs) +
                                      " threadblocks on its channel, the MSCCL executor's limit "
                                      "(too many peers)");
    x.tbs.push_back({send, recv, {}, {}});
    return static_cast<int>(x.tbs.size()) - 1;
  }

  // A peer's connection belongs to one threadblock per direction; a threadblock free in that
  // direction takes it (the same peer's first, so an exchange shares one).
  int send_tb(int g, int peer) { return peer_tb(g, peer, true); }
  int recv_tb(int g, int peer) { return peer_tb(g, peer, false); }
  int peer_tb(int g, int peer, bool sending) {
    XGpu& x = gpus_[static_cast<std::size_t>(g)];
    std::map<int, int>& mine = sending ? x.send_tb : x.recv_tb;
    const std::map<int, int>& other = sending ? x.recv_tb : x.send_tb;
    auto peer_of = [sending](auto& t) -> int& { return sending ? t.send : t.recv; };
    if (auto it = mine.find(peer); it != mine.end()) return it->second;
    int tb = -1;
    if (auto it = other.find(peer); it != other.end() && peer_of(x.tbs[it->second]) < 0)
      tb = it->second;
    for (std::size_t k = 0; tb < 0 && k < x.tbs.size(); ++k)
      if (peer_of(x.tbs[k]) < 0 && static_cast<int>(k) != x.local_tb) tb = static_cast<int>(k);
    if (tb < 0) tb = new_tb(x, -1, -1);
    peer_of(x.tbs[static_cast<std::size_t>(tb)]) = peer;
    mine[peer] = tb;
    return tb;
  }

  void emit(int g, int tb, const char* type, Loc src, Loc dst, std::int64_t cnt,
            std::initializer_list<Loc> reads, std::initializer_list<Loc> writes) {
    XGpu& x = gpus_[static_cast<std::size_t>(g)];
    std::map<int, std::int64_t> need; // other tb -> the last of its steps to wait for
    auto want = [&](std::pair<int, std::int64_t> d) {
      if (d.first < 0 || d.first == tb) return;
      auto [it, fresh] = need.emplace(d.first, d.second);
      if (!fresh) it->second = std::max(it->second, d.second);
    };
    for (Loc r : reads)
      for (std::int64_t k = 0; k < cnt; ++k)
        if (auto it = x.hazards.find({r.buf, r.off + k}); it != x.hazards.end())
          want(it->second.write);
    for (Loc w : writes)
      for (std::int64_t k = 0; k < cnt; ++k)
        if (auto it = x.hazards.find({w.buf, w.off + k}); it != x.hazards.end()) {
          want(it->second.write);
          for (auto r : it->second.reads) want(r);
        }
    // What an earlier step of this threadblock waited for is already done.
    auto& waited = x.tbs[static_cast<std::size_t>(tb)].waited;
    std::erase_if(need, [&](const auto& d) {
      auto it = waited.find(d.first);
      return it != waited.end() && it->second >= d.second;
    });
    for (auto [dtb, ds] : need) waited[dtb] = std::max(waited[dtb], ds);
    auto& steps = x.tbs[static_cast<std::size_t>(tb)].steps;
    // A step names one dependency: the others go on nop steps just before it.
    std::size_t left = need.size();
    XStep op{type, src, dst, cnt, -1, -1, false};
    for (auto [dtb, ds] : need) {
      x.tbs[static_cast<std::size_t>(dtb)].steps[static_cast<std::size_t>(ds)].hasdep = true;
      if (--left == 0) {
        op.depid = dtb;
        op.deps = ds;
      } else {
        steps.push_back({"nop", {'i', -1}, {'o', -1}, 0, dtb, ds, false});
      }
    }
    steps.push_back(op);
    if (steps.size() > kMaxSteps)
      fail_infeasible("{format}", "threadblock " + std::to_string(tb) + " of GPU " +
                                      std::to_string(g) + " needs more than " +
                                      std::to_string(kMaxSteps) +
                                      " steps, the MSCCL executor's limit (too many ranks or "
                                      "chunks)");
    const std::pair<int, std::int64_t> me{tb, static_cast<std::int64_t>(steps.size()) - 1};
    for (Loc r : reads)
      for (std::int64_t k = 0; k < cnt; ++k) x.hazards[{r.buf, r.off + k}].reads.push_back(me);
    for (Loc w : writes)
      for (std::int64_t k = 0; k < cnt; ++k) {
        Hazard& h = x.hazards[{w.buf, w.off + k}];
        h.write = me;
        h.reads.clear();
      }
  }

  std::vector<XGpu> gpus_;
};

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) switch (c) {
    case '&':
      o += "&amp;";
      break;
    case '<':
      o += "&lt;";
      break;
    case '>':
      o += "&gt;";
      break;
    case '"':
      o += "&quot;";
      break;
    default:
      o += c;
    }
  return o;
}

std::string write_xml(std::vector<XGpu>& gpus, const std::string& name, const std::string& coll,
                      std::int64_t chunks) {
  std::ostringstream o;
  o << "<algo name=\"" << escape(name) << "\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\""
    << chunks << "\" ngpus=\"" << gpus.size() << "\" coll=\"" << coll << "\" inplace=\"0\">\n";
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const XGpu& x = gpus[g];
    o << "  <gpu id=\"" << g << "\" i_chunks=\"" << x.i_chunks << "\" o_chunks=\"" << x.o_chunks
      << "\" s_chunks=\"" << x.s_chunks << "\">\n";
    for (std::size_t t = 0; t < x.tbs.size(); ++t) {
      const XTb& tb = x.tbs[t];
      o << "    <tb id=\"" << t << "\" send=\"" << tb.send << "\" recv=\"" << tb.recv
        << "\" chan=\"0\">\n";
      for (std::size_t k = 0; k < tb.steps.size(); ++k) {
        const XStep& s = tb.steps[k];
        o << "      <step s=\"" << k << "\" type=\"" << s.type << "\" srcbuf=\"" << s.src.buf
          << "\" srcoff=\"" << s.src.off << "\" dstbuf=\"" << s.dst.buf << "\" dstoff=\""
          << s.dst.off << "\" cnt=\"" << s.cnt << "\" depid=\"" << s.depid << "\" deps=\"" << s.deps
          << "\" hasdep=\"" << (s.hasdep ? 1 : 0) << "\"/>\n";
      }
      o << "    </tb>\n";
    }
    o << "  </gpu>\n";
  }
  o << "</algo>\n";
  return o.str();
}

std::string msccl_coll(const std::string& c) {
  if (c == "all-reduce") return "allreduce";
  if (c == "reduce-scatter") return "reducescatter";
  if (c == "all-gather") return "allgather";
  if (c == "all-to-all") return "alltoall";
  return "";
}

// An all-to-all unit in flight: chunk u of the item (origin, dest), where it sits at its holder,
// and (ring form) the ring position it started the current phase from.
struct Held {
  int origin = 0, dest = 0;
  std::int64_t u = 0;
  Loc at;
  int porig = 0;
  bool taken = false;
};

// Moves the selected units of one step to their receivers: the destination's output, or the
// next free scratch chunk of an intermediate GPU (in the order sent, so runs stay contiguous).
struct Items {
  std::vector<std::vector<Held>> held; // per GPU
  std::vector<std::int64_t>* scratch = nullptr;
  std::int64_t per_item = 1;
  struct Pending {
    int to;
    Held h;
  };
  std::vector<Pending> arriving;

  Move take(int from, int to, std::vector<std::size_t> picked) {
    std::sort(picked.begin(), picked.end(), [&](std::size_t a, std::size_t b) {
      return held[static_cast<std::size_t>(from)][a].at <
             held[static_cast<std::size_t>(from)][b].at;
    });
    Move m{from, to, false, {}};
    for (std::size_t k : picked) {
      Held& h = held[static_cast<std::size_t>(from)][k];
      h.taken = true;
      Held moved = h;
      moved.taken = false;
      if (h.dest == to)
        moved.at = {'o', h.origin * per_item + h.u};
      else
        moved.at = {'s', (*scratch)[static_cast<std::size_t>(to)]++};
      m.chunks.emplace_back(h.at, moved.at);
      arriving.push_back({to, moved});
    }
    return m;
  }
  // After the step: taken units leave, arriving ones join (undelivered ones only).
  void settle() {
    for (auto& v : held) std::erase_if(v, [](const Held& h) { return h.taken; });
    for (auto& p : arriving)
      if (p.h.dest != p.to) held[static_cast<std::size_t>(p.to)].push_back(p.h);
    arriving.clear();
  }
};

// The start every all-to-all shares: units of every item for another GPU in the input, the
// own item copied to the output.
void start_items(Emitter& e, Items& it, int n, std::int64_t U) {
  it.per_item = U;
  it.held.assign(static_cast<std::size_t>(n), {});
  for (int g = 0; g < n; ++g) {
    XGpu& x = e.gpus()[static_cast<std::size_t>(g)];
    x.i_chunks = x.o_chunks = n * U;
    e.copy(g, {'i', g * U}, {'o', g * U}, U);
    for (int d = 0; d < n; ++d)
      if (d != g)
        for (std::int64_t u = 0; u < U; ++u)
          it.held[static_cast<std::size_t>(g)].push_back({g, d, u, {'i', d * U + u}, 0, false});
  }
}

// Every send of a step among n ranks of r, transfer by transfer and rank by rank: f(t, i, q)
// for rank i's transfer t to its peer q (sends without a peer skipped), with `blocks` holding
// the blocks it sends.
template <class F>
void for_each_send(const RankSchedule& r, const RankStep& step, std::int64_t n,
                   std::vector<std::int64_t>& blocks, F&& f) {
  for (const RankTransfer& t : step.transfers)
    for (std::int64_t i = 0; i < n; ++i) {
      if (!sends(t, i)) continue;
      const std::int64_t q = transfer_peer(r, t, i);
      if (q < 0) continue;
      transfer_blocks(r, t, i, blocks);
      f(t, i, q);
    }
}

std::string staged(const Schedule& s, const std::string& name); // below, with the ring form

std::string rank_form(const Schedule& s, const std::string& name) {
  const auto& stages = *s.stages;
  if (uses_switch(s))
    fail_infeasible("{format}", "MSCCL-IR moves chunks between GPUs; this schedule reduces in a "
                                "switch (in-network), which MSCCL cannot express");
  if (stages.size() != 1) return staged(s, name);
  const RankStage& st = stages.front();
  if (st.parts.size() != 1 || st.parts.front().groups.size() != 1)
    fail_infeasible("{format}", "MSCCL-IR is one collective over all its GPUs; this schedule runs "
                                "one per group ({group})");
  const RankSchedule& r = st.parts.front();
  const std::string coll = msccl_coll(st.collective);
  if (coll.empty())
    fail_infeasible("{format}", "MSCCL export covers all-reduce, reduce-scatter, all-gather and "
                                "all-to-all, not " +
                                    st.collective);
  const auto n = static_cast<int>(r.ranks());
  // GPU ids by ascending chip id; rank-form block b is the chunk of the GPU of rank b.
  std::vector<std::int64_t> chips = r.groups.front();
  std::sort(chips.begin(), chips.end());
  std::vector<int> gpu(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    gpu[static_cast<std::size_t>(k)] =
        static_cast<int>(std::lower_bound(chips.begin(), chips.end(),
                                          r.groups.front()[static_cast<std::size_t>(k)]) -
                         chips.begin());
  Emitter e(n);
  std::vector<std::int64_t> blocks;
  std::vector<RankStep> order = r.steps;
  if (st.collective == "all-to-all") {
    Items it;
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(n), 0);
    it.scratch = &scratch;
    start_items(e, it, n, 1);
    // Held units carry GPU ids; the rules speak ranks.
    std::vector<int> rank_of(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
      rank_of[static_cast<std::size_t>(gpu[static_cast<std::size_t>(k)])] = k;
    for (const RankStep& step : order) {
      std::vector<Move> moves;
      for_each_send(r, step, n, blocks, [&](const RankTransfer&, std::int64_t i, std::int64_t q) {
        const int gi = gpu[static_cast<std::size_t>(i)];
        std::vector<std::size_t> picked;
        const auto& hv = it.held[static_cast<std::size_t>(gi)];
        for (std::size_t k = 0; k < hv.size(); ++k)
          if (!hv[k].taken && std::binary_search(blocks.begin(), blocks.end(),
                                                 rank_of[static_cast<std::size_t>(hv[k].dest)]))
            picked.push_back(k);
        if (!picked.empty())
          moves.push_back(it.take(gi, gpu[static_cast<std::size_t>(q)], std::move(picked)));
      });
      e.step(moves);
      it.settle();
    }
    for (int g = 0; g < n; ++g)
      e.gpus()[static_cast<std::size_t>(g)].s_chunks = scratch[static_cast<std::size_t>(g)];
    return write_xml(e.gpus(), name, coll, n);
  }
  // Reductions: the working copy in the output (reduce-scatter: the scratch buffer). In a
  // reduce-scatter or all-gather rank b / k owns block b (k blocks a rank, rank_schedule.hpp):
  // block b is chunk b % k of the GPU of that rank. An all-reduce's block b is the chunk of the
  // GPU of rank b when there is one per rank, else (a pipeline's chunks, a bidirectional ring's
  // halves) chunk b.
  const char work = st.collective == "reduce-scatter" ? 's' : 'o';
  const bool owned = st.collective != "all-reduce";
  // (MSCCL wants chunks per loop a multiple of the GPUs: then each block is f chunks.)
  const auto nblocks = static_cast<int>(r.blocks);
  const int k = owned ? nblocks / n : 1;
  const int f = owned || nblocks == n ? 1 : n / std::gcd(n, nblocks), nb = nblocks * f;
  auto chunk = [&](std::int64_t b, int j) -> std::int64_t {
    if (owned) return gpu[static_cast<std::size_t>(b / k)] * k + b % k;
    return nblocks == n ? gpu[static_cast<std::size_t>(b)] : b * f + j;
  };
  for (int g = 0; g < n; ++g) {
    XGpu& x = e.gpus()[static_cast<std::size_t>(g)];
    if (st.collective == "all-gather") {
      x.i_chunks = k;
      x.o_chunks = nb;
      e.copy(g, {'i', 0}, {'o', g * k}, k);
    } else {
      x.i_chunks = nb;
      x.o_chunks = st.collective == "reduce-scatter" ? k : nb;
      x.s_chunks = work == 's' ? nb : 0;
      e.copy(g, {'i', 0}, {work, 0}, nb);
    }
  }
  for (const RankStep& step : order) {
    std::vector<Move> moves;
    for_each_send(r, step, n, blocks, [&](const RankTransfer& t, std::int64_t i, std::int64_t q) {
      Move m{gpu[static_cast<std::size_t>(i)], gpu[static_cast<std::size_t>(q)], t.reduce, {}};
      std::vector<std::int64_t> at;
      for (std::int64_t b : blocks)
        for (int j = 0; j < f; ++j) at.push_back(chunk(b, j));
      std::sort(at.begin(), at.end());
      for (std::int64_t c : at) m.chunks.emplace_back(Loc{work, c}, Loc{work, c});
      moves.push_back(std::move(m));
    });
    e.step(moves);
  }
  if (work == 's')
    for (int g = 0; g < n; ++g) e.copy(g, {'s', g * k}, {'o', 0}, k);
  return write_xml(e.gpus(), name, coll, nb);
}

// --- ring form (schedule.hpp) -----------------------------------------------------------------

struct Rat {
  std::int64_t num = 0, den = 1;
};
Rat norm(Rat r) {
  const std::int64_t g = std::gcd(r.num, r.den);
  return g ? Rat{r.num / g, r.den / g} : r;
}
Rat add(Rat a, Rat b) {
  return norm({a.num * b.den + b.num * a.den, a.den * b.den});
}
Rat scale(Rat a, std::int64_t num, std::int64_t den) {
  return norm({a.num * num, a.den * den});
}
struct Span {
  Rat lo, len;
};

// A reduction's transfer between two GPUs: an interval of the buffer, moved or reduced in the
// step `step` (a key shared by the pieces of one step).
struct Piece {
  std::int64_t step;
  int from, to;
  bool reduce;
  Span span;
};

// An all-reduce of pieces: chunks fine enough for every interval (and a multiple of the GPUs),
// the input copied to the output, every step's pieces one Emitter step.
std::string reduce_pieces(Emitter& e, int n, const std::vector<Piece>& pieces,
                          const std::string& name) {
  std::int64_t C = n;
  for (const Piece& pc : pieces) C = std::lcm(C, std::lcm(pc.span.lo.den, pc.span.len.den));
  for (int g = 0; g < n; ++g) {
    XGpu& x = e.gpus()[static_cast<std::size_t>(g)];
    x.i_chunks = x.o_chunks = C;
    e.copy(g, {'i', 0}, {'o', 0}, C);
  }
  for (std::size_t a = 0; a < pieces.size();) {
    std::size_t b = a;
    std::vector<Move> moves;
    for (; b < pieces.size() && pieces[b].step == pieces[a].step; ++b) {
      const Piece& pc = pieces[b];
      const std::int64_t lo = pc.span.lo.num * (C / pc.span.lo.den);
      const std::int64_t cnt = pc.span.len.num * (C / pc.span.len.den);
      Move m{pc.from, pc.to, pc.reduce, {}};
      for (std::int64_t u = lo; u < lo + cnt; ++u) m.chunks.emplace_back(Loc{'o', u}, Loc{'o', u});
      moves.push_back(std::move(m));
    }
    e.step(moves);
    a = b;
  }
  return write_xml(e.gpus(), name, "allreduce", C);
}

std::string ring_form(const Schedule& s, const std::string& name) {
  const std::string coll = msccl_coll(s.collective);
  if (s.collective != "all-reduce" && s.collective != "all-to-all")
    fail_infeasible("{format}", "MSCCL export of torus ring schedules covers all-reduce and "
                                "all-to-all, not " +
                                    s.collective);
  if (s.fault_handling != "none")
    fail_infeasible("{format}", "MSCCL export of torus ring schedules covers schedules without "
                                "faults to avoid; this one's fault handling is " +
                                    s.fault_handling);
  if (s.lanes != 1)
    fail_infeasible("{format}", "MSCCL export of torus ring schedules covers one lane per chunk");
  // The torus's shape from its phases: a dimension no phase runs along has one chip.
  int dims = 0;
  for (const Phase& p : s.phases) dims = std::max(dims, p.dimension + 1);
  std::vector<int> size(static_cast<std::size_t>(dims), 1);
  for (const Phase& p : s.phases) size[static_cast<std::size_t>(p.dimension)] = p.ring_size;
  const topo::TorusGeometry geo(size);
  const auto n = static_cast<int>(geo.count());
  std::vector<DimRings> rings;
  for (int d = 0; d < dims; ++d) rings.emplace_back(geo, d);
  for (const Phase& p : s.phases)
    for (const Step& st : p.steps)
      for (const RingTransfer& t : st.transfers)
        if (t.fold_at >= 0 || t.via_dim >= 0)
          fail_infeasible("{format}", "MSCCL export of torus ring schedules covers plain ring "
                                      "hops, not folded rings or hops via another ring");
  // Steps in id order (a topological order of `after`), each with its phase.
  std::vector<std::pair<const Phase*, const Step*>> order;
  for (const Phase& p : s.phases)
    for (const Step& st : p.steps) order.emplace_back(&p, &st);
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.second->id < b.second->id; });
  // Senders of a transfer: every position of every ring in its scope.
  auto each_sender = [&](const Phase& p, const RingTransfer& t, auto&& f) {
    const DimRings& dr = rings[static_cast<std::size_t>(p.dimension)];
    auto one = [&](std::int64_t ring) {
      for (int i = 0; i < dr.size(); ++i)
        f(i, dr.chip(ring, i), dr.chip(ring, wrap(i + t.direction, dr.size())));
    };
    if (t.rings)
      for (std::int64_t ring : *t.rings) one(ring);
    else
      for (std::int64_t ring = 0; ring < dr.count(); ++ring) one(ring);
  };
  Emitter e(n);

  if (s.collective == "all-to-all") {
    std::int64_t L = 1;
    for (const Phase& p : s.phases)
      for (const Step& st : p.steps)
        for (const RingTransfer& t : st.transfers) L = std::lcm(L, t.fraction.den);
    const std::int64_t U = s.chunks * L;
    Items it;
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(n), 0);
    it.scratch = &scratch;
    start_items(e, it, n, U);
    std::vector<char> started(s.phases.size(), 0);
    for (const auto& step_of : order) {
      const auto* p = step_of.first;
      const auto* st = step_of.second;
      const DimRings& dr = rings[static_cast<std::size_t>(p->dimension)];
      const int N = dr.size();
      if (!started[static_cast<std::size_t>(p - s.phases.data())]) {
        // A phase's pieces are named by the position they start it from.
        started[static_cast<std::size_t>(p - s.phases.data())] = 1;
        for (int g = 0; g < n; ++g)
          for (Held& h : it.held[static_cast<std::size_t>(g)])
            if (h.u / L == p->chunk) h.porig = dr.pos_of(g);
      }
      std::vector<Move> moves;
      for (const RingTransfer& t : st->transfers)
        each_sender(*p, t, [&](int i, std::int64_t from, std::int64_t to) {
          const int o = wrap(i + t.origin_offset, N), d = wrap(i + t.dest_offset, N);
          std::int64_t want = t.fraction.num * (L / t.fraction.den) * (n / N);
          std::vector<std::size_t> picked;
          const auto& hv = it.held[static_cast<std::size_t>(from)];
          for (std::size_t k = 0; k < hv.size() && want > 0; ++k)
            if (!hv[k].taken && hv[k].u / L == p->chunk && hv[k].porig == o &&
                dr.pos_of(hv[k].dest) == d) {
              picked.push_back(k);
              --want;
            }
          if (want > 0)
            fail_runtime("{format}", "step " + std::to_string(st->id) +
                                         ": a piece is not where the schedule says");
          moves.push_back(it.take(static_cast<int>(from), static_cast<int>(to), std::move(picked)));
        });
      e.step(moves);
      it.settle();
    }
    for (int g = 0; g < n; ++g)
      e.gpus()[static_cast<std::size_t>(g)].s_chunks = scratch[static_cast<std::size_t>(g)];
    return write_xml(e.gpus(), name, coll, n * U);
  }

  // All-reduce: every piece is an interval of the buffer; the share a chip works on in a phase
  // follows its chunk's phases (a reduce-scatter narrows it to the chip's block, the all-gather
  // along the same dimension widens it back).
  std::vector<std::vector<Span>> phase_share(s.phases.size()); // the share or parent, per chip
  for (int c = 0; c < s.chunks; ++c) {
    std::vector<std::vector<std::pair<Span, int>>> stack(static_cast<std::size_t>(n));
    for (auto& v : stack) v.push_back({{norm({c, s.chunks}), {1, s.chunks}}, -1});
    for (std::size_t k = 0; k < s.phases.size(); ++k) {
      const Phase& p = s.phases[k];
      if (p.chunk != c) continue;
      const DimRings& dr = rings[static_cast<std::size_t>(p.dimension)];
      for (int g = 0; g < n; ++g) {
        auto& v = stack[static_cast<std::size_t>(g)];
        if (p.op == PhaseOp::ReduceScatter) {
          const Span sh = v.back().first;
          phase_share[k].push_back(sh);
          const Rat len = scale(sh.len, 1, p.ring_size);
          v.push_back({{add(sh.lo, scale(len, dr.pos_of(g), 1)), len}, p.dimension});
        } else if (p.op == PhaseOp::AllGather) {
          if (v.size() < 2 || v.back().second != p.dimension)
            fail_infeasible("{format}", "phase " + p.name +
                                            ": MSCCL export needs every all-gather to undo the "
                                            "latest reduce-scatter");
          v.pop_back();
          phase_share[k].push_back(v.back().first);
        } else {
          fail_infeasible("{format}", "phase " + p.name + " is not a reduction");
        }
      }
    }
  }
  std::vector<Piece> pieces;
  for (const auto& step_of : order) {
    const auto* p = step_of.first;
    const auto* st = step_of.second;
    const std::size_t k = static_cast<std::size_t>(p - s.phases.data());
    for (const RingTransfer& t : st->transfers) {
      if (t.fraction.num != 1) fail_infeasible("{format}", "a reduction slice is 1/P of a block");
      each_sender(*p, t, [&](int i, std::int64_t from, std::int64_t to) {
        const Span sh = phase_share[k][static_cast<std::size_t>(from)];
        const std::int64_t blk = wrap(i + t.origin_offset, p->ring_size);
        const Rat len = scale(sh.len, 1, p->ring_size * t.fraction.den);
        const Span piece{add(sh.lo, scale(len, blk * t.fraction.den + t.part, 1)), len};
        pieces.push_back({st->id, static_cast<int>(from), static_cast<int>(to),
                          p->op == PhaseOp::ReduceScatter, piece});
      });
    }
  }
  return reduce_pieces(e, n, pieces, name);
}

// Hierarchical all-reduce (stages of reduce-scatter, all-reduce, all-gather over groups of the
// same chips): each chip's part of the buffer follows the stages as rank_compose.hpp proves it,
// a group's blocks cutting the part its members hold (all-gather: the parent of their parts).
std::string staged(const Schedule& s, const std::string& name) {
  const std::vector<RankStage>& stages = *s.stages;
  if (s.collective != "all-reduce")
    fail_infeasible("{format}", "MSCCL export of stages covers the hierarchical all-reduce");
  std::vector<std::int64_t> chips;
  for (const RankSchedule& r : stages.front().parts)
    for (const auto& grp : r.groups) chips.insert(chips.end(), grp.begin(), grp.end());
  std::sort(chips.begin(), chips.end());
  const auto n = static_cast<int>(chips.size());
  auto gpu = [&](std::int64_t chip) {
    return static_cast<int>(std::lower_bound(chips.begin(), chips.end(), chip) - chips.begin());
  };
  std::vector<Span> have(static_cast<std::size_t>(n), Span{{0, 1}, {1, 1}});
  std::vector<Piece> pieces;
  std::vector<std::int64_t> blocks;
  std::int64_t key = 0;
  for (const RankStage& st : stages) {
    const std::string& c = st.collective;
    if (c != "reduce-scatter" && c != "all-reduce" && c != "all-gather")
      fail_infeasible("{format}", "a stage of " + c + " has no MSCCL export");
    for (const RankSchedule& r : st.parts)
      for (const auto& grp : r.groups) {
        const auto m = static_cast<std::int64_t>(grp.size());
        std::vector<int> g;
        for (std::int64_t chip : grp) g.push_back(gpu(chip));
        Span whole = have[static_cast<std::size_t>(g[0])];
        if (c == "all-gather") whole.len = scale(whole.len, m, 1);
        const Rat blen = scale(whole.len, 1, m);
        for (const RankStep& step : r.steps) {
          ++key;
          for_each_send(r, step, m, blocks,
                        [&](const RankTransfer& t, std::int64_t i, std::int64_t q) {
                          for (std::int64_t b : blocks)
                            pieces.push_back({key,
                                              g[static_cast<std::size_t>(i)],
                                              g[static_cast<std::size_t>(q)],
                                              t.reduce,
                                              {add(whole.lo, scale(blen, b, 1)), blen}});
                        });
        }
        for (std::int64_t p = 0; p < m; ++p) {
          Span& h = have[static_cast<std::size_t>(g[static_cast<std::size_t>(p)])];
          if (c == "reduce-scatter") h = {add(whole.lo, scale(blen, p, 1)), blen};
          if (c == "all-gather") h = whole;
        }
      }
  }
  Emitter e(n);
  return reduce_pieces(e, n, pieces, name);
}

} // namespace

std::string to_msccl_xml(const Schedule& s, const std::string& name) {
  if (s.stages) return rank_form(s, name);
  return ring_form(s, name);
}

} // namespace icnkit::coll
