#!/usr/bin/env python3
"""A made-up class for the similarity benchmark of docs/performance.md: COUNT submissions of one lab,
each a mutated copy of one of the lab's solutions (the reference, reference/<lab>/progression/*.cu and
tests/similarity/<lab>/*.cu), in the layout `gpulab batch` and `gpulab similarity` read
(OUT/studentNNNN/<lab>.cu). Every submission gets its own mix of disguises, each applied with some
probability: the names a student chooses renamed, comments dropped and new ones written, indentation
and blank lines changed, top-level functions swapped, dead statements inserted; and every submission
gets a helper of its own (random statements), so that no two are identical. Deterministic for a seed.

Usage: make_class.py LAB OUT [--count 1000] [--seed 1]
"""
import argparse
import pathlib
import random
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

KEYWORDS = set("""alignas alignof asm auto bool break case catch char class const constexpr const_cast continue
decltype default delete do double dynamic_cast else enum explicit extern false float for friend goto if inline
int long mutable namespace new noexcept nullptr operator private protected public register reinterpret_cast
return short signed sizeof static static_assert static_cast struct switch template this throw true try typedef
typename union unsigned using virtual void volatile while""".split())
# Names the lab and CUDA give: a student does not rename them (the grader calls the host functions by name).
FIXED = set("""threadIdx blockIdx blockDim gridDim warpSize dim3 x y z w atomicAdd atomicSub atomicMax atomicMin
atomicExch atomicCAS size_t printf min max std sqrtf fminf fmaxf fabsf uint32_t uint64_t int64_t
convolution_1d convolution_2d histogram_text histogram_bytes reduce_sum_int reduce_sum_float inclusive_scan
exclusive_scan matmul""".split())
# Comments, #include lines and directive names, literals, pp-numbers (1u, 0.5f), names, the rest.
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|#\s*include[^\n]*|#\s*\w+|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                   r'|\.?\d[\w.]*|[A-Za-z_]\w*|\s+|.', re.S)
WORDS = ["acc", "val", "tmp", "idx", "pos", "cnt", "buf", "sum", "part", "res", "data", "step", "off", "lim",
         "my", "loc", "blk", "thr", "row", "col", "cur", "nxt", "src", "dst", "tot", "aux", "chunk", "seg"]


def fixed(name):
    return name in KEYWORDS or name in FIXED or name.startswith("__") or name.startswith("cuda")


def rename(text, rng):
    names = {}
    out = []
    for t in TOKEN.findall(text):
        if re.fullmatch(r"[A-Za-z_]\w*", t) and not fixed(t):
            if t not in names:
                names[t] = rng.choice(WORDS) + rng.choice(["", "_", "X"]) + str(len(names)) + rng.choice(WORDS)[:2]
            t = names[t]
        out.append(t)
    return "".join(out)


def drop_comments(text, rng):
    out = []
    for t in TOKEN.findall(text):
        if t.startswith("//") or t.startswith("/*"):
            t = "" if rng.random() < 0.8 else "// " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8)))
        out.append(t)
    return "".join(out)


def relayout(text, rng):
    indent = rng.choice([2, 3, 4, 8])
    lines = []
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 2
        lines.append(" " * (depth * indent) + stripped.rstrip())
        if rng.random() < 0.08:
            lines.append("")
    return "\n".join(lines)


def top_level_chunks(text):
    """Lines grouped into top-level pieces (a function, a struct, a run of declarations)."""
    chunks, current, depth = [], [], 0
    for line in text.split("\n"):
        current.append(line)
        depth += line.count("{") - line.count("}")
        if depth == 0 and line.rstrip().endswith("}"):
            chunks.append("\n".join(current))
            current = []
    if current:
        chunks.append("\n".join(current))
    return chunks


def swap_functions(text, rng):
    chunks = top_level_chunks(text)
    if len(chunks) >= 3:
        i = rng.randrange(len(chunks) - 1)
        chunks[i], chunks[i + 1] = chunks[i + 1], chunks[i]
    return "\n".join(chunks)


def dead_code(text, rng):
    out, depth = [], 0
    for line in text.split("\n"):
        out.append(line)
        depth += line.count("{") - line.count("}")
        if depth > 0 and line.rstrip().endswith(";") and rng.random() < 0.12:
            v = rng.choice(WORDS) + str(rng.randint(0, 999))
            out.append(rng.choice([f"  int {v} = {rng.randint(0, 99)}; (void){v};",
                                   f"  if ({rng.randint(0, 9)} > {rng.randint(10, 99)}) {{ return; }}",
                                   f"  float {v} = {rng.random():.3f}f * {rng.randint(1, 9)}; (void){v};"]))
    return "\n".join(out)


def own_helper(rng, student):
    ops = ["+", "-", "*", "^", "&", "|", "<<", ">>"]
    body = []
    for _ in range(rng.randint(4, 20)):
        a, b = rng.choice(["v", "w", "threadIdx.x", "blockIdx.x", str(rng.randint(1, 99))]), rng.choice(["v", "w"])
        body.append(rng.choice([f"  v = {a} {rng.choice(ops)} {b};", f"  w += v {rng.choice(ops)} {a};",
                                f"  if (v {rng.choice(['<', '>', '=='])} w) v = {a};",
                                f"  for (int i = 0; i < {rng.randint(2, 9)}; ++i) w = w {rng.choice(ops)} i;"]))
    return (f"\n__device__ int helper_{student}(int v) {{\n  int w = {rng.randint(0, 9)};\n" + "\n".join(body) +
            "\n  return v + w;\n}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("lab")
    p.add_argument("out", type=pathlib.Path)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    bases = [ROOT / "reference" / a.lab / f"{a.lab}.cu"]
    bases += sorted((ROOT / "reference" / a.lab / "progression").glob("*.cu"))
    bases += sorted((ROOT / "tests" / "similarity" / a.lab).glob("*.cu"))
    bases = [b for b in bases if b.exists()]
    if len(bases) < 2:
        sys.exit(f"make_class.py: lab '{a.lab}' has fewer than two solutions under reference/{a.lab}/")
    if a.count < 1:
        sys.exit("make_class.py: --count must be at least 1")
    texts = [b.read_text(encoding="utf-8") for b in bases]
    rng = random.Random(a.seed)
    for i in range(1, a.count + 1):
        text = rng.choice(texts)
        for mutate, chance in ((rename, 0.7), (drop_comments, 0.6), (swap_functions, 0.4), (dead_code, 0.5),
                               (relayout, 0.5)):
            if rng.random() < chance:
                text = mutate(text, rng)
        text += own_helper(rng, i)
        folder = a.out / f"student{i:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{a.lab}.cu").write_text(text, encoding="utf-8")
    print(f"{a.count} submissions of {a.lab} from {len(bases)} solutions in {a.out}")


if __name__ == "__main__":
    main()
