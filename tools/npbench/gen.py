"""Cases for tools/npbench/run.lua: NPBench's Numba kernels (the *_numba_n.py
files of a checkout of github.com/spcl/npbench, which is not part of lumba)
with their inputs and NumPy's outputs.

usage: /usr/bin/python3 tools/npbench/gen.py <npbench checkout> <out dir> [preset] [max elements]

For each benchmark with a _numba_n.py file: its inputs from the benchmark's
own initialize() at the preset's sizes (S, shrunk while an input has more
than max elements), the NumPy version's results (the return value and the
output arguments after the call), each array as raw C-order bytes in
<out>/<bench>/<name>.bin, and <out>/<bench>/case.lua describing them."""
import glob
import importlib.util
import json
import os
import sys
import traceback

import numpy as np

DTYPES = {"float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16",
          "uint8", "bool", "complex128", "complex64"}


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.pop(0)
    return mod


def lua_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def describe(value, name, outdir):
    """A Lua table constructor for value; arrays go to <name>.bin."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic) and value.ndim == 0 and False:
        a = np.ascontiguousarray(value)
        if a.dtype.name not in DTYPES:
            return '{kind = "unsupported", what = %s}' % lua_str("dtype " + a.dtype.name)
        a.tofile(os.path.join(outdir, name + ".bin"))
        return '{kind = "array", dtype = "%s", shape = {%s}, file = %s}' % (
            a.dtype.name, ", ".join(str(s) for s in a.shape), lua_str(name + ".bin"))
    if isinstance(value, (bool, np.bool_)):
        return '{kind = "bool", value = %s}' % ("true" if value else "false")
    if isinstance(value, (int, np.integer)):
        return '{kind = "int", value = %d}' % int(value)
    if isinstance(value, (float, np.floating)):
        return '{kind = "float", value = %r}' % float(value)
    if isinstance(value, tuple):
        return '{kind = "tuple", %s}' % ", ".join(describe(v, "%s_%d" % (name, i), outdir)
                                                for i, v in enumerate(value))
    if value is None:
        return '{kind = "none"}'
    return '{kind = "unsupported", what = %s}' % lua_str(type(value).__name__)


def shrink(params, init, limit):
    """Halve the integer parameters while an input has more than limit elements."""
    p = dict(params)
    for _ in range(12):
        raw = init(p)
        vals = raw if isinstance(raw, tuple) else (raw,)
        big = max((v.size for v in vals if isinstance(v, np.ndarray)), default=0)
        if big <= limit:
            return p, raw
        p = {k: (max(2, v // 2) if isinstance(v, int) and v > 2 else v) for k, v in p.items()}
    return p, raw


def main(root, out, preset="S", limit=300000):
    limit = int(limit)
    os.makedirs(out, exist_ok=True)
    made = 0
    for info_path in sorted(glob.glob(os.path.join(root, "bench_info", "*.json"))):
        b = json.load(open(info_path))["benchmark"]
        d = os.path.join(root, "npbench", "benchmarks", b["relative_path"])
        mname = b["module_name"]
        numba_file = os.path.join(d, mname + "_numba_n.py")
        if not os.path.exists(numba_file):
            continue
        case = os.path.join(out, mname)
        os.makedirs(case, exist_ok=True)
        lines = ["return {", "  name = %s," % lua_str(mname), "  source = %s," % lua_str(numba_file),
                 "  func = %s," % lua_str(b["func_name"])]
        try:
            ref = load(os.path.join(d, mname + "_numpy.py"), "npb_np_" + mname)
            params = b["parameters"][preset]
            env = dict(params)
            if "init" in b:
                initm = load(os.path.join(d, mname + ".py"), "npb_init_" + mname)
                init = getattr(initm, b["init"]["func_name"])

                def run_init(p):
                    return init(*[p[k] for k in b["init"]["input_args"]])
                params, vals = shrink(params, run_init, limit)
                env = dict(params)
                vals = vals if isinstance(vals, tuple) and len(b["init"]["output_args"]) > 1 else (vals,)
                for k, v in zip(b["init"]["output_args"], vals):
                    env[k] = v
            args = [env[k] for k in b["input_args"]]
            lines.append("  params = %s," % lua_str(json.dumps(params)))
            lines.append("  args = {" + ", ".join(describe(a, "in_%d" % i, case) for i, a in enumerate(args)) + "},")
            copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            r = getattr(ref, b["func_name"])(*copies)
            lines.append("  result = %s," % describe(r, "result", case))
            outs = []
            for k in b["output_args"]:
                i = b["input_args"].index(k)
                outs.append("{index = %d, name = %s, value = %s}" % (i + 1, lua_str(k), describe(copies[i], "out_%d" % i, case)))
            lines.append("  outputs = {" + ", ".join(outs) + "},")
        except Exception:
            lines.append("  error = %s," % lua_str(traceback.format_exc().strip().splitlines()[-1]))
        lines.append("}")
        with open(os.path.join(case, "case.lua"), "w") as f:
            f.write("\n".join(lines) + "\n")
        made += 1
    print("wrote %d cases to %s" % (made, out))


if __name__ == "__main__":
    main(*sys.argv[1:])
