// How many workers a parallel computation uses. Results never depend on it (every parallel
// computation merges in a fixed order; tests force 1, 2, 3 and 8 workers): it sets the speed only.
#pragma once

namespace icnkit {

inline constexpr int kMaxThreads = 256;

// The default: the ICNKIT_THREADS environment variable when it is set (1..256; anything else is
// Error(Usage) naming it), else the machine's cores.
int default_threads();
// `requested` when > 0, else default_threads().
int resolve_threads(int requested);

} // namespace icnkit
