# Generates the .npy test files with NumPy: python3 gen.py
import numpy as np
from numpy.lib import format as fmt

a = np.arange(6).reshape(2, 3)
cases = {
    "f4": a.astype("<f4") / 4, "f8": a.astype("<f8") / 3, "i8": a.astype("<i8") - 2,
    "i4": a.astype("<i4") * 1000, "i2": a.astype("<i2") - 3, "i1": a.astype("i1") - 3,
    "u1": a.astype("u1") * 40, "b1": (a % 2).astype(bool), "f2": a.astype("<f2") / 8,
}
for name, arr in cases.items():
    np.save(name + ".npy", arr)
np.save("scalar.npy", np.array(3.5, dtype="<f8"))
np.save("empty.npy", np.zeros((0, 4), dtype="<f4"))
np.save("fortran.npy", np.asfortranarray(np.arange(24, dtype="<i4").reshape(2, 3, 4)))
for v in [(2, 0), (3, 0)]:
    with open("v%d.npy" % v[0], "wb") as f:
        fmt.write_array(f, np.arange(5, dtype="<f4"), version=v)
