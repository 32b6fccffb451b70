#include "sim/flit/run.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

namespace icnkit::sim::flit {

namespace {

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

// Cycles to the next packet of a Bernoulli process with probability p per cycle (>= 1).
std::int64_t geometric(SplitMix64& rng, double p) {
  if (p >= 1) return 1;
  const double u = 1.0 - rng.uniform(); // (0, 1]
  const double g = std::floor(std::log(u) / std::log1p(-p)) + 1;
  return g > 4e18 ? std::int64_t{4} * 1000000000000000000 : static_cast<std::int64_t>(g);
}

} // namespace

double zero_load_cycles(const RouterParams& p, bool chips_route, int hops,
                        std::int64_t link_latency_sum, int packet_flits) {
  const int per_router = p.routing_delay + p.va_delay + p.sa_delay + p.st_delay;
  const int routers = chips_route ? hops + 1 : std::max(hops - 1, 0);
  const double edge = chips_route ? 1.0 + 2.0 * p.injection_latency : 1.0;
  return edge + static_cast<double>(routers) * per_router + static_cast<double>(link_latency_sum) +
         (packet_flits - 1);
}

RunResult run_once(const Fabric& f, const Pattern& pattern, const TrafficParams& traffic,
                   const MeasureParams& m, Progress* progress, int threads) {
  if (!(traffic.rate >= 0) || traffic.rate > 1)
    fail_usage("{rate}", "the offered load must be within [0, 1] flits per node per cycle");
  if (traffic.packet_flits < 1 || traffic.packet_flits > 65535)
    fail_usage("{packet_flits}", "must be between 1 and 65535");
  const topo::Network& n = f.network();
  const RouterParams& P = f.params();
  Engine e(f, engine_parts(f, threads), m.seed);
  RunResult res;
  res.rate = traffic.rate;

  // Automatic limits from the network's size and its slowest link.
  const std::int64_t watchdog =
      m.watchdog > 0 ? m.watchdog
                     : 1000 + 4 * f.max_link_latency() +
                           4 * static_cast<std::int64_t>(std::ceil(f.max_link_period()));
  const double zl_longest =
      zero_load_cycles(P, f.chips_route(), static_cast<int>(n.metrics.diameter) + 2,
                       (n.metrics.diameter + 2) * f.max_link_latency(), traffic.packet_flits);
  const double latency_limit =
      m.latency_limit > 0 ? m.latency_limit : std::max(500.0, 4 * zl_longest);
  // At least the latency limit: a short window must not call a packet that simply has not
  // arrived yet a sign of saturation.
  const std::int64_t drain_limit =
      m.drain_limit > 0
          ? m.drain_limit
          : std::max(m.warmup + m.measure, static_cast<std::int64_t>(std::ceil(latency_limit)));

  SplitMix64 rng(m.seed ^ 0x666c69742d73696dULL); // "flit-sim"
  const double p_packet = traffic.rate / traffic.packet_flits;
  const std::int64_t N = n.n_chip;
  std::vector<std::int64_t> next_packet(z(N), -1);
  std::vector<std::int64_t> sources;
  for (std::int64_t c = 0; c < N; ++c)
    if (f.chip_live(c) && p_packet > 0) {
      sources.push_back(c);
      next_packet[z(c)] = geometric(rng, p_packet) - 1;
    }
  const double live = static_cast<double>(std::max<std::int64_t>(f.live_chips(), 1));

  const std::int64_t w0 = m.warmup, w1 = m.warmup + m.measure;
  std::int64_t created_flits = 0, accepted_flits = 0, outstanding = 0;
  std::vector<std::int64_t> lat;
  double lat_sum = 0, net_lat_sum = 0, hops_sum = 0;
  std::vector<std::int64_t> channel_at_w0, backlog_at_w0(z(N), 0);
  auto account = [&](std::int64_t now) {
    for (const Delivered& d : e.delivered()) {
      if (now > w0 && now <= w1) accepted_flits += d.flits;
      if (d.tag == 1) {
        lat.push_back(d.arrived - d.created);
        lat_sum += static_cast<double>(d.arrived - d.created);
        net_lat_sum += static_cast<double>(d.arrived - d.injected);
        hops_sum += d.hops;
        --outstanding;
      }
    }
    e.delivered().clear();
  };
  std::int64_t end_limit = w1 + drain_limit;
  const std::int64_t queue_limit = 1000000 + 1000 * N;
  for (;;) {
    const std::int64_t t = e.now();
    if (t >= w1 && outstanding == 0) break;
    if (t >= end_limit) {
      res.status = "saturated";
      res.status_detail = "packets created in the measurement window were still undelivered " +
                          std::to_string(drain_limit) + " cycles after it";
      break;
    }
    if (e.queued_packets() > queue_limit) {
      res.status = "saturated";
      res.status_detail = "the source queues grew past " + std::to_string(queue_limit) + " packets";
      break;
    }
    if (t == w0) {
      channel_at_w0 = e.channel_flits();
      for (std::int64_t c : sources) backlog_at_w0[z(c)] = e.queued_at(c);
    }
    for (std::int64_t c : sources) {
      std::int64_t& np = next_packet[z(c)];
      while (np == t) {
        const std::int64_t dst = pattern.dest(c, rng);
        const bool in_window = t >= w0 && t < w1;
        if (e.offer(c, dst, traffic.packet_flits, in_window ? 1 : 0)) {
          if (in_window) created_flits += traffic.packet_flits, ++outstanding;
        } else if (in_window) {
          ++res.packets_suppressed;
          if (!f.chip_live(dst)) ++res.packets_to_failed;
        }
        np += geometric(rng, p_packet);
      }
    }
    e.step();
    account(e.now());
    if (t + 1 == w1) {
      for (std::int64_t c : sources)
        res.backlog_growth = std::max(res.backlog_growth, e.queued_at(c) - backlog_at_w0[z(c)]);
      std::vector<std::int64_t> now_flits = e.channel_flits();
      res.channel_utilisation.assign(now_flits.size(), 0.0);
      for (std::size_t k = 0; k < now_flits.size(); ++k)
        res.channel_utilisation[k] =
            static_cast<double>(now_flits[k] - (channel_at_w0.empty() ? 0 : channel_at_w0[k])) /
            static_cast<double>(m.measure);
    }
    if (e.idle_cycles() >= watchdog && (e.flits_in_network() > 0 || e.queued_packets() > 0)) {
      res.status = "deadlock";
      res.deadlock_cycle = e.waiting_cycle();
      res.status_detail = "no flit moved for " + std::to_string(watchdog) + " cycles with " +
                          std::to_string(e.flits_in_network()) + " flits in the network";
      break;
    }
    if (!lat.empty() && (e.now() & 1023) == 0) {
      if (progress) progress->update(static_cast<std::uint64_t>(std::min(e.now(), w1)));
      if (lat.size() >= 100 && lat_sum / static_cast<double>(lat.size()) > latency_limit) {
        res.status = "saturated";
        res.status_detail =
            "mean packet latency passed " + std::to_string(latency_limit) + " cycles";
        break;
      }
    }
  }
  res.cycles = e.now();
  res.packets_measured = static_cast<std::int64_t>(lat.size());
  // The part of the window simulated (all of it unless the run stopped early).
  const double window =
      static_cast<double>(std::max<std::int64_t>(std::clamp(res.cycles, w0, w1) - w0, 1));
  res.offered = static_cast<double>(created_flits) / (live * window);
  res.accepted = static_cast<double>(accepted_flits) / (live * window);
  if (!lat.empty()) {
    const double k = static_cast<double>(lat.size());
    res.latency.mean = lat_sum / k;
    res.network_latency = net_lat_sum / k;
    res.hops_mean = hops_sum / k;
    std::sort(lat.begin(), lat.end());
    auto pct = [&](double q) {
      // nearest rank
      std::size_t r = static_cast<std::size_t>(std::ceil(q * k));
      return lat[std::min(lat.size(), std::max<std::size_t>(r, 1)) - 1];
    };
    res.latency.p50 = pct(0.50);
    res.latency.p99 = pct(0.99);
    res.latency.max = lat.back();
  }
  // Accepted against offered only when the warm-up filled the network and the window is longer
  // than a packet's trip: otherwise the window sees the network filling, not its throughput.
  const bool filled =
      static_cast<double>(m.warmup) >= zl_longest && static_cast<double>(m.measure) >= zl_longest;
  if (res.status == "ok" && filled && res.accepted < 0.95 * res.offered && res.offered > 0) {
    res.status = "saturated";
    res.status_detail = "accepted throughput fell below 95% of the offered load";
  }
  if (res.status == "ok" && res.backlog_growth * traffic.packet_flits > kBacklogGrowthFlits) {
    res.status = "saturated";
    res.status_detail = "a source queue grew by " + std::to_string(res.backlog_growth) +
                        " packets over the measurement window";
  }
  if (res.status == "ok" && res.latency.mean > latency_limit) {
    res.status = "saturated";
    res.status_detail = "mean packet latency passed " + std::to_string(latency_limit) + " cycles";
  }
  return res;
}

std::vector<RunResult> run_sweep(const Fabric& f, const Pattern& pattern,
                                 const TrafficParams& traffic, const MeasureParams& m,
                                 const std::vector<double>& rates, int threads,
                                 Progress* progress) {
  std::vector<RunResult> out(rates.size());
  // Runs in parallel first; threads left over go to each run's engine.
  const int T = std::max(1, std::min<int>(threads, static_cast<int>(rates.size())));
  const int per_run = std::max(1, threads / T);
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr error;
  std::mutex mu;
  auto worker = [&] {
    for (;;) {
      const std::size_t k = next++;
      if (k >= rates.size()) return;
      try {
        TrafficParams t = traffic;
        t.rate = rates[k];
        out[k] = run_once(f, pattern, t, m, nullptr, per_run);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next = rates.size();
      }
      ++done;
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < T; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool) th.join();
  if (progress) progress->update(done);
  if (error) std::rethrow_exception(error);
  return out;
}

SaturationSearch find_saturation(const Fabric& f, const Pattern& pattern,
                                 const TrafficParams& traffic, const MeasureParams& m,
                                 double resolution, double latency_factor, double zero_load_rate,
                                 int threads, Progress* progress) {
  SaturationSearch s;
  TrafficParams t0 = traffic;
  t0.rate = zero_load_rate;
  RunResult zero = run_once(f, pattern, t0, m, nullptr, std::max(1, threads));
  if (zero.status != "ok" || zero.packets_measured == 0)
    fail_infeasible("{find_saturation}", "the network is not stable even at " +
                                             std::to_string(zero_load_rate) +
                                             " flits/node/cycle (" + zero.status + ")");
  s.zero_load_latency = zero.latency.mean;
  s.runs.push_back(zero);
  const double limit = latency_factor * s.zero_load_latency;
  auto saturated = [&](const RunResult& r) { return r.status != "ok" || r.latency.mean >= limit; };
  double lo = zero_load_rate, hi = 1.0; // lo is below saturation, hi is at or past it
  // Each round probes the same kSaturationProbes rates whatever the thread count (run in
  // parallel as far as the threads go), so the probes, the rows and the rate found are the same
  // bytes on every machine.
  const int P = kSaturationProbes;
  std::size_t done = 1;
  while (hi - lo > resolution) {
    std::vector<double> rates;
    for (int k = 1; k <= P; ++k) rates.push_back(lo + (hi - lo) * k / (P + 1));
    std::vector<RunResult> rs = run_sweep(f, pattern, traffic, m, rates, std::max(1, threads));
    double new_lo = lo, new_hi = hi;
    for (std::size_t k = 0; k < rs.size(); ++k) {
      if (saturated(rs[k])) {
        new_hi = std::min(new_hi, rates[k]);
      } else if (rates[k] < new_hi) {
        new_lo = std::max(new_lo, rates[k]);
      }
    }
    for (RunResult& r : rs) s.runs.push_back(std::move(r));
    done += rates.size();
    if (progress) progress->update(done);
    lo = new_lo;
    hi = new_hi;
  }
  s.highest_stable = lo;
  s.lowest_saturated = hi;
  s.saturation_rate = (lo + hi) / 2;
  std::sort(s.runs.begin(), s.runs.end(),
            [](const RunResult& a, const RunResult& b) { return a.rate < b.rate; });
  return s;
}

} // namespace icnkit::sim::flit
