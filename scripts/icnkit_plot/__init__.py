"""icnkit's plots, one module per kind; scripts/plot (installed as icnkit-plot) runs them.

  cli              the command line (its --help), main(): load, draw, save
  common           errors, reading the inputs (CSV, Markdown, JSON), the one number reader
  columns          the tools' CSV columns the plots read, declared once
  output           matplotlib (found, set up), the figure, the atomic PNG/SVG write
  sizes, speedup, latency_load, heatmap (+ heatmap_layouts), timeline, topology
  (+ topology_layout), pareto: a kind each, with load(a) -> data and draw(a, data, plt, fig)
  -> its default title
"""

# KIND on the command line -> its module
KINDS = {"sizes": "sizes", "speedup": "speedup", "latency-load": "latency_load",
         "heatmap": "heatmap", "timeline": "timeline", "pareto": "pareto",
         "topology": "topology"}
