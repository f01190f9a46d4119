#!/usr/bin/env python3
"""bench/render-cells.py: the fidelity and CPU of gif-play's block cells (half,
quad, sextant, octant) against chafa and timg, and against the best two-colour
split per cell. Run by bench/render (see bench/README.md, "Finer cells");
`bench/render-cells.py --help` for its own options.

Every tool's output is applied to a model terminal (cursor moves, SGR colours,
characters) and each character is drawn as geometry (the rectangles its
Unicode name says) on one grid for every set, 2 x 12 samples a cell (halves
across; halves, thirds and quarters down), so that the sets can be compared
with each other. That is compared, as PSNR, with the frame resized into the
same box on the same grid by exact area averaging, on the
picture's pixels only. The optimum of a set is the best two-colour split of
each cell of the set's own pixels (the frame resized to them), every split
tried: on the fine grid it is the best picture the set can draw.
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, time
import unicodedata2 as ucd
import numpy as np
from PIL import Image

SETS = ["half", "quad", "sextant", "octant"]
# The set's own cell (pixels gif-play fits to) and the grid its output is judged on.
CELL = {"half": (1, 2), "quad": (2, 2), "sextant": (2, 3), "octant": (2, 4)}
GRID = {s: (2, 12) for s in ["half", "quad", "sextant", "octant"]}
# Pixel shape on screen (width:height) for a cell twice as tall as wide.
ASPECT = {"half": (1, 1), "quad": (1, 2), "sextant": (3, 4), "octant": (1, 1)}

# --- geometry: the rectangles each block character fills, on a 2 x 12 grid --
NAMED = {
    "FULL BLOCK": [(0, 0, 2, 12)], "UPPER HALF BLOCK": [(0, 0, 2, 6)], "LOWER HALF BLOCK": [(0, 6, 2, 12)],
    "LEFT HALF BLOCK": [(0, 0, 1, 12)], "RIGHT HALF BLOCK": [(1, 0, 2, 12)],
    "LOWER ONE QUARTER BLOCK": [(0, 9, 2, 12)], "LOWER THREE QUARTERS BLOCK": [(0, 3, 2, 12)],
    "UPPER ONE QUARTER BLOCK": [(0, 0, 2, 3)], "UPPER THREE QUARTERS BLOCK": [(0, 0, 2, 9)],
    "MIDDLE LEFT ONE QUARTER BLOCK": [(0, 3, 1, 9)], "MIDDLE RIGHT ONE QUARTER BLOCK": [(1, 3, 2, 9)],
    "LEFT HALF UPPER ONE QUARTER BLOCK": [(0, 0, 1, 3)], "RIGHT HALF UPPER ONE QUARTER BLOCK": [(1, 0, 2, 3)],
    "LEFT HALF LOWER ONE QUARTER BLOCK": [(0, 9, 1, 12)], "RIGHT HALF LOWER ONE QUARTER BLOCK": [(1, 9, 2, 12)],
}
QUADRANT = {"UPPER LEFT": (0, 0, 1, 6), "UPPER RIGHT": (1, 0, 2, 6), "LOWER LEFT": (0, 6, 1, 12), "LOWER RIGHT": (1, 6, 2, 12)}

def rectangles(ch):
    if ch == " ":
        return []
    try:
        name = ucd.name(ch)
    except ValueError:
        return None
    if name in NAMED:
        return NAMED[name]
    if name.startswith("QUADRANT "):
        return [QUADRANT[part] for part in name[len("QUADRANT "):].split(" AND ")]
    for prefix, rows in (("BLOCK SEXTANT-", 3), ("BLOCK OCTANT-", 4)):
        if name.startswith(prefix):
            step = 12 // rows
            return [((d - 1) % 2, (d - 1) // 2 * step, (d - 1) % 2 + 1, ((d - 1) // 2 + 1) * step)
                    for d in map(int, name[len(prefix):])]
    return None

_masks = {}
def mask(ch, gw, gh):
    """Which of a cell's gw x gh pixels the character covers (pixel centres)."""
    key = (ch, gw, gh)
    if key not in _masks:
        rects = rectangles(ch)
        if rects is None:
            _masks[key] = None
        else:
            m = np.zeros((gh, gw), bool)
            for y in range(gh):
                for x in range(gw):
                    cx, cy = (x + 0.5) / gw * 2, (y + 0.5) / gh * 12
                    m[y, x] = any(x0 < cx < x1 and y0 < cy < y1 for x0, y0, x1, y1 in rects)
            _masks[key] = m
    return _masks[key]

