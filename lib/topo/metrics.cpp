#include "topo/metrics.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

namespace icnkit::topo {

namespace {
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

Graph make_graph(const Network& n) {
  Graph g(n.nodes.size());
  for (const Link& l : n.links)
    boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b), g);
  return g;
}

std::int64_t ecc(const Graph& g, std::size_t src) {
  std::vector<std::int64_t> dist(boost::num_vertices(g), -1);
  dist[src] = 0;
  boost::breadth_first_search(g, boost::vertex(src, g),
                              boost::visitor(boost::make_bfs_visitor(
                                  boost::record_distances(dist.data(), boost::on_tree_edge()))));
  return *std::max_element(dist.begin(), dist.end());
}
} // namespace

std::int64_t eccentricity(const Network& n, std::int64_t src) {
  return ecc(make_graph(n), static_cast<std::size_t>(src));
}

std::int64_t exact_diameter(const Network& n) {
  Graph g = make_graph(n);
  std::int64_t d = 0;
  for (std::size_t v = 0; v < n.nodes.size(); ++v) d = std::max(d, ecc(g, v));
  return d;
}

} // namespace icnkit::topo
