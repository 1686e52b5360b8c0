#!/usr/bin/env python3
"""Differential tester: random bash programs run in GNU bash and in sandbash.

usage: python3 tools/difftest/difftest.py [options]
  -n N            programs to run (default 1000)
  --seed S        run seed (default 1); program k of seed S is always the same
  --start K       first program index (default 0), to resume or split a run
  --workers W     parallel workers (default 1)
  --batch B       programs per shell process (default 40; 1 = one process each)
  --sandbash PATH the CLI (default $SANDBASH, else target/release/sandbash)
  --exclude TAGS  comma-separated feature tags to leave out (see gen.py), or
                  @FILE for a file of tags (one a line, `#` comments)
  --max-shrink M  shrink at most M mismatches (default 200; the rest are counted)
  --out FILE      write the report (JSON lines, one per mismatch class)
  --nice          renice this process and its children to 19
  --show K        print program K of the seed and exit
  --check         exit 1 when any mismatch is found (for scripts/test)

Each program runs as `bash -c PROG` with env HOME=/home/sandbox LC_ALL=C.UTF-8 TZ=UTC and
a PATH of a few utilities, in a fresh temp dir, with empty stdin (the same setup as
native/sandbash/tests/record/record.py), and as `sandbash -c PROG`. stdout, stderr and exit
status are compared byte for byte: sandbash prints bash's `bash: line N:` prefixes itself.

Batch mode runs B programs in one process, each in its own subshell and directory with
markers between them; a program whose result differs there is run again alone, and only
a mismatch alone counts. Each mismatch is shrunk (greedy delta debugging over the program
tree: statements, words, compound bodies, literals) and grouped by its shrunk form with
names and numbers abstracted.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TIMEOUT = 10
SEP = "\x01DIFFTEST%d\x01"
SEP_RE = re.compile(rb"\x01DIFFTEST(\d+)\x01")


class Shells:
    def __init__(self, sandbash):
        self.sandbash = sandbash
        self.bin = tempfile.mkdtemp(prefix="difftest-bin-")
        for tool in ["cat", "bash", "yes", "head", "sleep", "mkdir"]:
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        os.symlink(shutil.which("bash"), os.path.join(self.bin, "sh"))
        self.env = {"HOME": "/home/sandbox", "PATH": self.bin, "LC_ALL": "C.UTF-8", "TZ": "UTC"}
        self.senv = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SANDBASH_TIMEOUT_MS": str(TIMEOUT * 1000 - 2000),
                     "SANDBASH_CWD": "/tmp/difftest"}

    def close(self):
        shutil.rmtree(self.bin, True)

    def bash(self, script):
        d = tempfile.mkdtemp(prefix="difftest-")
        try:
            return _run(["bash", "-c", script], d, self.env)
        finally:
            shutil.rmtree(d, True)

    def sb(self, script):
        return _run([self.sandbash, "-c", script], None, self.senv)


def _run(argv, cwd, env):
    # Its own process group: on a timeout the subshells a program forked die
    # with it (killing only `bash -c` left them looping for hours).
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        return out, err, p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return out or b"", (err or b"") + b"\n<timeout>", -999


def diff_kinds(a, b):
    kinds = []
    if a[0] != b[0]: kinds.append("stdout")
    if a[1] != b[1]: kinds.append("stderr")
    if a[2] != b[2]: kinds.append("status")
    return tuple(kinds)


def batch_script(progs):
    parts = []
    for k, text in progs:
        parts.append("(mkdir p%d && cd p%d || exit 99\n%s\n)\nprintf '%s%%d\\002' $?; printf '%s' >&2\n"
                     % (k, k, text, SEP % k, SEP % k))
    return "".join(parts)


def split_batch(out, err, keys):
    """Per program (stdout, stderr, status) from a batch run, or None if the markers are off."""
    so = SEP_RE.split(out)
    se = SEP_RE.split(err)
    # so = [out0, k0, "status" + out1, k1, ...]
    if len(so) != 2 * len(keys) + 1 or len(se) != 2 * len(keys) + 1:
        return None
    res = []
    carry = so[0]
    for i, k in enumerate(keys):
        if int(so[2 * i + 1]) != k or int(se[2 * i + 1]) != k:
            return None
        nxt = so[2 * i + 2]
        m = re.match(rb"(\d+)\x02", nxt)
        if not m:
            return None
        status = int(m.group(1))
        res.append((carry, se[2 * i], status))
        carry = nxt[m.end():]
    return res


# ---------------------------------------------------------------------------
# Shrinking

def sites(node, out):
    """Every node in the tree, parents first."""
    out.append(node)
    if isinstance(node, gen.Seq):
        for i in node.items: sites(i, out)
    elif isinstance(node, gen.T):
        for k in node.kids: sites(k, out)
    return out


def shrink(prog, still, budget=400):
    """Greedy delta debugging: keep every cut after which still(text) holds."""
    tries = 0

    def ok():
        nonlocal tries
        tries += 1
        return still(prog.render())

    changed = True
    while changed and tries < budget:
        changed = False
        for node in sites(prog, []):
            if tries >= budget: break
            if isinstance(node, gen.Seq):
                # chunks first (halves, quarters), then single items
                n = len(node.items)
                size = n // 2
                while size >= 1 and tries < budget:
                    i = 0
                    while i < len(node.items) and len(node.items) - size >= node.min and tries < budget:
                        saved = node.items[:]
                        del node.items[i:i + size]
                        if ok():
                            changed = True
                        else:
                            node.items = saved
                            i += size
                    size //= 2
                # hoist: replace a statement template by one of its statement lists
                for i, item in enumerate(list(node.items)):
                    if tries >= budget: break
                    if isinstance(item, gen.T) and item.stmt:
                        for kid in item.kids:
                            if isinstance(kid, gen.Seq) and kid.sep == "\n":
                                saved = node.items[:]
                                node.items[i:i + 1] = kid.items
                                if ok():
                                    changed = True
                                    break
                                node.items = saved
            elif isinstance(node, gen.T):
                # a nested expansion can replace its template (${a:-${b}} -> ${b})
                for j, kid in enumerate(node.kids):
                    if isinstance(kid, gen.T) and not kid.stmt and not node.stmt and tries < budget:
                        saved = (node.fmt, node.kids)
                        node.fmt, node.kids = kid.fmt, kid.kids
                        if ok():
                            changed = True
                            break
                        node.fmt, node.kids = saved
            elif isinstance(node, gen.V):
                for s in node.simpler:
                    if s == node.text or tries >= budget: continue
                    saved = node.text
                    node.text = s
                    if ok():
                        node.simpler = [x for x in node.simpler if x != s]
                        changed = True
                        break
                    node.text = saved
    return prog.render(), tries


WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
KEEP = set("""if then else elif fi for while until do done case esac in function select time
echo printf read declare local typeset export readonly unset set shift trap eval exec return exit
break continue let test cat shopt true false IFS arr EOF REPLY OPTIND x n i""".split())


def class_key(text):
    """The shrunk program with literal names and numbers abstracted."""
    return WORD.sub(lambda m: m.group(0) if m.group(0) in KEEP or len(m.group(0)) == 1 else "W", text)


# ---------------------------------------------------------------------------

def load_excludes(spec):
    if not spec:
        return set()
    if spec.startswith("@"):
        tags = set()
        for line in open(spec[1:]):
            line = line.split("#", 1)[0].strip()
            if line: tags.add(line)
        return tags
    return set(t for t in spec.split(",") if t)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--sandbash", default=os.environ.get("SANDBASH") or os.path.join(
        os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release", "sandbash"))
    ap.add_argument("--exclude", default="")
    ap.add_argument("--max-shrink", type=int, default=200)
    ap.add_argument("--out")
    ap.add_argument("--nice", action="store_true")
    ap.add_argument("--show", type=int)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()

    def program(k):
        return gen.generate(a.seed * 10_000_000 + k)

    if a.show is not None:
        p, tags = program(a.show)
        print(p.render())
        print("# tags:", " ".join(sorted(tags)), file=sys.stderr)
        return 0
    if a.nice:
        os.nice(19)
    if not os.access(a.sandbash, os.X_OK):
        print(f"difftest: no sandbash CLI at {a.sandbash} (build it or pass --sandbash)", file=sys.stderr)
        return 2
    excl = load_excludes(a.exclude)
    sh = Shells(a.sandbash)
    t0 = time.time()
    ran = skipped = 0
    mismatches = []  # (k, kinds)

    def run_batch(keys):
        progs = []
        for k in keys:
            p, tags = program(k)
            if tags & excl:
                continue
            progs.append((k, p.render()))
        if not progs:
            return 0, []
        found = []
        if a.batch > 1:
            text = batch_script(progs)
            rb = sh.bash(text)
            rs = sh.sb(text)
            kk = [k for k, _ in progs]
            pb = split_batch(rb[0], rb[1], kk)
            ps = split_batch(rs[0], rs[1], kk)
            if pb is not None and ps is not None:
                suspects = [progs[i] for i in range(len(progs)) if pb[i] != ps[i]]
            else:
                suspects = progs
        else:
            suspects = progs
        for k, text in suspects:
            rb, rs = sh.bash(text), sh.sb(text)
            kinds = diff_kinds(rb, rs)
            if kinds:
                found.append((k, kinds))
        return len(progs), found

    keys = list(range(a.start, a.start + a.n))
    chunks = [keys[i:i + a.batch] for i in range(0, len(keys), a.batch)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.workers) as ex:
        for n, found in ex.map(run_batch, chunks):
            ran += n
            mismatches += found
            if not a.quiet and found:
                for k, kinds in found:
                    print(f"mismatch: program {k} ({','.join(kinds)})", file=sys.stderr)
    skipped = a.n - ran
    run_secs = time.time() - t0

    # shrink and group
    classes = collections.OrderedDict()
    shrunk = 0
    for k, kinds in mismatches:
        if shrunk >= a.max_shrink:
            break
        p, tags = program(k)
        orig_syntax = b"syntax error" in sh.bash(p.render())[1]

        def still(text):
            rb = sh.bash(text)
            if not orig_syntax and b"syntax error" in rb[1]:
                return False
            return diff_kinds(rb, sh.sb(text)) == kinds

        text, tries = shrink(p, still)
        shrunk += 1
        key = class_key(text) + " / " + ",".join(kinds)
        c = classes.setdefault(key, {"example": text, "kinds": kinds, "programs": [], "tags": sorted(tags)})
        c["programs"].append(k)
        if len(text) < len(c["example"]):
            c["example"] = text
    for c in classes.values():
        rb, rs = sh.bash(c["example"]), sh.sb(c["example"])
        c["bash"] = [rb[0].decode("utf-8", "replace"), rb[1].decode("utf-8", "replace"), rb[2]]
        c["sandbash"] = [rs[0].decode("utf-8", "replace"), rs[1].decode("utf-8", "replace"), rs[2]]
    sh.close()
    total = time.time() - t0

    print(f"difftest: seed {a.seed}, programs {a.start}..{a.start + a.n - 1}: ran {ran}, excluded {skipped}, "
          f"mismatches {len(mismatches)} ({shrunk} shrunk into {len(classes)} classes); "
          f"{ran / run_secs if run_secs else 0:.0f} programs/s ({run_secs:.1f} s run, {total:.1f} s in all)")
    if mismatches and not a.quiet:
        tally = collections.Counter()
        for k, _ in mismatches:
            tally.update(program(k)[1])
        print("mismatching programs by feature tag: " + ", ".join(f"{t} {n}" for t, n in tally.most_common()))
    for key, c in sorted(classes.items(), key=lambda kv: -len(kv[1]["programs"])):
        print(f"\n== {len(c['programs'])}x {','.join(c['kinds'])}  (e.g. program {c['programs'][0]})")
        print(c["example"])
        print(f"-- bash:     {c['bash']!r}")
        print(f"-- sandbash: {c['sandbash']!r}")
    if a.out:
        with open(a.out, "w") as f:
            for key, c in classes.items():
                f.write(json.dumps(dict(c, key=key, kinds=list(c["kinds"]))) + "\n")
    return 1 if (a.check and mismatches) else 0


if __name__ == "__main__":
    sys.exit(main())
