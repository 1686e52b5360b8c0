#!/usr/bin/env python3
"""Everyday shell work beside the native shells, in one run.

Each case is a small script (a loop of 50,000-100,000 turns of one everyday
shape) run by the sandbash CLI and by bash, dash, mksh, ksh93 and busybox sh,
each a whole process (start included), best of --runs. A shell that lacks the
case's feature gets its own spelling where one exists (`typeset -A` for ksh93)
or is left out (n/a). Every shell's output must equal bash's; a case whose
outputs differ is reported and not timed.

    python3 bench/shells.py                 # installs the shells when missing (apt)
    python3 bench/shells.py --runs 5 --filter case
    python3 bench/shells.py --sandbash target/release/sandbash

Prints each case's best time per shell, sandbash's ratio to bash and to the
fastest native shell (above 1 means sandbash is faster), and their geometric means.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

NATIVE = ["bash", "dash", "mksh", "ksh93", "busybox"]
PACKAGES = {"mksh": "mksh", "ksh93": "ksh", "busybox": "busybox", "dash": "dash"}

# name -> {dialect: script}; "sh" is POSIX (every shell), "bash" is for bash and
# sandbash, other keys override for one shell. A shell with no script is n/a.
LOOP = 'i=0; while [ $i -lt {n} ]; do {body} i=$((i+1)); done'

CASES = [
    ("case k*5 / k1*", 100_000, {
        "sh": LOOP.format(n=100_000, body='case "k$i" in k*5) a=$((a+1));; k1*) b=$((b+1));; esac;') + '; echo $a $b',
    }),
    ("${s##*/} ${s%.*} ${#s}", 100_000, {
        "sh": 's=/usr/local/lib/libfoo.so.1; ' + LOOP.format(n=100_000, body='a=${s##*/}; b=${s%.*}; c=${#s};') + '; echo $a $b $c',
    }),
    ("f $i (r=$(( $1 * 2 )))", 100_000, {
        "sh": 'f() { r=$(( $1 * 2 )); }; ' + LOOP.format(n=100_000, body='f $i;') + '; echo $r',
    }),
    ("while read a b c (50k)", 50_000, {
        "sh": LOOP.format(n=50_000, body='echo "x$i y z";') + ' > /tmp/_rd; n=0; while read a b c; do n=$((n+1)); l=$a; done < /tmp/_rd; echo $n $l',
    }),
    ("[[ =~ ]] with a group (50k)", 50_000, {
        "bash": 'n=0; for ((i=0;i<50000;i++)); do [[ "id-$i" =~ ^id-([0-9]+)5$ ]] && { n=$((n+1)); g=${BASH_REMATCH[1]}; }; done; echo $n $g',
        "ksh93": 'n=0; for ((i=0;i<50000;i++)); do [[ "id-$i" =~ ^id-([0-9]+)5$ ]] && { n=$((n+1)); g=${.sh.match[1]}; }; done; echo $n $g',
    }),
    ("m[k$((i%1000))]=$i (50k, assoc)", 50_000, {
        "bash": 'declare -A m; for ((i=0;i<50000;i++)); do m[k$((i%1000))]=$i; done; echo ${#m[@]} ${m[k7]}',
        "ksh93": 'typeset -A m; for ((i=0;i<50000;i++)); do m[k$((i%1000))]=$i; done; echo ${#m[@]} ${m[k7]}',
    }),
    ("option-parsing loop (20k)", 20_000, {
        "sh": 'p() { while [ $# -gt 0 ]; do case $1 in -a) a=1;; -b) b=$2; shift;; --) shift; break;; -*) x=$1;; *) break;; esac; shift; done; r=$#; }; '
        + LOOP.format(n=20_000, body='p -a -b val -z -- f1 f2;') + '; echo $a $b $x $r',
    }),
    ("${s:i%10:3} slicing (100k)", 100_000, {
        "bash": 's=abcdefghijklmnop; for ((i=0;i<100000;i++)); do t=${s:i%10:3}; done; echo $t',
        "ksh93": 's=abcdefghijklmnop; for ((i=0;i<100000;i++)); do t=${s:i%10:3}; done; echo $t',
        "mksh": 's=abcdefghijklmnop; i=0; while [ $i -lt 100000 ]; do t=${s:i%10:3}; i=$((i+1)); done; echo $t',
        "busybox": 's=abcdefghijklmnop; i=0; while [ $i -lt 100000 ]; do t=${s:$((i%10)):3}; i=$((i+1)); done; echo $t',
    }),
    ("printf -v (100k)", 100_000, {
        "bash": 'for ((i=0;i<100000;i++)); do printf -v s "%05d:%s" $i x; done; echo $s',
    }),
    ("read <<< here-string (50k)", 50_000, {
        "bash": 'for ((i=0;i<50000;i++)); do read a b <<< "$i x"; done; echo $a $b',
        "ksh93": 'for ((i=0;i<50000;i++)); do read a b <<< "$i x"; done; echo $a $b',
        "mksh": 'i=0; while [ $i -lt 50000 ]; do read a b <<< "$i x"; i=$((i+1)); done; echo $a $b',
    }),
    ("IFS=, read -a (50k)", 50_000, {
        "bash": 'for ((i=0;i<50000;i++)); do IFS=, read -r -a f <<< "a,$i,c"; done; echo ${#f[@]} ${f[1]}',
        "ksh93": 'for ((i=0;i<50000;i++)); do IFS=, read -r -A f <<< "a,$i,c"; done; echo ${#f[@]} ${f[1]}',
        "mksh": 'i=0; while [ $i -lt 50000 ]; do IFS=, read -r -A f <<< "a,$i,c"; i=$((i+1)); done; echo ${#f[@]} ${f[1]}',
    }),
    ("mapfile of 1k lines (200x)", 200, {
        "bash": 'for ((i=0;i<1000;i++)); do echo "l$i"; done > /tmp/_mf; for ((k=0;k<200;k++)); do mapfile -t a < /tmp/_mf; done; echo ${#a[@]} ${a[999]}',
    }),
    ("nested functions f->g->h (50k)", 50_000, {
        "sh": 'h() { x=$1; }; g() { h $1; }; f() { g $1; }; ' + LOOP.format(n=50_000, body='f $i;') + '; echo $x',
    }),
    ("local in recursion (depth 200, 200x)", 200, {
        "bash": 'f() { local n=$1; [ $n -le 0 ] && return; f $((n-1)); }; for ((k=0;k<200;k++)); do f 200; done; echo done',
        "dash": 'f() { local n=$1; [ $n -le 0 ] && return; f $((n-1)); }; k=0; while [ $k -lt 200 ]; do f 200; k=$((k+1)); done; echo done',
        "mksh": 'function f { typeset n=$1; [ $n -le 0 ] && return; f $((n-1)); }; k=0; while [ $k -lt 200 ]; do f 200; k=$((k+1)); done; echo done',
        "ksh93": 'function f { typeset n=$1; [ $n -le 0 ] && return; f $((n-1)); }; for ((k=0;k<200;k++)); do f 200; done; echo done',
        "busybox": 'f() { local n=$1; [ $n -le 0 ] && return; f $((n-1)); }; k=0; while [ $k -lt 200 ]; do f 200; k=$((k+1)); done; echo done',
    }),
    ("arithmetic loop (300k)", 300_000, {
        "sh": 'x=0; ' + LOOP.format(n=300_000, body='x=$((x + i % 7));') + '; echo $x',
    }),
    ("string building s=$s.x (20k)", 20_000, {
        "sh": 's=; ' + LOOP.format(n=20_000, body='s="$s.";') + '; echo ${#s}',
    }),
]

SANDBASH_ENV = {
    "SANDBASH_MAX_LOOP_ITERATIONS": "100000000",
    "SANDBASH_MAX_TOTAL_LOOP_ITERATIONS": "100000000",
    "SANDBASH_MAX_COMMANDS": "100000000",
    "SANDBASH_TIMEOUT_MS": "600000",
    "SANDBASH_MAX_FUNCTION_DEPTH": "10000",
}


def script_for(shell, scripts):
    if shell in scripts:
        return scripts[shell]
    if shell in ("bash", "sandbash") and "bash" in scripts:
        return scripts["bash"]
    return scripts.get("sh")


def command(shell, sandbash, script):
    if shell == "sandbash":
        return [sandbash, "-c", script]
    if shell == "busybox":
        return ["busybox", "sh", "-c", script]
    return [shell, "-c", script]


def run(cmd, env, cwd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, env=env, cwd=cwd, timeout=600)
    return time.perf_counter() - t, p.stdout, p.returncode


def install_missing():
    missing = [PACKAGES[s] for s in NATIVE if s != "bash" and shutil.which(s if s != "busybox" else "busybox") is None]
    if missing:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, check=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--filter")
    ap.add_argument("--sandbash", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "sandbash"))
    a = ap.parse_args()
    a.sandbash = os.path.abspath(a.sandbash)
    install_missing()
    shells = ["sandbash"] + [s for s in NATIVE if shutil.which(s)]
    env = dict(os.environ, **SANDBASH_ENV, LC_ALL="C.UTF-8")
    cwd = tempfile.mkdtemp(prefix="shells-bench-")
    rows, vs_bash, vs_best = [], [], []
    print(f"{'case':<38}" + "".join(f"{s:>10}" for s in shells) + f"{'x bash':>9}{'x best':>9}")
    for name, _, scripts in CASES:
        if a.filter and a.filter not in name:
            continue
        want = None
        best = {}
        for shell in ["bash"] + [s for s in shells if s != "bash"]:
            script = script_for(shell, scripts)
            if script is None:
                continue
            times, out = [], None
            for _ in range(a.runs):
                t, o, code = run(command(shell, a.sandbash, script), env, cwd)
                times.append(t)
                out = (o, code)
            if shell == "bash":
                want = out
            if out != want:
                best[shell] = f"differs: {out[0][:60]!r} vs {want[0][:60]!r}" if want else "differs"
                continue
            best[shell] = min(times)
        cells = []
        for s in shells:
            v = best.get(s)
            cells.append(f"{v * 1000:>9.0f}m" if isinstance(v, float) else f"{'n/a' if v is None else 'DIFF':>10}")
        sb = best.get("sandbash")
        natives = [v for s, v in best.items() if s != "sandbash" and isinstance(v, float)]
        rb = best["bash"] / sb if isinstance(sb, float) and isinstance(best.get("bash"), float) else None
        rn = min(natives) / sb if isinstance(sb, float) and natives else None
        if rb:
            vs_bash.append(rb)
        if rn:
            vs_best.append(rn)
        print(f"{name:<38}" + "".join(cells) + (f"{rb:>9.2f}" if rb else f"{'-':>9}") + (f"{rn:>9.2f}" if rn else f"{'-':>9}"))
        for s, v in best.items():
            if isinstance(v, str):
                print(f"    {s}: {v}")
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    print(f"\ngeometric mean: {gm(vs_bash):.2f}x bash, {gm(vs_best):.2f}x the fastest native shell "
          f"(cases at or above 1.0 vs bash: {sum(r >= 1 for r in vs_bash)}/{len(vs_bash)}, "
          f"within 1.25x of the fastest: {sum(r >= 0.8 for r in vs_best)}/{len(vs_best)})")
    shutil.rmtree(cwd, ignore_errors=True)


if __name__ == "__main__":
    main()
