// The separable iSLIP allocator of the flit engine's routers (McKeown 1999), used for VC
// allocation (input VCs against output VCs) and switch allocation (input ports against output
// ports).
//
// Each iteration: every unmatched output grants the requesting unmatched input that comes first
// round-robin from the output's grant pointer; every input that received grants accepts the one
// first from its accept pointer. Pointers move (one past the match) only on first-iteration
// matches. The common shapes (no two requests sharing a port, one input, one output) are matched
// directly with the same outcome; ports up to 64 use bit masks.
#pragma once
#include <cstdint>
#include <vector>

namespace icnkit::sim::flit {

class Islip {
public:
  struct Req {
    std::uint32_t in, out; // port indices local to the router
    std::int32_t label;    // the caller's, carried into the match
  };

  // iterations >= 1; max_ports: the largest n_in or n_out a match will see.
  Islip(int iterations, int max_ports);

  // Fill with the requests (at most one per (in, out)), then call match().
  std::vector<Req>& requests() { return reqs_; }
  // Matches the requests over n_in inputs and n_out outputs; gptr[n_out] and aptr[n_in] are the
  // pointers. The requests stay as they were; the matches are valid until they change.
  const std::vector<Req>& match(std::uint32_t n_in, std::uint32_t n_out, std::uint32_t* gptr,
                                std::uint32_t* aptr);

private:
  void match64(std::uint32_t n_in, std::uint32_t n_out, std::uint32_t* gptr, std::uint32_t* aptr);
  void match_any(std::uint32_t n_in, std::uint32_t n_out, std::uint32_t* gptr, std::uint32_t* aptr);

  int iterations_;
  std::vector<Req> reqs_, matches_;
  std::vector<std::int32_t> grant_, accept_;
  std::vector<std::uint32_t> grant_d_, accept_d_;
  std::vector<char> in_matched_, out_matched_;
  std::vector<std::uint64_t> out_req_, in_grants_; // match64: per output its inputs, per input
  std::vector<std::int32_t> label_;                // its grants; labels by in * 64 + out
};

} // namespace icnkit::sim::flit
