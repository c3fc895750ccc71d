#!/usr/bin/env python3
"""The model of docs/cluster.md: time of `mpirun kalah build` for m = 6 on a cluster.

Every input is either measured on the 2-core development machine (scripts/bench/mpi_build.sh) or an
assumption about the cluster; both are arguments, so the model can be rerun with other figures.
The row-pair balance is computed exactly, with the same assignment as retrograde/partition.cpp.

Usage: scripts/bench/cluster_model.py [--machines 16] [--cores 64] [--link-gbit 100] ...
"""
import argparse
from math import comb

M = 6


def layer_size(s):
    return comb(s + 2 * M - 1, 2 * M - 1)


def partition(top, processes):
    """Boards per process of each layer 0..top: row pairs whole, largest first to the least loaded
    in the layer, ties to the one holding least so far (retrograde/partition.cpp)."""
    rows = lambda k: comb(k + M - 1, M - 1)
    held = [0] * processes
    loads = []
    for s in range(top + 1):
        size = lambda k: rows(k) * rows(s - k) * (1 if 2 * k == s else 2)
        load = [0] * processes
        for k in sorted(range(s // 2 + 1), key=lambda k: (-size(k), k)):
            r = min(range(processes), key=lambda q: (load[q], held[q], q))
            load[r] += size(k)
        held = [h + l for h, l in zip(held, load)]
        loads.append(load)
    return loads, held


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # The cluster (assumptions).
    a.add_argument("--machines", type=int, default=16, help="one process a machine")
    a.add_argument("--cores", type=int, default=64, help="threads a process")
    a.add_argument("--link-gbit", type=float, default=100, help="each machine's link, Gbit/s")
    a.add_argument("--round-latency-us", type=float, default=100,
                   help="an exchange round's 3 collectives among the machines, microseconds")
    a.add_argument("--disk-gbyte", type=float, default=2,
                   help="process 0's writing speed, GB/s (files of about 0.4 bytes a board)")
    a.add_argument("--core-scaling", type=float, default=0.5,
                   help="per-core speed on a 64-core machine relative to one core here: the "
                        "build is bound by random memory reads, and 64 cores share the "
                        "memory system (this VM's 2 cores keep 0.99 each)")
    # Measured here (scripts/bench/mpi_build.sh 24; see docs/cluster.md).
    a.add_argument("--core-ns", type=float, default=130,
                   help="core-nanoseconds a board over processes, exchanges included "
                        "(2 processes on 2 cores, m = 6 up to 24 seeds)")
    a.add_argument("--far-bytes", type=float, default=22.0,
                   help="bytes exchanged a board when every lower-layer child is far (the "
                        "measured bytes a board at P processes are about this times (P-1)/P)")
    a.add_argument("--file-bytes", type=float, default=0.42, help="file bytes a board")
    a.add_argument("--chunk-boards", type=float, default=0.35e6,
                   help="boards in a process's chunk (one exchange round) at 16 processes")
    o = a.parse_args()

    P = o.machines
    board_s = o.core_ns * 1e-9 / (o.cores * o.core_scaling)  # seconds a board on one process
    link = o.link_gbit / 8 * 1e9
    print(f"{P} machines x {o.cores} cores, {o.link_gbit:g} Gbit/s links; a board costs "
          f"{o.core_ns:g} core-ns here, cores at {o.core_scaling:g} of that speed there")
    print("seeds  boards     raw/machine  compute  network  rounds  write   total    balance")
    for top in (34, 36, 40):
        compute = network = rounds = write = 0.0
        worst = 0.0
        loads, held = partition(top, P)
        for s in range(1, top + 1):
            n = layer_size(s)
            load = loads[s]
            worst = max(worst, max(load) / (n / P)) if s > top - 6 else worst
            compute += max(load) * board_s
            sent = n * o.far_bytes * (P - 1) / P  # all processes together
            network += sent / P / link + n * o.file_bytes / link  # each link's share; gather
            rounds += max(load) / o.chunk_boards * o.round_latency_us * 1e-6
            write += n * o.file_bytes / (o.disk_gbyte * 1e9)
        total = compute + network + rounds + write
        boards = sum(layer_size(s) for s in range(top + 1))
        raw = max(held)
        print(f"{top:5d}  {boards:.2e}   {raw / 2**30:6.1f} GiB  {compute / 60:5.1f} min"
              f"  {network:5.0f} s  {rounds:5.0f} s  {write:5.0f} s  {total / 60:5.1f} min"
              f"  max/mean {worst:.2f}")


if __name__ == "__main__":
    main()
