"""The CSV columns the plots read from the tools, named once.

net-sim owns its CSV headers and lists them in `net-sim --describe --format json` (csv_columns,
one entry per CSV form); the columns a plot reads are named here, and nowhere else in the
plots, and tests/cli/test_plot.sh checks that each one is among those net-sim lists."""

# net-sim --format csv (an analytic run, --sizes): the columns sizes reads.
SIZES_NEED = ["algorithm", "bytes_per_node", "time_us", "algbw_GBps", "busbw_GBps"]
# Its configuration columns, in the order their differences are named in a label.
SIZES_CONFIG = ["dim_scheduling", "traffic", "collective", "candidate", "family", "n_chip",
                "n_nodes", "link_bw_GBps", "link_latency_us", "failed_links", "failed_chips",
                "faults_digest", "routing", "chunks", "latency", "mode", "source",
                "network_fingerprint"]

# net-sim --mode flit --format csv (synthetic traffic): the columns latency-load reads, and the
# values of its status column.
FLIT_CSV = ["rate", "offered", "accepted", "latency_mean", "latency_p50", "latency_p99",
            "status"]
FLIT_STATUS = ("ok", "saturated", "deadlock")

# scripts/explore --format csv (besides its COLLECTIVE:time_s columns): what pareto reads.
PARETO_NEED = ["family", "design", "budget", "capex_usd"]