# --- the model terminal -------------------------------------------------------
PALETTE = []
for n in range(256):
    if n < 16:
        PALETTE.append((0, 0, 0))
    elif n < 232:
        lv = [0, 95, 135, 175, 215, 255]
        i = n - 16
        PALETTE.append((lv[i // 36], lv[i // 6 % 6], lv[i % 6]))
    else:
        v = 8 + 10 * (n - 232)
        PALETTE.append((v, v, v))

SEQ = re.compile(rb"\x1b\[([0-9;?>=]*)([@-~])|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b_[^\x1b]*\x1b\\")

class Terminal:
    def __init__(self, cols, rows, newline_is_crlf):
        self.cols, self.rows = cols, rows
        self.ch = [[" "] * cols for _ in range(rows)]
        self.fg = [[None] * cols for _ in range(rows)]
        self.bg = [[None] * cols for _ in range(rows)]
        self.r = self.c = 0
        self.cur_fg = self.cur_bg = None
        self.crlf = newline_is_crlf
        self.written = set()
        self.unknown = 0

    def sgr(self, params):
        p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
        i = 0
        while i < len(p):
            v = p[i]
            if v == 0:
                self.cur_fg = self.cur_bg = None; i += 1
            elif v in (38, 48) and i + 1 < len(p):
                if p[i + 1] == 2:
                    col = tuple(p[i + 2:i + 5]); i += 5
                else:
                    col = PALETTE[p[i + 2]]; i += 3
                if v == 38: self.cur_fg = col
                else: self.cur_bg = col
            elif v == 39: self.cur_fg = None; i += 1
            elif v == 49: self.cur_bg = None; i += 1
            elif 30 <= v <= 37 or 90 <= v <= 97: self.cur_fg = PALETTE[16] if v in (30, 90) else (255, 255, 255); i += 1
            elif 40 <= v <= 47 or 100 <= v <= 107: self.cur_bg = (0, 0, 0) if v in (40, 100) else (255, 255, 255); i += 1
            else: i += 1

    def play(self, data, on_frame=None):
        text_start = 0
        i = 0
        n = len(data)
        while i < n:
            b = data[i]
            if b == 0x1B:
                m = SEQ.match(data, i)
                if not m:
                    i += 1; continue
                if m.group(2) is not None:
                    params, final = m.group(1).decode(), m.group(2)
                    if params.startswith("?"):
                        if final == b"l" and params == "?2026" and on_frame: on_frame(self)
                    elif final == b"m": self.sgr(params)
                    elif final in (b"H", b"f"):
                        ps = (params.split(";") + ["", ""])[:2]
                        self.r = max(1, int(ps[0] or 1)) - 1; self.c = max(1, int(ps[1] or 1)) - 1
                    elif final == b"A": self.r = max(0, self.r - int(params or 1))
                    elif final == b"B": self.r = min(self.rows - 1, self.r + int(params or 1))
                    elif final == b"C": self.c = min(self.cols - 1, self.c + int(params or 1))
                    elif final == b"D": self.c = max(0, self.c - int(params or 1))
                    elif final == b"G": self.c = max(1, int(params or 1)) - 1
                    elif final == b"J": self.erase(int(params or 0))
                    elif final == b"K":
                        for c in range(self.c, self.cols): self.put_at(self.r, c, " ")
                i = m.end(); continue
            if b == 0x0A:
                self.r = min(self.rows - 1, self.r + 1)
                if self.crlf: self.c = 0
                i += 1; continue
            if b == 0x0D: self.c = 0; i += 1; continue
            if b == 0x08: self.c = max(0, self.c - 1); i += 1; continue
            if b < 0x20: i += 1; continue
            ln = 1 if b < 0x80 else 4 if b >= 0xF0 else 3 if b >= 0xE0 else 2
            ch = data[i:i + ln].decode("utf-8", "replace")
            if self.c < self.cols and self.r < self.rows:
                self.put_at(self.r, self.c, ch)
                self.written.add((self.r, self.c))
            self.c = min(self.c + 1, self.cols)
            i += ln

    def put_at(self, r, c, ch):
        self.ch[r][c] = ch; self.fg[r][c] = self.cur_fg; self.bg[r][c] = self.cur_bg

    def erase(self, mode):
        for r in range(self.rows):
            for c in range(self.cols):
                here = r * self.cols + c; at = self.r * self.cols + self.c
                if mode == 2 or (mode == 1 and here <= at) or (mode == 0 and here >= at):
                    self.put_at(r, c, " ")

    def raster(self, top, left, w, h, gw, gh):
        out = np.zeros((h * gh, w * gw, 3), np.float64)
        for r in range(h):
            for c in range(w):
                ch, fg, bg = self.ch[top + r][left + c], self.fg[top + r][left + c], self.bg[top + r][left + c]
                m = mask(ch, gw, gh)
                if m is None:
                    self.unknown += 1
                    m = np.zeros((gh, gw), bool)
                f = np.array(fg if fg else (255, 255, 255), np.float64)
                g = np.array(bg if bg else (0, 0, 0), np.float64)
                out[r * gh:(r + 1) * gh, c * gw:(c + 1) * gw] = np.where(m[..., None], f, g)
        return out

    def box(self):
        rows = [r for r, _ in self.written]; cols = [c for _, c in self.written]
        return min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1

# --- references and the optimum ----------------------------------------------
_weights = {}
def area_weights(n_in, n_out):
    """Each output pixel's share of each input pixel: the part of it inside."""
    if (n_in, n_out) in _weights:
        return _weights[(n_in, n_out)]
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        a, b = o * n_in / n_out, (o + 1) * n_in / n_out
        for i in range(int(np.floor(a)), min(n_in, int(np.ceil(b)))):
            w[o, i] = max(0.0, min(b, i + 1) - max(a, i))
    _weights[(n_in, n_out)] = w / w.sum(axis=1, keepdims=True)
    return _weights[(n_in, n_out)]

def reference(frame, w, h):
    """`frame` resized to w x h by exact area averaging (PIL's BOX filter is
    not exact: 37 dB from it on these pictures; gif-play's scaler is within
    rounding, 59 dB)."""
    x = np.asarray(frame, np.float64)
    rows = np.tensordot(area_weights(x.shape[0], h), x, axes=(1, 0))  # h x W x 3
    return np.tensordot(rows, area_weights(x.shape[1], w), axes=(1, 1)).transpose(0, 2, 1)

def psnr(a, b):
    mse = float(np.mean((a - b) ** 2))
    return 99.0 if mse == 0 else 10 * np.log10(255 * 255 / mse)

def optimum(ref, cw, ch, gw, gh):
    """The best picture of two colours a cell of cw x ch pixels (each colour the
    mean of its group, every split tried), drawn on the gw x gh grid. `ref` is
    at the set's own cell grid."""
    H, W, _ = ref.shape
    rows, cols = H // ch, W // cw
    n = cw * ch
    cells = ref[:rows * ch, :cols * cw].reshape(rows, ch, cols, cw, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, n, 3)
    best_err = np.full((rows, cols), np.inf)
    best = np.zeros_like(cells)
    for pattern in range(1 << (n - 1)):
        inside = np.array([(pattern >> k) & 1 for k in range(n)], bool)
        if not inside.any():
            means = np.repeat(cells.mean(axis=2, keepdims=True), n, axis=2)
        else:
            a = cells[:, :, inside].mean(axis=2, keepdims=True)
            b = cells[:, :, ~inside].mean(axis=2, keepdims=True)
            means = np.where(inside[None, None, :, None], a, b)
        err = ((cells - means) ** 2).sum(axis=(2, 3))
        better = err < best_err
        best_err = np.where(better, err, best_err)
        best = np.where(better[..., None, None], means, best)
    pic = best.reshape(rows, cols, ch, cw, 3).transpose(0, 2, 1, 3, 4).reshape(rows * ch, cols * cw, 3)
    # Onto the judging grid: each pixel repeated (the grid is a multiple of the cell).
    return pic.repeat(gh // ch, axis=0).repeat(gw // cw, axis=1)

def fitted(sw, sh, cols, rows, s):
    """gif-play's Scaler.fitting: the picture's size in the set's pixels."""
    cw, ch = CELL[s]; aw, ah = ASPECT[s]
    src = (sw * ah, sh * aw)
    room = (cols * cw, rows * ch)
    if src[0] * room[1] <= src[1] * room[0]:
        size = (max(1, (src[0] * room[1] + src[1] // 2) // src[1]), room[1])
    else:
        size = (room[0], max(1, (src[1] * room[0] + src[0] // 2) // src[0]))
    return min(size[0], room[0]), min(size[1], room[1])

# --- the pictures ---------------------------------------------------------------
def make_gifs(work, names, frames, width):
    import skimage.data
    made = {}
    for name in names:
        img = Image.fromarray(getattr(skimage.data, name)()).convert("RGB")
        # A slow pan: a window 85% of the picture wide slides across it.
        W, H = img.size
        win = int(W * 0.85)
        height = round(width * H / win)
        shots = []
        for f in range(frames):
            x = round((W - win) * f / max(1, frames - 1))
            shots.append(img.crop((x, 0, x + win, H)).resize((width, height), Image.LANCZOS))
        path = os.path.join(work, f"{name}-{frames}.gif")
        # One palette for the GIF (as an encoder does), Floyd-Steinberg dithered.
        shots[0].save(path, save_all=True, append_images=shots[1:], duration=100, loop=0, optimize=False)
        decoded = []
        with Image.open(path) as g:
            for f in range(g.n_frames):
                g.seek(f)
                decoded.append(g.convert("RGB"))
        made[name] = (path, decoded)
    return made

# --- running the tools ----------------------------------------------------------
def cpu_run(cmd, stdout_path=None):
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit(f"bench/render-cells: failed (exit {rc}): {' '.join(cmd)}")
    return ru.ru_utime + ru.ru_stime

def gif_play_cmd(a, gif, s, out):
    return [a.gif_play, gif, "--renderer", "truecolor", "--symbols", s, "--clock", "virtual", "--hold", "always",
            "--tty", out, "--size", f"{a.cols}x{a.rows + 1}"]

# chafa's "half" class is four characters (▀▄▌▐): its "vhalf" is the half blocks.
CHAFA = {"half": "vhalf", "quad": "quad", "sextant": "sextant", "octant": "octant"}

def chafa_cmd(a, path, s, box=None):
    """chafa on one frame; `box` (cols, rows): stretched to exactly that box."""
    size = ["--size", f"{box[0]}x{box[1]}", "--stretch"] if box else ["--size", f"{a.cols}x{a.rows}"]
    return ["chafa", "-f", "symbols", "-c", "full", "--symbols", CHAFA[s], "-w", "9", *size, "--animate", "off", path]

def timg_cmd(a, path, s, out):
    return ["timg", {"half": "-ph", "quad": "-pq"}[s], f"-g{a.cols}x{a.rows}", "-o", out, path]

def fidelity(a, work, gifs):
    rows = []
    for name, (path, frames) in gifs.items():
        sw, sh = frames[0].size
        pngs = []
        for i, fr in enumerate(frames):
            p = os.path.join(work, f"{name}-{i}.png"); fr.save(p); pngs.append(p)
        for s in SETS:
            gw, gh = GRID[s]; cw, ch = CELL[s]
            result = {"picture": name, "set": s}
            # gif-play: the whole animation, snapshots after each frame (diffing on).
            out = os.path.join(work, f"gp-{name}-{s}.txt")
            if os.path.exists(out): os.unlink(out)
            cpu_run(gif_play_cmd(a, path, s, out))
            term = Terminal(a.cols, a.rows + 1, False)
            shots = []
            term.play(open(out, "rb").read(), on_frame=lambda t: shots.append((
                [row[:] for row in t.ch], [row[:] for row in t.fg], [row[:] for row in t.bg])))
            fw, fh = fitted(sw, sh, a.cols, a.rows, s)
            ccols, crows = -(-fw // cw), -(-fh // ch)
            top = (a.rows - crows) // 2; left = (a.cols - ccols) // 2
            values, opt_values = [], []
            for i, (chs, fgs, bgs) in enumerate(shots[:len(frames)]):
                term.ch, term.fg, term.bg = chs, fgs, bgs
                shown = term.raster(top, left, ccols, crows, gw, gh)
                ref_cell = reference(frames[i], fw, fh)  # at the set's own pixels
                # Onto the judging grid (the reference for the grid: the frame resized into the same box).
                ref = reference(frames[i], fw * gw // cw, fh * gh // ch)
                values.append(psnr(shown[:ref.shape[0], :ref.shape[1]], ref))
                pad = np.zeros((crows * ch, ccols * cw, 3)); pad[:fh, :fw] = ref_cell
                opt = optimum(pad, cw, ch, gw, gh)
                opt_values.append(psnr(opt[:ref.shape[0], :ref.shape[1]], ref))
            result["gif-play"] = statistics.mean(values)
            result["optimum"] = statistics.mean(opt_values)
            result["unknown_glyphs"] = term.unknown
            # chafa and timg: each frame on its own (timg in its own box).
            for tool in ("chafa", "timg"):
                if tool == "chafa" and s == "octant" and not a.chafa_octant: continue
                if tool == "timg" and s not in ("half", "quad"): continue
                vals = []
                for i, p in enumerate(pngs):
                    o = os.path.join(work, f"{tool}-{name}-{s}-{i}.txt")
                    # chafa fills gif-play's box, so both are judged against the same reference.
                    if tool == "chafa": cpu_run(chafa_cmd(a, p, s, (ccols, crows)), o)
                    else: cpu_run(timg_cmd(a, p, s, o))
                    t = Terminal(a.cols, a.rows + 2, True)
                    t.play(open(o, "rb").read())
                    r0, c0, h, w = t.box()
                    shown = t.raster(r0, c0, w, h, gw, gh)
                    vals.append(psnr(shown, reference(frames[i], w * gw, h * gh)))
                    result[f"{tool}_unknown_glyphs"] = result.get(f"{tool}_unknown_glyphs", 0) + t.unknown
                result[tool] = statistics.mean(vals)
            rows.append(result)
            print(json.dumps(result), file=sys.stderr)
    return rows

def cpu(a, work, names):
    """CPU per frame: a long pan minus a one-frame GIF of the same picture, so
    that start-up, loading and the first frame's set-up cancel out."""
    long = make_gifs(work, names, a.cpu_frames, a.width)
    one = make_gifs(work, names, 1, a.width)
    rows = []
    for name in names:
        for s in SETS:
            rec = {"picture": name, "set": s}
            # "gif-play none": the same run drawing nothing (--renderer none):
            # decoding and scaling, so that the drawing's own share shows.
            for tool in ("gif-play", "gif-play none", "chafa"):
                if tool == "chafa" and s == "octant" and not a.chafa_octant: continue
                if tool == "gif-play none" and s != SETS[0]: continue
                runs = []
                for _ in range(a.rounds):
                    costs = []
                    for gif, n in ((long[name][0], a.cpu_frames), (one[name][0], 1)):
                        out = os.path.join(work, f"cpu-{tool}.txt")
                        if os.path.exists(out): os.unlink(out)
                        if tool.startswith("gif-play"):
                            cmd = gif_play_cmd(a, gif, s, out)
                            if tool == "gif-play none": cmd[cmd.index("truecolor")] = "none"
                            costs.append(cpu_run(cmd))
                        else:
                            cmd = ["chafa", "-f", "symbols", "-c", "full", "--symbols", CHAFA[s], "-w", "9",
                                   "--size", f"{a.cols}x{a.rows}", "-d", "0", "--speed", "100000", gif]
                            costs.append(cpu_run(cmd, out))
                    runs.append((costs[0] - costs[1]) / (a.cpu_frames - 1) * 1000)
                rec[tool + "_ms"] = statistics.median(runs)
            rows.append(rec)
            print(json.dumps(rec), file=sys.stderr)
    return rows

def report(fid, cpus, a):
    lines = [f"Finer cells at {a.cols}x{a.rows} cells, PSNR (dB, mean of {a.frames} frames of a pan):", ""]
    lines.append(f"{'picture':10} {'set':8} {'gif-play':>8} {'optimum':>8} {'-opt':>6} {'chafa':>7} {'-chafa':>7} {'timg':>7}")
    goals = []
    half = {r["picture"]: r["gif-play"] for r in fid if r["set"] == "half"}
    for r in fid:
        gp, opt = r["gif-play"], r["optimum"]
        ch = r.get("chafa"); tm = r.get("timg")
        lines.append(f"{r['picture']:10} {r['set']:8} {gp:8.2f} {opt:8.2f} {gp - opt:+6.2f} "
                     f"{(f'{ch:7.2f}' if ch else '      -')} {(f'{gp - ch:+7.2f}' if ch else '      -')} "
                     f"{(f'{tm:7.2f}' if tm else '      -')}")
        goals.append((f"{r['picture']} {r['set']}: within 0.3 dB of the optimum", gp >= opt - 0.3))
        if ch: goals.append((f"{r['picture']} {r['set']}: not below chafa", gp >= ch))
        if r["set"] == "octant":
            goals.append((f"{r['picture']} octant: >= 0.8 dB above half blocks ({gp - half[r['picture']]:+.2f})", gp >= half[r["picture"]] + 0.8))
    if cpus:
        lines += ["", f"CPU per frame (ms; a {a.cpu_frames}-frame pan less a 1-frame GIF, median of {a.rounds};",
                  "drawing: less the same run with --renderer none, which decodes and scales to half-block cells only):", ""]
        lines.append(f"{'picture':10} {'set':8} {'gif-play':>9} {'drawing':>8} {'chafa -w 9':>10} {'ratio':>6}")
        none = {r["picture"]: r["gif-play none_ms"] for r in cpus if "gif-play none_ms" in r}
        for r in cpus:
            gp, ch = r["gif-play_ms"], r.get("chafa_ms")
            # Headless runs fit to half-block cells: the drawing's share is known for half blocks only.
            drawing = f"{gp - none[r['picture']]:8.3f}" if r["set"] == "half" else "       -"
            lines.append(f"{r['picture']:10} {r['set']:8} {gp:9.3f} {drawing} "
                         f"{(f'{ch:10.3f}' if ch else '         -')} {(f'{gp / ch:6.2f}' if ch else '     -')}")
            if ch: goals.append((f"{r['picture']} {r['set']}: CPU at most half of chafa's ({gp / ch:.2f})", gp <= ch / 2))
    lines += ["", "Goals:"] + [f"  {'holds' if ok else 'FAILS'}  {text}" for text, ok in goals]
    return "\n".join(lines), all(ok for _, ok in goals)

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gif-play", required=True, help="the gif-play binary")
    ap.add_argument("--pictures", default="astronaut,coffee,chelsea,rocket", help="scikit-image samples")
    ap.add_argument("--frames", type=int, default=10, help="frames of each pan for fidelity")
    ap.add_argument("--cpu-frames", type=int, default=60, help="frames of each pan for CPU (0: skip)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--width", type=int, default=356, help="GIF width (Giphy's fixed_height is about 356x200)")
    ap.add_argument("--cols", type=int, default=80); ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--chafa-octant", action="store_true", help="chafa has octants (1.16 or later)")
    ap.add_argument("--out", required=True, help="report file (text); NDJSON beside it")
    a = ap.parse_args()
    names = a.pictures.split(",")
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None) as work:
        gifs = make_gifs(work, names, a.frames, a.width)
        fid = fidelity(a, work, gifs)
        cpus = cpu(a, work, names) if a.cpu_frames > 1 else []
    text, ok = report(fid, cpus, a)
    print(text)
    open(a.out, "w").write(text + "\n")
    with open(re.sub(r"\.txt$", "", a.out) + ".ndjson", "w") as f:
        for r in fid + cpus: f.write(json.dumps(r) + "\n")
    sys.exit(0 if ok else 3)

if __name__ == "__main__":
    main()
