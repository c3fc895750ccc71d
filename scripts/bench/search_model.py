#!/usr/bin/env python3
"""The model of docs/cluster.md ("Solving Kalah(6,6)"): time of `mpirun kalah solve` on a cluster.

Every input is an argument whose default is either measured on the 2-core development machine
(scripts/bench/mpi_search.sh) or a stated assumption about the cluster or the game; the model is
rerun with other figures by passing them.

Usage: scripts/bench/search_model.py [--machines 16 64 256] [--cores 64] [--nodes 5.5e13] ...
"""
import argparse


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--machines", type=int, nargs="+", default=[16, 64, 256],
                   help="one process a machine")
    a.add_argument("--cores", type=int, default=64, help="search threads a process")
    a.add_argument("--link-gbit", type=float, default=100, help="each machine's link, Gbit/s")
    # The game (assumptions, from published and measured node counts).
    a.add_argument("--nodes", type=float, default=5.5e13,
                   help="nodes to solve Kalah(6,6) with empty capture over a 34-seed database: "
                        "Rawlings' count (2015); kalah's own is not known (docs/cluster.md)")
    a.add_argument("--standard-factor", type=float, default=2.5,
                   help="standard capture's nodes over empty capture's: Kalah(6,5) with the "
                        "28-seed database, 5.9e8 against 2.4e8 (docs/costs.md)")
    # Measured here.
    a.add_argument("--thread-rate", type=float, default=1.75e6,
                   help="nodes a second a search thread: the first hour of the Kalah(6,6) "
                        "campaign over the 34-seed database here, 2 processes of 1 thread "
                        "(1.25e10 nodes in 59 min; docs/cluster.md)")
    a.add_argument("--core-scaling", type=float, default=0.5,
                   help="a core of a 64-core machine against one here: the search is bound by "
                        "random reads of the table and the database, which 64 cores share "
                        "(not measured beyond 2 cores)")
    a.add_argument("--overhead-2", type=float, default=0.45,
                   help="extra nodes with 2 processes (tables apart) against one with every "
                        "thread on one table: 45 %% measured; P processes miss the share (P-1)/P "
                        "of the transpositions the others' tables hold, so P costs "
                        "1 + 2 * this * (P-1)/P (measured: P = 3 1.50, P = 4 1.63; model 1.60, "
                        "1.68)")
    a.add_argument("--busy", type=float, default=0.9,
                   help="the fraction of time threads search (91-93 %% measured at P = 2; "
                        "the largest unknown at hundreds of processes)")
    a.add_argument("--bytes-per-node", type=float, default=5e-5,
                   help="bytes sent a node, both ways (1.4e-5, 2.7e-5, 4.5e-5 measured at "
                        "P = 2, 3, 4: more processes, smaller jobs)")
    a.add_argument("--job-nodes", type=float, default=1e6,
                   help="nodes a job (Kalah(6,5): 2.7e6 at P = 2, about 1e6 at P = 4)")
    a.add_argument("--manager-us", type=float, default=20,
                   help="process 0's time an answer, microseconds: not measured (a round "
                        "refreshes the frontier's bounds, 16 leaves a thread)")
    o = a.parse_args()

    print(f"Kalah(6,6) over {o.cores}-core machines, {o.link_gbit:g} Gbit/s links; a thread "
          f"searches {o.thread_rate * o.core_scaling:.2g} nodes/s there")
    print("capture   machines  nodes     compute   network  process 0  total      bound")
    for capture, factor in (("empty", 1.0), ("standard", o.standard_factor)):
        for p in o.machines:
            threads = p * o.cores
            overhead = 1 + 2 * o.overhead_2 * (p - 1) / p
            nodes = o.nodes * factor * overhead
            compute = nodes / (threads * o.thread_rate * o.core_scaling * o.busy)
            # Every job crosses process 0's link: jobs out, answers in.
            network = nodes * o.bytes_per_node / (o.link_gbit / 8 * 1e9)
            manager = nodes / o.job_nodes * o.manager_us * 1e-6
            total = max(compute, manager) + network
            bound = max((compute, "computation"), (manager, "process 0"), (network, "network"))[1]
            print(f"{capture:9s} {p:8d}  {nodes:.2e}  {compute / 3600:6.1f} h  {network:6.2f} s"
                  f"  {manager / 60:5.1f} min  {total / 3600:6.1f} h   {bound}")
    print("process 0: its time handling answers, all told (a bound once it nears the total)")


if __name__ == "__main__":
    main()
