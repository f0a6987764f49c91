# Generates view_golden.json: what torch's view() does (strides or error)
# for strided inputs made by permute/slice/expand. Run with torch installed:
#   python3 gen_views.py > view_golden.json
import itertools, json, random
import torch

random.seed(1)
cases = []

def factorizations(n, k):
    if k == 1:
        return [[n]]
    out = []
    for d in range(1, n + 1):
        if n % d == 0:
            for rest in factorizations(n // d, k - 1):
                out.append([d] + rest)
    return out

for _ in range(400):
    nd = random.randint(0, 4)
    shape = [random.choice([1, 1, 2, 3, 4]) for _ in range(nd)]
    base = torch.arange(max(1, 1 if not shape else 1) * 4096)
    t = base[: int(torch.tensor(shape).prod()) if shape else 1].reshape(shape)
    kind = random.choice(["contig", "permute", "slice", "expand", "zero"])
    if kind == "permute" and nd > 1:
        t = t.permute(*random.sample(range(nd), nd))
    elif kind == "slice" and nd > 0:
        big = [s * 2 for s in shape]
        u = base[: int(torch.tensor(big).prod())].reshape(big)
        t = u[tuple(slice(0, s) for s in shape)]
    elif kind == "expand" and nd > 0:
        sh = [s if random.random() < 0.5 else 1 for s in shape]
        t = base[: int(torch.tensor(sh).prod())].reshape(sh).expand(*shape)
    elif kind == "zero" and nd > 0:
        sh = list(shape)
        sh[random.randrange(nd)] = 0
        t = base[:0].reshape(sh)
    n = t.numel()
    k = random.randint(0, 4)
    if n == 0:
        news = [[0] + [random.choice([1, 2, 3]) for _ in range(max(k - 1, 0))]] if k > 0 else []
        if k == 0:
            news = [[0]]
    else:
        news = factorizations(n, k) if k > 0 else ([[]] if n == 1 else [[n]])
    for ns in random.sample(news, min(3, len(news))):
        if random.random() < 0.2 and ns:
            ns = list(ns)
            ns[random.randrange(len(ns))] = -1
        try:
            v = t.view(ns)
            res = {"ok": True, "out_sizes": list(v.shape), "out_strides": list(v.stride())}
        except RuntimeError:
            res = {"ok": False}
        cases.append({"sizes": list(t.shape), "strides": list(t.stride()), "view": list(ns), **res})

print(json.dumps(cases).replace("}, {", "},\n{"))
