"""The CSV columns the plots read from the tools, declared once.

net-sim owns its CSV headers (lib/sim/report.cpp csv_header(), lib/sim/flit/report.cpp) but
does not say them in --describe (its modes and traffic patterns only), so the columns a plot
needs are named here, and nowhere else in the plots."""

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
