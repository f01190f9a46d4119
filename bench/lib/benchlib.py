#!/usr/bin/env python3
"""Helpers for bench/fetch and bench/ndjson (standard library only).

Subcommands:
  free-port                      print a free TCP port on 127.0.0.1
  gen-files DIR N KIND SEED      write N files DIR/0.gif .. DIR/N-1.gif
                                 KIND: "gif" (log-normal sizes, mean ~150 KB) or
                                 "tiny" (5 KB each); every file starts with GIF89a
  lists ...                      write the URL lists for every tool (see cmd_lists)
  measure ...                    run one command, append wall/CPU/RSS as JSON
  verify-dir DIR N BYTES         check DIR holds N regular files, BYTES in all
  verify-fi OUT N                check fetch-images output: N lines, all "image"
  report-fetch RESULTS ...       print the tables and bars of bench/fetch
  gen-ndjson FILE N SEED         write N NDJSON records (~100 bytes each)
  report-ndjson RESULTS          print the table and bar of bench/ndjson
"""
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

MiB = 1024 * 1024
TIME = "/usr/bin/time"  # GNU time (Debian package "time")


def cmd_free_port(_args):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def sizes_for(kind, n, seed):
    rng = random.Random(seed)
    if kind == "tiny":
        return [5 * 1024] * n
    if kind == "gif":
        # log-normal: mean = exp(mu + sigma^2/2) = 150 KB
        sigma = 1.0
        mu = math.log(150 * 1024) - sigma * sigma / 2
        out = []
        for _ in range(n):
            s = int(rng.lognormvariate(mu, sigma))
            out.append(min(max(s, 64), 8 * MiB))
        return out
    raise SystemExit(f"gen-files: unknown kind {kind!r}")


def cmd_gen_files(args):
    d, n, kind, seed = args[0], int(args[1]), args[2], int(args[3])
    os.makedirs(d, exist_ok=True)
    sizes = sizes_for(kind, n, seed)
    rng = random.Random(seed + 1)
    blob = rng.randbytes(16 * MiB + 64)
    header = b"GIF89a"
    total = 0
    for i, size in enumerate(sizes):
        off = rng.randrange(0, 16 * MiB - min(size, 8 * MiB) + 1)
        body = header + blob[off:off + size - len(header)]
        with open(os.path.join(d, f"{i}.gif"), "wb") as f:
            f.write(body)
        total += len(body)
    # the manifest: count and total bytes, for verification and the report
    with open(os.path.join(d, "MANIFEST.json"), "w") as f:
        json.dump({"kind": kind, "files": n, "bytes": total,
                   "mean": total / n, "median": statistics.median(sizes),
                   "max": max(sizes), "seed": seed}, f)
    print(json.dumps({"dir": d, "files": n, "bytes": total}))


def cmd_lists(args):
    """lists BASEURL N DEST_PREFIX: writes
    DEST_PREFIX.ndjson  fetch-images input
    DEST_PREFIX.urls    one URL a line (wget2, aria2c)
    DEST_PREFIX.curl    curl config: url/output pairs, outputs relative to cwd
    Optional 5th arg FIRST: start numbering at FIRST (default 0)."""
    base, n, prefix = args[0], int(args[1]), args[2]
    first = int(args[3]) if len(args) > 3 else 0
    with open(prefix + ".ndjson", "w") as nd, open(prefix + ".urls", "w") as ul, \
            open(prefix + ".curl", "w") as cc:
        for i in range(first, first + n):
            url = f"{base}/{i}.gif"
            nd.write(json.dumps({"kind": "gif", "id": str(i), "url": url},
                                separators=(",", ":")) + "\n")
            ul.write(url + "\n")
            cc.write(f'url = "{url}"\noutput = "{i}.gif"\n')


