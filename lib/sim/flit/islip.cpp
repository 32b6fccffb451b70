#include "sim/flit/islip.hpp"

#include <algorithm>
#include <bit>

namespace icnkit::sim::flit {

Islip::Islip(int iterations, int max_ports) : iterations_(std::max(1, iterations)) {
  const auto n = static_cast<std::size_t>(std::max(1, max_ports));
  grant_.assign(n, -1);
  accept_.assign(n, -1);
  grant_d_.assign(n, 0);
  accept_d_.assign(n, 0);
  in_matched_.assign(n, 0);
  out_matched_.assign(n, 0);
  out_req_.assign(64, 0);
  in_grants_.assign(64, 0);
  label_.assign(64 * 64, 0);
}

// The same allocation with inputs and outputs as bits of 64-bit words: each iteration costs a
// few operations per requesting port instead of a pass over the requests.
void Islip::match64(std::uint32_t NI, std::uint32_t NO, std::uint32_t* gptr, std::uint32_t* aptr) {
  // The first set bit at or after `from` (cyclically), -1 if none.
  auto first_from = [](std::uint64_t m, std::uint32_t from) {
    const std::uint64_t hi = m & (~std::uint64_t{0} << from);
    return hi ? std::countr_zero(hi) : m ? std::countr_zero(m) : -1;
  };
  std::uint64_t outs = 0, ins = 0;
  for (const Req& q : reqs_) {
    out_req_[q.out] |= std::uint64_t{1} << q.in;
    outs |= std::uint64_t{1} << q.out;
    ins |= std::uint64_t{1} << q.in;
    label_[q.in * 64 + q.out] = q.label;
  }
  std::uint64_t in_free = ~std::uint64_t{0}, out_free = ~std::uint64_t{0};
  for (int it = 0; it < iterations_; ++it) {
    bool any = false;
    for (std::uint64_t m = outs & out_free; m != 0; m &= m - 1) { // grant
      const int o = std::countr_zero(m);
      const int i = first_from(out_req_[o] & in_free, gptr[o]);
      if (i >= 0) in_grants_[i] |= std::uint64_t{1} << o;
    }
    for (std::uint64_t m = ins & in_free; m != 0; m &= m - 1) { // accept
      const int i = std::countr_zero(m);
      if (in_grants_[i] == 0) continue;
      const int o = first_from(in_grants_[i], aptr[i]);
      in_grants_[i] = 0;
      in_free &= ~(std::uint64_t{1} << i);
      out_free &= ~(std::uint64_t{1} << o);
      matches_.push_back(
          {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(o), label_[i * 64 + o]});
      any = true;
      if (it == 0) {
        gptr[o] = static_cast<std::uint32_t>(i) + 1 == NI ? 0 : static_cast<std::uint32_t>(i) + 1;
        aptr[i] = static_cast<std::uint32_t>(o) + 1 == NO ? 0 : static_cast<std::uint32_t>(o) + 1;
      }
    }
    if (!any) break;
  }
  for (std::uint64_t m = outs; m != 0; m &= m - 1) out_req_[std::countr_zero(m)] = 0;
}

const std::vector<Islip::Req>& Islip::match(std::uint32_t NI, std::uint32_t NO, std::uint32_t* gptr,
                                            std::uint32_t* aptr) {
  matches_.clear();
  const std::size_t R = reqs_.size();
  // Round-robin distance from a pointer, without a division.
  auto dist = [](std::uint32_t x, std::uint32_t ptr, std::uint32_t n) {
    return x >= ptr ? x - ptr : x + n - ptr;
  };
  // The pointer one past x, round-robin over n (without a branch: it is unpredictable).
  auto next = [](std::uint32_t x, std::uint32_t n) { return (x + 1) * (x + 1 != n); };
  // How the requests are shaped: no two share an input or an output (the common case at low
  // and moderate load; a lone request is the commonest), or all come from one input, or all
  // go to one output.
  bool disjoint, one_in, one_out;
  if (R == 1) {
    disjoint = true;
    one_in = one_out = false;
  } else if (NI <= 64 && NO <= 64) {
    std::uint64_t ins = 0, outs = 0, again = 0; // again: an input or output seen twice
    for (const Req& q : reqs_) {
      const std::uint64_t i = std::uint64_t{1} << q.in, o = std::uint64_t{1} << q.out;
      again |= (ins & i) | (outs & o);
      ins |= i, outs |= o;
    }
    disjoint = again == 0;
    one_in = (ins & (ins - 1)) == 0;
    one_out = (outs & (outs - 1)) == 0;
  } else {
    disjoint = R <= 16;
    for (std::size_t a = 0; disjoint && a < R; ++a)
      for (std::size_t b = a + 1; b < R; ++b)
        disjoint &= reqs_[a].in != reqs_[b].in && reqs_[a].out != reqs_[b].out;
    one_in = one_out = true;
    for (const Req& q : reqs_) one_in &= q.in == reqs_[0].in, one_out &= q.out == reqs_[0].out;
  }
  // Disjoint: every output grants its one request and every input accepts it, in the first
  // iteration.
  if (disjoint) {
    for (const Req& q : reqs_) {
      gptr[q.out] = next(q.in, NI);
      aptr[q.in] = next(q.out, NO);
    }
    return reqs_; // every request is a match
  }
  // One input asking for several outputs (a head asking for the free VCs of its class), or
  // several inputs asking for one output: every output grants (the only input it is asked by /
  // the first from its pointer) and the input accepts (the first from its pointer / its only
  // grant); one match, in the first iteration.
  if (one_in || one_out) {
    const std::uint32_t ptr = one_in ? aptr[reqs_[0].in] : gptr[reqs_[0].out];
    const std::uint32_t N = one_in ? NO : NI;
    const Req* best = nullptr;
    std::uint32_t best_d = 0;
    for (const Req& q : reqs_) {
      const std::uint32_t d = dist(one_in ? q.out : q.in, ptr, N);
      if (!best || d < best_d) best = &q, best_d = d;
    }
    matches_.push_back(*best);
    gptr[best->out] = next(best->in, NI);
    aptr[best->in] = next(best->out, NO);
    return matches_;
  }
  if (NI <= 64 && NO <= 64)
    match64(NI, NO, gptr, aptr);
  else
    match_any(NI, NO, gptr, aptr);
  return matches_;
}

// Iterations over the request list: any number of ports.
void Islip::match_any(std::uint32_t NI, std::uint32_t NO, std::uint32_t* gptr,
                      std::uint32_t* aptr) {
  const std::size_t R = reqs_.size();
  auto dist = [](std::uint32_t x, std::uint32_t ptr, std::uint32_t n) {
    return x >= ptr ? x - ptr : x + n - ptr;
  };
  for (int it = 0; it < iterations_; ++it) {
    bool any = false;
    for (std::size_t k = 0; k < R; ++k) { // grant: each output picks an unmatched input
      const Req& q = reqs_[k];
      if (out_matched_[q.out] || in_matched_[q.in]) continue;
      const std::uint32_t d = dist(q.in, gptr[q.out], NI);
      if (grant_[q.out] < 0 || d < grant_d_[q.out]) {
        grant_[q.out] = static_cast<std::int32_t>(k);
        grant_d_[q.out] = d;
      }
    }
    for (std::size_t k = 0; k < R; ++k) { // accept: each input picks a granting output
      const Req& q = reqs_[k];
      if (grant_[q.out] != static_cast<std::int32_t>(k)) continue;
      const std::uint32_t d = dist(q.out, aptr[q.in], NO);
      if (accept_[q.in] < 0 || d < accept_d_[q.in]) {
        accept_[q.in] = static_cast<std::int32_t>(k);
        accept_d_[q.in] = d;
      }
    }
    for (std::size_t k = 0; k < R; ++k) {
      const Req& q = reqs_[k];
      if (accept_[q.in] == static_cast<std::int32_t>(k)) {
        in_matched_[q.in] = 1;
        out_matched_[q.out] = 1;
        matches_.push_back(q);
        any = true;
        if (it == 0) { // pointers move only on first-iteration matches (iSLIP)
          gptr[q.out] = q.in + 1 == NI ? 0 : q.in + 1;
          aptr[q.in] = q.out + 1 == NO ? 0 : q.out + 1;
        }
      }
    }
    for (const Req& q : reqs_) grant_[q.out] = -1, accept_[q.in] = -1;
    if (!any || matches_.size() == R) break;
  }
  for (const Req& q : reqs_) in_matched_[q.in] = 0, out_matched_[q.out] = 0;
}

} // namespace icnkit::sim::flit
