"""Time Python's json.loads on model.json files, to compare with seam's
decoder (go test ./pt2 -bench DecodeProgram): the median of repeated
loads in milliseconds, of the wall clock and of CPU time (the figure to
compare on a machine shared with other work, as the benchmark's
cpu-ms/op).

    python3 scripts/json_loads.py [--no-gc] FILE.json ...

--no-gc turns Python's cycle collector off while loading (it runs many
times over a large document's dicts and dominates on 40 MB).
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools"))
try:
    import anchor_env  # noqa: F401  (OpenBLAS kernel choice, as every timing script here)
except ImportError:
    pass
import json


def main():
    args = sys.argv[1:]
    if args and args[0] == "--no-gc":
        import gc
        gc.disable()
        args = args[1:]
    for path in args:
        data = open(path, "rb").read()
        times, cpu = [], []
        budget = time.perf_counter() + 5.0
        while len(times) < 3 or (time.perf_counter() < budget and len(times) < 50):
            t, c = time.perf_counter(), time.process_time()
            json.loads(data)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        times.sort()
        cpu.sort()
        print(f"{os.path.basename(path)}: {len(data)} bytes, json.loads median {times[len(times)//2]*1e3:.1f} ms "
              f"({cpu[len(cpu)//2]*1e3:.1f} ms of CPU) over {len(times)} runs")


if __name__ == "__main__":
    main()