def busy_ticks():
    """CPU time (all cores, clock ticks) the machine spent busy, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    return v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)


def wait_quiet(max_wait, threshold=0.3):
    """Waits (at most max_wait s) until the machine was less than `threshold`
    cores busy over half a second: other work on a shared machine skews times.
    Returns the seconds waited, or None when it never got quiet."""
    hz = os.sysconf("SC_CLK_TCK")
    start = time.monotonic()
    while True:
        a = busy_ticks()
        if a is None:
            return 0.0
        time.sleep(0.5)
        b = busy_ticks()
        if (b - a) / hz / 0.5 < threshold:
            return time.monotonic() - start
        if time.monotonic() - start > max_wait:
            return None


def cmd_measure(args):
    """measure --json FILE --label k=v ... [--stdin F] [--stdout F] [--stderr F]
    [--cwd D] [--verify SHELLCMD] [--timeout SECONDS, default 900]
    [--quiet-wait SECONDS, default $BENCH_QUIET_WAIT or 20: first wait until the
    machine is idle, at most this long] -- CMD...   Runs CMD, appends one JSON line to
    FILE: labels + wall_s, user_s, sys_s, cpu_s, maxrss_kib, rc, and "verified"
    ("ok", or what SHELLCMD printed when it failed; SHELLCMD runs untimed after).
    Exits 0 when CMD exited 0 and the verification passed, else 1."""
    labels = {}
    stdin = stdout = stderr = None
    cwd = None
    out = None
    verify = None
    limit = 900.0
    quiet_wait = float(os.environ.get("BENCH_QUIET_WAIT", "20"))
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            cmd = args[i + 1:]
            break
        val = args[i + 1]
        if a == "--json":
            out = val
        elif a == "--label":
            k, _, v = val.partition("=")
            labels[k] = v
        elif a == "--stdin":
            stdin = val
        elif a == "--stdout":
            stdout = val
        elif a == "--stderr":
            stderr = val
        elif a == "--cwd":
            cwd = val
        elif a == "--verify":
            verify = val
        elif a == "--timeout":
            limit = float(val)
        elif a == "--quiet-wait":
            quiet_wait = float(val)
        else:
            raise SystemExit(f"measure: unknown option {a}")
        i += 2
    else:
        raise SystemExit("measure: missing -- CMD")
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    fout = open(stdout, "wb") if stdout else subprocess.DEVNULL
    ferr = open(stderr, "wb") if stderr else subprocess.DEVNULL
    # Peak RSS comes from GNU time (%M): a child forked from this Python process
    # would inherit its high-water mark (~15 MiB) across exec, a child of the
    # small /usr/bin/time does not. CPU (user+sys, the command and whatever it
    # waited for, plus ~1 ms for time itself) comes from wait4, wall from here.
    fd, rssfile = tempfile.mkstemp(prefix="bench-rss.")
    os.close(fd)
    waited = wait_quiet(quiet_wait) if quiet_wait > 0 else 0.0
    busy0 = busy_ticks()
    t0 = time.perf_counter()
    p = subprocess.Popen([TIME, "-f", "%M", "-o", rssfile, "--"] + cmd,
                         stdin=fin, stdout=fout, stderr=ferr, cwd=cwd,
                         start_new_session=True)
    import threading
    timed_out = []

    def stop():
        timed_out.append(True)
        try:
            os.killpg(p.pid, 15)  # GNU time and the command (its own session)
        except ProcessLookupError:
            pass
    timer = threading.Timer(limit, stop)
    timer.start()
    try:
        _, status, ru = os.wait4(p.pid, 0)
    except BaseException:  # Ctrl-C, or the bench script stopped: stop the command too
        timer.cancel()
        try:
            os.killpg(p.pid, 15)
        except ProcessLookupError:
            pass
        raise
    wall = time.perf_counter() - t0
    busy1 = busy_ticks()
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    try:
        with open(rssfile) as f:
            rss_lines = f.read().split()
        maxrss = int(rss_lines[-1])
    except (OSError, ValueError, IndexError):
        maxrss = -1
    os.unlink(rssfile)
    rec = dict(labels)
    rec.update(wall_s=round(wall, 4), user_s=round(ru.ru_utime, 4),
               sys_s=round(ru.ru_stime, 4),
               cpu_s=round(ru.ru_utime + ru.ru_stime, 4),
               maxrss_kib=maxrss, rc=p.returncode)
    if busy0 is not None and busy1 is not None:
        # CPU the rest of the machine used meanwhile (a local server included)
        rec["other_cpu_s"] = round(max(0.0, (busy1 - busy0) / os.sysconf("SC_CLK_TCK") - rec["cpu_s"]), 2)
    if waited is None:
        rec["not_quiet"] = True
    if timed_out:
        rec["timed_out"] = limit
    if verify:
        v = subprocess.run(["bash", "-c", verify], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        said = v.stdout.strip()
        if v.returncode == 0:
            # "ok", or "ok (note: ...)" from the last check that printed one
            notes = [l for l in said.splitlines() if l.startswith("ok (")]
            rec["verified"] = notes[-1] if notes else "ok"
        else:
            rec["verified"] = said or f"verify exit {v.returncode}"
    line = json.dumps(rec)
    if out:
        with open(out, "a") as f:
            f.write(line + "\n")
    print(f"wall {rec['wall_s']:7.2f} s  CPU {rec['cpu_s']:6.2f} s  "
          f"RSS {rec['maxrss_kib'] / 1024:7.1f} MiB  rc {rec['rc']}  {rec.get('verified', '')}"
          + (f"  (stopped after {limit:g} s)" if timed_out else "")
          + (f"  [other CPU {rec['other_cpu_s']:.2f} s]" if "other_cpu_s" in rec else "")
          + ("  [machine busy before the run]" if waited is None else ""),
          flush=True)
    sys.exit(0 if p.returncode == 0 and rec.get("verified", "ok").startswith("ok") else 1)


def cmd_verify_dir(args):
    d, n, total = args[0], int(args[1]), int(args[2])
    count = size = 0
    bad_header = 0
    for root, _dirs, files in os.walk(d):
        for fn in files:
            p = os.path.join(root, fn)
            if not os.path.isfile(p):
                continue
            count += 1
            size += os.path.getsize(p)
            with open(p, "rb") as f:
                if f.read(6) != b"GIF89a":
                    bad_header += 1
    ok = count == n and size == total and bad_header == 0
    msg = f"{count} files, {size} bytes (expected {n}, {total})"
    if bad_header:
        msg += f", {bad_header} without GIF89a"
    print(("ok: " if ok else "MISMATCH: ") + msg)
    sys.exit(0 if ok else 1)


def cmd_verify_fi(args):
    """verify-fi OUT INPUT CACHE [TOTAL_BYTES]: one output line per input line, in
    input order; every record an "image" with the input fields first and the spec's
    fields appended; path = CACHE/images/<2 hex>/<sha256(url)>.gif, a file of
    "bytes" bytes whose SHA-256 is "sha256"; bytes add up to TOTAL_BYTES.
    Hard failures print MISMATCH (exit 1); departures from the spec's field
    order print "ok (note: ...)"."""
    import hashlib
    path, inp, cache = args[0], args[1], os.path.realpath(args[2])
    total = int(args[3]) if len(args) > 3 else None
    with open(inp, "rb") as f:
        inputs = [json.loads(line) for line in f if line.strip()]
    problems, notes = [], []
    codes = {}
    lines = images = size = 0
    want_keys = ["path", "bytes", "sha256", "cached", "http_status", "ms"]
    with open(path, "rb") as f:
        for k, raw in enumerate(f):
            lines += 1
            try:
                r = json.loads(raw)
            except ValueError:
                codes["unparsable"] = codes.get("unparsable", 0) + 1
                continue
            if r.get("kind") != "image":
                c = r.get("code", "?")
                codes[c] = codes.get(c, 0) + 1
                if len(problems) < 3:
                    problems.append(f"line {k + 1}: {raw[:200].decode(errors='replace').strip()}")
                continue
            images += 1
            size += r.get("bytes", 0)
            if k >= len(inputs):
                continue
            src = inputs[k]
            if r.get("id") != src.get("id") or r.get("url") != src.get("url"):
                if len(problems) < 3:
                    problems.append(f"line {k + 1}: id {r.get('id')} where the input has {src.get('id')} (order)")
                codes["out_of_order"] = codes.get("out_of_order", 0) + 1
                continue
            keys = list(r.keys())
            if keys != list(src.keys()) + want_keys and not notes:
                notes.append(f"fields {keys}")
            h = hashlib.sha256(src["url"].encode()).hexdigest()
            want = os.path.join(cache, "images", h[:2], h + ".gif")
            p = r.get("path", "")
            if os.path.realpath(p) != want:
                codes["bad_path"] = codes.get("bad_path", 0) + 1
                if len(problems) < 3:
                    problems.append(f"line {k + 1}: path {p}, expected {want}")
                continue
            try:
                with open(p, "rb") as g:
                    data = g.read()
            except OSError as e:
                codes["no_file"] = codes.get("no_file", 0) + 1
                if len(problems) < 3:
                    problems.append(f"line {k + 1}: {e}")
                continue
            if len(data) != r.get("bytes") or hashlib.sha256(data).hexdigest() != r.get("sha256"):
                codes["bad_file"] = codes.get("bad_file", 0) + 1
                if len(problems) < 3:
                    problems.append(f"line {k + 1}: file of {len(data)} bytes, record says {r.get('bytes')} / sha256 mismatch")
            if r.get("cached") is not False or r.get("http_status") != 200 or not isinstance(r.get("ms"), int):
                if len(notes) < 2:
                    notes.append(f"line {k + 1}: cached={r.get('cached')} http_status={r.get('http_status')} ms={r.get('ms')}")
    n = len(inputs)
    ok = lines == n and images == n and not codes and (total is None or size == total)
    msg = f"{lines} lines, {images} image (expected {n})"
    if codes:
        msg += " " + json.dumps(codes)
    if total is not None:
        msg += f", {size} bytes (expected {total})"
    if problems:
        msg += "; " + "; ".join(problems)
    if ok:
        print("ok" + (" (note: " + "; ".join(notes) + ")" if notes else ""))
    else:
        print("MISMATCH: " + msg)
    sys.exit(0 if ok else 1)


def cmd_manifest(args):
    m = json.load(open(args[0]))
    print(f"{m['bytes'] / 1e6:.1f} MB, mean {m['mean'] / 1024:.1f} KiB, "
          f"median {m['median'] / 1024:.1f} KiB, max {m['max'] / MiB:.2f} MiB "
          f"(log-normal, seed {m['seed']})")


def load(path):
    recs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                recs.append(json.loads(line))
    return recs


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt(x, nd=2):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{nd}f}"


def cmd_report_fetch(args):
    """report-fetch RESULTS FILES CONCURRENCY DELAY_MS MEMORY_RSS_LIMIT_MIB"""
    results, nfiles, conc, delay_ms = args[0], int(args[1]), int(args[2]), float(args[3])
    rss_limit = float(args[4]) if len(args) > 4 else 64
    recs = load(results)
    floor = nfiles * delay_ms / 1000 / conc
    order = ["fetch-images", "curl", "wget2", "aria2c"]
    names = {"fetch-images": f"fetch-images --concurrency {conc}",
             "curl": f"curl -Z --parallel-max {conc}",
             "wget2": f"wget2 --max-threads={conc}",
             "aria2c": f"aria2c -j{conc} -x1"}
    bars = []  # (name, held?, detail)
    groups = []
    for r in recs:
        key = (r["set"], r["server"])
        if r.get("mode") == "memory":
            continue
        if key not in groups:
            groups.append(key)
    summary = {}
    for key in groups:
        st, srv = key
        rows = [r for r in recs if (r["set"], r["server"]) == key and r.get("mode") != "memory"]
        tools = [t for t in order if any(r["tool"] == t for r in rows)]
        stats = {}
        for t in tools:
            rr = [r for r in rows if r["tool"] == t]
            good = [r for r in rr if r["rc"] == 0 and r.get("verified", "ok").startswith("ok")]
            stats[t] = dict(
                wall=med([r["wall_s"] for r in good]),
                cpu=med([r["cpu_s"] for r in good]),
                user=med([r["user_s"] for r in good]),
                sys=med([r["sys_s"] for r in good]),
                rss=max([r["maxrss_kib"] for r in good], default=0) / 1024,
                other=med([r["other_cpu_s"] for r in good if "other_cpu_s" in r]),
                busy=sum(1 for r in rr if r.get("not_quiet")),
                walls=[r["wall_s"] for r in rr],
                runs=len(rr), failed=len(rr) - len(good))
        summary[key] = stats
        title = f"set {st} ({nfiles} files), server {srv}"
        if srv == "latency":
            title += f" (+{delay_ms:g} ms per response; floor {nfiles} x {delay_ms:g} ms / {conc} = {floor:.2f} s)"
        print()
        print(title)
        hdr = f"  {'tool':<34} {'wall s':>8} {'CPU s':>8} {'user':>7} {'sys':>7} {'wall/fi':>8} {'CPU/fi':>7} {'RSS MiB':>8} {'other':>6}  rounds (wall s)"
        print(hdr)
        print("  " + "-" * (len(hdr) - 2))
        fi = stats.get("fetch-images")
        for t in tools:
            s = stats[t]
            rw = s["wall"] / fi["wall"] if fi and fi["wall"] and not math.isnan(fi["wall"]) else None
            rc = s["cpu"] / fi["cpu"] if fi and fi["cpu"] and not math.isnan(fi["cpu"]) else None
            extra = " ".join(fmt(w) for w in s["walls"])
            if s["failed"]:
                extra += f"  ({s['failed']}/{s['runs']} runs FAILED)"
            if s["busy"]:
                extra += f"  ({s['busy']} run(s) started on a busy machine)"
            print(f"  {names[t]:<34} {fmt(s['wall']):>8} {fmt(s['cpu']):>8} {fmt(s['user']):>7} {fmt(s['sys']):>7} "
                  f"{fmt(rw):>8} {fmt(rc):>7} {fmt(s['rss'], 1):>8} {fmt(s['other']):>6}  {extra}")
        if srv == "latency" and fi:
            print(f"  fetch-images / floor: {fmt(fi['wall'] / floor)}")
    # bars
    print()
    print("bars (medians; 'fi' = fetch-images):")
    have_fi = any("fetch-images" in s for s in summary.values())
    if not have_fi:
        print("  (fetch-images not measured: no bar can be judged)")
    else:
        def bar(name, checks):
            held = all(c[0] for c in checks) if checks else None
            status = "n/a " if held is None else ("HOLDS" if held else "FAILS")
            print(f"  [{status}] {name}")
            for ok, txt in checks:
                print(f"      {'ok  ' if ok else 'MISS'} {txt}")
            bars.append((name, held))

        c1, c2, c3, c4 = [], [], [], []
        for (st, srv), s in summary.items():
            fi = s.get("fetch-images")
            if not fi or math.isnan(fi["wall"]):
                continue
            lab = f"{st}/{srv}"
            if "curl" in s and not math.isnan(s["curl"]["wall"]):
                c1.append((fi["wall"] < s["curl"]["wall"],
                           f"{lab}: fi {fi['wall']:.2f} s vs curl {s['curl']['wall']:.2f} s"))
                c3.append((fi["cpu"] <= s["curl"]["cpu"],
                           f"{lab}: fi {fi['cpu']:.2f} s vs curl {s['curl']['cpu']:.2f} s CPU"))
            if "wget2" in s and not math.isnan(s["wget2"]["wall"]):
                c2.append((fi["wall"] <= 1.2 * s["wget2"]["wall"],
                           f"{lab}: fi {fi['wall']:.2f} s vs 1.2 x wget2 {1.2 * s['wget2']['wall']:.2f} s"))
            if srv == "latency":
                c4.append((fi["wall"] <= 1.1 * floor,
                           f"{lab}: fi {fi['wall']:.2f} s vs 1.1 x floor {1.1 * floor:.2f} s"))
        bar("fetch-images faster (wall) than curl -Z on every set", c1)
        bar("fetch-images wall within 1.2x of wget2 on every set", c2)
        bar("fetch-images CPU no more than curl -Z on every set", c3)
        bar("fetch-images within 10% of the floor on the latency server", c4)
    mem = [r for r in recs if r.get("mode") == "memory"]
    if mem:
        print()
        for r in mem:
            rss = r["maxrss_kib"] / 1024
            ok = r["rc"] == 0 and r.get("verified", "ok").startswith("ok")
            print(f"memory run: {r.get('records')} records streamed through fetch-images "
                  f"(set {r['set']}, server {r['server']}): peak RSS {rss:.1f} MiB, "
                  f"wall {r['wall_s']:.2f} s, CPU {r['cpu_s']:.2f} s, rc {r['rc']}, "
                  f"output {r.get('verified', '?')}")
            held = ok and rss < rss_limit
            print(f"  [{'HOLDS' if held else 'FAILS'}] peak RSS under {rss_limit:g} MiB")
            bars.append(("memory", held))
    failed = [b for b in bars if b[1] is False]
    print()
    print(f"bars: {sum(1 for b in bars if b[1])} hold, {len(failed)} fail")
    # exit 3 when some bar fails, so callers can choose to enforce
    sys.exit(3 if failed else 0)


NOTE_WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima "
              "mike november oscar papa quebec romeo sierra tango uniform victor whiskey "
              "xray yankee zulu").split()


def cmd_gen_ndjson(args):
    path, n, seed = args[0], int(args[1]), int(args[2])
    rng = random.Random(seed)
    kinds = ["note", "log", "event", "meta", "post"]
    extra = ["é", "ü", "日本", "\"q\"", "a\\b", "tab\there", "line\nbreak", "😀", "</tag>"]
    w = NOTE_WORDS
    total = 0
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            k = rng.randrange(10)
            words = " ".join(rng.choice(w) for _ in range(rng.randrange(4, 10)))
            if k < 6:
                rec = {"kind": kinds[i % len(kinds)], "n": i, "text": words}
                if rng.random() < 0.3:
                    rec["tag"] = rng.choice(extra)
                if rng.random() < 0.3:
                    rec["ok"] = rng.random() < 0.5
                if rng.random() < 0.2:
                    rec["score"] = round(rng.uniform(-1000, 1000), 3)
            elif k < 8:
                rec = {"kind": "event", "id": f"e{i}", "at": 1700000000 + i,
                       "tags": [rng.choice(w) for _ in range(rng.randrange(1, 5))],
                       "meta": {"src": rng.choice(w), "n": rng.randrange(1000), "x": None}}
            elif k < 9:
                rec = {"kind": "gif_meta", "id": str(i), "title": words,
                       "width": rng.randrange(64, 640), "height": rng.randrange(64, 480)}
            else:
                # no kind at all: passes through as well
                rec = {"n": i, "text": words, "nested": {"a": [1, 2, {"b": rng.choice(extra)}]}}
            s = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
            f.write(s + "\n")
            total += len(s.encode()) + 1
    print(json.dumps({"file": path, "records": n, "bytes": total, "mean": total / n}))


def cmd_report_ndjson(args):
    results = args[0]
    recs = load(results)
    order = ["fetch-images", "jq"]
    names = {"fetch-images": "fetch-images --quiet --cache DIR", "jq": "jq -c ."}
    stats = {}
    for t in order:
        rr = [r for r in recs if r["tool"] == t]
        if not rr:
            continue
        good = [r for r in rr if r["rc"] == 0]
        stats[t] = dict(wall=med([r["wall_s"] for r in good]), cpu=med([r["cpu_s"] for r in good]),
                        other=med([r["other_cpu_s"] for r in good if "other_cpu_s" in r]),
                        rss=max([r["maxrss_kib"] for r in good], default=0) / 1024,
                        walls=[r["wall_s"] for r in rr], failed=len(rr) - len(good), runs=len(rr))
    n = recs[0].get("records", "?") if recs else "?"
    mb = float(recs[0].get("bytes", 0)) / 1e6 if recs else 0
    print()
    print(f"NDJSON pass-through: {n} records, {mb:.1f} MB")
    hdr = f"  {'tool':<34} {'wall s':>8} {'CPU s':>8} {'MB/s':>8} {'jq/tool':>8} {'RSS MiB':>8} {'other':>6}  rounds (wall s)"
    print(hdr)
    print("  " + "-" * (len(hdr) - 2))
    jq = stats.get("jq")
    for t, s in stats.items():
        ratio = jq["wall"] / s["wall"] if jq and s["wall"] else None
        extra = " ".join(fmt(w) for w in s["walls"])
        if s["failed"]:
            extra += f"  ({s['failed']}/{s['runs']} runs FAILED)"
        print(f"  {names[t]:<34} {fmt(s['wall']):>8} {fmt(s['cpu']):>8} {fmt(mb / s['wall'] if s['wall'] else None, 1):>8} "
              f"{fmt(ratio):>8} {fmt(s['rss'], 1):>8} {fmt(s['other']):>6}  {extra}")
    fi = stats.get("fetch-images")
    if fi and jq:
        r = jq["wall"] / fi["wall"]
        held = r >= 3
        print(f"  [{'HOLDS' if held else 'FAILS'}] fetch-images at least 3x as fast as jq -c . (it is {r:.2f}x)")
        sys.exit(0 if held else 3)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(64)
    cmd, args = sys.argv[1], sys.argv[2:]
    fn = {"free-port": cmd_free_port, "gen-files": cmd_gen_files, "lists": cmd_lists,
          "measure": cmd_measure, "verify-dir": cmd_verify_dir, "verify-fi": cmd_verify_fi,
          "report-fetch": cmd_report_fetch, "gen-ndjson": cmd_gen_ndjson,
          "report-ndjson": cmd_report_ndjson, "manifest": cmd_manifest}.get(cmd)
    if not fn:
        print(__doc__)
        sys.exit(64)
    fn(args)


if __name__ == "__main__":
    main()
