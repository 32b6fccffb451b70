#include "coll/ring_time.hpp"

namespace icnkit::coll {

double ring_time(int n, double S, double B, double alpha, LatencyModel m) {
  if (n <= 1) return 0;
  const double N = n;
  if (m == LatencyModel::Table1) return alpha + (N - 1) * S / (4 * B);
  return N * (N - 1) / 2 * (alpha + S / (2 * N * B));
}

double halfring_time(int n, double S, double B, double alpha, LatencyModel m, int plane_hops) {
  if (n <= 1) return 0;
  const double N = n, a = alpha * plane_hops;
  const int k = n / 2;
  if (m == LatencyModel::Table1)
    return a + (n % 2 == 0 ? N * S / (8 * B) : (N * N - 1) * S / (8 * N * B));
  if (n % 2 == 1) return k * (k + 1) / 2.0 * (a + S / (N * B));
  return k * (k - 1) / 2.0 * (a + S / (N * B)) + k * (a + S / (2 * N * B));
}

double folded_time(int n, double S, double B, double alpha, LatencyModel m) {
  if (n <= 1) return 0;
  const double N = n;
  if (m == LatencyModel::Table1) return (N - 1) * alpha + (N - 1) * S / (2 * B);
  return N * (N - 1) / 2 * ((N - 1) * alpha + S / (N * B));
}

double ring_reduction_time(int n, double share, double B, double alpha) {
  if (n <= 1) return 0;
  return (n - 1) * (alpha + share / (2.0 * n * B));
}

} // namespace icnkit::coll
